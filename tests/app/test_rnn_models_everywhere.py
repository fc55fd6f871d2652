"""Every shipped RNN model on every page, in English and Chinese: the sidebar describes it; the pages that show a
Transformer's insides say so in one sentence with a link to the RNN vs Transformer page; nothing raises."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from model import PRETRAINED
from model.io.pretrained import PRETRAINED_ARCH

from .charts import charts_of

APP = str(Path(__file__).resolve().parents[2] / "app.py")
RNN_MODELS = [name for name in PRETRAINED if PRETRAINED_ARCH[name] == "rnn"]
TRANSFORMER_ONLY = ["pages/attention.py", "pages/step-by-step.py", "pages/positional-encoding.py",
                    "pages/inside-a-layer.py"]  # fmt: skip
OTHER_PAGES = ["pages/home.py", "pages/train.py", "pages/rnn-vs-transformer.py"]
WORDS = {
    "en": {"notice": "** is a recurrent (RNN) model", "link": "RNN vs Transformer",
           "additive": "attention: additive (Bahdanau) · hidden 64",
           "none": "attention: none (no attention) · hidden 64"},
    "zh": {"notice": "** 是循环神经网络（RNN）模型", "link": "RNN 与 Transformer",
           "additive": "注意力：加性（Bahdanau） · 隐藏维度 64", "none": "注意力：无（没有注意力） · 隐藏维度 64"},
}  # fmt: skip


def test_the_shipped_rnns_are_the_ones_this_test_walks():
    assert set(RNN_MODELS) == {"reverse-rnn", "translate-rnn", "translate-rnn-noattn", "reverse-rnn-noattn"}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("model", RNN_MODELS)
def test_every_page_with_an_rnn_model(lang, model):
    words = WORDS[lang]
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang, model=model, source="model")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    score = "none" if model.endswith("noattn") else "additive"
    assert at.sidebar.caption[0].value.endswith(f"RNN · GRU · {words[score]}")
    for page in TRANSFORMER_ONLY:
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        notice = [m.value for m in at.markdown if words["notice"] in m.value]
        assert notice == [notice[0]] and notice[0].startswith(f"**{model.replace('-', chr(92) + '-')}**"), page
        links = [(link.proto.page, link.proto.label) for link in at.get("page_link")]
        if page == "pages/step-by-step.py":  # its ablation fold (closed, so lazy: drawn when open) links to knockouts
            links = [(target, label) for target, label in links if target != "attention"]
        assert links == [("rnn-vs-transformer", words["link"])]
        assert not charts_of(at) or page == "pages/positional-encoding.py"  # its sinusoidal table stays
    at.switch_page("pages/step-by-step.py").run()
    at.button_group(key="source").set_value("example").run()  # the worked example needs no model: it stays
    assert not at.exception and at.latex
    assert [link.proto.page for link in at.get("page_link")] == []  # no notice; the ablations' fold is closed
    at.session_state["wt_more"] = True  # open, the fold draws its link to head knockouts
    at.run()
    assert [link.proto.page for link in at.get("page_link")] == ["attention"]  # the ablations' link, not the notice
    for page in OTHER_PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not [m.value for m in at.markdown if words["notice"] in m.value]
