"""A lesson as data: a title and slides, each a page, that page's settings and text in English and Chinese."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from views import PageView, build, view_class

from .schema import FORMAT, LANGUAGES


@dataclass(frozen=True)
class Slide:
    """One slide: the page whose view it shows (`page`, a URL path), that view's settings, its words."""

    page: str
    state: dict[str, object] = field(default_factory=dict)
    title: dict[str, str] = field(default_factory=dict)  # language → text, for each of LANGUAGES
    text: dict[str, str] = field(default_factory=dict)

    def view(self) -> PageView:
        """The page's view this slide shows: its settings, the page's defaults for the rest."""
        cls = view_class(self.page)
        if cls is None:
            raise KeyError(self.page)
        return build(cls, self.state)


@dataclass(frozen=True)
class Lesson:
    title: dict[str, str]
    slides: tuple[Slide, ...]

    def to_dict(self) -> dict:
        """The JSON document of this lesson (what a download holds)."""
        return {
            "format": FORMAT,
            "title": _ordered(self.title),
            "slides": [
                {"page": s.page, "state": dict(s.state), "title": _ordered(s.title), "text": _ordered(s.text)}
                for s in self.slides
            ],
        }

    def to_json(self) -> str:
        """Readable UTF-8 JSON (Chinese stays Chinese), two-space indents, a newline at the end."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2, allow_nan=False) + "\n"

    @property
    def digest(self) -> str:
        """A short fingerprint of the content: equal lessons have equal digests."""
        canonical = json.dumps(self.to_dict(), ensure_ascii=True, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _ordered(texts: dict[str, str]) -> dict[str, str]:
    return {lang: texts[lang] for lang in LANGUAGES if lang in texts}


def in_language(texts: dict[str, str], lang: str) -> tuple[str, str]:
    """(text, its language): the text in `lang`, else the other language's (the fallback rule)."""
    if texts.get(lang):
        return texts[lang], lang
    other = next((other for other in LANGUAGES if texts.get(other)), lang)
    return texts.get(other, ""), other
