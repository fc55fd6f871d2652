"""Small random GPT-2 and BERT folders for the tests, made the way a user's folder is made: transformers builds the
model and save_pretrained writes it, the `tokenizers` library trains the tokenizer here (devtools/hf_folders.py's
trainers, which the app's tests and bench/folder.py use too) and writes its files. Every parameter is moved off its
initial value first, so a tensor put in the wrong place cannot pass.

transformers is a test-only dependency (requirements-dev.txt pins it); the app never imports it.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import torch

from model.errors import LabError

transformers = pytest.importorskip("transformers")
tokenizers = pytest.importorskip("tokenizers")
from devtools.hf_folders import byte_level_bpe, word_piece  # noqa: E402 (after the skip: it needs tokenizers)

ENGLISH = "The cat sat on the mat. The dog sat on the log, and the bird sang in the tree above them."
CHINESE = "床前明月光，疑是地上霜。举头望明月，低头思故乡。白日依山尽，黄河入海流。"
STORY = "Once upon a time there was a small model that read every token."
CORPUS = (ENGLISH, CHINESE, STORY, "春眠不觉晓，处处闻啼鸟。")


@functools.cache
def _bpe(vocab_size: int) -> str:
    """A byte-level BPE of exactly vocab_size tokens trained on CORPUS, as tokenizer.json text."""
    return byte_level_bpe(vocab_size, CORPUS).to_str()


def bpe_tokenizer(vocab_size: int = 320):
    """A fresh `tokenizers.Tokenizer` of the trained byte-level BPE."""
    return tokenizers.Tokenizer.from_str(_bpe(vocab_size))


@functools.cache
def _zh_catalog():
    from ui.catalogs import read_catalog

    return read_catalog("zh_CN")


def assert_translated(error: LabError) -> None:
    """The message's template has a Chinese translation in the catalog: a reader of the Chinese pages gets it too."""
    chinese = _zh_catalog().get(error.template)
    assert chinese is not None and chinese.string, error.template


def jitter(model: torch.nn.Module, seed: int = 0, scale: float = 0.05) -> None:
    """Move every parameter off its initial value (LayerNorms off 1 and 0, biases off 0): a misplaced tensor shows."""
    g = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(scale * torch.randn(p.shape, generator=g))


def gpt2_folder(
    path: Path, *, layers: int = 2, heads: int = 2, width: int = 16, positions: int = 64, vocab_files: bool = False,
    shard: str | None = None, seed: int = 0, **options,
):  # fmt: skip
    """A random GPT2LMHeadModel (eager attention) saved to `path` with a trained byte-level BPE: tokenizer.json, or
    vocab.json + merges.txt with vocab_files; in shards of at most `shard` ("20KB") with their index when given.
    Returns the transformers model, in eval mode."""
    tokenizer = bpe_tokenizer()
    torch.manual_seed(seed)
    config = transformers.GPT2Config(
        vocab_size=tokenizer.get_vocab_size(), n_positions=positions, n_embd=width, n_layer=layers, n_head=heads,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, bos_token_id=None, eos_token_id=None, **options,
    )  # fmt: skip
    config._attn_implementation = "eager"
    model = transformers.GPT2LMHeadModel(config).eval()
    jitter(model, seed)
    model.save_pretrained(path, **({"max_shard_size": shard} if shard else {}))
    if vocab_files:
        tokenizer.model.save(str(path))  # vocab.json + merges.txt, GPT-2's own pair of files
    else:
        tokenizer.save(str(path / "tokenizer.json"))
    return model


def bert_folder(
    path: Path, *, layers: int = 2, heads: int = 2, width: int = 16, positions: int = 64, vocab_txt: bool = False,
    seed: int = 0, kind: str = "BertModel",
):  # fmt: skip
    """A random BertModel (or another class of the family, `kind`: "BertForMaskedLM") with eager attention, saved to
    `path` with a WordPiece trained on CORPUS: tokenizer.json, or vocab.txt with vocab_txt. Returns the transformers
    model, in eval mode."""
    wordpiece = word_piece(200, CORPUS)
    torch.manual_seed(seed)
    config = transformers.BertConfig(
        vocab_size=wordpiece.get_vocab_size(), hidden_size=width, num_hidden_layers=layers, num_attention_heads=heads,
        intermediate_size=4 * width, max_position_embeddings=positions, hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )  # fmt: skip
    config._attn_implementation = "eager"
    model = getattr(transformers, kind)(config).eval()
    jitter(model, seed)
    model.save_pretrained(path)
    if vocab_txt:  # BERT's own file: one token a line, by id
        vocab = sorted(wordpiece.get_vocab().items(), key=lambda item: item[1])
        (path / "vocab.txt").write_text("".join(f"{token}\n" for token, _ in vocab), encoding="utf-8")
    else:
        wordpiece.save(str(path / "tokenizer.json"))
    return model
