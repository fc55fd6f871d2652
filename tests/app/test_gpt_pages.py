"""A decoder-only GPT on every page, in English and Chinese (a small random GPT of tests.toys until the shipped
gpt-en / gpt-zh exist; held in the session's own models): the sidebar's line, the Attention page with causal
self-attention only (its head's weights against the model run here, zero above the diagonal, rows summing to 1), the
next character against the logits' argmax, heads switched off, the head atlas's "same place, line above" role against
a hand count on the weights, the walkthrough's causal mask counted by closed form, Inside a layer's pre-LN stream
against norms taken here, learned positions against sinusoids (the correlation computed here), Train and the RNN
page saying what a GPT is not; an empty prompt and an over-long one get messages."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from model import NO_ABLATION, Ablation, sinusoidal_table
from model.analysis.lines import previous_line_keys
from model.gpt import LoadedGPT
from tests.toys import tiny_gpt
from ui.classroom.ask import ASK_FOLD_KEY, QUESTION_KEY

from .charts import charts_of
from .training import heatmap_z

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
PROMPTS = {"en": "To be, or not to be", "zh": "床前明月光，疑是地上霜。举头"}
WORDS = {
    "en": {"shape": "decoder only · 2 layers · 4 heads · d_model 32", "chars": "**Characters:**",
           "next": "**Most likely next character:**", "off": "**Heads d1.2 off:** next character",
           "on": "**Every head on:** next character", "line": "same place, line above", "gelu": "(GELU)",
           "pre": "Pre-LN, as in GPT-2", "measured": "**Measured on this model:**", "train": "is a GPT",
           "rnn": "is a decoder-only model", "empty": "The prompt is empty",
           "causal": "cells are −∞", "sees": "may see {n} keys"},
    "zh": {"shape": "只有解码器 · 2 层 · 4 个头 · d_model 32", "chars": "**字符：**",
           "next": "**最可能的下一个字符：**", "off": "**关闭头 d1.2：**下一个字符",
           "on": "**所有头都开启：**下一个字符", "line": "上一行的同一位置",
           "gelu": "（GELU）", "pre": "前置 LayerNorm，和 GPT-2 一样", "measured": "**在这个模型上测得：**",
           "train": "是一个 GPT", "rnn": "是只有解码器的模型", "empty": "提示词为空",
           "causal": "个是 −∞", "sees": "能看到 {n} 个键"},
}  # fmt: skip


@pytest.fixture(scope="module")
def gpts() -> dict[str, LoadedGPT]:
    return {lang: tiny_gpt(lang) for lang in ("en", "zh")}


def opened(lm: LoadedGPT, lang: str, page: str = "pages/attention.py", **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.session_state["user_models"] = {lm.name: lm}
    at.query_params.update(lang=lang, model=lm.name, **params)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def figures(at: AppTest) -> dict[str, dict]:
    return {c.spec["layout"].get("meta"): c.spec for c in charts_of(at)}


def lines(at: AppTest) -> list[str]:
    return [m.value for m in [*at.markdown, *at.caption, *at.info, *at.warning]]


def reference(lm: LoadedGPT, text: str, ablation: Ablation = NO_ABLATION):
    """The model run here, outside the app: its trace and the argmax of its last logits."""
    ids = torch.tensor([lm.vocab.encode(text)[0][-lm.max_len :]])
    with torch.inference_mode():
        logits, trace = lm.model(ids, record=True, ablation=ablation)
    return trace, lm.vocab.itos[int(logits[0, -1].argmax())]


@LANGS
def test_the_attention_page_shows_causal_self_attention_only(lang, gpts):
    lm = gpts[lang]
    text = PROMPTS[lang]
    at = opened(lm, lang, text=text)
    assert WORDS[lang]["shape"] in at.sidebar.caption[0].value
    assert len(at.radio(key="kind").options) == 1 and at.radio(key="kind").value == "decoder"  # the decoder kind alone
    chars = next(v for v in lines(at) if v.startswith(WORDS[lang]["chars"]))
    assert chars.count("`") == 2 * len(text)  # one chip per character
    trace, expected = reference(lm, text)
    assert any(v.startswith(WORDS[lang]["next"]) and f"`{expected}`" in v for v in lines(at))
    overview = figures(at)["attention-overview"]["layout"]
    assert len(overview["yaxis"]["ticktext"]) == 2 and len(overview["xaxis"]["ticktext"]) == 4
    layer, head = at.selectbox(key="layer").value, at.radio(key="head").value
    z = heatmap_z(figures(at)["attention-head"]["data"][0])
    weights = trace[f"decoder.{layer}.self_attn.weights"][0, head].numpy()
    n = len(text)
    assert z.shape == (n, n)
    np.testing.assert_allclose(z, weights, atol=1e-6)
    assert np.all(np.triu(z, 1) == 0)  # no character sees a later one
    np.testing.assert_allclose(z.sum(-1), 1.0, atol=1e-5)


@LANGS
def test_heads_switched_off_change_the_run_the_figures_draw(lang, gpts):
    lm = gpts[lang]
    text = PROMPTS[lang]
    at = opened(lm, lang, text=text, off="d1.2")
    _, on = reference(lm, text)
    off_trace, off = reference(lm, text, Ablation(heads_off=frozenset({("decoder.0.self_attn", 1)})))
    assert any(v.startswith(WORDS[lang]["on"]) and f"`{on}`" in v for v in lines(at))
    assert any(v.startswith(WORDS[lang]["off"]) and f"`{off}`" in v for v in lines(at))
    assert torch.all(off_trace["decoder.0.self_attn.head_out"][0, 1] == 0)  # the head hands on zeros


@LANGS
def test_the_head_atlas_counts_the_same_place_one_line_above(lang, gpts):
    lm = gpts["zh"]  # the poem's lines: ，and 。 end them
    text = PROMPTS["zh"]
    at = opened(lm, lang, text=text, atlas="true", atlas_over="input")
    fig = figures(at)["head-atlas"]
    assert WORDS[lang]["line"] in fig["data"][0]["colorbar"]["ticktext"]
    trace, _ = reference(lm, text)
    above = [(i, j) for i, j in enumerate(previous_line_keys(list(text)).tolist()) if j >= 0]
    assert above == [(6, 0), (7, 1), (8, 2), (9, 3), (10, 4), (11, 5), (12, 6), (13, 7)]  # 疑→床 … 。→， 举→疑 头→是
    for layer, head in ((0, 0), (1, 3)):
        w = trace[f"decoder.{layer}.self_attn.weights"][0, head].numpy()
        share = np.mean([w[i, j] for i, j in above])
        hover = fig["data"][0]["customdata"][layer][head]
        assert f"{WORDS[lang]['line']}: {share:.2f}" in hover.split("<br>")


@LANGS
def test_the_walkthrough_opens_the_causal_mask_on_the_model_s_numbers(lang, gpts):
    lm = gpts[lang]
    text = PROMPTS[lang]
    at = opened(lm, lang, "pages/step-by-step.py", source="model", step="4", query="3", text=text)
    assert len(at.selectbox(key="wt_kind").options) == 1 and at.selectbox(key="wt_kind").value == "decoder"
    n = len(text)
    note = next(i.value for i in at.info if WORDS[lang]["causal"] in i.value)
    assert f"{n * (n - 1) // 2}" in note and f"{n * n}" in note  # the cells above the diagonal, of n²
    assert WORDS[lang]["sees"].format(n=3) in note  # row 3 sees itself and the two before it


@LANGS
def test_inside_a_layer_reads_the_pre_ln_stream(lang, gpts):
    lm = gpts[lang]
    text = PROMPTS[lang]
    at = opened(lm, lang, "pages/inside-a-layer.py", text=text)
    assert len(at.radio(key="layer_stack").options) == 1 and at.radio(key="layer_stack").value == "decoder"
    trace, _ = reference(lm, text)
    first = torch.linalg.vector_norm(trace["tgt.input"][0], dim=-1).mean()
    last = torch.linalg.vector_norm(trace["decoder.1.ffn.resid"][0], dim=-1).mean()
    final = torch.linalg.vector_norm(trace["decoder.final_norm"][0], dim=-1).mean()
    caption = next(c.value for c in at.caption if c.value.startswith(WORDS[lang]["pre"]))
    assert all(f"{float(x):.2f}" in caption for x in (first, last, final))
    stream = heatmap_z(next(c.spec for c in charts_of(at) if c.key == "layer_stream")["data"][0])
    assert stream.shape == (1 + 4, len(text))  # the input, then 2 × (self-attention, feed-forward): no cross
    np.testing.assert_allclose(stream[-1], torch.linalg.vector_norm(trace["decoder.1.ffn.resid"][0], dim=-1), rtol=1e-5)
    titles = [s["layout"]["title"]["text"] for s in figures(at).values() if "title" in s["layout"]]
    assert any(WORDS[lang]["gelu"] in t for t in titles)


@LANGS
def test_learned_positions_beside_sinusoids_and_what_train_and_rnn_say(lang, gpts):
    lm = gpts[lang]
    at = opened(lm, lang, "pages/positional-encoding.py", text=PROMPTS[lang])
    assert {"position-cosine-learned", "position-cosine-sinusoidal", "position-distance", "model-pe"} <= set(
        figures(at)
    )
    table = lm.model.wpe.weight.detach().double().numpy()  # (32, 32): the whole context

    def cosines(t: np.ndarray) -> np.ndarray:
        unit = t / np.linalg.norm(t, axis=1, keepdims=True)
        return unit @ unit.T

    off = ~np.eye(32, dtype=bool)
    r = np.corrcoef(cosines(table)[off], cosines(sinusoidal_table(32, 32).double().numpy())[off])[0, 1]
    measured = next(m.value for m in at.markdown if m.value.startswith(WORDS[lang]["measured"]))
    assert f"{r:.2f}" in measured
    at.switch_page("pages/train.py").run()
    assert not at.exception and any(WORDS[lang]["train"] in i.value for i in at.info)
    at.switch_page("pages/rnn-vs-transformer.py").run()
    assert not at.exception and any(WORDS[lang]["rnn"] in i.value for i in at.info)


@LANGS
def test_an_empty_prompt_and_an_over_long_one_get_messages(lang, gpts):
    lm = gpts[lang]
    at = opened(lm, lang, text="   ")
    assert any(WORDS[lang]["empty"] in i.value for i in at.info)
    long = PROMPTS[lang] * 4  # past the context of 32 characters
    at = opened(lm, lang, text=long)
    assert any(str(len(long)) in w.value and "32" in w.value for w in at.warning)  # n characters, the context
    z = heatmap_z(figures(at)["attention-head"]["data"][0])
    assert z.shape == (32, 32)  # the last 32 characters


@LANGS
def test_the_rollout_summary_runs_over_the_causal_decoder(lang, gpts):
    lm = gpts[lang]
    text = PROMPTS[lang]
    at = opened(lm, lang, text=text, summaries="true", more="rollout")
    z = heatmap_z(figures(at)["rollout"]["data"][0])
    trace, _ = reference(lm, text)
    n = len(text)
    expected = np.eye(n)
    for layer in range(2):  # ½ I + ½ the mean over heads, bottom-up (each row already sums to 1)
        mixed = 0.5 * np.eye(n) + 0.5 * trace[f"decoder.{layer}.self_attn.weights"][0].double().mean(0).numpy()
        expected = mixed @ expected
    np.testing.assert_allclose(z, expected, atol=1e-5)
    assert np.all(np.triu(z, 1) == 0)  # nothing reaches a position from a later character


@LANGS
def test_predict_then_reveal_the_next_character_on_a_gpt(lang, gpts):
    """The Attention page's question "which token comes next?" on a GPT: its positions are the prompt's characters
    and the answer the argmax of the model's own logits there."""
    lm = gpts[lang]
    text = PROMPTS[lang]
    at = opened(lm, lang, text=text)
    at.session_state[ASK_FOLD_KEY] = True
    at.run()
    at.radio(key="_q_kind").set_value("next").run()
    at.selectbox(key="_q_position_attention").set_value(4).run()
    at.button(key="_q_ask_attention").click().run()
    assert not at.exception, [e.value for e in at.exception]
    question = at.session_state[QUESTION_KEY]
    ids = torch.tensor([lm.vocab.encode(text)[0]])
    with torch.no_grad():
        logits = lm.model(ids)[0, 4]  # the scores of the character after position 4
    assert question["options"][question["answer"]] == lm.vocab.itos[int(logits.argmax())]
    assert question["context"]["token"] == text[4]


def test_a_gpt_s_blanks_show_as_marks_in_chips_and_figure_labels(gpts):
    lm = gpts["en"]
    at = opened(lm, "en", text="To be")  # T o ␣ b e
    chars = next(v for v in lines(at) if v.startswith(WORDS["en"]["chars"]))
    assert chars.endswith("`T` `o` `␣` `b` `e`")
    head = figures(at)["attention-head"]["layout"]
    assert head["yaxis"]["ticktext"] == ["0 · T", "1 · o", "2 · ␣", "3 · b", "4 · e"]
