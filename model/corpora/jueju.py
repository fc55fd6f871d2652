"""五言绝句, the form gpt-zh writes: four lines of five characters, "，" closing lines 1 and 3, "。" lines 2 and 4."""

from __future__ import annotations

LINES, LINE_CHARS = 4, 5
MARKS = ("，", "。", "，", "。")  # the mark that closes each line
POEM_CHARS = LINES * (LINE_CHARS + 1)  # 24, the marks included

# Code point ranges of Han characters: CJK Unified Ideographs, Extension A, Extensions B–H, and the two
# compatibility blocks (rare characters in the Tang corpus sit in Extension A and beyond).
HAN_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x323AF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def is_han(ch: str) -> bool:
    """True for one Han character."""
    return len(ch) == 1 and any(lo <= ord(ch) <= hi for lo, hi in HAN_RANGES)


def is_jueju(poem: str, unknown: str | None = None) -> bool:
    """True when `poem` is exactly a 五言绝句's form: 5 Han, ，, 5 Han, 。, 5 Han, ，, 5 Han, 。 — nothing else.
    `unknown`: a vocabulary's unknown mark, counted as a character when given (it stands for one)."""
    if len(poem) != POEM_CHARS:
        return False
    for i, ch in enumerate(poem):
        line, col = divmod(i, LINE_CHARS + 1)
        if col == LINE_CHARS:
            if ch != MARKS[line]:
                return False
        elif not (is_han(ch) or (unknown is not None and ch == unknown)):
            return False
    return True


def first_poem(generated: str, separator: str = "\n") -> str:
    """The text written before the first separator (all of it when there is none): the poem a sample wrote."""
    return generated.split(separator, 1)[0]
