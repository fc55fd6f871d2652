"""Lines of a tokenised text, for the head atlas's "previous line" role: a poem's heads often read the character
at the same place one line earlier (疑 under 床, 霜 under 光, 。 under ，).

A line is a run of tokens that are not line breaks followed by the line breaks after it (LINE_BREAKS: ，。 and the
newline): "床前明月光，疑是地上霜。\\n举" is three lines, "床前明月光，", "疑是地上霜。\\n" and "举" (a run of breaks
ends one line; a break never starts one, except at the very start of the text). A token's offset is its place in
its line, from 0. Its previous-line key is the token of the line before with the same offset, when that line is
long enough; the first line's tokens, and a token past the end of the line before, have none.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

LINE_BREAKS = frozenset({"，", "。", "\n"})  # the tokens that end a line (a Chinese poem's ，and 。, a newline)


def line_starts(tokens: Sequence[str]) -> list[int]:
    """The position where each line starts (the first is 0; [] for no tokens)."""
    starts: list[int] = []
    for i, token in enumerate(tokens):
        ended = i > 0 and tokens[i - 1] in LINE_BREAKS and token not in LINE_BREAKS
        if i == 0 or ended:
            starts.append(i)
    return starts


def line_and_offset(tokens: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """(line, offset), each (L,) int: every token's line (from 0) and its place in that line (from 0)."""
    n = len(tokens)
    line, offset = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    starts = line_starts(tokens)
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else n
        line[start:end] = k
        offset[start:end] = np.arange(end - start)
    return line, offset


def previous_line_keys(tokens: Sequence[str]) -> np.ndarray:
    """(L,) int: for each token, the position of the token at the same offset in the line before, or −1 (the first
    line, or a line before that is too short)."""
    starts = line_starts(tokens)
    line, offset = line_and_offset(tokens)
    ends = [*starts[1:], len(tokens)]
    keys = np.full(len(tokens), -1, dtype=np.int64)
    for i in range(len(tokens)):
        k = int(line[i])
        if k > 0 and offset[i] < ends[k - 1] - starts[k - 1]:
            keys[i] = starts[k - 1] + offset[i]
    return keys
