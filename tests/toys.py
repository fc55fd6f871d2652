"""The shipped toy models as the tests use them: load_pretrained(name) gives a LoadedModel or, for "minilm", a
LoadedEncoder; a test that runs, decodes or saves a toy model asks for one by name here, which checks it is one.
And the settings a test builds a toy config from, typed, so `ModelConfig(**sizes, …)` and
`default_model_config(task, **sizes)` are checked field by field."""

from __future__ import annotations

from typing import TypedDict

from model import LoadedModel, ModelConfig, load_pretrained


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
