"""The Attention page in streamlit's AppTest: runs clean, restores its state from the URL, switches model
and attention kind, handles bad input, and shows the numbers of an independently computed trace; in English
and in Chinese (?lang=zh), whose words are written out here, not read from the catalog."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import TypedDict

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from model import LoadedModel, load_pretrained
from model.analysis.attention import attention_rollout
from tests.toys import toy, transformer_config
from ui.trace_cache import SHARED_TRACES

from .charts import charts_of

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/attention.py"
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
Words = TypedDict(  # "too long" is two phrases, both in the notice; every other entry is one
    "Words",
    {"title": str, "output": str, "layer": str, "head": str, "cross": str, "decoder": str, "rollout": str, "peak": str,
     "mean": str, "empty": str, "too long": tuple[str, str], "target too long": str, "unknown": str,
     "all tokens": str},
)  # fmt: skip
WORDS: dict[str, Words] = {  # what a reader sees in each language
    "en": {
        "title": "Attention", "output": "**Model output:** ", "layer": "Layer {n}", "head": "Head {n}",
        "cross": "Cross-attention", "decoder": "Decoder masked self-attention",
        "rollout": "Attention rollout (encoder)",
        "peak": "Largest weight per head", "mean": "Mean over heads", "empty": "Type a few tokens",
        "too long": ("The input has 70 tokens", "only the first 63"), "target too long": "The target has 70 tokens",
        "unknown": "vocabulary", "all tokens": "All tokens",
    },
    "zh": {
        "title": "注意力", "output": "**模型输出：** ", "layer": "第 {n} 层", "head": "头 {n}",
        "cross": "交叉注意力", "decoder": "解码器掩码自注意力", "rollout": "注意力汇总（编码器）",
        "peak": "每个头的最大权重", "mean": "各头平均", "empty": "请输入几个用空格分开的词元",
        "too long": ("输入有 70 个词元", "只用前 63 个"), "target too long": "目标输出有 70 个词元",
        "unknown": "词表", "all tokens": "全部词元",
    },
}  # fmt: skip


def open_page(page: str = PAGE, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(params)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def figures(at: AppTest) -> dict[str, dict]:
    """Every plotly figure on the page by its layout.meta role."""
    specs = [chart.spec for chart in charts_of(at)]
    return {spec["layout"].get("meta"): spec for spec in specs}


def array(value) -> np.ndarray:
    """A plotly JSON array: a plain list or a base64 typed array {dtype, bdata, shape}."""
    if isinstance(value, dict):
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = [int(s) for s in str(value.get("shape", len(flat))).split(",")]
        return flat.reshape(shape)
    return np.asarray(value, dtype=np.float64)


def numbered(tokens):
    return [f"{i} · {t}" for i, t in enumerate(tokens)]


def sharpest(weights: np.ndarray) -> tuple[int, int]:
    """(layer, head) of the lowest mean row entropy in nats of (L, H, Lq, Lk) weights, written out in NumPy."""
    p = weights.astype(np.float64)
    entropy = -np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0).sum(-1).mean(-1)
    layer, head = np.unravel_index(int(entropy.argmin()), entropy.shape)
    return int(layer), int(head)


@LANGS
def test_default_view_draws_every_figure_from_the_translate_model(lang):
    at = open_page(lang=lang)
    assert at.title[0].value == WORDS[lang]["title"]
    figs = figures(at)
    # the summaries expander and its tabs are lazy: only what is open is built
    assert set(figs) == {"attention-overview", "attention-head", "head-view"}
    text = at.text_input(key="text").value
    assert text is not None
    trace = toy("translate").run(text)
    layer, head = sharpest(np.stack([trace[f"decoder.{i}.cross_attn.weights"][0].numpy() for i in range(2)]))
    assert (layer, head) == (1, 3)  # this model's most focused cross-attention head: layer 2, head 4
    assert (at.radio(key="kind").value, at.selectbox(key="layer").value, at.radio(key="head").value) == ("cross", 1, 3)
    focused = figs["attention-head"]
    np.testing.assert_allclose(array(focused["data"][0]["z"]), trace["decoder.1.cross_attn.weights"][0, 3].numpy())
    assert focused["layout"]["xaxis"]["ticktext"] == numbered(trace.tokens("src"))
    assert not {"kind", "layer", "head"} & set(at.query_params)  # the defaults: a link or a class computes them anew
    output = next(m.value for m in at.markdown if m.value.startswith(WORDS[lang]["output"]))
    assert trace.prediction and output == WORDS[lang]["output"] + " ".join(f"`{w}`" for w in trace.prediction.split())
    token = at.selectbox(key="token")  # every token: None, which Streamlit shows as the placeholder, in its words
    assert token.value is None and token.proto.placeholder == WORDS[lang]["all tokens"]


@pytest.mark.parametrize(("lang", "kind"), [("en", "Cross-attention"), ("zh", "交叉注意力"), ("zh", "Cross-attention")])
def test_url_parameters_restore_model_text_kind_layer_and_head(lang, kind):
    """?kind= holds the label in the link's language; a link made in the other language opens the same view."""
    at = open_page(model="reverse", text="1 2 3", kind=kind, layer="2", head="3", lang=lang)
    assert at.selectbox(key="model").value == "reverse"
    assert (at.radio(key="kind").value, at.selectbox(key="layer").value, at.radio(key="head").value) == ("cross", 1, 2)
    trace = load_pretrained("reverse").run("1 2 3")
    focused = figures(at)["attention-head"]
    np.testing.assert_allclose(array(focused["data"][0]["z"]), trace["decoder.1.cross_attn.weights"][0, 2].numpy())
    assert focused["layout"]["xaxis"]["ticktext"] == numbered(["1", "2", "3", "<eos>"])
    assert focused["layout"]["yaxis"]["ticktext"] == numbered(trace.tokens("tgt"))


@LANGS
def test_tabs_from_the_url_show_mean_over_heads_peak_and_rollout(lang):
    words = WORDS[lang]
    at = open_page(model="reverse", text="3 1 2", kind="encoder", summaries="true", more=words["rollout"], lang=lang)
    figs = figures(at)
    assert "rollout" in figs and "head-mean" not in figs and "head-entropy" not in figs
    trace = load_pretrained("reverse").run("3 1 2")
    layers = np.stack([trace[f"encoder.{i}.self_attn.weights"][0].numpy() for i in range(2)])
    np.testing.assert_allclose(array(figs["rollout"]["data"][0]["z"]), attention_rollout(layers), rtol=1e-5)
    at = open_page(model="reverse", text="3 1 2", kind="encoder", summaries="true", more=words["peak"], lang=lang)
    peak = array(figures(at)["head-peak"]["data"][0]["z"])
    np.testing.assert_allclose(peak[1, 2], trace["encoder.1.self_attn.weights"][0, 2].numpy().max(-1).mean(), rtol=1e-5)
    at = open_page(model="reverse", text="3 1 2", kind="encoder", summaries="true", more=words["mean"], lang=lang)
    mean = figures(at)["head-mean"]
    tiles = array(mean["data"][0]["z"])  # layers side by side, one blank column between them
    n = len(trace.tokens("src"))
    np.testing.assert_allclose(tiles[:, :n], layers[0].mean(0), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tiles[:, -n:], layers[1].mean(0), rtol=1e-5, atol=1e-6)
    assert np.isnan(tiles[:, n:-n]).all()
    assert mean["layout"]["xaxis"]["ticktext"] == [words["layer"].format(n=1), words["layer"].format(n=2)]


@LANGS
def test_switching_model_and_kind(lang):
    words = WORDS[lang]
    at = open_page(lang=lang)
    at.selectbox(key="model").select("sort").run()
    assert not at.exception
    example = load_pretrained("sort").task.example
    assert at.text_input(key="text").value == example  # the new task's example replaces the old one
    at.radio(key="kind").set_value("decoder").run()
    assert not at.exception
    figs = figures(at)
    assert figs["attention-overview"]["layout"]["title"]["text"].startswith(words["decoder"])
    trace = load_pretrained("sort").run(example)
    n_layers, n_heads = 2, transformer_config(toy("sort")).n_heads
    assert figs["attention-overview"]["layout"]["yaxis"]["ticktext"] == [
        words["layer"].format(n=i + 1) for i in range(n_layers)
    ]
    assert figs["attention-overview"]["layout"]["xaxis"]["ticktext"] == [
        words["head"].format(n=h + 1) for h in range(n_heads)
    ]
    assert figs["attention-head"]["layout"]["yaxis"]["ticktext"] == numbered(trace.tokens("tgt"))
    z = array(figs["attention-head"]["data"][0]["z"])
    assert np.allclose(np.triu(z, 1), 0)  # masked: no query looks ahead


def test_changing_head_or_kind_does_not_run_the_model_again(monkeypatch):
    calls = []
    original = LoadedModel.run

    def counted(self, *a, **k):
        calls.append(a)
        return original(self, *a, **k)

    monkeypatch.setattr(LoadedModel, "run", counted)
    SHARED_TRACES.clear()  # the server-wide cache may hold this trace from an earlier test in this process
    at = open_page()
    assert len(calls) == 1
    at.radio(key="head").set_value(3).run()
    at.selectbox(key="layer").set_value(1).run()
    at.radio(key="kind").set_value("cross").run()
    assert not at.exception and len(calls) == 1
    assert figures(at)["attention-head"]["layout"]["title"]["text"] == "Layer 2 · Head 4"
    at.button_group(key="lang").set_value("zh").run()  # the language switch does not run the model again either
    assert not at.exception and len(calls) == 1
    assert figures(at)["attention-head"]["layout"]["title"]["text"] == "第 2 层 · 头 4"


def test_target_is_teacher_forced():
    at = open_page(layer="1", head="1")
    at.text_input(key="target").input("le chien").run()
    assert not at.exception
    text = at.text_input(key="text").value
    assert text is not None
    trace = toy("translate").run(text, "le chien")
    assert trace.tokens("tgt") == ["<bos>", "le", "chien"]
    at.radio(key="kind").set_value("cross").run()
    focused = figures(at)["attention-head"]
    assert focused["layout"]["yaxis"]["ticktext"] == numbered(trace.tokens("tgt"))
    np.testing.assert_allclose(array(focused["data"][0]["z"]), trace["decoder.0.cross_attn.weights"][0, 0].numpy())


@LANGS
def test_empty_input_asks_for_some_tokens_without_an_error(lang):
    at = open_page(text="", lang=lang)
    at.text_input(key="text").input("   ").run()
    assert not at.exception
    assert any(WORDS[lang]["empty"] in i.value for i in at.info)
    assert figures(at) == {}


@LANGS
def test_over_long_input_is_cut_with_a_notice(lang):
    words = " ".join(["dog"] * 70)
    at = open_page(text=words, lang=lang)
    has, first = WORDS[lang]["too long"]
    assert any(has in w.value and first in w.value for w in at.warning)
    focused = figures(at)["attention-head"]
    assert len(focused["layout"]["xaxis"]["ticktext"]) == 63 + 1  # + <eos>
    at.text_input(key="target").input(" ".join(["le"] * 70)).run()
    assert not at.exception
    assert any(WORDS[lang]["target too long"] in w.value for w in at.warning)
    rows = figures(at)["attention-head"]["layout"]["yaxis"]  # <bos> + 63 rows (every k-th labelled: viz.fit)
    assert rows["range"] == [63 + 0.5, -0.5] and rows["ticktext"][0] == "0 · <bos>"


@LANGS
def test_unknown_words_and_html_are_named_as_plain_text(lang):
    at = open_page(text="the dog <script>alert(1)</script> sees a zebra", lang=lang)
    assert not at.exception
    warning = next(w.value for w in at.warning if WORDS[lang]["unknown"] in w.value)
    assert "zebra" in warning and "\\<script\\>alert\\(1\\)\\</script\\>" in warning
    assert "<script>" not in "".join(m.value for m in at.markdown)
    assert at.markdown[0].value.count(":red[**`<unk>`**]") == 2


@LANGS
def test_summaries_open_from_the_url_with_entropy_per_head(lang):
    at = open_page(model="copy", text="4 4 2", kind="encoder", summaries="true", lang=lang)
    entropy = figures(at)["head-entropy"]
    trace = load_pretrained("copy").run("4 4 2")
    w = trace["encoder.1.self_attn.weights"][0, 3].numpy().astype(np.float64)
    expected = -(w * np.log(np.where(w > 0, w, 1))).sum(-1).mean()
    assert array(entropy["data"][0]["z"])[1, 3] == pytest.approx(expected, rel=1e-4)
    assert entropy["layout"]["yaxis"]["ticktext"] == [WORDS[lang]["layer"].format(n=n) for n in (1, 2)]


def test_switching_language_keeps_kind_tab_and_layer_and_the_url_holds_ids():
    """A link written with the shown labels opens the view; the URL then holds ids, the same in every language,
    and a language switch keeps the view."""
    at = open_page(model="reverse", text="3 1 2", kind="Encoder self-attention", layer="2", summaries="true",
                   more="Mean over heads")  # fmt: skip
    assert at.query_params["kind"] == "encoder" and at.query_params["more"] == "mean"
    at.button_group(key="lang").set_value("zh").run()
    assert not at.exception
    assert (at.radio(key="kind").value, at.selectbox(key="layer").value) == ("encoder", 1)
    assert at.radio(key="kind").options == ["编码器自注意力", "解码器掩码自注意力", "交叉注意力"]
    assert "head-mean" in figures(at)  # the chosen summary stays, under its Chinese label
    assert at.query_params["lang"] == "zh" and at.query_params["layer"] == "2"
    assert at.query_params["kind"] == "encoder" and at.query_params["more"] == "mean"
    at.button_group(key="lang").set_value("en").run()
    shown = (at.radio(key="kind").value, at.query_params["kind"], at.query_params["more"])
    assert shown == ("encoder", "encoder", "mean")
    assert "head-mean" in figures(at)


def strict_json(text: bytes) -> dict:
    """JSON as a browser's JSON.parse reads it: NaN or Infinity is an error, not a number."""

    def refuse(constant: str):
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_an_edit_redraws_the_same_charts_with_the_new_input():
    """Each chart keeps its element id across an edit (its key, not its figure: ui.in_place_chart), so the browser
    updates the chart it shows instead of mounting a new one; the figure sent is the new input's, and it is strict
    JSON (plotly.js's page parses it with JSON.parse)."""
    at = open_page(model="reverse", text="1 2 3", lang="en")
    before = {chart.id: chart.spec for chart in charts_of(at)}
    at.text_input(key="text").input("7 7 4 0").run()
    after = charts_of(at)
    assert [chart.id for chart in after] == list(before) and len(after) == 3
    for element in at.get("bidi_component"):
        strict_json(element.proto.bytes)
    trace = load_pretrained("reverse").run("7 7 4 0")
    focused_chart = next(chart for chart in after if chart.spec["layout"]["meta"] == "attention-head")
    focused = focused_chart.spec
    layer, head = at.selectbox(key="layer").value, at.radio(key="head").value
    np.testing.assert_allclose(
        array(focused["data"][0]["z"]), trace[f"decoder.{layer}.cross_attn.weights"][0, head].numpy(), rtol=1e-6
    )
    assert focused["layout"]["xaxis"]["ticktext"] == numbered(["7", "7", "4", "0", "<eos>"])
    assert focused != before[focused_chart.id]


def test_without_the_component_the_page_draws_every_chart_with_streamlit(monkeypatch, caplog):
    """Under a Streamlit without the chart chunk the component takes plotly.js from (ui.plotly_bundle), every chart
    is drawn by st.plotly_chart instead, with the same figure: a warning in the log, nothing missing on the page."""
    from ui import in_place_chart

    in_place_chart._component.cache_clear()
    monkeypatch.setattr(in_place_chart, "plotly_chunk_path", lambda: None)
    try:
        at = open_page(model="reverse", text="1 2 3", lang="en")
    finally:
        in_place_chart._component.cache_clear()
    assert not at.get("bidi_component") and len(at.get("plotly_chart")) == 3
    assert {chart.spec["layout"]["meta"] for chart in charts_of(at)} == {
        "attention-overview",
        "attention-head",
        "head-view",
    }
    assert "not in place" in caplog.text
