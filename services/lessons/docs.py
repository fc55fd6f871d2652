"""A slide's settings as a Markdown table for docs/lessons.md, written from the page views and the lesson's own
limits (tests keep the doc equal to it: `python -m services.lessons.docs` rewrites it)."""

from __future__ import annotations

import sys
from pathlib import Path

from views import VIEWS, Text, fields
from views.docs import describe, fill

from .schema import LIMITS

MARKER = "slide settings"
DOC = Path("docs/lessons.md")


def lesson_table() -> str:
    """| page | settings |: each slide page's settings by their ids, with their type or range as a file holds it."""
    rows = ["| page | settings (type or range) |", "|---|---|"]
    for page, cls in VIEWS.items():
        if not cls.SLIDE:
            continue
        settings = []
        for f in fields(cls):
            if not f.control.lesson:
                continue
            spec = f.control.spec
            if f.name == "model":
                kind = "a shipped Transformer"
            elif isinstance(spec, Text):
                kind = f"≤ {min(spec.limit, LIMITS.max_input_chars)} chars"
            else:
                kind = describe(spec, shown=False)
            settings.append(f"`{f.name}` ({kind})")
        rows.append(f"| `{page}` | {', '.join(settings)} |")
    return "\n".join(rows)


if __name__ == "__main__":
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DOC
    path.write_text(fill(path.read_text(encoding="utf-8"), MARKER, lesson_table()), encoding="utf-8")
