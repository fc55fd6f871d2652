"""The shipped induction model (an attention-only GPT: no MLP, so no decoder.{i}.ffn.* in its trace) on the pages
that read a GPT's trace, in English and Chinese: Inside a layer says it has no feed-forward layer, the model line says
attention only, and /attention, /next-token and Step by step run on it without an exception."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")
WORDS = {
    "en": {"no_ffn": "This model is attention-only: its blocks have no feed-forward layer.",
           "line": "decoder only · attention only, no MLP · 2 layers · 2 heads · d_model 32"},
    "zh": {"no_ffn": "这个模型只有注意力：它的块里没有前馈层。",
           "line": "只有解码器 · 只有注意力、没有 MLP · 2 层 · 2 个头 · d_model 32"},
}  # fmt: skip


def opened(lang: str, page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang, model="induction")
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_inside_a_layer_says_the_model_has_no_feed_forward_layer(lang):
    at = opened(lang, "pages/inside-a-layer.py")
    captions = [c.value for c in at.caption]
    assert WORDS[lang]["no_ffn"] in captions
    assert any(WORDS[lang]["line"] in c for c in captions)


@pytest.mark.parametrize("page", ["pages/attention.py", "pages/next-token.py", "pages/step-by-step.py"])
def test_the_pages_that_read_a_gpt_trace_run_on_it(page):
    for lang in ("en", "zh"):
        at = opened(lang, page)
        assert any(WORDS[lang]["line"] in c.value for c in at.caption)  # the induction model is the one shown
