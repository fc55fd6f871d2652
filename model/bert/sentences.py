"""The fixed sentences the head atlas averages over: 25 English and 25 Chinese, written for this repository and shipped
beside this module (atlas_sentences.json, package data).

MiniLM's vocabulary is English: it knows 244 CJK characters, so about half of the Chinese sentences' tokens are
[UNK]. That is what the model sees, and the atlas shows it as it is.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

SENTENCES_FILE = Path(__file__).with_name("atlas_sentences.json")
LANGUAGES = ("en", "zh")


@functools.cache
def _load() -> dict[str, tuple[str, ...]]:
    data = json.loads(SENTENCES_FILE.read_text(encoding="utf-8"))
    return {language: tuple(data[language]) for language in LANGUAGES}


def atlas_sentences(language: str | None = None) -> tuple[str, ...]:
    """The sentences of one language ("en" or "zh"), or all 50, English first."""
    if language is None:
        return tuple(s for lang in LANGUAGES for s in _load()[lang])
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {language!r}.")
    return _load()[language]
