"""One language per page: with ?lang=zh no English words outside tokens, code, numbers, math and a short list
of symbols; with ?lang=en no Chinese outside tokens. Every view opens as a shared link would."""

from __future__ import annotations

import pytest

from devtools.harness import exceptions_on, open_page

from .visible_text import VISIBLE_TEXT_JS, chinese_texts, english_words

pytestmark = pytest.mark.browser

# Every page, the walkthrough's every step, and the states that draw more words.
VIEWS = [
    "/",
    "/attention?summaries=true",
    "/attention?model=translate-zh",
    "/positional-encoding?no_pe=true",
    "/inside-a-layer",
    "/train",
    *(f"/step-by-step?step={n}" for n in range(1, 9)),
    "/step-by-step?step=5&source=model",
    "/rnn-vs-transformer?model=translate-rnn",
    *(f"/rnn-vs-transformer?model=translate-rnn&rnn_part={n}" for n in range(2, 6)),
    "/rnn-vs-transformer?model=translate-rnn-noattn&rnn_part=2",
    *(f"/lesson?slide={n}" for n in (1, 2, 8, 12, 13, 17)),
    # a decoder-only GPT on every page that shows one (gpt-zh: its text is Chinese, so no English data on screen)
    "/next-token?model=gpt-zh&kv=true",
    "/attention?model=gpt-zh",
    "/inside-a-layer?model=gpt-zh",
    "/positional-encoding?model=gpt-zh",
    "/step-by-step?step=4&source=model&model=gpt-zh",
]
ENGLISH_VIEWS = [
    "/", "/attention?summaries=true", "/positional-encoding?no_pe=true", "/step-by-step?step=5", "/train",
    "/rnn-vs-transformer?model=translate-zh", "/rnn-vs-transformer?rnn_part=4", "/lesson?slide=1", "/lesson?slide=13",
    "/next-token?model=gpt-en&kv=true", "/lesson?slide=15",
]  # fmt: skip


def visible_texts(page, app_url: str, view: str, lang: str) -> list[str]:
    joiner = "&" if "?" in view else "?"
    open_page(page, f"{app_url}{view}{joiner}lang={lang}")
    assert exceptions_on(page) == [], view
    return page.evaluate(VISIBLE_TEXT_JS)


def test_chinese_pages_have_no_english_words(page, app_url):
    found = {}
    for view in VIEWS:
        texts = visible_texts(page, app_url, view, "zh")
        assert any("\u4e00" <= ch <= "\u9fff" for text in texts for ch in text), view
        if english := english_words(texts):
            found[view] = english
    assert found == {}


def test_english_pages_have_no_chinese(page, app_url):
    found = {
        view: chinese for view in ENGLISH_VIEWS if (chinese := chinese_texts(visible_texts(page, app_url, view, "en")))
    }
    assert found == {}
