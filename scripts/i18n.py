"""Keep the translation catalogs in step with the code (Babel).

    python scripts/i18n.py extract   # code → locales/messages.pot → merge into each locales/*/messages.po
    python scripts/i18n.py check     # list messages that are new, untranslated, fuzzy or obsolete

After `extract`, translate the new (empty or fuzzy) entries in locales/zh_CN/LC_MESSAGES/messages.po.
tests/i18n/test_catalogs.py runs the same check, so CI fails when a string is not extracted or translated.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ui.catalogs import LOCALES_DIR, POT_FILE, catalog_problems, po_file

ROOT = Path(__file__).resolve().parents[1]

LOCALES = ("zh_CN",)


def extract() -> None:
    pybabel = [sys.executable, "-m", "babel.messages.frontend"]
    subprocess.run(
        [*pybabel, "extract", "-F", "babel.cfg", "-o", str(POT_FILE), "--no-location", "--sort-output",
         "--project", "Attention Lab", "--copyright-holder", "Attention Lab", "--width", "120", "."],
        cwd=ROOT, check=True,
    )  # fmt: skip
    for locale in LOCALES:
        command = "update" if po_file(locale).exists() else "init"
        subprocess.run(
            [*pybabel, command, "-i", str(POT_FILE), "-d", str(LOCALES_DIR), "-l", locale, "--width", "120",
             *(["--no-fuzzy-matching", "--ignore-obsolete"] if command == "update" else [])],
            cwd=ROOT, check=True,
        )  # fmt: skip


def check() -> int:
    problems = [f"{locale}: {p}" for locale in LOCALES for p in catalog_problems(locale)]
    print("\n".join(problems) or "catalogs are complete and up to date")
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["extract"]:
        extract()
    elif sys.argv[1:] == ["check"]:
        sys.exit(check())
    else:
        print(__doc__)
        sys.exit(2)
