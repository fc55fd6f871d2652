"""The catalogs are complete and up to date: every marked string in the code has a Chinese translation with
the same placeholders, nothing is fuzzy, and nothing obsolete lingers."""

from __future__ import annotations

from babel.messages.catalog import Catalog, Message

from ui import catalogs
from ui.catalogs import catalog_problems, extract_messages, read_catalog


def test_every_message_in_the_code_is_translated_into_chinese():
    problems = catalog_problems("zh_CN")
    assert problems == [], "run `python scripts/i18n.py extract`, then translate:\n" + "\n".join(problems)


def test_extraction_sees_every_marker_the_code_uses():
    found = extract_messages()
    assert "Home" in found  # N_ in ui/navigation.py
    assert "{name} (yours)" in found  # _ in ui/sidebar.py
    assert len(found) == len([m for m in read_catalog("zh_CN") if m.id])


def test_the_check_catches_a_new_an_untranslated_and_a_broken_message(monkeypatch):
    catalog = Catalog(locale="zh_CN")
    catalog.add("Model", "模型")
    catalog.add("Old words", "旧的话")
    catalog.add("Home", "")
    catalog.add("{name} (yours)", "（你的）")  # lost its placeholder
    monkeypatch.setattr(catalogs, "read_catalog", lambda locale: catalog)
    monkeypatch.setattr(catalogs, "extract_messages", lambda: {"Model", "Home", "{name} (yours)", "New words"})
    problems = catalogs.catalog_problems("zh_CN")
    assert problems == [
        "not extracted (run scripts/i18n.py extract): 'New words'",
        "obsolete (no longer in the code): 'Old words'",
        "untranslated or fuzzy: 'Home'",
        "placeholders differ from the English: '{name} (yours)'",
    ]
    fuzzy = Message("Model", "模型", flags=["fuzzy"])
    catalog[fuzzy.id] = fuzzy
    assert "untranslated or fuzzy: 'Model'" in catalogs.catalog_problems("zh_CN")
