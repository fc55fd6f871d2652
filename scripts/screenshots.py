"""Regenerate the README's screenshots (docs/*.png) from the real app in headless Chromium.

    python scripts/screenshots.py

Starts `streamlit run app.py` on a free port, opens each page in a state worth showing, and saves one
PNG per page. The Train page trains a small model first (about 10 s).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.harness import chromium, new_page, open_page, runs, streamlit_server, wait_settled  # noqa: E402

DOCS = ROOT / "docs"
VIEWPORT = (1400, 1250)
# (file name, URL path and query): each page in a state that shows what it is for
VIEWS = [
    ("attention.png", "/attention?layer=2"),
    ("step-by-step.png", "/step-by-step?step=5"),
    ("positional-encoding.png", "/positional-encoding"),
    ("inside-a-layer.png", "/inside-a-layer"),
    ("rnn-vs-transformer.png", "/rnn-vs-transformer?model=translate-rnn"),
]


def train_page(page, url: str) -> None:
    """The Train page after a short translate run, with its curves and attention timeline."""
    open_page(page, url)
    before = runs(page)
    page.locator('[data-testid="stSidebarNavLink"]:has(span[label="Train"])').click()
    wait_settled(page, before)
    page.get_by_label("Task").click()
    page.get_by_role("option", name="translate", exact=True).click()
    page.get_by_text("after a number of steps").click()
    page.get_by_label("Steps (most)").fill("300")
    page.get_by_role("button", name="▶ Start training").click()
    page.get_by_text(re.compile("is now in the sidebar")).wait_for(timeout=120_000)
    wait_settled(page, None)


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    with streamlit_server() as url, chromium() as browser:
        for name, path in VIEWS:
            page = new_page(browser, viewport=VIEWPORT)
            open_page(page, f"{url}{path}")
            page.screenshot(path=DOCS / name)
            page.context.close()
            print(f"wrote docs/{name}")
        page = new_page(browser, viewport=VIEWPORT)
        train_page(page, url)
        page.screenshot(path=DOCS / "train.png")
        page.context.close()
        print("wrote docs/train.png")


if __name__ == "__main__":
    main()
