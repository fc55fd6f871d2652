"""Segmentation by longest match, for languages typed without spaces (Chinese).

Rule: split on whitespace (any Unicode space, including the full-width U+3000), then walk each
chunk left to right taking the longest vocabulary word that starts here. Characters that start
no vocabulary word are gathered into runs; each maximal run becomes ONE unknown piece (so
"hello" or "喝咖啡" is one <unk>, and "老师喝咖啡" is 老师 + one <unk>).
"""

from __future__ import annotations

from .vocab import Vocabulary


def longest_match(text: str, words: set[str] | frozenset[str] | dict[str, int]) -> list[str]:
    """Pieces of `text` in order: vocabulary words by greedy longest match, and maximal unknown runs."""
    longest = max((len(w) for w in words), default=0)
    pieces: list[str] = []
    for chunk in text.split():
        unknown_start, i = None, 0
        while i < len(chunk):
            word = _word_at(chunk, i, words, longest)
            if word is None:
                unknown_start = i if unknown_start is None else unknown_start
                i += 1
                continue
            if unknown_start is not None:
                pieces.append(chunk[unknown_start:i])
                unknown_start = None
            pieces.append(word)
            i += len(word)
        if unknown_start is not None:
            pieces.append(chunk[unknown_start:])
    return pieces


def _word_at(chunk: str, i: int, words, longest: int) -> str | None:
    """The longest vocabulary word starting at chunk[i], or None."""
    for n in range(min(longest, len(chunk) - i), 0, -1):
        if chunk[i : i + n] in words:
            return chunk[i : i + n]
    return None


class SegmentingVocabulary(Vocabulary):
    """A vocabulary whose text may come with or without spaces: words are found by longest match."""

    def __init__(self, words: list[str]):
        super().__init__(words)
        self._lookup = frozenset(self.words)  # specials excluded: typed "<eos>" stays an unknown run

    def split(self, text: str) -> list[str]:
        return longest_match(text.lower(), self._lookup)
