"""GPTTokenizer: what LoadedGPT asks of its vocabulary, so a character vocabulary and GPT-2's BPE serve it alike.

CharVocab (model/gpt/vocab.py: one token per character) and ByteLevelBPE (model/gpt/bpe.py: GPT-2's byte-level BPE
through the `tokenizers` library) both satisfy it. `itos[i]` is token i as a reader sees it alone (a picker, the
next-token bars); `show(ids)` is a run of tokens as they read in that text (a token holding part of a character shows
the character it helps to write), so the two may differ for a byte-level token.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable


@runtime_checkable
class GPTTokenizer(Protocol):
    """Text ↔ token ids for a GPT, and every token's readable string."""

    @property
    def itos(self) -> Sequence[str]:
        """Token i's readable string, by id (one per id of the model's vocabulary)."""
        ...

    def __len__(self) -> int: ...

    def encode(self, text: str) -> tuple[list[int], list[str]]:
        """(ids, the stretches of text the vocabulary cannot hold, each once); those read as an unknown token."""
        ...

    def decode(self, ids: Iterable[int]) -> str:
        """The text a run of token ids writes."""
        ...

    def show(self, ids: Sequence[int]) -> list[str]:
        """Each token of a run as it reads in that run (one string per id)."""
        ...

    def to_list(self) -> list[str]:
        """itos as a list."""
        ...
