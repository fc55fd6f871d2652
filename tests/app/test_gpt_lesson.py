"""The lesson's four GPT slides, in English and Chinese, on the shipped gpt-en and gpt-zh: from encoder–decoder to
decoder-only (a causal head of gpt-en: zero above the diagonal, rows summing to 1, its run line naming the most likely
next character, the argmax of the model's own logits), the causal mask at work (the walkthrough's step 4 on gpt-en's
numbers, the −∞ cells counted by closed form); the two Next-token slides are tests/app/test_next_token_slides.py. An
Attention slide of gpt-zh's head atlas shows the line-above role."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from model.gpt import LoadedGPT
from services.lessons import shipped_lessons

from .charts import charts_of
from .training import heatmap_z

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
SLIDES = shipped_lessons()["attention-basics"].slides
GPT = [n for n, slide in enumerate(SLIDES, 1) if str(slide.state.get("model", "")).startswith("gpt-")]
CAUSAL = {"en": "cells are −∞", "zh": "个是 −∞"}
LINE = "same place, line above"  # the atlas's role, in English (the function's session)
NEXT = {"en": "most likely next character", "zh": "最可能的下一个字符"}
SEEN = {" ": "␣", "\n": "⏎", "\t": "⇥"}  # how a slide writes a blank character


def slide(lang: str, n: int) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang=lang, lesson="attention-basics", slide=str(n))
    at.run()
    at.switch_page("pages/lesson.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.header[0].value == SLIDES[n - 1].title[lang]
    return at


def figures(at: AppTest) -> dict[str, dict]:
    return {c.spec["layout"].get("meta"): c.spec for c in charts_of(at)}


def test_four_gpt_slides_after_training_and_before_the_induction_slide_and_minilm():
    assert len(GPT) == 4 and SLIDES[GPT[0] - 2].page == "train"
    after = SLIDES[GPT[-1]]  # the slide after the last GPT slide (SLIDES counts from 0, GPT from 1)
    assert after.page == "train" and after.state["model"] == "induction"
    assert SLIDES[GPT[-1] + 1].state["model"] == "minilm"


@LANGS
def test_the_decoder_only_slide_shows_a_causal_head_and_the_next_character(lang):
    n = GPT[0]
    assert SLIDES[n - 1].page == "attention"
    at = slide(lang, n)
    state = SLIDES[n - 1].state
    text = str(state["input"])
    lm = load_pretrained(str(state["model"]))
    assert isinstance(lm, LoadedGPT)
    z = heatmap_z(figures(at)["attention-head"]["data"][0])
    length = len(text)
    assert z.shape == (length, length) and np.all(np.triu(z, 1) == 0)
    np.testing.assert_allclose(z.sum(-1), 1.0, atol=1e-5)
    with torch.no_grad():
        logits = lm.model(torch.tensor([lm.vocab.encode(text)[0]]))[0, -1]  # the module itself, not the page's code
    expected = lm.vocab.itos[int(logits.argmax())]
    line = next(c.value.replace("\\", "") for c in at.caption if NEXT[lang] in c.value)  # the run line
    assert line.endswith(f"“{SEEN.get(expected, expected)}”")  # a GPT has no output of its own: its next character


@LANGS
def test_the_causal_mask_at_work_counts_its_cells_on_gpt_en(lang):
    n = GPT[2]
    at = slide(lang, n)
    length = len(str(SLIDES[n - 1].state["input"]))
    note = next(i.value for i in at.info if CAUSAL[lang] in i.value)
    assert f"{length * (length - 1) // 2}" in note and f"{length * length}" in note


def _atlas_slide_on_gpt_zh() -> None:
    """An Attention slide of gpt-zh's head atlas over its input, two lines of a poem."""
    from ui.attention.page import render
    from views import AttentionView, Common

    poem = Common(model="gpt-zh", input="床前明月光，疑是地上霜。")
    render(AttentionView(common=poem, atlas=True, atlas_over="input"), slide=True)


def test_an_atlas_slide_on_gpt_zh_names_the_line_above():
    at = AppTest.from_function(_atlas_slide_on_gpt_zh, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    atlas = figures(at)["head-atlas"]
    assert LINE in atlas["data"][0]["colorbar"]["ticktext"]
    assert len(atlas["layout"]["yaxis"]["ticktext"]) == load_pretrained("gpt-zh").config.n_layers


def _cross_slide_on_gpt_en() -> None:
    """A slide written for an encoder–decoder (cross-attention, layer 2, head 4) shown on gpt-en."""
    from ui.attention.page import render
    from views import AttentionView, Common

    render(
        AttentionView(common=Common(model="gpt-en", input="To be, or not"), kind="cross", layer=1, head=3), slide=True
    )


def test_a_slide_naming_a_kind_a_gpt_lacks_shows_its_causal_self_attention():
    at = AppTest.from_function(_cross_slide_on_gpt_en, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    head = figures(at)["attention-head"]
    z = heatmap_z(head["data"][0])
    assert z.shape == (13, 13) and np.all(np.triu(z, 1) == 0)  # the decoder's causal rows, layer 2, head 4
    lm = load_pretrained("gpt-en")
    assert isinstance(lm, LoadedGPT)
    with torch.no_grad():
        _, trace = lm.model(torch.tensor([lm.vocab.encode("To be, or not")[0]]), record=True)
    np.testing.assert_allclose(z, trace["decoder.1.self_attn.weights"][0, 3].numpy(), atol=1e-6)


def _layers_slide_on_gpt_zh() -> None:
    """An Inside-a-layer slide with the view's default stack (the encoder's) shown on gpt-zh."""
    from ui.layers.page import render
    from views import Common, InsideLayerView

    render(InsideLayerView(common=Common(model="gpt-zh", input="床前明月光，")), slide=True)


def test_an_inside_a_layer_slide_on_a_gpt_shows_its_decoder_stream():
    at = AppTest.from_function(_layers_slide_on_gpt_zh, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    stream = heatmap_z(next(c.spec for c in charts_of(at) if c.key == "layer_stream")["data"][0])
    lm = load_pretrained("gpt-zh")
    assert isinstance(lm, LoadedGPT)
    with torch.no_grad():
        _, trace = lm.model(torch.tensor([lm.vocab.encode("床前明月光，")[0]]), record=True)
    layers = lm.config.n_layers
    assert stream.shape == (1 + 2 * layers, 6)  # the input, then each block's self-attention and feed-forward
    last = torch.linalg.vector_norm(trace[f"decoder.{layers - 1}.ffn.resid"][0], dim=-1).numpy()
    np.testing.assert_allclose(stream[-1], last, rtol=1e-5)
