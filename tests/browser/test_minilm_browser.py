"""MiniLM in headless Chromium: type a sentence on /attention?model=minilm and see its WordPiece tokens (`##` pieces,
[CLS] and [SEP]) in the page and in the head view, the 6 × 12 = 72 heads of encoder self-attention in the overview,
and the cosine similarity; the same in Chinese; no exception box and no console error."""

from __future__ import annotations

import pytest

from devtools.harness import exceptions_on, open_page, runs, wait_settled
from model import load_pretrained

from .figures import figures, real_console_errors

pytestmark = pytest.mark.browser
SENTENCE = "Transformers tokenize unbelievably long words"


def typing_a_sentence_shows_word_pieces_and_72_heads(page, app_url, probes, lang, layer, head, pieces_label):
    open_page(page, f"{app_url}/attention?model=minilm&lang={lang}")
    label = "Input" if lang == "en" else "输入"
    box = page.get_by_label(label, exact=True)
    before = runs(page)
    box.fill(SENTENCE)
    box.press("Enter")
    wait_settled(page, before)
    pieces = load_pretrained("minilm").tokenize(SENTENCE).tokens
    assert pieces[0] == "[CLS]" and pieces[-1] == "[SEP]" and any(p.startswith("##") for p in pieces)
    line = page.get_by_test_id("stMarkdown").filter(has_text=pieces_label).first.inner_text()
    assert all(p in line for p in pieces)
    figs = figures(page)
    overview = figs["attention-overview"]
    assert overview["y"] == [layer.format(n=i) for i in range(1, 7)]
    assert overview["x"] == [head.format(n=h) for h in range(1, 13)]  # 6 layers × 12 heads
    assert figs["head-view"]["tokens"] == pieces
    first = load_pretrained("minilm").embed(SENTENCE)  # its output: the embedding's first numbers are on the page
    assert page.get_by_text(", ".join(f"{x:+.3f}" for x in first[:6])).count() == 1
    kinds = page.get_by_test_id("stRadio").first.get_by_role("radio").count()
    assert kinds == 1  # encoder self-attention only
    assert page.get_by_test_id("stMetric").count() == 1
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def test_typing_a_sentence_shows_word_pieces_and_72_heads(page, app_url, probes):
    """In English, then in Chinese, in one browser context (a new one costs ~2.5 s of loading Streamlit and plotly
    into a new renderer)."""
    for case in (("en", "Layer {n}", "Head {n}", "Word pieces:"), ("zh", "第 {n} 层", "头 {n}", "词片：")):
        typing_a_sentence_shows_word_pieces_and_72_heads(page, app_url, probes, *case)
