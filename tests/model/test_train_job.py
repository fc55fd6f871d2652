"""The training loop and the background TrainingJob, tested without any UI."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
import torch

from model import LoadedModel, Seq2SeqTransformer, get_task
from model.train import StepInfo, TrainConfig, default_model_config, train
from ui.training import job as training_job
from ui.training.job import TrainingJob, probe_attention

TINY = {"d_model": 32, "n_heads": 2, "d_ff": 64}


def tiny_job(task_name="reverse", steps=40, **kwargs) -> TrainingJob:
    task = get_task(task_name)
    cfg = TrainConfig(steps=steps, until=None, eval_every=20, eval_size=50, warmup=10, lr=3e-3)
    kwargs.setdefault("heartbeat_timeout", None)
    return TrainingJob(task, default_model_config(task, **TINY), cfg, name="t", **kwargs)


def test_loss_decreases_and_callback_sees_every_step():
    task = get_task("reverse")
    seen: list[StepInfo] = []
    result = train(
        task, default_model_config(task, **TINY),
        TrainConfig(steps=120, until=None, eval_every=60, eval_size=50, warmup=10, lr=3e-3),
        callback=seen.append,
    )  # fmt: skip
    assert [s.step for s in seen] == list(range(1, 121))
    assert [s.loss for s in seen] == result.losses
    assert [s.step for s in seen if s.accuracy is not None] == [60, 120]
    assert all(s.model is not None for s in seen)
    assert np.mean(result.losses[-20:]) < 0.75 * np.mean(result.losses[:20])


def test_stop_ends_training_within_a_second():
    task = get_task("reverse")
    stop, started = threading.Event(), threading.Event()
    box = {}

    def run():
        box["result"] = train(
            task, default_model_config(task, **TINY), TrainConfig(steps=100_000, until=None, eval_every=10_000),
            callback=lambda info: started.set(), should_stop=stop,
        )  # fmt: skip

    thread = threading.Thread(target=run)
    thread.start()
    assert started.wait(30)
    stop.set()
    thread.join(1.0)
    assert not thread.is_alive(), "training did not stop within a second of Stop"
    assert box["result"].stopped and box["result"].steps < 100_000


def test_job_stop_button_path_stops_within_a_second_and_keeps_the_model():
    job = tiny_job(steps=100_000).start()
    deadline = time.monotonic() + 30
    while job.view().step < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    job.stop("stopped by you")
    assert job.join(1.0), "the job's thread did not end within a second"
    view = job.view()
    assert view.status == "stopped" and view.reason == "stopped by you"
    assert job.result is not None and job.result.steps == view.step > 0
    assert [s for s, _ in view.losses] == list(range(1, view.step + 1))


def test_job_records_every_step_and_accuracy():
    job = tiny_job(steps=40).start()
    assert job.join(60)
    view = job.view()
    assert view.status == "done" and view.error == ""
    assert [s for s, _ in view.losses] == list(range(1, 41))
    assert [s for s, _ in view.accuracies] == [20, 40]
    assert job.result.accuracy == view.accuracies[-1][1]


def _reference_weights(config, state, task, source, target) -> dict[str, np.ndarray]:
    """A fresh model built from a copied state, run traced on the probe ids (no TrainingJob code)."""
    model = Seq2SeqTransformer(config)
    model.load_state_dict(state)
    model.eval()
    src = torch.tensor([[*task.src_vocab.encode(source).ids, 2]])
    tgt = torch.tensor([[1, *task.tgt_vocab.encode(target).ids]])
    with torch.no_grad():
        _, trace = model(src, tgt, record=True)
    return {n.removesuffix(".weights"): trace[n][0].numpy() for n in trace if n.endswith(".weights")}


def test_snapshots_hold_the_probe_weights_of_that_step():
    from model.tasks import BOS_ID, EOS_ID

    assert (BOS_ID, EOS_ID) == (1, 2)  # the ids _reference_weights writes by hand
    job = tiny_job(steps=30, snapshot_every=10)
    states: dict[int, dict] = {}
    original = job._on_step

    def spy(info: StepInfo) -> None:
        if info.step in (1, 10, 20, 30):
            states[info.step] = {k: v.detach().clone() for k, v in info.model.state_dict().items()}
        original(info)

    job._on_step = spy
    job.start()
    assert job.join(60)
    snaps = job.snapshot_list()
    assert [s.step for s in snaps] == [1, 10, 20, 30]
    source, target = job.probe
    assert (source, target) == (job.task.example, job.task.target_for(job.task.example))
    for snap in snaps:
        want = _reference_weights(job.model_config, states[snap.step], job.task, source, target)
        assert set(snap.weights) == set(want) == {
            "encoder.0.self_attn", "decoder.0.self_attn", "decoder.0.cross_attn"
        }  # fmt: skip
        for name, w in want.items():
            assert snap.weights[name].dtype == np.float32
            np.testing.assert_allclose(snap.weights[name], w, atol=1e-6)
    assert not np.allclose(snaps[0].weights["decoder.0.cross_attn"], snaps[-1].weights["decoder.0.cross_attn"])
    src_tokens, tgt_tokens = job.probe_tokens
    assert src_tokens == [*source.split(), "<eos>"] and tgt_tokens == ["<bos>", *target.split()]


def test_probe_attention_restores_training_mode():
    task = get_task("copy")
    model = Seq2SeqTransformer(default_model_config(task, **TINY)).train()
    probe_attention(model, task, "1 2", "1 2")
    assert model.training
    probe_attention(model.eval(), task, "1 2", "1 2")
    assert not model.training


def test_snapshots_stay_bounded(monkeypatch):
    monkeypatch.setattr(training_job, "MAX_SNAPSHOTS", 6)
    job = tiny_job(steps=60, snapshot_every=2).start()
    assert job.join(60)
    steps = [s.step for s in job.snapshot_list()]
    assert len(steps) <= 6 and steps[0] == 1 and steps[-1] == 60 and steps == sorted(set(steps))


def test_missing_heartbeats_stop_the_job():
    job = tiny_job(steps=100_000, heartbeat_timeout=0.5).start()
    assert job.join(30)
    assert job.view().status == "stopped" and "no heartbeat" in job.view().reason


def test_heartbeats_keep_it_running():
    job = tiny_job(steps=100_000, heartbeat_timeout=0.5).start()
    end = time.monotonic() + 1.5
    while time.monotonic() < end:
        job.heartbeat()
        time.sleep(0.1)
    assert job.running
    job.stop()
    assert job.join(5)


def test_an_ended_session_stops_the_job():
    alive = {"yes": True}
    job = tiny_job(steps=100_000, alive=lambda: alive["yes"]).start()
    time.sleep(0.3)
    assert job.running
    alive["yes"] = False
    assert job.join(5)
    assert job.view().reason == "the browser session ended"


def test_torch_thread_limit_stays_in_the_training_thread():
    default = torch.get_num_threads()
    seen = {}
    job = tiny_job(steps=100_000, torch_threads=1)
    original = job._on_step

    def spy(info):
        seen.setdefault("inside", torch.get_num_threads())
        original(info)

    job._on_step = spy
    job.start()
    while "inside" not in seen:
        time.sleep(0.02)
    later = threading.Thread(target=lambda: seen.setdefault("later", torch.get_num_threads()))
    later.start()
    later.join()
    job.stop()
    assert job.join(5)
    assert torch.get_num_threads() == default and seen["later"] == default
    if default > 1:
        assert seen["inside"] == 1


def test_failure_is_reported_not_raised():
    job = tiny_job(steps=10, probe=(" ".join(["1"] * 100), "1"))  # longer than max_len
    job.start()
    assert job.join(30)
    assert job.view().status == "failed" and job.view().error


@pytest.mark.parametrize("name", ["copy", "sort", "translate"])
def test_every_task_has_a_probe(name):
    job = tiny_job(name, steps=2)
    assert job.probe[1] is not None
    LoadedModel(Seq2SeqTransformer(job.model_config), job.task).run(*job.probe)


def test_sharpest_head_is_the_one_with_the_most_peaked_rows():
    from ui.training.job import sharpest_head

    uniform = np.full((3, 3), 1 / 3)
    peaked = np.eye(3) * 0.9 + 0.1 / 3
    assert sharpest_head(np.stack([uniform, peaked, uniform])) == 1
