"""Model folders as a Hugging Face user holds them, made here for tests and benches: a random GPT-2 or BERT from
`transformers` (test-only) written by `save_pretrained`, with a tokenizer trained on the spot by `tokenizers`.

Nothing is downloaded: the weights are random (seeded) and the tokenizer learns from the text given (or from
TEXTS). `gpt2_small` is GPT-2 small's shape (124 M parameters, a vocabulary of 50,257), for bench/folder.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

# What the tokenizers learn from: English and Chinese, so either language's prompt reads as known tokens.
TEXTS = (
    "To be, or not to be, that is the question: Whether 'tis nobler in the mind to suffer",
    "The slings and arrows of outrageous fortune, or to take arms against a sea of troubles",
    "Attention is all you need. The cat sat on the mat, and the dog ran to the park.",
    "床前明月光，疑是地上霜。举头望明月，低头思故乡。",
    "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。",
)
END_OF_TEXT = "<|endoftext|>"
BERT_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


@dataclass(frozen=True)
class GPT2Shape:
    """A GPT-2's sizes (GPT2Config's names); the defaults make a tiny one that loads in well under a second."""

    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 32
    n_positions: int = 64
    vocab_size: int = 400  # the tokenizer is trained to exactly this many tokens


@dataclass(frozen=True)
class BertShape:
    """A BERT's sizes (BertConfig's names), tiny by default."""

    num_hidden_layers: int = 2
    num_attention_heads: int = 2
    hidden_size: int = 32
    intermediate_size: int = 64
    max_position_embeddings: int = 64
    vocab_size: int = 300


GPT2_SMALL = GPT2Shape(n_layer=12, n_head=12, n_embd=768, n_positions=1024, vocab_size=50257)


def _filler_words(count: int, seed: int) -> list[str]:
    """`count` distinct made-up words, each twice: pairs enough for a BPE to learn tens of thousands of merges."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words: set[str] = set()
    while len(words) < count:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(4, 12))))
    return sorted(words) * 2


def byte_level_bpe(vocab_size: int, texts: tuple[str, ...] = TEXTS, seed: int = 0) -> Tokenizer:
    """GPT-2's kind of tokenizer (byte-level BPE, `<|endoftext|>` its one special token) with exactly `vocab_size`
    tokens, trained on `texts` (and made-up words when they are too few to reach that size)."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=1, special_tokens=[END_OF_TEXT],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )  # fmt: skip
    corpus = list(texts) * 4
    tokenizer.train_from_iterator(corpus, trainer)
    if tokenizer.get_vocab_size() < vocab_size:
        corpus += _filler_words(vocab_size, seed)
        tokenizer.train_from_iterator(corpus, trainer)
    if tokenizer.get_vocab_size() != vocab_size:
        raise ValueError(f"the BPE reached {tokenizer.get_vocab_size()} tokens, not {vocab_size}")
    return tokenizer


def word_piece(vocab_size: int, texts: tuple[str, ...] = TEXTS) -> Tokenizer:
    """BERT's kind of tokenizer (lower-cased WordPiece, Chinese characters one token each), at most `vocab_size`
    tokens, trained on `texts`."""
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=list(BERT_SPECIALS),
                                        show_progress=False)  # fmt: skip
    tokenizer.train_from_iterator(list(texts) * 4, trainer)
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )
    return tokenizer


def write_gpt2_folder(
    folder: Path, shape: GPT2Shape = GPT2Shape(), seed: int = 0, tokenizer_files: str = "tokenizer.json"
) -> Path:
    """A random GPT2LMHeadModel of `shape` saved to `folder` (config.json, model.safetensors) with its tokenizer:
    `tokenizer_files` "tokenizer.json", or "vocab+merges" (GPT-2's own vocab.json + merges.txt). Returns `folder`."""
    from transformers import GPT2Config, GPT2LMHeadModel

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = byte_level_bpe(shape.vocab_size, seed=seed)
    eos = tokenizer.token_to_id(END_OF_TEXT)
    config = GPT2Config(
        vocab_size=shape.vocab_size, n_positions=shape.n_positions, n_embd=shape.n_embd, n_layer=shape.n_layer,
        n_head=shape.n_head, bos_token_id=eos, eos_token_id=eos,
    )  # fmt: skip
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        model = GPT2LMHeadModel(config).eval()
    model.save_pretrained(folder)
    _save_tokenizer(tokenizer, folder, tokenizer_files)
    return folder


def write_bert_folder(
    folder: Path, shape: BertShape = BertShape(), seed: int = 0, tokenizer_files: str = "tokenizer.json"
) -> Path:
    """A random BertModel of `shape` saved to `folder` with its WordPiece tokenizer: "tokenizer.json", or
    "vocab.txt" (BERT's own file). The model's vocabulary is the tokenizer's size. Returns `folder`."""
    from transformers import BertConfig, BertModel

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = word_piece(shape.vocab_size)
    config = BertConfig(
        vocab_size=tokenizer.get_vocab_size(), hidden_size=shape.hidden_size, num_hidden_layers=shape.num_hidden_layers,
        num_attention_heads=shape.num_attention_heads, intermediate_size=shape.intermediate_size,
        max_position_embeddings=shape.max_position_embeddings,
    )  # fmt: skip
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        model = BertModel(config).eval()
    model.save_pretrained(folder)
    if tokenizer_files == "vocab.txt":
        vocab = sorted(tokenizer.get_vocab().items(), key=lambda item: item[1])
        (folder / "vocab.txt").write_text("".join(f"{token}\n" for token, _ in vocab), encoding="utf-8")
    else:
        tokenizer.save(str(folder / "tokenizer.json"))
    return folder


def _save_tokenizer(tokenizer: Tokenizer, folder: Path, files: str) -> None:
    if files == "vocab+merges":
        tokenizer.model.save(str(folder))  # vocab.json and merges.txt
    elif files == "tokenizer.json":
        tokenizer.save(str(folder / "tokenizer.json"))
    else:
        raise ValueError(f"tokenizer_files is 'tokenizer.json' or 'vocab+merges', not {files!r}")
