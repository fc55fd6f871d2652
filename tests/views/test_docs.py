"""The docs' tables of settings are the ones the view classes write: a control added to a view shows up in them."""

from __future__ import annotations

from pathlib import Path

from services.lessons.docs import MARKER, lesson_table
from views.docs import marked

ROOT = Path(__file__).resolve().parents[2]


def test_the_lesson_format_doc_lists_every_slide_setting_as_the_views_declare_it():
    found = marked(MARKER).search((ROOT / "docs/lessons.md").read_text(encoding="utf-8"))
    assert found is not None and found.group(2) == lesson_table()
    assert "`custom_mask`" in found.group(2) and "`wt_kind` (encoder \\| decoder \\| cross)" in found.group(2)
