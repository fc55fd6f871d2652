"""Task: a toy sequence-to-sequence problem generated in code, with its two vocabularies."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Protocol

import torch

from .vocab import BOS_ID, EOS_ID, PAD_ID, Vocabulary


def N_(message: str) -> str:
    """gettext_noop: marks a message for Babel to extract and returns it unchanged; ui/ translates it."""
    return message


class Task(ABC):
    """Generates (source, target) text pairs and scores exact-match accuracy."""

    name: str  # the id: checkpoints, URLs and file names
    title: str  # N_ text: what the pages call it, translated where it is shown
    description: str
    example: str  # a source text the trained model handles well, for the pages' defaults

    def __init__(
        self,
        src_vocab: Vocabulary,
        tgt_vocab: Vocabulary,
        max_src_words: int,
        max_tgt_words: int,
        min_src_words: int = 1,
    ):
        self.src_vocab, self.tgt_vocab = src_vocab, tgt_vocab
        self.max_src_words, self.max_tgt_words = max_src_words, max_tgt_words
        self.min_src_words = min_src_words  # the generator's shortest source (sample_of_length knows what it can make)

    @abstractmethod
    def generate(self, rng: random.Random) -> tuple[list[str], list[str]]:
        """One random (source words, target words) pair."""

    @abstractmethod
    def target_for(self, source: str) -> str | None:
        """The correct output for a source text, or None when the text is outside the task."""

    def max_new_tokens(self, source_len: int) -> int:
        """Greedy decoding steps for a source of source_len ids (its <eos> included): room for the answer and <eos>."""
        return source_len + 2

    def sample(self, n: int, seed: int = 0) -> list[tuple[str, str]]:
        """n (source, target) text pairs, the same for the same seed."""
        rng = random.Random(seed)
        return [(" ".join(s), " ".join(t)) for s, t in (self.generate(rng) for _ in range(n))]

    def sample_of_length(self, n: int, length: int, seed: int = 0) -> list[tuple[str, str]]:
        """n pairs whose source has exactly `length` words (drawn until enough fit), the same for a seed.
        A length outside min_src_words..max_src_words is refused at once rather than drawn for in vain."""
        if not self.min_src_words <= length <= self.max_src_words:
            span = f"{self.min_src_words} to {self.max_src_words}"
            raise ValueError(f"the {self.name} task makes inputs of {span} words, not {length}.")
        rng, pairs = random.Random(seed), []
        for _ in range(1000 * n):
            src, tgt = self.generate(rng)
            if len(src) == length:
                pairs.append((" ".join(src), " ".join(tgt)))
                if len(pairs) == n:
                    return pairs
        raise ValueError(f"the {self.name} task hardly ever makes inputs of {length} words.")

    def accuracy(self, predictions: list[str], targets: list[str]) -> float:
        """Exact match: the share of predictions equal to their target, token for token."""
        if len(predictions) != len(targets):
            raise ValueError("predictions and targets differ in number.")
        if not targets:
            return 0.0
        return sum(p.split() == t.split() for p, t in zip(predictions, targets, strict=True)) / len(targets)

    def source_ids(self, texts: list[str]) -> torch.Tensor:
        """(B, S) source ids, each ending in <eos>, right-padded with <pad>."""
        return pad_batch([self.src_vocab.encode(t).ids + [EOS_ID] for t in texts])

    def batch(self, pairs: list[tuple[str, str]]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Teacher-forcing tensors: src (B, S), decoder input <bos>+y (B, T), expected y+<eos> (B, T)."""
        tgt = [self.tgt_vocab.encode(t).ids for _, t in pairs]
        return (
            self.source_ids([s for s, _ in pairs]),
            pad_batch([[BOS_ID] + y for y in tgt]),
            pad_batch([y + [EOS_ID] for y in tgt]),
        )

    def __repr__(self) -> str:
        return f"<Task {self.name}>"


class TaskClass(Protocol):
    """A concrete task's class: called with no arguments (each task fixes its own vocabularies and lengths)."""

    name: str
    title: str

    def __call__(self) -> Task: ...


def pad_batch(rows: list[list[int]]) -> torch.Tensor:
    """Right-pad id lists with <pad> into one (B, L) long tensor."""
    width = max(len(r) for r in rows)
    out = torch.full((len(rows), width), PAD_ID, dtype=torch.long)
    for i, r in enumerate(rows):
        out[i, : len(r)] = torch.tensor(r, dtype=torch.long)
    return out
