"""The docs' tables of settings are the ones the view classes write: a control added to a view shows up in them."""

from __future__ import annotations

from pathlib import Path

from model import naming
from services.lessons.docs import MARKER, lesson_table
from views.docs import marked, url_table

ROOT = Path(__file__).resolve().parents[2]


def test_the_lesson_format_doc_lists_every_slide_setting_as_the_views_declare_it():
    found = marked(MARKER).search((ROOT / "docs/lessons.md").read_text(encoding="utf-8"))
    assert found is not None and found.group(2) == lesson_table()
    assert "`custom_mask`" in found.group(2) and "`wt_kind` (encoder \\| decoder \\| cross)" in found.group(2)


def test_the_architecture_doc_lists_every_link_parameter_and_the_trace_contract():
    text = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    links = marked("link parameters").search(text)
    assert links is not None and links.group(2) == url_table()
    contract = marked("trace contract").search(text)
    table = [line for line in (naming.__doc__ or "").splitlines() if line.startswith("|")]
    assert contract is not None and contract.group(2).splitlines() == table
    assert len(table) == len(naming.CONTRACT) + 2  # header, rule, one row per name
