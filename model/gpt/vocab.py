"""CharVocab: a character-level vocabulary, one token per character, with one mark for every character it lacks.

A capped vocabulary keeps the most frequent characters of the training text (ties: the one seen first); the rest
read as the unknown mark "□", which the pages show as it is, so a prompt with a rare character still runs.
"""

from __future__ import annotations

from collections import Counter

from ..errors import N_, LabError

UNKNOWN_MARK = "□"


class CharVocab:
    """itos[i] is token i's character; the unknown mark is one of them (added at the end when missing). Never
    changed after it is built, so models and threads share it."""

    def __init__(self, itos: list[str] | tuple[str, ...], unk: str = UNKNOWN_MARK):
        tokens = list(itos)
        if not isinstance(unk, str) or len(unk) != 1:
            raise LabError(N_("the unknown mark must be one character, got {value}."), value=repr(unk))
        bad = [t for t in tokens if not isinstance(t, str) or len(t) != 1]
        if bad:
            raise LabError(N_("a character vocabulary holds single characters; got {value}."), value=repr(bad[0]))
        if len(set(tokens)) != len(tokens):
            raise LabError(N_("the vocabulary lists a character twice."))
        if unk not in tokens:
            tokens.append(unk)
        self.itos: tuple[str, ...] = tuple(tokens)
        self.unk = unk
        self.stoi = {ch: i for i, ch in enumerate(tokens)}
        self.unk_id = self.stoi[unk]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharVocab) and (self.itos, self.unk) == (other.itos, other.unk)

    def __hash__(self) -> int:
        return hash((self.itos, self.unk))

    def __repr__(self) -> str:
        return f"CharVocab({len(self.itos)} characters, unk={self.unk!r})"

    @classmethod
    def from_text(cls, text: str, max_size: int | None = None, unk: str = UNKNOWN_MARK) -> CharVocab:
        """The characters of `text`, most frequent first (ties: the one seen first), capped at max_size tokens with
        the unknown mark counted among them."""
        if max_size is not None and max_size < 2:
            raise LabError(N_("a vocabulary needs at least 2 tokens, got {n}."), n=max_size)
        counts = Counter(ch for ch in text if ch != unk)
        first = {ch: i for i, ch in reversed(list(enumerate(text)))}
        ranked = sorted(counts, key=lambda ch: (-counts[ch], first[ch]))
        if max_size is not None:
            ranked = ranked[: max_size - 1]
        return cls(ranked, unk)

    def __len__(self) -> int:
        return len(self.itos)

    def encode(self, text: str) -> tuple[list[int], list[str]]:
        """(ids, the characters the vocabulary lacks, each once in order of appearance); those read as unk_id."""
        unk_id, stoi = self.unk_id, self.stoi
        ids = [stoi.get(ch, unk_id) for ch in text]
        unknown = list(dict.fromkeys(ch for ch in text if ch not in stoi))
        return ids, unknown

    def decode(self, ids) -> str:
        """The characters of token ids (ValueError for an id outside the vocabulary)."""
        out = []
        for i in ids:
            i = int(i)
            if not 0 <= i < len(self.itos):
                raise ValueError(f"token id {i} is outside the vocabulary (0..{len(self.itos) - 1}).")
            out.append(self.itos[i])
        return "".join(out)

    def show(self, ids) -> list[str]:
        """Each token's character (GPTTokenizer.show: a character reads the same alone and in a text)."""
        return [self.itos[int(i)] for i in ids]

    def to_list(self) -> list[str]:
        return list(self.itos)

    @classmethod
    def from_list(cls, tokens: object, unk: str = UNKNOWN_MARK) -> CharVocab:
        """The vocabulary a checkpoint's list holds; LabError for anything that is not a list of characters."""
        if not isinstance(tokens, list) or not tokens:
            raise LabError(N_("the vocabulary must be a non-empty list of characters."))
        return cls(tokens, unk)
