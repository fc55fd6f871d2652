"""AppTest for the Inside-a-layer page: the numbers plotted equal NumPy recomputations from the trace, and the page
reads in English and in Chinese."""

from __future__ import annotations

import base64

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from model import load_pretrained

from .charts import charts_of

TEXT = "the big red dog sees a small cat"


def decode(value) -> np.ndarray:
    """A plotly array from the figure JSON (plain list or base64 typed array)."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        if isinstance(shape, str):  # plotly writes "rows, cols"
            shape = [int(n) for n in shape.split(",")]
        return array.reshape(shape) if shape else array
    return np.asarray(value, dtype=np.float64)


def charts(at: AppTest) -> dict[str | None, dict]:
    """Plotly figure specs on the page by widget key (the end of the element id)."""
    return {c.key: c.spec for c in charts_of(at)}


def open_page(stack: str = "encoder", lang: str = "en") -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=60)
    at.query_params.update(text=TEXT, lang=lang)
    at.run()
    at.switch_page("pages/inside-a-layer.py").run()
    if stack != "encoder":
        at.radio(key="layer_stack").set_value(stack).run()
    assert not at.exception
    return at


def arrays(trace, name):
    return trace[name][0].numpy().astype(np.float64)


@pytest.mark.parametrize(("stack", "lang"), [("encoder", "en"), ("decoder", "en"), ("decoder", "zh")])
def test_plotted_numbers_equal_the_trace(stack, lang):
    at = open_page(stack, lang)
    trace = load_pretrained("translate").run(TEXT)
    side = "src" if stack == "encoder" else "tgt"
    n_layers = 2
    kinds = ["self_attn", "ffn"] if stack == "encoder" else ["self_attn", "cross_attn", "ffn"]
    names = [f"{stack}.{i}.{k}" for i in range(n_layers) for k in kinds]
    stream = [arrays(trace, f"{side}.input")] + [arrays(trace, f"{n}.norm") for n in names]  # post-LN stream
    norms = np.stack([np.linalg.norm(x, axis=-1) for x in stream])
    updates = np.stack([np.linalg.norm(arrays(trace, f"{n}.out"), axis=-1) for n in names])
    figs = charts(at)
    assert set(figs) == {"layer_stream", "layer_updates", "layer_ln_chart", "layer_ffn_chart"}
    np.testing.assert_allclose(decode(figs["layer_stream"]["data"][0]["z"]), norms, rtol=1e-5)
    np.testing.assert_allclose(decode(figs["layer_updates"]["data"][0]["z"]), updates / norms[:-1], rtol=1e-5)
    assert figs["layer_stream"]["layout"]["xaxis"]["ticktext"] == trace.tokens(side)
    # LayerNorm after the first sublayer (the default choice): post-LN input is the residual sum.
    ln = figs["layer_ln_chart"]["data"]
    resid, out = arrays(trace, f"{names[0]}.resid"), arrays(trace, f"{names[0]}.norm")
    want = [resid.mean(-1), resid.std(-1), out.mean(-1), out.std(-1)]
    for series, expected in zip(ln, want, strict=True):
        np.testing.assert_allclose(decode(series["y"]), expected, rtol=1e-4, atol=1e-5)
    # FFN of layer 1: every activation, and the count of units above zero per token.
    hidden = arrays(trace, f"{stack}.0.ffn.hidden")
    heat, bars = figs["layer_ffn_chart"]["data"]
    np.testing.assert_allclose(decode(heat["z"]), hidden, rtol=1e-6)
    np.testing.assert_array_equal(decode(bars["x"]), (hidden > 0).sum(-1))


def test_choosing_another_layernorm_and_ffn_layer():
    at = open_page()
    at.selectbox(key="layer_ln").set_value(3).run()
    at.selectbox(key="layer_ffn").set_value(1).run()
    trace = load_pretrained("translate").run(TEXT)
    figs = charts(at)
    resid = arrays(trace, "encoder.1.ffn.resid")
    np.testing.assert_allclose(decode(figs["layer_ln_chart"]["data"][1]["y"]), resid.std(-1), rtol=1e-4)
    hidden = arrays(trace, "encoder.1.ffn.hidden")
    np.testing.assert_array_equal(decode(figs["layer_ffn_chart"]["data"][1]["x"]), (hidden > 0).sum(-1))


@pytest.mark.parametrize(("lang", "notice"), [("en", "at most 63"), ("zh", "最多读 63 个")])
def test_over_long_input_is_cut_with_a_notice_not_a_traceback(lang, notice):
    at = AppTest.from_file("../../app.py", default_timeout=60)
    at.query_params.update(text=" ".join(["dog"] * 80), lang=lang)
    at.run()
    at.switch_page("pages/inside-a-layer.py").run()
    assert not at.exception
    assert any(notice in w.value for w in at.warning)
    ticks = charts(at)["layer_stream"]["layout"]["xaxis"]["ticktext"]
    assert ticks == ["dog"] * 63 + ["<eos>"]


def test_empty_input_gets_a_hint():
    at = AppTest.from_file("../../app.py", default_timeout=60)
    at.query_params["text"] = " "
    at.run()
    at.switch_page("pages/inside-a-layer.py").run()
    assert not at.exception
    assert at.info and not charts_of(at)


def test_chinese_page_names_its_sections_and_sublayers():
    at = open_page("decoder", "zh")
    assert at.title[0].value == "层的内部"
    assert [s.value for s in at.subheader] == ["残差流", "LayerNorm", "前馈神经网络"]
    assert at.radio(key="layer_stack").options == ["编码器（读入输入）", "解码器（写出输出）"]
    rows = charts(at)["layer_updates"]["layout"]["yaxis"]["ticktext"]
    assert rows == [f"第 {n} 层{kind}" for n in (1, 2) for kind in ("自注意力", "交叉注意力", "前馈网络")]
    at.button_group(key="lang").set_value("en").run()  # switching keeps the stack
    assert at.radio(key="layer_stack").value == "decoder"
    assert charts(at)["layer_updates"]["layout"]["yaxis"]["ticktext"][1] == "L1 cross-attention"
