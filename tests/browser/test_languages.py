"""One language per page: with ?lang=zh no English words outside tokens, code, numbers, math and a short list
of symbols; with ?lang=en no Chinese outside tokens. A shared zh link opens in Chinese in a fresh browser."""

from __future__ import annotations

import pytest

from .harness import exceptions_on, open_page
from .visible_text import VISIBLE_TEXT_JS, chinese_texts, english_words

pytestmark = pytest.mark.browser

VIEWS = [
    "/",
    "/attention?summaries=true",
    "/attention?model=translate-zh",
    "/positional-encoding",
    "/inside-a-layer",
    "/train",
    *(f"/step-by-step?step={n}" for n in range(1, 9)),
    "/step-by-step?step=5&source=model",
]


def visible_texts(page, app_url: str, view: str, lang: str) -> list[str]:
    joiner = "&" if "?" in view else "?"
    open_page(page, f"{app_url}{view}{joiner}lang={lang}")
    assert exceptions_on(page) == []
    return page.evaluate(VISIBLE_TEXT_JS)


@pytest.mark.parametrize("view", VIEWS)
def test_chinese_pages_have_no_english_words(page, app_url, view):
    texts = visible_texts(page, app_url, view, "zh")
    assert any("\u4e00" <= ch <= "\u9fff" for text in texts for ch in text)
    assert english_words(texts) == []


@pytest.mark.parametrize("view", VIEWS)
def test_english_pages_have_no_chinese(page, app_url, view):
    texts = visible_texts(page, app_url, view, "en")
    assert chinese_texts(texts) == []
