"""The shipped toy models as the tests use them: load_pretrained(name) gives a LoadedModel or, for "minilm", a
LoadedEncoder; a test that runs, decodes or saves a toy model asks for one by name here, which checks it is one.
And the settings a test builds a toy config from, typed, so `ModelConfig(**sizes, …)` and
`default_model_config(task, **sizes)` are checked field by field. And tiny_gpt: a small random GPT of either language,
for tests that need a LoadedGPT without the shipped gpt-en / gpt-zh checkpoints."""

from __future__ import annotations

from typing import TypedDict, Unpack

import torch

from model import LoadedModel, ModelConfig, load_pretrained
from model.gpt import GPT, GPT_TASKS, CharVocab, GPTConfig, LoadedGPT


class Vocabularies(TypedDict):
    """The two sizes every config is built with."""

    src_vocab_size: int
    tgt_vocab_size: int


class TransformerSizes(TypedDict, total=False):
    """A small Transformer's sizes: overrides of ModelConfig's defaults (default_model_config(task, **sizes))."""

    d_model: int
    n_heads: int
    d_ff: int
    max_len: int


def toy(name: str) -> LoadedModel:
    """The shipped toy model `name` (one of PRETRAINED): load_pretrained's model, checked to be a LoadedModel."""
    loaded = load_pretrained(name)
    assert isinstance(loaded, LoadedModel), f"{name} is a {loaded.config.arch} encoder, not a toy model"
    return loaded


def transformer_config(loaded: LoadedModel) -> ModelConfig:
    """The config of a toy Transformer, checked to be one (an RNN's has no heads or layers of blocks)."""
    config = loaded.config
    assert isinstance(config, ModelConfig), f"{loaded.name} is a {config.arch} model, not a Transformer"
    return config


# the characters a tiny GPT knows: a line of each corpus, so the README's prompts and a poem's first line read
GPT_TEXTS = {
    "en": "To be, or not to be, that is the question: Whether 'tis nobler in the mind to suffer\n",
    "zh": "床前明月光，疑是地上霜。举头望明月，低头思故乡。\n",
}


class GPTSizes(TypedDict, total=False):
    """A tiny GPT's sizes: overrides of tiny_gpt's defaults."""

    d_model: int
    n_heads: int
    n_layers: int
    d_ff: int
    max_len: int


def tiny_gpt(language: str = "en", seed: int = 0, **sizes: Unpack[GPTSizes]) -> LoadedGPT:
    """A freshly initialised (untrained) GPT with a character vocabulary of GPT_TEXTS[language]: d_model 32, 4 heads,
    2 layers, a context of 32 characters unless `sizes` say otherwise. Deterministic for a seed."""
    task = next(t for t in GPT_TASKS.values() if t.language == language)
    vocab = CharVocab.from_text(GPT_TEXTS[language])
    settings: GPTSizes = {"d_model": 32, "n_heads": 4, "n_layers": 2, "d_ff": 128, "max_len": 32, **sizes}
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        model = GPT(GPTConfig(vocab_size=len(vocab), **settings))
    return LoadedGPT(model, vocab, name=f"tiny-gpt-{language}", task=task, meta={"corpus": "none: untrained"})
