"""Every page's controls as a Markdown table, written from the view classes themselves (docs/architecture.md: the
link parameters). tests/views keeps the doc equal to what this writes; services.lessons.docs does the same for a
slide's settings (docs/lessons.md)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from model import naming

from .base import fields
from .controls import Spec, Whole
from .pages import VIEWS


def describe(spec: Spec, shown: bool = True) -> str:
    """A spec's type or range for a Markdown table cell (its '|' escaped)."""
    text = spec.describe(shown) if isinstance(spec, Whole) else spec.describe()
    return text.replace("|", "\\|")


def url_table() -> str:
    """| page | link parameters |: each page's controls by their link parameter, as a person writes them."""
    rows = ["| page | link parameters (value) |", "|---|---|"]
    for page, cls in VIEWS.items():
        params = [f"`{f.control.url}` ({describe(f.control.spec)})" for f in fields(cls)]
        rows.append(f"| `{page}` | {', '.join(params)} |")
    return "\n".join(rows)


def marked(name: str) -> re.Pattern[str]:
    """The part of a doc between `<!-- {name}: begin -->` and `<!-- {name}: end -->`."""
    return re.compile(rf"(<!-- {name}: begin -->\n)(.*?)(\n<!-- {name}: end -->)", re.S)


def fill(text: str, name: str, table: str) -> str:
    """`text` with its marked table `name` replaced by `table`."""
    return marked(name).sub(lambda m: m.group(1) + table + m.group(3), text)


def contract_table() -> str:
    """The trace contract's table, as model/naming.py's docstring holds it (the one place the names are written)."""
    return "\n".join(line for line in (naming.__doc__ or "").splitlines() if line.startswith("|"))


if __name__ == "__main__":  # python -m views.docs: rewrite the link table and trace contract of docs/architecture.md
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/architecture.md")
    text = fill(path.read_text(encoding="utf-8"), "link parameters", url_table())
    path.write_text(fill(text, "trace contract", contract_table()), encoding="utf-8")
