"""Vocabulary: space-separated tokens ↔ ids, with <pad> <bos> <eos> <unk> first."""

from __future__ import annotations

from dataclasses import dataclass

PAD, BOS, EOS, UNK = "<pad>", "<bos>", "<eos>", "<unk>"
SPECIALS = (PAD, BOS, EOS, UNK)
PAD_ID, BOS_ID, EOS_ID, UNK_ID = range(4)


@dataclass(frozen=True)
class Encoded:
    """A tokenised text: ids, the tokens as the model sees them, and the words it did not know."""

    ids: list[int]
    tokens: list[str]
    unknown: list[str]


class Vocabulary:
    """Maps the words of one language (source or target) to ids; unknown words map to <unk>."""

    def __init__(self, words: list[str]):
        if len(set(words)) != len(words):
            raise ValueError("vocabulary words must be distinct.")
        if any(w in SPECIALS or not w or any(ch.isspace() for ch in w) for w in words):
            raise ValueError("vocabulary words must be non-empty, space-free and not special tokens.")
        self.itos: list[str] = list(SPECIALS) + list(words)
        self.stoi: dict[str, int] = {w: i for i, w in enumerate(self.itos)}

    def __len__(self) -> int:
        return len(self.itos)

    @property
    def words(self) -> list[str]:
        return self.itos[len(SPECIALS) :]

    def split(self, text: str) -> list[str]:
        """Text → words: lower-cased, split on whitespace. Subclasses may segment differently."""
        return text.lower().split()

    def encode(self, text: str) -> Encoded:
        """Split the text into words; unknown words and typed special tokens become <unk> and are reported."""
        ids, tokens, unknown = [], [], []
        for word in self.split(text):
            i = self.stoi.get(word, UNK_ID)
            if i < len(SPECIALS):
                i = UNK_ID
                unknown.append(word)
            ids.append(i)
            tokens.append(self.itos[i])
        return Encoded(ids, tokens, unknown)

    def decode(self, ids) -> str:
        """Ids → text, stopping at <eos> and leaving out <pad> and <bos>."""
        words = []
        for i in ids:
            i = int(i)
            if i == EOS_ID:
                break
            if i in (PAD_ID, BOS_ID):
                continue
            words.append(self.itos[i] if 0 <= i < len(self.itos) else UNK)
        return " ".join(words)
