"""AppTest for the Train page's GPT family: its three tasks and their options, bad sizes and a missing corpus told in
words, short runs in the worker pool (English text, Chinese poems, induction) whose curves, samples and head scores
are checked against the returned model, the model used on /next-token, Stop, and a GPT upload; English and Chinese."""

from __future__ import annotations

import base64

import numpy as np
import pytest
import torch

from model.analysis.induction import circuit, head_scores
from model.gpt import LoadedGPT
from model.gpt.induction import InductionSettings, repeated_batch
from model.gpt.induction_train import PROBE_SEED  # the induction run's scored sequences
from model.io.archive import pack_archive
from ui.models import USER_MODELS_KEY

from .training import figure, heatmap_z, open_train, start, wait_for

TASK_LABELS = {
    "en": ["English text (Shakespeare)", "Chinese poems (Tang)", "Induction (random tokens repeated once)"],
    "zh": ["英文文本（莎士比亚）", "中文诗（唐诗）", "归纳（一段随机词元重复一次）"],
}


def values(field) -> np.ndarray:
    """A figure's x or y as plotly's JSON carries it: a typed array in base64, or a list."""
    return heatmap_z({"z": field}) if isinstance(field, dict) and "shape" in field else _flat(field)


def _flat(field) -> np.ndarray:
    if isinstance(field, dict):  # a 1-D typed array has no shape
        return np.frombuffer(base64.b64decode(field["bdata"]), dtype=field["dtype"])
    return np.asarray(field)


def open_gpt(lang: str = "en", task: str = "shakespeare"):
    at = open_train(lang)
    at.radio(key="train_arch").set_value("gpt").run()
    if task != "shakespeare":
        at.selectbox(key="train_gpt_task").set_value(task).run()
    assert not at.exception
    return at


def run_gpt(at, task: str, steps: int, **values) -> LoadedGPT:
    """Start a run of exactly `steps` steps, wait for it, redraw, and return the model it put in the session."""
    at.number_input(key=f"train_gpt_steps_{task}").set_value(steps)
    for name, value in values.items():
        at.number_input(key=f"train_gpt_{name}_{task}").set_value(value)
    if task == "induction":
        at.radio(key="train_gpt_rule_induction").set_value("after steps")
    start(at)
    assert not at.exception and not at.error, [e.value for e in at.error]
    job = at.session_state["train_job"]
    assert job.join(180), "the run did not finish"
    wait_for(lambda: at.run() and job.registered_as is not None, what="the model to be kept")
    assert not at.exception
    return at.session_state[USER_MODELS_KEY][job.registered_as]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_gpt_family_offers_three_tasks_each_with_its_own_defaults(lang):
    at = open_gpt(lang)
    assert at.selectbox(key="train_gpt_task").options == TASK_LABELS[lang]
    assert at.number_input(key="train_gpt_d_shakespeare").value == 64
    assert at.checkbox(key="train_gpt_mlp_shakespeare").value is True
    at.selectbox(key="train_gpt_task").set_value("induction").run()
    assert at.number_input(key="train_gpt_d_induction").value == 32
    assert at.checkbox(key="train_gpt_mlp_induction").value is False  # attention-only, as in the papers
    assert at.number_input(key="train_gpt_context_induction").value == 32
    assert "train_gpt_d_shakespeare" not in {w.key for w in at.number_input}


@pytest.mark.parametrize(
    ("lang", "key", "value", "words"),
    [
        ("en", "steps", 0, "Steps must be from 1 to 20,000; got 0."),
        ("en", "steps", -5, "Steps must be from 1 to 20,000; got -5."),
        ("en", "steps", 10**9, "Steps must be from 1 to 20,000; got 1,000,000,000."),
        ("en", "batch", 0, "The batch size must be from 1 to 512; got 0."),
        ("en", "batch", 100_000, "The batch size must be from 1 to 512; got 100,000."),
        ("zh", "steps", 0, "步数必须在 1 到 20,000 之间；收到的是 0。"),
        ("zh", "batch", -3, "批大小必须在 1 到 512 之间；收到的是 -3。"),
    ],
)
def test_steps_or_batch_zero_negative_or_huge_get_a_message_and_start_nothing(lang, key, value, words):
    at = open_gpt(lang)
    at.number_input(key=f"train_gpt_{key}_shakespeare").set_value(value)
    start(at)
    assert not at.exception
    assert [e.value for e in at.error] == [words]
    assert "train_job" not in at.session_state


@pytest.mark.parametrize(("lang", "words"), [("en", "Fetch it with: python -m model.corpora fetch"),
                                             ("zh", "python -m model.corpora fetch")])  # fmt: skip
def test_a_missing_corpus_says_which_command_fetches_it(lang, words, monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_LAB_CORPORA", str(tmp_path))
    at = open_gpt(lang, "tang-poems")
    start(at)
    assert not at.exception
    assert len(at.error) == 1 and words in at.error[0].value and str(tmp_path) in at.error[0].value
    assert "train_job" not in at.session_state


def test_induction_context_too_short_for_the_copy_is_told():
    at = open_gpt("en", "induction")
    at.number_input(key="train_gpt_context_induction").set_value(16)
    start(at)
    assert any("context must be a whole number of at least 2 × max_segment = 32" in e.value for e in at.error)
    assert "train_job" not in at.session_state


def test_an_english_run_draws_its_loss_and_samples_and_its_model_writes_them_again(train_pool):
    at = open_gpt("en")
    lm = run_gpt(at, "shakespeare", 120)
    assert isinstance(lm, LoadedGPT) and lm.config.n_layers == 2 and lm.config.d_model == 64
    job = at.session_state["train_job"]
    view = job.view()
    loss = figure(at, "train_gpt_loss")
    train_trace, held_trace = loss["data"]
    np.testing.assert_array_equal(values(train_trace["x"]), np.arange(1, 121))
    np.testing.assert_allclose(values(train_trace["y"]), [loss for _, loss in view.losses], rtol=1e-6)
    assert [s for s, _ in view.gpt.held_out] == [100]  # eval_every 100
    np.testing.assert_allclose(values(held_trace["y"]), [view.gpt.held_out[0][1]], rtol=1e-6)
    samples = view.gpt.samples
    assert [s.step for s in samples] == [1, 120]  # step 1, then the last step (sample_every 200)
    # The last sample was written by the weights the worker handed back: the same prompt and seed write it again.
    assert lm.generate(samples[-1].prompt, 160, temperature=0.8, seed=0) == samples[-1].text
    codes = [c.value for c in at.code]
    assert codes[0] == f"{samples[-1].prompt}▌{samples[-1].text}"  # newest first
    assert any("is now in the sidebar's model list" in s.value for s in at.success)
    assert lm.meta["steps"] == 120 and lm.task.name == "shakespeare"
    # used like any model trained here: /next-token with it chosen in the sidebar
    at.session_state["model"] = job.registered_as
    at.switch_page("pages/next-token.py").run()
    assert not at.exception
    dist = lm.next_token(lm.task.example)
    assert np.isclose(sum(dist.probs), 1.0)


def test_a_chinese_poem_run_reads_in_chinese(train_pool):
    at = open_gpt("zh", "tang-poems")
    lm = run_gpt(at, "tang-poems", 30)
    assert lm.task.name == "tang-poems" and "床" in lm.vocabulary
    job = at.session_state["train_job"]
    sample = job.view().gpt.samples[-1]
    assert sample.prompt == "床前明月光，" and len(sample.text) == 42
    assert any("训练了 30 步" in s.value or "30 步" in s.value for s in at.success), [s.value for s in at.success]
    assert any("模型目前写出的文字" in m.value for m in at.markdown)


def test_an_induction_run_scores_every_head_as_the_returned_model_does(train_pool):
    at = open_gpt("en", "induction")
    lm = run_gpt(at, "induction", 100)
    assert lm.config.mlp is False and lm.config.n_layers == 2
    view = at.session_state["train_job"].view()
    steps = [s for s, _ in view.gpt.scores]
    assert steps == [50, 100]  # every score_every steps
    fig = figure(at, "train_gpt_scores")
    heads = lm.config.n_layers * lm.config.n_heads
    assert len(fig["data"]) == 2 * heads + 2  # induction and previous-token of every head, the two losses
    # Independent: the scored sequences drawn again with their seed and scored on the model handed back.
    scored = repeated_batch(InductionSettings(context=32), 100, torch.Generator().manual_seed(PROBE_SEED))
    again = head_scores(lm.model, scored)
    last = view.gpt.scores[-1][1]
    np.testing.assert_allclose(last.induction, again.induction, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(last.previous, again.previous, rtol=1e-5, atol=1e-6)
    assert np.isclose(last.in_context_loss, again.in_context_loss, atol=1e-5)
    shown = values(fig["data"][0]["y"])  # L1 H1's induction score at each scored step
    np.testing.assert_allclose(shown, [s.induction[0, 0] for _, s in view.gpt.scores], rtol=1e-6)
    copies = view.gpt.samples[-1]
    assert copies.expected and len(copies.text) == len(copies.expected)


def test_stop_while_training_keeps_the_model_trained_so_far(train_pool):
    at = open_gpt("zh")
    at.number_input(key="train_gpt_steps_shakespeare").set_value(20000)
    start(at)
    job = at.session_state["train_job"]
    wait_for(lambda: job.view().step >= 5, what="a few steps")
    at.button(key="train_stop").click().run()
    assert job.join(30)
    wait_for(lambda: at.run() and job.registered_as is not None, what="the model to be kept")
    view = job.view()
    assert view.status == "stopped" and 5 <= view.step < 20000
    assert any("已停止" in s.value for s in at.success), [s.value for s in at.success]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "model.safetensors does not match config.json's gpt model (missing: decoder.2."),
    ("zh", "model.safetensors 与 config.json 描述的 gpt 模型不符（缺少：decoder.2."),
])  # fmt: skip
def test_an_uploaded_gpt_whose_config_does_not_match_its_tensors_is_refused(lang, words):
    import io
    import json
    import zipfile

    from model import load_pretrained

    lm = load_pretrained("gpt-zh")
    good = pack_archive(lm)
    with zipfile.ZipFile(io.BytesIO(good)) as z:
        config, weights = json.loads(z.read("config.json")), z.read("model.safetensors")
    config["model"]["n_layers"] = lm.config.n_layers + 1  # claims a layer the tensors lack
    bad = io.BytesIO()
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("config.json", json.dumps(config))
        z.writestr("model.safetensors", weights)
    at = open_train(lang)
    at.file_uploader(key="upload_zip").upload("mine.zip", bad.getvalue(), "application/zip").run()
    assert not at.exception
    assert len(at.error) == 1 and words in at.error[0].value, [e.value for e in at.error]
    assert not at.session_state[USER_MODELS_KEY]
    # the same archive with its own config loads, and is the GPT it was
    at.file_uploader(key="upload_zip").upload("fine.zip", good, "application/zip").run()
    loaded = at.session_state[USER_MODELS_KEY]["fine"]
    assert isinstance(loaded, LoadedGPT) and loaded.vocabulary == lm.vocabulary
    torch.testing.assert_close(loaded.last_logits("床前明月光"), lm.last_logits("床前明月光"))


def test_the_default_induction_run_forms_the_head_and_draws_the_circuit_of_the_returned_model(train_pool):
    at = open_gpt("en", "induction")
    start(at)  # the page's defaults: stop 300 steps after the head forms
    job = at.session_state["train_job"]
    assert job.join(240), "the induction run did not end"
    wait_for(lambda: at.run() and job.registered_as is not None, what="the model to be kept")
    lm = at.session_state[USER_MODELS_KEY][job.registered_as]
    view = job.view()
    formed = view.gpt.formed
    assert formed is not None and view.step == formed.step + 300
    first = next(step for step, s in view.gpt.scores if s.best_induction >= 0.5)
    assert formed.step == first
    assert any(f"An induction head formed at step {formed.step:,}" in s.value for s in at.success)
    # Independent: the returned model scored again on the same 100 sequences, and traced on the probe.
    scored = repeated_batch(InductionSettings(context=32), 100, torch.Generator().manual_seed(PROBE_SEED))
    again = head_scores(lm.model, scored)
    assert again.best_induction >= 0.5
    prev_layer, prev_head, ind_layer, ind_head = circuit(again)
    assert (prev_layer, ind_layer) == (0, 1)
    circuit_fig = figure(at, "train_gpt_circuit")
    trace = lm.trace(list(view.gpt.probe))
    for shown, (layer, head) in zip(circuit_fig["data"], [(prev_layer, prev_head), (ind_layer, ind_head)], strict=True):
        weights = trace.numpy(f"decoder.{layer}.self_attn.weights", 0)[head]
        np.testing.assert_allclose(heatmap_z(shown), weights, rtol=1e-4, atol=1e-6)


PAGES = ("home", "step-by-step", "attention", "positional-encoding", "inside-a-layer", "rnn-vs-transformer",
         "next-token", "lesson")  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_attention_only_gpt_trained_here_opens_on_every_page(train_pool, lang):
    """The induction model has no MLP (no decoder.{i}.ffn.* rows in its trace): every page takes it."""
    at = open_gpt(lang, "induction")
    lm = run_gpt(at, "induction", 20)
    assert lm.config.mlp is False
    at.session_state["model"] = at.session_state["train_job"].registered_as
    for page in PAGES:
        at.switch_page(f"pages/{page}.py").run()
        assert not at.exception, (page, [e.value for e in at.exception])


def test_two_sessions_starting_gpt_runs_at_once_queue_for_the_one_worker(train_pool):
    first, second = open_gpt("en"), open_gpt("zh", "tang-poems")
    first.number_input(key="train_gpt_steps_shakespeare").set_value(20000)
    start(first)
    job = first.session_state["train_job"]
    wait_for(lambda: job.view().step >= 1, what="the first run to train")
    start(second)
    waiting = second.session_state["train_job"]
    assert waiting.view().status == "queued" and waiting.view().position == 1
    assert any("你排在第 1 位" in i.value for i in second.info), [i.value for i in second.info]
    job.stop()
    wait_for(lambda: waiting.view().step >= 1, what="the waiting run to take the freed worker")
    waiting.stop()
    assert waiting.join(30)
