"""AppTest helpers the hostile suite shares: open a page with URL parameters, read every message, check that the
run raised nothing and the page still drew itself."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGES = {  # URL path → script
    "home": "pages/home.py",
    "attention": "pages/attention.py",
    "step-by-step": "pages/step-by-step.py",
    "positional-encoding": "pages/positional-encoding.py",
    "train": "pages/train.py",
    "inside-a-layer": "pages/inside-a-layer.py",
    "next-token": "pages/next-token.py",
    "lesson": "pages/lesson.py",
}
TITLES = {  # each page's title in each language: the page drew itself after the bad input
    "home": {"en": "Attention Lab", "zh": "Attention Lab"},
    "attention": {"en": "Attention", "zh": "注意力"},
    "step-by-step": {"en": "Attention, step by step", "zh": "逐步演算注意力"},
    "positional-encoding": {"en": "Positional encoding", "zh": "位置编码"},
    "train": {"en": "Train a model", "zh": "训练一个模型"},
    "inside-a-layer": {"en": "Inside a layer", "zh": "层的内部"},
    "next-token": {"en": "Next token", "zh": "下一个词元"},
    "lesson": {"en": "Lesson", "zh": "课程"},
}


@dataclass(frozen=True)
class Says:
    """The message a case expects, as a substring in each language (None: the input is shown, no message)."""

    en: str
    zh: str

    def __getitem__(self, lang: str) -> str:
        return getattr(self, lang)


def run(at: AppTest) -> AppTest:
    """Run once; no exception may reach the page (a traceback is a failure whatever the input)."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def open_page(page: str, lang: str = "en", params: dict | None = None) -> AppTest:
    """A fresh session opening /page?lang=...&params (a list value repeats the parameter)."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"lang": lang, **(params or {})})
    at.switch_page(PAGES[page])
    return run(at)


def messages(at: AppTest) -> str:
    """Every error, warning, info and success text on the page and in the sidebar, one per line."""
    return "\n".join(e.value for kind in ("error", "warning", "info", "success") for e in getattr(at, kind))


def assert_says(at: AppTest, says: Says | None, lang: str) -> None:
    if says is not None:
        assert says[lang] in messages(at), messages(at)


def assert_page_drawn(at: AppTest, page: str, lang: str) -> None:
    assert [t.value for t in at.title][-1:] == [TITLES[page][lang]], [t.value for t in at.title]
