"""The RNN vs Transformer page in AppTest, in English and Chinese (the words are written out here, not read from the
catalog): every figure and formula holds the numbers of traces computed here, of decoder_step, of NumPy, of
accuracy_by_length, of gradient_through_time and of the benchmark's JSON; bad input gets a message, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from model.analysis.rnn import accuracy_by_length, decoder_step, gradient_through_time
from tests.toys import toy
from viz.latex import number

from .charts import charts_of
from .test_attention_page import array, figures, numbered

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/rnn-vs-transformer.py"
BENCH = Path(__file__).resolve().parents[2] / "bench" / "results" / "rnn_vs_transformer.json"
LANGS = pytest.mark.parametrize("lang", ["en", "zh"])
SENTENCE = "the big red dog sees a cat"
WORDS = {
    "en": {
        "title": "RNN + attention vs the Transformer", "rnn": "RNN + attention",
        "rnn sub": "a_t,i: each decoder step over the encoder states", "tf": "Transformer: cross-attention",
        "mean": "layer 2 · mean of 4 heads", "head": "layer 1 · head 3",
        "step": "Decoder step {t} of {n} · writes “{token}”",
        "chosen": r"\text{ with probability }", "fixed": r"\text{the same at every step}",
        "no attention": "has no attention", "empty": "Type a few tokens", "unknown": "“zebra”",
        "too long": "The input has 70 tokens", "not win": "Where the Transformer does not win",
        "generate": "the RNN was faster at L = {lengths}", "no rnn": "No shipped RNN is trained on the **sort** task",
    },
    "zh": {
        "title": "RNN + 注意力与 Transformer", "rnn": "RNN + 注意力",
        "rnn sub": "a_t,i：解码器每一步在各编码器状态上的权重", "tf": "Transformer：交叉注意力",
        "mean": "第 2 层 · 4 个头的平均", "head": "第 1 层 · 第 3 个头",
        "step": "解码第 {t} 步（共 {n} 步）· 写出“{token}”",
        "chosen": r"\text{，概率为 }", "fixed": r"\text{每一步都相同}",
        "no attention": "没有注意力", "empty": "请输入几个用空格分开的词元", "unknown": "“zebra”",
        "too long": "输入有 70 个词元", "not win": "Transformer 没有胜出的地方",
        "generate": "RNN 在 L = {lengths} 时都更快", "no rnn": "没有内置的 RNN 在 **sort** 任务上训练过",
    },
}  # fmt: skip


def open_page(**params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(params)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def latex(at: AppTest) -> list[str]:
    return [element.value for element in at.latex]


def line_with(at: AppTest, start: str) -> str:
    found = [value for value in latex(at) if value.strip("$\n").removeprefix(r"\begin{gathered}").startswith(start)]
    assert len(found) == 1, (start, latex(at))
    return found[0]


def np_softmax(row: np.ndarray) -> np.ndarray:
    e = np.exp(row - row.max())
    return e / e.sum()


@LANGS
def test_two_alignments_hold_the_traces_numbers_and_both_show_the_reordering(lang):
    words = WORDS[lang]
    at = open_page(lang=lang, model="translate-rnn", text=SENTENCE)
    assert at.title[0].value == words["title"]
    rnn = load_pretrained("translate-rnn").run(SENTENCE)
    tf = load_pretrained("translate").run(SENTENCE)
    figs = figures(at)
    left, right = figs["rnn-alignment"], figs["transformer-alignment"]
    title = lambda fig: fig["layout"]["title"]
    titles = lambda fig: (title(fig)["text"], title(fig)["subtitle"]["text"].replace("<br>", " "))
    assert titles(left) == (words["rnn"], words["rnn sub"])  # (wrapped to a half-width column where too long)
    assert titles(right) == (words["tf"], words["mean"])
    rnn_weights = rnn["rnn.attn.weights"][0].numpy()
    np.testing.assert_allclose(array(left["data"][0]["z"]), rnn_weights)
    cross = tf["decoder.1.cross_attn.weights"][0].numpy()  # (H, T, S), the last of the two decoder layers
    np.testing.assert_allclose(array(right["data"][0]["z"]), cross.mean(0), rtol=1e-6, atol=1e-7)
    for fig, trace in ((left, rnn), (right, tf)):
        assert fig["layout"]["xaxis"]["ticktext"] == numbered(trace.tokens("src"))
        assert fig["layout"]["yaxis"]["ticktext"] == numbered(trace.tokens("tgt"))
        assert "weight" in fig["data"][0]["hovertemplate"] or "%{text}" in fig["data"][0]["hovertemplate"]
    # le chien rouge grand: the step writing "rouge" looks at "red", the one writing "grand" at "big" (lines cross)
    src = rnn.tokens("src")
    for weights, trace in ((rnn_weights, rnn), (cross.mean(0), tf)):
        writes = trace.tokens("tgt")[1:] + ["<eos>"]
        assert src[int(weights[writes.index("rouge")].argmax())] == "red"
        assert src[int(weights[writes.index("grand")].argmax())] == "big"
    at.toggle(key="rnn_mean").set_value(False).run()
    at.selectbox(key="rnn_layer").set_value(0).run()
    at.radio(key="rnn_head").set_value(2).run()
    right = figures(at)["transformer-alignment"]
    assert right["layout"]["title"]["subtitle"]["text"] == words["head"]
    np.testing.assert_allclose(array(right["data"][0]["z"]), tf["decoder.0.cross_attn.weights"][0, 2].numpy())


@LANGS
def test_the_decoder_step_prints_decoder_step_and_numpy_numbers(lang):
    words = WORDS[lang]
    at = open_page(lang=lang, model="translate-rnn", text=SENTENCE, rnn_part="2", rnn_step="3")
    trace = load_pretrained("translate-rnn").run(SENTENCE)
    t = 2  # 0-based: the page's step 3
    step = decoder_step(trace, t)
    scores = trace["rnn.attn.scores"][0, t].double().numpy()
    weights = np_softmax(scores)  # NumPy, independently of the model
    context = weights @ trace["rnn.enc.h"][0].double().numpy()
    assert step["weights"] is not None  # a model with attention
    np.testing.assert_allclose(step["weights"], weights, atol=1e-6)
    np.testing.assert_allclose(step["context"], context, atol=1e-5)
    vocab = toy("translate-rnn").task.tgt_vocab.itos
    token = vocab[step["output_id"]]
    n_steps = len(trace.tokens("tgt"))
    assert at.subheader[0].value == words["step"].format(t=3, n=n_steps, token=token)
    assert all(number(x) in line_with(at, "s_{2} =") for x in step["s_prev"][:6])
    assert all(number(x) in line_with(at, "e_{3} =") for x in scores)
    assert all(number(x) in line_with(at, "a_t =") for x in weights)
    assert line_with(at, "a_t =").strip("$\n").endswith(r"\\ \textstyle\sum_i a_{ti} = 1.00\end{gathered}")
    c_line = line_with(at, r"\begin{aligned}c_{3}")
    assert c_line.rstrip("$\n").endswith(r"\end{bmatrix}\end{aligned}")
    assert all(number(x) in c_line.rsplit("&=", 1)[1] for x in (context[0], context[1], context[-1]))
    assert all(number(x) in line_with(at, "s_{3} =") for x in step["s"][:6])
    y_line = line_with(at, "y_{3} =")
    assert rf"\text{{{token}}}{words['chosen']}{number(step['probabilities'].max(), 3)}" in y_line
    specs = [c.spec for c in charts_of(at)]  # a_3's bars, every step's weights, p_3
    assert len(specs) == 3
    np.testing.assert_allclose(specs[0]["data"][0]["y"], weights, atol=1e-6)
    np.testing.assert_allclose(np.asarray(specs[1]["data"][0]["z"], float), trace["rnn.attn.weights"][0], atol=1e-6)
    at.button(key="rnn_next").click().run()
    assert at.radio(key="rnn_step").value == 4 and not at.exception
    fourth = vocab[decoder_step(trace, 3)["output_id"]]
    assert at.subheader[0].value == words["step"].format(t=4, n=n_steps, token=fourth)
    at.radio(key="rnn_step").set_value(1).run()
    assert at.button(key="rnn_prev").disabled and not at.button(key="rnn_next").disabled
    assert any(r"\tanh\!\left(W_b" in line for line in latex(at))  # step 1 starts from s_0 = tanh(W_b h_fin + b_b)


@LANGS
def test_without_attention_every_step_reads_the_final_encoder_state(lang):
    words = WORDS[lang]
    at = open_page(lang=lang, model="translate-rnn-noattn", text=SENTENCE)
    assert any(words["no attention"] in info.value for info in at.info)
    assert set(figures(at)) == {"transformer-alignment"}
    at = open_page(lang=lang, model="translate-rnn-noattn", text=SENTENCE, rnn_part="2", rnn_step="2")
    final = load_pretrained("translate-rnn-noattn").run(SENTENCE)["rnn.enc.final"][0].numpy()
    line = line_with(at, "c_{2} = h_{")
    assert words["fixed"] in line and all(number(x) in line for x in final[:6])
    assert len(charts_of(at)) == 1  # no attention figures, only the output probabilities


@pytest.mark.parametrize(("lang", "task"), [("en", "reverse"), ("zh", "translate")])
def test_bottleneck_points_are_accuracy_by_length(lang, task):
    at = open_page(lang=lang, rnn_part="3", bottleneck_task=task, bottleneck_n="20")
    fig = figures(at)["bottleneck"]
    names = [f"{task}", f"{task}-rnn", f"{task}-rnn-noattn"]
    assert [d["name"].split(" · ")[0] for d in fig["data"]] == names
    for data, name in zip(fig["data"], names, strict=True):
        expected = accuracy_by_length(toy(name), list(range(1, 25)), per_length=20)
        assert data["x"] == list(expected) and data["y"] == list(expected.values())
    task_of = toy(names[0]).task
    shade = fig["layout"]["shapes"][0]
    assert (shade["x0"], shade["x1"]) == (task_of.min_src_words - 0.5, task_of.max_src_words + 0.5)
    if task == "reverse":  # the bottleneck itself: at 12 digits the fixed vector loses most inputs, attention none
        at12 = {data["name"].split(" · ")[0]: data["y"][data["x"].index(12)] for data in fig["data"]}
        assert at12["reverse-rnn"] >= 0.9 and at12["reverse-rnn-noattn"] <= 0.6


@LANGS
def test_claims_draw_the_benchmark_json_and_say_where_the_transformer_loses(lang):
    words = WORDS[lang]
    data = json.loads(BENCH.read_text())
    at = open_page(lang=lang, rnn_part="4")
    figs = figures(at)
    timing = data["timing"]
    train = figs["bench-train"]["data"]
    assert [d["x"] for d in train] == [timing["lengths"]] * 2
    assert [d["y"] for d in train] == [timing["train_step_ms"]["transformer"], timing["train_step_ms"]["rnn"]]
    inference = [d["y"] for d in figs["bench-inference"]["data"]]
    assert inference == [timing[k][f] for f in ("transformer", "rnn") for k in ("forward_ms", "generate_ms")]
    by_length = data["by_length"]
    assert [d["y"] for d in figs["bench-length"]["data"]] == [
        by_length["accuracy"][f] for f in ("transformer", "rnn", "rnn-noattn")
    ]
    bars = figs["bench-steps"]["data"]
    steps = data["steps_to_99"]
    families = ("transformer", "rnn", "rnn-noattn")
    medians = [[steps[task][f]["median_steps"] for task in ("reverse", "translate")] for f in families]
    assert [b["y"] for b in bars] == medians
    assert bars[2]["text"][0] == "&gt; 4000"  # never reached 99 % on reverse (plotly text is HTML: shows "> 4000")
    assert at.code[0].value == data["command"]
    faster = [n for n, t, r in zip(timing["lengths"], *timing["generate_ms"].values(), strict=True) if r < t]
    comma = ", " if lang == "en" else "、"
    assert at.subheader[0].value == words["not win"]
    assert any(words["generate"].format(lengths=comma.join(map(str, faster))) in m.value for m in at.markdown)


@LANGS
def test_gradients_figure_is_gradient_through_time(lang):
    at = open_page(lang=lang, rnn_part="5", grad_length="20", grad_bias="2.0")
    fig = figures(at)["gradients"]
    assert fig["layout"]["yaxis"]["type"] == "log"
    for data, cell in zip(fig["data"], ("rnn", "gru", "lstm"), strict=True):
        expected = gradient_through_time(cell, length=20, keep_bias=2.0).norm
        np.testing.assert_allclose(data["y"], expected, rtol=1e-12)
        assert data["x"] == list(range(20))
    assert fig["data"][1]["y"][-1] / fig["data"][1]["y"][0] > fig["data"][0]["y"][-1] / fig["data"][0]["y"][0]


@LANGS
def test_bad_input_gets_a_message_never_a_traceback(lang):
    words = WORDS[lang]
    at = open_page(lang=lang, model="translate-rnn", text="   ")
    assert any(words["empty"] in info.value for info in at.info) and not charts_of(at)
    at = open_page(lang=lang, model="translate-rnn", text="the zebra sees a cat", rnn_part="2")
    assert any(words["unknown"] in w.value for w in at.warning) and at.latex
    at = open_page(lang=lang, model="reverse-rnn", text=" ".join(["1"] * 70))
    assert [w.value for w in at.warning if words["too long"] in w.value].__len__() == 1  # said once, not per model
    assert len(figures(at)) == 2
    # numbers a link may carry that no longer fit: a step past the end, a layer the model lacks, a part that is not
    at = open_page(lang=lang, model="translate-rnn", text="a cat sees a dog", rnn_part="2", rnn_step="40")
    assert at.radio(key="rnn_step").value == 1
    at = open_page(lang=lang, model="translate-rnn", rnn_layer="9", rnn_head="7", bottleneck_n="33")
    assert at.selectbox(key="rnn_layer").value in (0, 1)
    # a model the comparison cannot pair: sort has no RNN, so its Transformer is shown alone and there is no decoder
    at = open_page(lang=lang, model="sort")
    assert any(words["no rnn"] in info.value for info in at.info) and set(figures(at)) == {"transformer-alignment"}
    at = open_page(lang=lang, model="sort", rnn_part="2")
    assert any(words["no rnn"] in info.value for info in at.info) and not at.latex


def test_switching_language_keeps_the_part_the_step_and_the_head():
    at = open_page(lang="en", model="translate-rnn", text=SENTENCE, rnn_part="2", rnn_step="3")
    at.button_group(key="lang").set_value("zh").run()
    assert not at.exception and (at.radio(key="rnn_part").value, at.radio(key="rnn_step").value) == (2, 3)
    assert at.subheader[0].value.startswith("解码第 3 步")
    at.radio(key="rnn_part").set_value(1).run()
    at.toggle(key="rnn_mean").set_value(False).run()
    at.radio(key="rnn_head").set_value(3).run()
    at.button_group(key="lang").set_value("en").run()
    assert not at.exception
    assert (at.radio(key="rnn_part").value, at.toggle(key="rnn_mean").value, at.radio(key="rnn_head").value) == (
        1,
        False,
        3,
    )


@pytest.mark.parametrize(("lang", "why"), [("en", "It opens on *reverse*"), ("zh", "这一部分默认打开 *reverse*")])
def test_the_bottleneck_opens_on_reverse_whatever_the_model_and_says_why(lang, why):
    """With translate in the sidebar every curve sits near 100 % (its sentences have 5 to 9 words): the part opens on
    reverse, whose 1 to 12 digits part the curves, and says why, with the tasks' own lengths."""
    at = open_page(lang=lang, model="translate-rnn", rnn_part="3", bottleneck_n="20")
    assert at.radio(key="bottleneck_task").value == "reverse" and "bottleneck_task" not in at.query_params
    said = next(m.value for m in at.markdown if why in m.value)
    reverse, translate = toy("reverse").task, toy("translate").task
    numbers = (reverse.max_src_words, translate.min_src_words, translate.max_src_words)
    assert numbers == (12, 5, 9) and all(str(n) in said for n in numbers)
    at.radio(key="bottleneck_task").set_value("translate").run()
    assert not at.exception and any(why in info.value for info in at.info)  # said again, as a notice
