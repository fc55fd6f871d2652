"""The Positional-encoding page in AppTest: the table against the closed form, the model's own encoding,
the no-position ablation against an independent run, URL state, model switching and bad input, in English and
Chinese."""

from __future__ import annotations

import numpy as np
import pytest

from model import Ablation, load_pretrained
from model.analysis.attention import head_mean
from tests.toys import toy

from .test_attention_page import array, figures, open_page

PAGE = "pages/positional-encoding.py"
WORDS = {
    "en": {"title": "Positional encoding", "with": "**With positions:**", "without": "**Without positions:**",
           "correct": "(correct)", "empty": "Type a few tokens", "unknown": "vocabulary", "model-pe": "sinusoidal"},
    "zh": {"title": "位置编码", "with": "**有位置编码：**", "without": "**无位置编码：**",
           "correct": "（正确）", "empty": "请输入几个用空格分开的词元", "unknown": "词表", "model-pe": "正弦位置编码"},
}  # fmt: skip


def closed_form(length: int, d_model: int) -> np.ndarray:
    pos = np.arange(length)[:, None]
    i = np.arange(d_model // 2)[None, :]
    angle = pos / 10000 ** (2 * i / d_model)
    table = np.empty((length, d_model))
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return table


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_default_view_matches_the_closed_form_and_the_trace(lang):
    at = open_page(PAGE, lang=lang)
    assert at.title[0].value == WORDS[lang]["title"]
    figs = figures(at)
    assert WORDS[lang]["model-pe"] in figs["model-pe"]["layout"]["title"]["text"]
    assert {"pe-table", "pe-curves", "pe-similarity", "model-pe", "ablation-with"} <= set(figs)
    np.testing.assert_allclose(array(figs["pe-table"]["data"][0]["z"]), closed_form(50, 64), atol=1e-5)
    table = closed_form(50, 64)
    np.testing.assert_allclose(array(figs["pe-similarity"]["data"][0]["z"]), table @ table.T, rtol=1e-4, atol=1e-3)
    text = at.text_input(key="text").value
    assert text is not None
    trace = load_pretrained("translate").run(text)
    np.testing.assert_allclose(array(figs["model-pe"]["data"][0]["z"]), trace["src.pos"].numpy())
    assert figs["model-pe"]["layout"]["yaxis"]["ticktext"] == [f"{i} · {t}" for i, t in enumerate(trace.tokens("src"))]


def test_sliders_restore_from_the_url_and_curves_follow_the_chosen_dimensions():
    at = open_page(PAGE, d_model="32", length="20")
    assert (at.slider(key="d_model").value, at.slider(key="length").value) == (32, 20)
    figs = figures(at)
    np.testing.assert_allclose(array(figs["pe-table"]["data"][0]["z"]), closed_form(20, 32), atol=1e-5)
    at.multiselect(key="dims").set_value([3, 30]).run()
    curves = figures(at)["pe-curves"]["data"]
    line, marks = curves[1], curves[3]  # dimension 30: its curve, then its whole positions
    np.testing.assert_allclose(array(marks["y"]), closed_form(20, 32)[:, 30], atol=1e-5)
    np.testing.assert_allclose(array(line["y"])[::12], closed_form(20, 32)[:, 30], atol=1e-5)
    x = array(line["x"])
    assert len(x) == 19 * 12 + 1 and x[1] == pytest.approx(1 / 12)  # between the positions too


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_removing_positions_shows_the_ablated_run_next_to_the_normal_one(lang):
    words = WORDS[lang]
    at = open_page(PAGE, model="reverse", text="1 2 3 4 5 6", lang=lang)
    assert figures(at).get("ablation-without") is None
    at.toggle(key="no_pe").set_value(True).run()
    assert not at.exception
    loaded = toy("reverse")
    off = loaded.run("1 2 3 4 5 6", ablation=Ablation(positional=False))
    np.testing.assert_array_equal(off["src.pos"].numpy(), 0)
    shown = figures(at)["ablation-without"]
    expected = off["decoder.1.cross_attn.weights"][0].numpy().mean(0)
    np.testing.assert_allclose(array(shown["data"][0]["z"]), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(head_mean(off["decoder.1.cross_attn.weights"][0].numpy()), expected, rtol=1e-5)
    lines = [m.value for m in at.markdown if m.value.startswith((words["with"], words["without"]))]
    assert lines[0].startswith(words["with"]) and lines[1].startswith(words["without"])
    assert all(f"`{w}`" in lines[1] for w in loaded.predict("1 2 3 4 5 6", ablation=Ablation(positional=False)).split())
    assert words["correct"] in lines[0]  # the trained model reverses six digits


def test_url_toggle_and_model_switch():
    at = open_page(PAGE, no_pe="true")
    assert at.toggle(key="no_pe").value is True and "ablation-without" in figures(at)
    at.selectbox(key="model").select("copy").run()
    assert not at.exception
    example = load_pretrained("copy").task.example
    assert figures(at)["model-pe"]["layout"]["yaxis"]["ticktext"][0] == f"0 · {example.split()[0]}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_empty_and_html_input(lang):
    at = open_page(PAGE, lang=lang)
    at.text_input(key="text").input("").run()
    assert not at.exception and any(WORDS[lang]["empty"] in i.value for i in at.info)
    assert "pe-table" in figures(at)  # the table lab does not need an input
    at.text_input(key="text").input("<b>bold</b> dog").run()
    assert not at.exception and "model-pe" in figures(at)
    warning = next(w.value for w in at.warning if WORDS[lang]["unknown"] in w.value)
    assert "\\<b\\>bold\\</b\\>" in warning


def test_switching_language_keeps_the_chosen_dimensions_and_the_url():
    at = open_page(PAGE, d_model="32", length="20", no_pe="true")
    at.multiselect(key="dims").set_value([3, 30]).run()
    at.button_group(key="lang").set_value("zh").run()
    assert not at.exception
    assert at.multiselect(key="dims").value == [3, 30]
    assert [c["name"] for c in figures(at)["pe-curves"]["data"] if c.get("showlegend", True)] == [
        "第 3 维（cos）", "第 30 维（sin）"
    ]  # fmt: skip
    assert (at.query_params["d_model"], at.query_params["length"], at.query_params["no_pe"]) == ("32", "20", "true")
    assert "ablation-without" in figures(at)
