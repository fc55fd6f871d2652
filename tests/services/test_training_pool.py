"""The training pool with real worker processes: jobs run elsewhere, stream back, stop, crash, wait in line."""

from __future__ import annotations

import gc
import multiprocessing.reduction
import os
import pickle
import signal
import sys
import threading
import time
import types
import weakref
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from model import get_task
from model.analysis.probe import probe_attention
from model.train import TrainConfig, default_model_config, train
from services.allocator import release_freed_memory
from services.training import (
    REASON_NO_HEARTBEAT,
    REASON_SESSION_ENDED,
    REASON_SHUTDOWN,
    OwnerBusyError,
    PoolClosedError,
    PoolSettings,
    QueueFullError,
    TimeLimitError,
    TooManyStepsError,
    TrainingError,
    TrainingPool,
    WorkerCrashedError,
)
from services.training import pool as pool_module
from tests.toys import TransformerSizes

TINY = TransformerSizes(d_model=32, n_heads=2, d_ff=64)
WAIT = 90  # seconds any one wait may take on a loaded 2-core machine (a new worker imports torch)


def short_config(steps: int = 40) -> TrainConfig:
    return TrainConfig(steps=steps, until=None, eval_every=20, eval_size=50, warmup=10, lr=3e-3)


LONG = TrainConfig(steps=20_000, until=None, eval_every=10_000, eval_size=50, warmup=10, lr=3e-3)


@pytest.fixture(scope="module")
def shared_pools():
    """One pool per worker count for the whole module: a new worker imports torch, which takes seconds."""
    pools: dict[int, TrainingPool] = {}
    yield pools
    for pool in pools.values():
        pool.shutdown()


@pytest.fixture
def make_pool(shared_pools):
    """The shared pool of `workers` with these settings for one test; afterwards its jobs are stopped and
    its settings restored."""
    used = []

    def make(workers: int = 1, **settings) -> TrainingPool:
        pool = shared_pools.setdefault(workers, TrainingPool(PoolSettings(workers=workers)))
        used.append((pool, pool.settings))
        pool.settings = replace(pool.settings, **settings)
        return pool

    yield make
    for pool, settings in reversed(used):
        for job in pool.active_jobs():
            job.stop()
            job.join(10)
        pool.settings = settings


@pytest.fixture
def fresh_pool():
    pool = TrainingPool(PoolSettings(workers=1))
    yield pool
    pool.shutdown()


def submit(pool: TrainingPool, owner: str, config: TrainConfig = LONG, task_name: str = "reverse", **kwargs):
    task = get_task(task_name)
    kwargs.setdefault("heartbeat_timeout", None)
    return pool.submit(owner, task, default_model_config(task, **TINY), config, name=f"job-{owner}", **kwargs)


def wait_until(condition, timeout: float = WAIT, what: str = "the condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_a_job_trains_in_another_process_exactly_as_train_does(make_pool):
    pool = make_pool()
    job = submit(pool, "a", short_config(40), snapshot_every=10)
    assert job.join(WAIT)
    view = job.view()
    assert view.status == "done" and view.error == "" and view.failure is None
    assert job.worker_pid is not None and job.worker_pid != os.getpid()
    assert pool.worker_pids() == [job.worker_pid]
    here = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, job.worker_pid) == min(19, here + 5)  # serving keeps its core

    # The same run, here, by model.train directly (one thread, as in the worker), probed at the snapshot steps.
    task, seen, probed = job.task, [], {}

    def record(info) -> None:
        seen.append(info)
        if info.step in (1, 10, 20, 30, 40):
            probed[info.step] = probe_attention(info.model, task, *job.probe)

    assert torch.get_num_threads() == 1  # as in the worker (tests/conftest.py sets it): the same sums, bit for bit
    direct = train(task, job.model_config, short_config(40), callback=record)
    got, want = job.result.loaded.model.state_dict(), direct.loaded.model.state_dict()
    assert set(got) == set(want)
    for key in want:
        torch.testing.assert_close(got[key], want[key], rtol=0, atol=1e-6)
    inputs = [s for s, _ in task.sample(20, seed=7)]
    assert job.result.loaded.predict_batch(inputs) == direct.loaded.predict_batch(inputs)
    assert view.losses == [(s.step, s.loss) for s in seen]
    assert view.accuracies == [(s.step, s.accuracy) for s in seen if s.accuracy is not None]
    assert [s for s, _ in view.accuracies] == [20, 40] and view.accuracies[-1] == (40, direct.accuracy)
    assert (job.result.steps, job.result.accuracy, job.result.stopped) == (40, direct.accuracy, False)
    assert job.result.losses == direct.losses

    snapshots = job.snapshot_list()
    assert [s.step for s in snapshots] == [1, 10, 20, 30, 40] and view.snapshot_count == 5
    names = {"encoder.0.self_attn", "decoder.0.self_attn", "decoder.0.cross_attn"}
    # each snapshot is the probe's weights at that step (tests/model/analysis/test_probe.py checks those)
    for snapshot in snapshots:
        assert set(snapshot.weights) == set(probed[snapshot.step]) == names
        for name, weights in probed[snapshot.step].items():
            assert snapshot.weights[name].dtype == np.float32
            np.testing.assert_allclose(snapshot.weights[name], weights, atol=1e-6)
            np.testing.assert_allclose(snapshot.weights[name].sum(-1), 1.0, atol=1e-5)  # softmax rows
    first, last = snapshots[0].weights["decoder.0.cross_attn"], snapshots[-1].weights["decoder.0.cross_attn"]
    assert not np.allclose(first, last), "the attention did not change while it trained"
    source, target = job.probe
    assert job.probe_tokens == ([*source.split(), "<eos>"], ["<bos>", *target.split()])


@pytest.mark.parametrize("score", ["additive", "none"])
def test_an_rnn_job_trains_in_a_worker_with_its_one_head_or_no_attention(make_pool, score):
    pool = make_pool()
    task = get_task("translate")
    config = default_model_config(task, "rnn", score=score, d_embed=16, d_hidden=32)
    settings = replace(short_config(30), teacher_forcing=0.5)
    job = pool.submit("a", task, config, settings, name="rnn", snapshot_every=10, heartbeat_timeout=None)
    assert job.join(WAIT)
    assert job.view().status == "done" and job.worker_pid != os.getpid()
    assert job.result.loaded.config == config and job.result.loaded.config.arch == "rnn"
    assert torch.get_num_threads() == 1  # as in the worker (tests/conftest.py)
    direct = train(task, config, settings)
    got, want = job.result.loaded.model.state_dict(), direct.loaded.model.state_dict()
    for key in want:
        torch.testing.assert_close(got[key], want[key], rtol=0, atol=1e-6)
    snapshots = job.snapshot_list()
    if score == "none":  # nothing to watch: no snapshot is sent at all
        assert snapshots == [] and job.view().snapshot_count == 0
        return
    source_tokens, target_tokens = job.probe_tokens
    assert [s.step for s in snapshots] == [1, 10, 20, 30]
    assert all(set(s.weights) == {"rnn.attn"} for s in snapshots)
    assert snapshots[-1].weights["rnn.attn"].shape == (1, len(target_tokens), len(source_tokens))
    np.testing.assert_allclose(
        snapshots[-1].weights["rnn.attn"], probe_attention(direct.loaded.model, task, *job.probe)["rnn.attn"], atol=1e-6
    )


def test_progress_streams_while_it_trains_then_stop_keeps_the_model_and_frees_the_worker(make_pool):
    pool = make_pool()
    first = submit(pool, "a", snapshot_every=5)
    views = []

    def progressed() -> bool:
        views.append(first.view())
        return views[-1].step >= 40 and views[-1].snapshot_count >= 3

    wait_until(progressed, what="40 steps of progress")
    seen = [v.step for v in views if v.step]
    assert len(set(seen)) >= 2 and seen == sorted(seen), "progress did not arrive while the job ran"
    assert [v.snapshot_count for v in views] == sorted(v.snapshot_count for v in views)
    second = submit(pool, "b", short_config(20))
    assert second.view().status == "queued" and second.view().position == 1

    first.stop("stopped by you")
    assert first.join(5), "the job did not stop within seconds of Stop"
    view = first.view()
    assert view.status == "stopped" and view.reason == "stopped by you"
    assert first.result is not None and first.result.stopped and first.result.steps == view.step > 40
    assert [s for s, _ in view.losses] == list(range(1, view.step + 1))
    steps = [s.step for s in first.snapshot_list()]
    assert steps == sorted(set(steps)) and steps[0] == 1 and steps[-1] == view.step
    assert first.result.loaded.predict(first.task.example)  # a usable model came back

    assert second.join(WAIT) and second.view().status == "done"
    assert second.worker_pid == first.worker_pid, "the stopped job's worker should take the next job"


def test_a_killed_worker_fails_only_its_job_and_is_replaced(make_pool):
    pool = make_pool(workers=2)
    victim, bystander = submit(pool, "a"), submit(pool, "b")
    wait_until(lambda: victim.view().step > 0 and bystander.view().step > 0, what="both jobs to train")
    assert victim.worker_pid != bystander.worker_pid
    os.kill(victim.worker_pid, signal.SIGKILL)
    assert victim.join(10)
    view = victim.view()
    assert view.status == "failed" and isinstance(view.failure, WorkerCrashedError)
    assert view.failure.params == {"code": -signal.SIGKILL} and view.failure.template.startswith("The training worker")
    assert victim.result is None

    before = bystander.view().step
    wait_until(lambda: bystander.view().step > before + 10, what="the other job to go on")
    assert bystander.running
    bystander.stop("stopped by you")
    assert bystander.join(5) and bystander.view().status == "stopped" and bystander.result is not None

    again = submit(pool, "a", short_config(20))  # the same student may start again at once
    assert again.join(WAIT) and again.view().status == "done"
    assert again.worker_pid not in (victim.worker_pid, None)
    wait_until(lambda: len(pool.worker_pids()) == 2, what="the replacement worker")
    assert victim.worker_pid not in pool.worker_pids()


def test_a_worker_that_does_not_answer_stop_is_replaced(make_pool):
    pool = make_pool(workers=2, stop_grace=1.0)
    job = submit(pool, "a")
    wait_until(lambda: job.view().step > 0, what="the job to train")
    os.kill(job.worker_pid, signal.SIGSTOP)  # frozen: it cannot see its stop flag
    job.stop("stopped by you")
    assert job.join(10), "a frozen worker should be ended a grace period after Stop"
    view = job.view()
    assert view.status == "stopped" and view.reason == "stopped by you" and job.result is None
    with pytest.raises(ProcessLookupError):
        os.kill(job.worker_pid, 0)
    again = submit(pool, "a", short_config(10))
    assert again.join(WAIT) and again.view().status == "done" and again.worker_pid != job.worker_pid


def test_a_job_past_the_time_limit_fails_and_its_worker_is_replaced(make_pool):
    pool = make_pool(time_limit=3.0)
    job = submit(pool, "a")
    assert job.join(WAIT)
    view = job.view()
    assert view.status == "failed" and isinstance(view.failure, TimeLimitError)
    assert view.failure.params == {"seconds": 3} and "limit of 3 s" in view.error
    assert view.step > 0  # it did train until then
    wait_until(lambda: pool.worker_pids() and job.worker_pid not in pool.worker_pids(), what="a replacement worker")
    with pytest.raises(ProcessLookupError):
        os.kill(job.worker_pid, 0)


def test_queue_positions_and_estimates_move_up_as_jobs_finish(make_pool):
    pool = make_pool()
    first = submit(pool, "a")
    second, third = submit(pool, "b", short_config(20)), submit(pool, "c", short_config(20))
    wait_until(lambda: first.view().step >= 5, what="the first job to train")
    views = second.view(), third.view()
    assert [(v.status, v.position) for v in views] == [("queued", 1), ("queued", 2)]
    assert first.view().position is None and first.view().wait_seconds is None
    # The first job has ~20 000 steps left; the second waits for them, the third also for the second's 20.
    assert views[0].wait_seconds > 0 and views[1].wait_seconds > views[0].wait_seconds
    per_step = first.view().seconds / first.view().step
    assert views[0].wait_seconds == pytest.approx((20_000 - first.view().step) * per_step, rel=0.5)

    first.stop()
    wait_until(lambda: second.view().status != "queued", what="the second job to start")
    assert third.view().position == 1
    assert second.join(WAIT) and third.join(WAIT)
    assert third.view().position is None and third.view().status == "done"


def test_limits_each_give_their_message(make_pool):
    pool = make_pool(max_queue=1, max_steps=20_000)
    with pytest.raises(TooManyStepsError) as too_many:
        submit(pool, "a", TrainConfig(steps=20_001))
    assert too_many.value.params == {"steps": 20_001, "limit": 20_000}
    assert str(too_many.value) == "A run may take at most 20000 steps; you asked for 20001."

    running = submit(pool, "a")
    with pytest.raises(OwnerBusyError) as busy:
        submit(pool, "a", short_config(20))
    assert busy.value.template.startswith("You already have a training run")
    wait_until(lambda: running.view().status == "running", what="the first job to start")
    waiting = submit(pool, "b")
    with pytest.raises(QueueFullError) as full:
        submit(pool, "c")
    assert full.value.params == {"limit": 1} and "is full (at most 1)" in str(full.value)

    waiting.stop()  # a queued job leaves the queue at once, so another fits
    assert waiting.join(1) and waiting.view().status == "stopped" and waiting.result is None
    running.stop("replaced by a new run")  # stopping lets the same student start again
    replacement = submit(pool, "a", short_config(20))
    assert replacement.join(WAIT) and replacement.view().status == "done"


def test_a_session_that_ends_or_stops_beating_stops_its_job(make_pool):
    pool = make_pool(workers=2)
    alive = {"yes": True}
    watched = submit(pool, "a", alive=lambda: alive["yes"])
    forgotten = submit(pool, "b", heartbeat_timeout=1.0)
    wait_until(lambda: watched.view().step > 0, what="the watched job to train")
    assert watched.running
    alive["yes"] = False
    assert watched.join(5)
    assert watched.view().status == "stopped" and watched.view().reason == REASON_SESSION_ENDED
    assert watched.result is not None  # Stop keeps the model, whoever stopped it
    beating = submit(pool, "c", heartbeat_timeout=1.0)  # waits in line (both workers are taken) while it beats
    until = time.monotonic() + 3.0
    while time.monotonic() < until:
        beating.heartbeat()
        time.sleep(0.1)
    assert beating.running and beating.view().reason == "", "a job whose page beats must go on"
    assert forgotten.join(WAIT)
    assert forgotten.view().status == "stopped" and forgotten.view().reason == REASON_NO_HEARTBEAT
    beating.stop()


def test_a_failing_job_reports_its_message_and_the_worker_lives_on(make_pool):
    pool = make_pool()
    bad = submit(pool, "a", short_config(10), probe=(" ".join(["1"] * 200), "1"))  # longer than max_len (128)
    assert bad.join(WAIT)
    view = bad.view()
    assert view.status == "failed" and view.failure is not None
    assert isinstance(view.failure, TrainingError) and "200 tokens" in view.error == str(view.failure)
    good = submit(pool, "a", short_config(10))
    assert good.join(WAIT) and good.view().status == "done" and good.worker_pid == bad.worker_pid


def test_from_start_to_shutdown_the_parent_never_unpickles(fresh_pool, monkeypatch, tmp_path):
    # As under Streamlit, whose page script is __main__: a worker must never run it (multiprocessing's
    # spawn and forkserver would, in every worker).
    page = tmp_path / "page.py"
    page.write_text("raise SystemExit('a training worker ran the page script')\n")
    main = types.ModuleType("__main__")
    main.__file__, main.__spec__ = str(page), None
    monkeypatch.setitem(sys.modules, "__main__", main)
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise AssertionError("the serving process unpickled something")

    for module, name in [(pickle, "loads"), (pickle, "load"), (pickle, "Unpickler"), (pickle, "_loads"),
                         (pickle, "_load"), (pickle, "_Unpickler")]:  # fmt: skip
        monkeypatch.setattr(module, name, refuse)
    monkeypatch.setattr(multiprocessing.reduction.ForkingPickler, "loads", refuse)
    pool = fresh_pool  # its worker starts here, so the start is covered too
    job = submit(pool, "a", short_config(30), snapshot_every=5)
    first = job.view()  # no worker is ready yet: it waits for one to start (5 s until one has been timed)
    assert (first.status, first.position) == ("queued", 1) and 0 < first.wait_seconds <= 5.0
    assert job.join(WAIT)
    assert job.view().status == "done" and job.result.loaded.predict(job.task.example)
    assert len(job.snapshot_list()) == 7

    running = submit(pool, "a")
    wait_until(lambda: running.view().step > 0, what="the job to train")
    assert running.worker_pid in child_pids()
    pool.shutdown()  # stops the jobs and ends the workers it started
    assert running.finished and running.view().status == "stopped" and running.view().reason == REASON_SHUTDOWN
    assert running.result is not None  # shutting down is a Stop: the model trained so far is kept
    with pytest.raises(ProcessLookupError):
        os.kill(running.worker_pid, 0)
    assert running.worker_pid not in child_pids() and pool.worker_pids() == []
    with pytest.raises(PoolClosedError):
        submit(pool, "b")
    assert calls == []


THIS_POOL = "the reader thread of the pool under test"


class DroppedSession:
    """Stands for a browser session Streamlit dropped after its TTL: a reference cycle holding a trained model."""

    def __init__(self, model: torch.nn.Module) -> None:
        self.me, self.model = self, model


def test_after_a_job_finishes_the_pool_frees_dropped_sessions(fresh_pool, monkeypatch):
    """The garbage of sessions gone meanwhile (cycles, which only a full collection frees: Streamlit's post-script
    GC is off) is collected by the pool's own thread once a job has finished, and the kept heap given back
    (services/allocator.py); a soak's server grew by each run's model without it (docs/capacity.md, "Memory").
    The release is recorded by thread: in this process an AppTest's app.py may have started the server's
    release-when-quiet thread, which collects too (it did, under load, within a 0.5 s wait here), and another test's
    pool (the app's own, after an AppTest trained) has a reader thread of the same name that releases on its own
    schedule (it did, once, under load in CI on 2026-11-29), so only this pool's reader counts."""
    releases: list[str] = []

    def recorded() -> int:
        here = threading.current_thread()
        releases.append(THIS_POOL if here is fresh_pool._reader else here.name)
        return release_freed_memory()

    monkeypatch.setattr(pool_module, "release_freed_memory", recorded)
    gc.disable()  # only an explicit collection frees the cycle now
    try:
        session = DroppedSession(torch.nn.Linear(256, 256))
        alive, weights = weakref.ref(session), weakref.ref(session.model.weight)
        del session
        assert alive() is not None and weights() is not None  # garbage that nothing collects by itself

        job = submit(fresh_pool, "a", short_config(20))
        assert job.join(WAIT) and job.status == "done"
        wait_until(lambda: alive() is None and weights() is None, what="the dropped session and its model to be freed")
        wait_until(lambda: THIS_POOL in releases, what="the pool's release")
        assert releases.count(THIS_POOL) == 1  # once: RELEASE_EVERY keeps it from following every finish
    finally:
        gc.enable()


def test_a_pool_that_never_trains_starts_nothing():
    children = child_pids()
    pool = TrainingPool(PoolSettings(workers=3))
    assert pool.job_of("a") is None and pool.worker_pids() == [] and child_pids() == children
    pool.shutdown()
    assert child_pids() == children


def child_pids() -> set[int]:
    """Live processes whose parent is this one (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # after "pid (command)": state, ppid, ...
        except (OSError, IndexError):
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found
