"""Regenerate the READMEs' screenshots from the real app in headless Chromium: English in docs/*.png,
简体中文 in docs/zh/*.png.

    python scripts/screenshots.py [--lang en|zh] [--only NAME.png ...]

Starts `streamlit run app.py` on a free port, opens each page in a state worth showing, and saves one
PNG per page and language. The Train page trains a small model first (about 10 s).
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from devtools.harness import chromium, new_page, open_page, runs, streamlit_server, wait_settled
from ui.i18n import translations

ROOT = Path(__file__).resolve().parents[1]

DOCS = ROOT / "docs"
VIEWPORT = (1400, 1250)
# (file name, URL path and query): each page in a state that shows what it is for
VIEWS = [
    ("home.png", "/"),
    ("attention.png", "/attention?layer=2"),
    ("step-by-step.png", "/step-by-step?step=5"),
    ("positional-encoding.png", "/positional-encoding"),
    ("inside-a-layer.png", "/inside-a-layer"),
    ("rnn-vs-transformer.png", "/rnn-vs-transformer?model=translate-rnn"),
    ("lesson.png", "/lesson?slide=11"),
    ("next-token.png", "/next-token?model=gpt-en&tokens=0.2.5.1.0.2&t=0.8&top_k=10"),
    (
        "minilm-attention.png",
        "/attention?model=minilm&text=The+players+were+unbelievably+tired+after+playing.&layer=1&head=3",
    ),
]
# Shots of one part of a page, scrolled into view: (file name, URL path and query, the part's English label)
PARTS = [
    ("head-atlas.png", "/attention?model=minilm&atlas=true", "Head atlas: what every head attends to"),
]
# Where the Chinese screenshot shows another state: the Chinese → English model, so the axes carry Chinese tokens
# and cross-attention shows the reordering (the link's kind is its label in Chinese, as the app writes it).
ZH_VIEWS = {
    "attention.png": "/attention?model=translate-zh&kind=交叉注意力&layer=2",
    "inside-a-layer.png": "/inside-a-layer?model=translate-zh",
    "next-token.png": "/next-token?model=gpt-zh&tokens=5.46.42.22.27.1&t=0.8&top_k=10",  # 风未是秋云。, seed 1
}


def out_dir(lang: str) -> Path:
    return DOCS if lang == "en" else DOCS / lang


def with_lang(path: str, lang: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={lang}"


def train_page(page, url: str, lang: str) -> None:
    """The Train page after a short translate run, with its curves and attention timeline."""
    t = translations(lang).gettext
    open_page(page, with_lang(url, lang))
    before = runs(page)
    page.locator(f'[data-testid="stSidebarNavLink"]:has(span[label="{t("Train")}"])').click()
    wait_settled(page, before)
    page.get_by_label(t("Task")).click()
    page.get_by_role("option", name="translate", exact=True).click()
    page.get_by_text(t("after a number of steps")).click()
    page.get_by_label(t("Steps (most)")).fill("300")
    page.get_by_role("button", name=t("▶ Start training")).click()
    finished = t(
        "Finished after {steps} steps in {seconds} s; held-out exact match {accuracy}. "
        "**{name}** is now in the sidebar's model list — for you only."
    )
    done = finished.split("{name}")[1].strip("* ")  # the words after the model's name
    page.get_by_text(re.compile(re.escape(done[:12]))).first.wait_for(timeout=120_000)
    wait_settled(page, None)


def part_shot(browser, url: str, lang: str, path: str, label: str, file: Path) -> None:
    """A screenshot of one expander of a page (its label in `lang`), scrolled into view."""
    page = new_page(browser, viewport=VIEWPORT)
    open_page(page, url + with_lang(path, lang))
    part = page.get_by_test_id("stExpander").filter(has_text=translations(lang).gettext(label)).first
    part.scroll_into_view_if_needed()
    wait_settled(page, None)
    part.screenshot(path=file)
    page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=["en", "zh"], action="append", help="default: both")
    parser.add_argument("--only", action="append", help="only these file names (default: every one)")
    args = parser.parse_args()
    languages = args.lang or ["en", "zh"]
    wanted = set(args.only or [])
    with streamlit_server() as url, chromium() as browser:
        for lang in languages:
            folder = out_dir(lang)
            folder.mkdir(parents=True, exist_ok=True)
            for name, path, label in PARTS:
                if not wanted or name in wanted:
                    part_shot(browser, url, lang, path, label, folder / name)
                    print(f"wrote {(folder / name).relative_to(ROOT)}")
            for name, path in VIEWS:
                if wanted and name not in wanted:
                    continue
                path = ZH_VIEWS.get(name, path) if lang == "zh" else path
                page = new_page(browser, viewport=VIEWPORT)
                open_page(page, url + with_lang(path, lang))
                page.screenshot(path=folder / name)
                page.context.close()
                print(f"wrote {(folder / name).relative_to(ROOT)}")
            if wanted and "train.png" not in wanted:
                continue
            page = new_page(browser, viewport=VIEWPORT)
            train_page(page, url, lang)
            page.screenshot(path=folder / "train.png")
            page.context.close()
            print(f"wrote {(folder / 'train.png').relative_to(ROOT)}")


if __name__ == "__main__":
    main()
