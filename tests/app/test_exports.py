"""Switching heads off on the Attention page (?off=), chart download names and format, and the trace download
buttons of every page that shows a trace, in streamlit's AppTest, in English and in Chinese (the words a reader
sees are written out here, not read from the catalog). Numbers are compared with runs made here."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from model import Ablation
from model.analysis.attention import attention_layers
from model.analysis.knockout import every_head, format_heads_off
from tests.toys import toy
from ui.attention.knockout import FOLD_KEY
from ui.classroom.ask import ASK_FOLD_KEY
from ui.classroom.room_state import apply, collect

from .charts import charts_of
from .elements import elements
from .test_attention_page import WORDS as PAGE_WORDS
from .test_attention_page import array, figures, open_page

LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
TEXT = "the big red dog sees a small cat"
LAYER1_CROSS = frozenset(("decoder.0.cross_attn", h) for h in range(4))
WORDS = {
    "en": {"on": "**Every head on:** ", "off": "**Heads {code} off:** ", "off label": "off",
           "npz": "⬇️ Every number (NPZ)", "zip": "⬇️ Every number (CSV, zipped)", "kept on": "Every head stays on.",
           "switched off": "is switched off",
           "link": "Switch a whole head off on the Attention page", "correct": " :green[(correct)]",
           "wrong": " :red[(wrong)]", "no attention": "This model has no attention, so it has no head to switch off.",
           "every off": "**Every head off:** ", "rnn off": "**Attention off:** "},
    "zh": {"on": "**所有头都开启：** ", "off": "**关闭头 {code}：** ", "off label": "已关闭",
           "npz": "⬇️ 全部中间结果（NPZ）", "zip": "⬇️ 全部中间结果（CSV 压缩包）", "kept on": "所有头保持开启。",
           "switched off": "已关闭",
           "link": "在“注意力”页面关闭整个头", "correct": " :green[（正确）]", "wrong": " :red[（错误）]",
           "no attention": "这个模型没有注意力，所以没有可以关闭的头。", "every off": "**所有头都关闭：** ",
           "rnn off": "**关闭注意力：** "},
}  # fmt: skip


def chart_names(at) -> dict[str, dict]:
    """toImageButtonOptions of every chart, by its figure's layout.meta role."""
    options = {}
    for chart in charts_of(at):
        role = chart.spec["layout"].get("meta")
        options[role] = chart.config["toImageButtonOptions"]
    return options


def output_line(at, start: str) -> str:
    return next(m.value for m in at.markdown if m.value.startswith(start))


def chips(prediction: str) -> str:
    return " ".join(f"`{w}`" for w in prediction.split())


@LANGS
def test_a_link_with_heads_off_compares_outputs_and_redraws_the_figures(lang):
    words = WORDS[lang]
    at = open_page(text=TEXT, off="c1.1,c1.2,c1.3,c1.4", kind="Cross-attention", layer="2", head="1", lang=lang)
    loaded = toy("translate")
    on, off = loaded.predict(TEXT), loaded.predict(TEXT, Ablation(heads_off=LAYER1_CROSS))
    assert on == loaded.task.target_for(TEXT) != off  # it needs its first cross-attention layer to place adjectives
    assert output_line(at, words["on"]) == words["on"] + chips(on) + words["correct"]
    label = words["off"].format(code="c1.1,c1.2,c1.3,c1.4")
    assert output_line(at, label) == label + chips(off) + words["wrong"]
    assert at.button_group(key="off_pills_decoder.0.cross_attn").value == [0, 1, 2, 3]
    assert at.button_group(key="off_pills_decoder.1.cross_attn").value == []
    # the figures come from the run with the heads off, its decoder reading the output with every head on
    intact = loaded.run(TEXT)
    knocked = loaded.run(TEXT, on, Ablation(heads_off=LAYER1_CROSS))
    figs = figures(at)
    overview = figs["attention-overview"]
    assert [a["text"] for a in overview["layout"]["annotations"]] == [words["off label"]] * 4
    tiles = array(overview["data"][0]["z"])
    n_q, n_k = len(intact.tokens("tgt")), len(intact.tokens("src"))
    assert np.isnan(tiles[:n_q]).all()  # layer 1: every head off
    gap = 1
    np.testing.assert_allclose(tiles[n_q + gap :, :n_k], knocked["decoder.1.cross_attn.weights"][0, 0].numpy())
    focused = figs["attention-head"]
    np.testing.assert_allclose(array(focused["data"][0]["z"]), knocked["decoder.1.cross_attn.weights"][0, 0].numpy())
    change = knocked["decoder.1.cross_attn.weights"][0, 0].double() - intact["decoder.1.cross_attn.weights"][0, 0]
    np.testing.assert_allclose(array(figs["attention-change"]["data"][0]["z"]), change.numpy(), rtol=1e-5, atol=1e-7)
    names = chart_names(at)
    assert names["attention-head"]["filename"] == "attention_translate_cross_off-c1.1-c1.2-c1.3-c1.4_L2_H1"
    assert names["attention-change"]["filename"] == "attention_translate_cross_change_off-c1.1-c1.2-c1.3-c1.4_L2_H1"
    assert at.query_params["off"] == "c1.1,c1.2,c1.3,c1.4"


@LANGS
def test_picking_heads_runs_without_them_and_writes_the_link(lang):
    words = WORDS[lang]
    at = open_page(text=TEXT, kind="encoder", layer="1", head="3", lang=lang)
    assert "attention-change" not in figures(at) and "off" not in at.query_params
    assert not [b for b in at.button_group if b.key and b.key.startswith("off_pills_")]  # closed: drawn when opened
    at.session_state[FOLD_KEY] = True  # the reader opens the "Switch heads off" fold
    at.run()
    at.button_group(key="off_pills_encoder.0.self_attn").select(2).run()
    assert not at.exception
    assert at.query_params["off"] == "e1.3"
    assert any(words["switched off"] in info.value for info in at.info)  # the focused head is the one switched off
    figs = figures(at)
    assert "attention-head" not in figs
    tiles = array(figs["attention-overview"]["data"][0]["z"])
    n = len(TEXT.split()) + 1
    assert np.isnan(tiles[:n, 2 * (n + 1) : 3 * (n + 1) - 1]).all() and not np.isnan(tiles[:n, :n]).any()
    head_view = figs["head-view"]
    assert words["off label"] in json.dumps(head_view["data"], ensure_ascii=False)  # "Head 3 (off)" in the legend
    at.button_group(key="off_pills_decoder.1.self_attn").select(0).run()
    assert at.query_params["off"] == "e1.3,d2.1"
    at.button(key="off_all_on").click().run()
    assert "off" not in at.query_params
    assert not any(m.value.startswith(words["on"]) for m in at.markdown)
    assert not np.isnan(array(figures(at)["attention-overview"]["data"][0]["z"])[:n, :n]).any()


@LANGS
@pytest.mark.parametrize(
    "code", ["e1.3,zz", "e9.1", ",", "e1.3" * 600], ids=["bad-item", "no-such-layer", "empty", "long"]
)
def test_a_malformed_link_gets_a_message_and_every_head_stays_on(lang, code):
    at = open_page(text=TEXT, off=code, lang=lang)
    at.session_state[FOLD_KEY] = True  # open: its head buttons show every head on
    at.run()
    assert [w.value for w in at.warning if WORDS[lang]["kept on"] in w.value]
    assert not figures(at)["attention-overview"]["layout"].get("annotations")  # no head drawn as off
    assert all(b.value == [] for b in at.button_group if b.key and b.key.startswith("off_pills_"))
    assert at.query_params["off"] == code  # nothing the user typed is lost


PAGES = {  # page → (URL parameters, chart role → file name)
    "pages/attention.py": ({"kind": "Cross-attention", "layer": "2", "head": "3"}, {
        "attention-overview": "attention_translate_cross_overview", "attention-head": "attention_translate_cross_L2_H3",
        "head-view": "attention_translate_cross_head-view_L2"}),
    "pages/positional-encoding.py": ({}, {
        "model-pe": "positional-encoding_translate_src.pos",
        "ablation-with": "positional-encoding_translate_cross-attention-mean_with-positions_L2"}),
    "pages/inside-a-layer.py": ({}, {}),
    "pages/step-by-step.py": ({"source": "model"}, {}),
}  # fmt: skip


@LANGS
@pytest.mark.parametrize("page", list(PAGES))
def test_every_page_with_a_trace_offers_its_download_and_names_its_charts(lang, page):
    params, expected = PAGES[page]
    at = open_page(page, text=TEXT, lang=lang, **params)
    labels = [b.label for b in elements(at, "download_button")]
    assert WORDS[lang]["npz"] in labels and WORDS[lang]["zip"] in labels
    names = chart_names(at)
    assert names and all(o["width"] == 960 and o["height"] == 540 and o["scale"] == 2 for o in names.values())
    assert all(o["format"] == "png" for o in names.values())
    assert {role: names[role]["filename"] for role in expected} == expected
    assert len({o["filename"] for o in names.values()}) == len(names)  # no two charts share a name


@LANGS
def test_the_sidebar_sets_every_charts_download_format(lang):
    at = open_page("pages/positional-encoding.py", lang=lang)
    picker = at.button_group(key="chart_format")
    assert picker.value == "png" and picker.options == ["PNG", "SVG"]
    picker.set_value("svg").run()
    assert {o["format"] for o in chart_names(at).values()} == {"svg"}
    config = charts_of(at)[0].config  # plotly's own words in the reader's language
    if lang == "zh":
        assert config["locale"] == "zh-CN"
        assert config["locales"]["zh-CN"]["dictionary"]["Download plot"] == "下载图表"
    else:
        assert "locale" not in config
    at.switch_page("pages/attention.py").run()
    assert {o["format"] for o in chart_names(at).values()} == {"svg"}


@LANGS
def test_the_walkthrough_links_to_switching_heads_off(lang):
    at = open_page("pages/step-by-step.py", lang=lang)
    at.session_state["wt_more"] = True  # the link is in the "More" fold, drawn while it is open
    at.run()
    links = [e for e in at.get("page_link") if e.proto.label == WORDS[lang]["link"]]
    assert len(links) == 1 and links[0].proto.page.endswith("attention")


def rnn_knockout_script():
    """The knockout panel alone on the RNN with attention (the Attention page itself draws Transformers)."""
    import streamlit as st

    from model import LoadedModel, load_pretrained
    from ui.attention.knockout import knockout_section

    loaded = load_pretrained(st.query_params.get("model", "translate-rnn"))
    assert isinstance(loaded, LoadedModel)
    text = "the big red dog sees a small cat"
    knockout = knockout_section(loaded, text, None, loaded.run(text))
    st.session_state["context_zero"] = knockout is not None and not knockout.off["rnn.attn.context"].any()


@LANGS
def test_the_rnn_switches_its_attention_off_as_a_whole(lang):
    at = AppTest.from_function(rnn_knockout_script, default_timeout=120)
    at.query_params.update(lang=lang)
    at.run()
    assert not at.exception and not at.session_state["context_zero"]
    at.session_state[FOLD_KEY] = True  # the reader opens the panel's fold
    at.run()
    at.toggle(key="off_pills_rnn.attn").set_value(True).run()
    assert not at.exception and at.session_state["context_zero"] and at.session_state["heads_off_code"] == "r1.1"
    loaded = toy("translate-rnn")
    off = loaded.predict(TEXT, Ablation(heads_off=frozenset({("rnn.attn", 0)})))
    label = WORDS[lang]["rnn off"]
    assert output_line(at, label) == label + chips(off) + WORDS[lang]["wrong"]
    at = AppTest.from_function(rnn_knockout_script, default_timeout=120)
    at.query_params.update(lang=lang, model="translate-rnn-noattn")
    at.session_state[FOLD_KEY] = True
    at.run()
    assert [i.value for i in at.info] == [WORDS[lang]["no attention"]]


@LANGS
@pytest.mark.parametrize("summary", ["entropy", "peak", "mean", "rollout"])
def test_every_head_off_draws_no_weights_and_no_error(lang, summary):
    loaded = toy("translate")
    code = format_heads_off(every_head(loaded.config), loaded.config)  # e1.1,…,c2.4
    more = {"entropy": None, "peak": PAGE_WORDS[lang]["peak"], "mean": PAGE_WORDS[lang]["mean"],
            "rollout": PAGE_WORDS[lang]["rollout"]}[summary]  # fmt: skip
    at = open_page(text=TEXT, off=code, kind="encoder", summaries="true", lang=lang, **({"more": more} if more else {}))
    assert not at.warning
    off = loaded.predict(TEXT, Ablation(heads_off=every_head(loaded.config)))
    words = WORDS[lang]
    assert output_line(at, words["every off"]) == words["every off"] + chips(off) + words["wrong"]
    assert any(words["switched off"] in info.value for info in at.info)  # the focused head: no heatmap, a notice
    figs = figures(at)
    overview = figs["attention-overview"]
    assert np.isnan(array(overview["data"][0]["z"])).all()
    assert [a["text"] for a in overview["layout"]["annotations"]] == [words["off label"]] * 8  # 2 layers × 4 heads
    assert "attention-head" not in figs and "attention-change" not in figs
    names = chart_names(at)
    assert names["head-view"]["filename"] == "attention_translate_encoder_head-view_off-all_L1"
    if summary == "rollout":  # no head mixes anything: each position keeps only itself
        n = len(TEXT.split()) + 1
        np.testing.assert_allclose(array(figs["rollout"]["data"][0]["z"]), np.eye(n), atol=1e-6)
        assert names["rollout"]["filename"] == "attention_translate_encoder_rollout_off-all"
    elif summary == "mean":
        assert np.isnan(array(figs["head-mean"]["data"][0]["z"])).all()
    else:
        role = {"entropy": "head-entropy", "peak": "head-peak"}[summary]
        assert np.isnan(array(figs[role]["data"][0]["z"])).all()  # 2 layers × 4 heads, none with weights


def test_many_heads_off_keep_the_layer_and_head_in_the_file_name():
    loaded = toy("translate")
    heads = sorted(every_head(loaded.config))[:11]  # c1.1–c1.4, d1.1–d1.4, c2.1–c2.3: c2.4 stays on
    code = format_heads_off(frozenset(heads), loaded.config)
    at = open_page(text=TEXT, off=code, kind="Cross-attention", layer="2", head="4", lang="en")
    names = chart_names(at)
    assert names["attention-head"]["filename"] == "attention_translate_cross_off-11-heads_L2_H4"
    knocked = loaded.run(TEXT, loaded.predict(TEXT), Ablation(heads_off=frozenset(heads)))
    focused = array(figures(at)["attention-head"]["data"][0]["z"])
    np.testing.assert_allclose(focused, attention_layers(knocked, "cross")[1, 3], rtol=1e-6)


def test_a_class_follows_the_teachers_heads_off():
    """The heads off travel in the room state (ui.classroom.room_state), as the link code."""
    state = collect({"heads_off_code": "e1.3,c2.1", "unlisted": "x"}, "attention")
    assert state["heads_off_code"] == "e1.3,c2.1" and "unlisted" not in state
    student: dict = {"heads_off_code": ""}
    assert "heads_off_code" in apply(state, student, models=["translate"])
    assert student["heads_off_code"] == "e1.3,c2.1" and "unlisted" not in student


@LANGS
def test_the_answers_chart_of_a_question_is_named_after_its_head(lang):
    at = open_page(text=TEXT, kind="encoder", layer="1", head="1", lang=lang)
    at.session_state[ASK_FOLD_KEY] = True  # the reader opens the ask controls' fold
    at.run()
    at.radio(key="_q_kind").set_value("attend")
    at.selectbox(key="_q_query_attention_encoder").set_value(2)
    at.button(key="_q_ask_attention").click().run()
    at.button(key="_q_reveal").click().run()
    assert not at.exception
    bars = [chart for chart in charts_of(at) if chart.spec["data"][0]["type"] == "bar"]
    options = bars[0].config["toImageButtonOptions"]
    assert len(bars) == 1 and options["filename"] == "answers_translate_attend_encoder_L1_H1"
    assert (options["width"], options["height"], options["scale"]) == (960, 540, 2)
