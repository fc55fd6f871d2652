"""The RNN vs Transformer page in Chromium, in English and Chinese: both alignments paint, the decoder's formulas
render in KaTeX (Chinese inside \\text{} too), Next and Page Down step the decoder, and nothing raises."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from devtools.harness import exceptions_on, open_page, runs, wait_settled

from .figures import FIGURES_JS, real_console_errors, wait_for_figure

pytestmark = pytest.mark.browser
WORDS = {
    "en": {
        "rnn": "RNN + attention", "tf": "Transformer: cross-attention",
        "step": "Decoder step {t} of 9 · writes “{token}”", "next": "Next ▶", "chosen": "with probability",
        "sub": "a_t,i: each decoder step over the encoder states",
    },
    "zh": {
        "rnn": "RNN + 注意力", "tf": "Transformer：交叉注意力", "sub": "a_t,i：解码器每一步在各编码器状态上的权重",
        "step": "解码第 {t} 步（共 9 步）· 写出“{token}”", "next": "下一步 ▶", "chosen": "概率为",
    },
}  # fmt: skip
WRITTEN = ["le", "chien", "rouge"]  # translate-rnn on its example, "the big red dog sees a small cat"


def heading(page, text: str) -> int:
    return page.locator('[data-testid="stHeadingWithActionElements"]', has_text=text).count()


def alignments_paint_and_next_steps_the_decoder(page, app_url, probes, lang):
    words = WORDS[lang]
    open_page(page, f"{app_url}/rnn-vs-transformer?lang={lang}&model=translate-rnn")
    wait_for_figure(page, "rnn-alignment", words["rnn"])
    wait_for_figure(page, "transformer-alignment", words["tf"])
    figures = page.evaluate(FIGURES_JS)
    for role in ("rnn-alignment", "transformer-alignment"):
        assert figures[role]["rows"] == 9 and figures[role]["painted"][:2] == ["0 · the", "1 · big"]
    subtitles = page.locator(".js-plotly-plot .gtitle-subtitle")
    squeezed = ["".join(t.split()) for t in subtitles.all_text_contents()]  # a wrapped subtitle's lines run on
    assert squeezed.count("".join(words["sub"].split())) == 1, squeezed
    subtitle = subtitles.nth(squeezed.index("".join(words["sub"].split())))
    assert subtitle.bounding_box()["width"] > 150  # the glyphs laid out (CJK too)

    open_page(page, f"{app_url}/rnn-vs-transformer?lang={lang}&model=translate-rnn&rnn_part=2")
    assert heading(page, words["step"].format(t=1, token=WRITTEN[0])) == 1
    before = runs(page)
    page.get_by_role("button", name=words["next"]).click()
    wait_settled(page, before)
    assert heading(page, words["step"].format(t=2, token=WRITTEN[1])) == 1
    before = runs(page)
    page.keyboard.press("PageDown")  # a presenter's clicker
    wait_settled(page, before)
    assert heading(page, words["step"].format(t=3, token=WRITTEN[2])) == 1
    assert parse_qs(urlparse(page.url).query)["rnn_step"] == ["3"]
    assert page.locator(".katex").count() >= 10
    errors = page.locator(".katex-error")
    assert errors.count() == 0, [errors.nth(i).get_attribute("title") for i in range(errors.count())]
    chosen = page.locator(".katex .text", has_text=words["chosen"]).first  # the output line's words, in \text{}
    assert chosen.bounding_box()["width"] > 30
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def test_alignments_paint_and_next_steps_the_decoder(page, app_url, probes):
    """In English, then in Chinese, in one browser context (a new one costs ~2.5 s of loading Streamlit and plotly
    into a new renderer)."""
    open_page(page, app_url)  # a first run, so the server knows its pages before the deep link
    for lang in ("en", "zh"):
        alignments_paint_and_next_steps_the_decoder(page, app_url, probes, lang)
