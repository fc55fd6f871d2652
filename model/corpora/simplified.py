"""Traditional → Simplified Chinese with OpenCC's own t2s conversion (PyPI `opencc`, the project's binding)."""

from __future__ import annotations

from functools import cache


@cache
def _converter():
    import opencc  # imported on first use: only the Chinese corpus needs it

    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """`text` in Simplified characters (OpenCC t2s: phrase-aware, so 乾坤 stays and 乾燥 becomes 干燥)."""
    return str(_converter().convert(text))
