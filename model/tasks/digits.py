"""Digit-sequence tasks: copy, reverse and sort 1–12 symbols from 0–9."""

from __future__ import annotations

import random

from .base import N_, Task
from .vocab import Vocabulary

DIGITS = [str(d) for d in range(10)]


class DigitTask(Task):
    """A source of 1..max_words digits; subclasses say how the target follows from it."""

    def __init__(self, max_words: int = 12):
        vocab = Vocabulary(DIGITS)
        super().__init__(vocab, vocab, max_words, max_words)

    def transform(self, words: list[str]) -> list[str]:
        raise NotImplementedError

    def sample_of_length(self, n: int, length: int, seed: int = 0) -> list[tuple[str, str]]:
        """n pairs of exactly `length` digits, any length ≥ 1 (longer than training too, to test generalising)."""
        if length < 1:
            raise ValueError(f"length must be at least 1, got {length}.")
        rng = random.Random(seed)
        sources = [[rng.choice(DIGITS) for _ in range(length)] for _ in range(n)]
        return [(" ".join(s), " ".join(self.transform(s))) for s in sources]

    def generate(self, rng: random.Random) -> tuple[list[str], list[str]]:
        words = [rng.choice(DIGITS) for _ in range(rng.randint(1, self.max_src_words))]
        return words, self.transform(words)

    def target_for(self, source: str) -> str | None:
        words = source.lower().split()
        if not words or any(w not in DIGITS for w in words):
            return None
        return " ".join(self.transform(words))


class CopyTask(DigitTask):
    name = "copy"
    title = N_("Copy the digits")
    description = N_("Copy the digits unchanged: attention looks straight down the diagonal.")
    example = "3 1 4 1 5 9 2 6"

    def transform(self, words):
        return list(words)


class ReverseTask(DigitTask):
    name = "reverse"
    title = N_("Reverse the digits")
    description = N_("Write the digits backwards: cross-attention forms an anti-diagonal.")
    example = "3 1 4 1 5 9 2 6"

    def transform(self, words):
        return words[::-1]


class SortTask(DigitTask):
    name = "sort"
    title = N_("Sort the digits")
    description = N_("Sort the digits ascending: each output looks for the next-smallest input.")
    example = "3 1 4 1 5 9 2 6"

    def transform(self, words):
        return sorted(words)
