"""The gettext catalogs on disk, and what is wrong with them (used by the i18n check and its test).

No Streamlit here: scripts/i18n.py and the tests use it without a running app.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from attention_lab.paths import APP_ROOT

ROOT = APP_ROOT  # locales/; in a checkout also babel.cfg and the code the catalogs are extracted from
LOCALES_DIR = ROOT / "locales"
POT_FILE = LOCALES_DIR / "messages.pot"
DOMAIN = "messages"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def po_file(locale: str) -> Path:
    return LOCALES_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(locale: str) -> Catalog:
    with open(po_file(locale), "rb") as po:
        return read_po(po, locale=locale)


def extract_messages() -> set[str | tuple[str, str]]:
    """Every msgid the code marks today (with its context as a pair when it has one), read with babel.cfg."""
    method_map, options_map = _read_mapping()
    found: set = set()
    for _filename, _lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):  # fmt: skip
        msgid = message[0] if isinstance(message, (tuple, list)) else message
        found.add((context, msgid) if context else msgid)
    return found


def _read_mapping():
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg") as cfg:
        return parse_mapping_cfg(cfg)


def catalog_problems(locale: str) -> list[str]:
    """Messages in the code but not the catalog, untranslated or fuzzy, with other placeholders, or obsolete."""
    catalog = read_catalog(locale)
    in_code = extract_messages()
    in_catalog = {}
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
        in_catalog[(message.context, msgid) if message.context else msgid] = message
    new = sorted(in_code - set(in_catalog), key=str)
    problems = [f"not extracted (run scripts/i18n.py extract): {m!r}" for m in new]
    problems += [f"obsolete (no longer in the code): {m!r}" for m in sorted(set(in_catalog) - in_code, key=str)]
    for key, message in sorted(in_catalog.items(), key=lambda item: str(item[0])):
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string or "",)
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        if message.fuzzy or not all(strings):
            problems.append(f"untranslated or fuzzy: {key!r}")
        elif any(sorted(_PLACEHOLDER.findall(s)) != sorted(_PLACEHOLDER.findall(ids[0])) for s in strings):
            problems.append(f"placeholders differ from the English: {key!r}")
    return problems
