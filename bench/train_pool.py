"""The serving process's model latency while K jobs train: in worker processes (the pool) vs threads (before).

    python bench/train_pool.py [--jobs 0 2 4] [--repeats 60] [--rounds 3] [--model reverse]

The serving side's work is the Attention page's: a traced forward (`LoadedModel.run`) of a shipped
model on its example input, with one intra-op thread (as app.py sets). For each K it starts K training
jobs of the Train page's default model (d_model 64, 4 heads, 1+1 layers, batch 32, no early stop),
waits until they train, times `repeats` forwards, then stops them. Ways to train:

  thread    K training threads inside this process (how the app trained before the pool)
  pool      K jobs in a pool of the default size (cores − 1): jobs beyond it wait in line
  pool=K    K jobs in a pool of K workers, so all K train at once (in processes, at nice +5)

It prints p50 and p90 in ms, and the ratio of each p50 to the p50 of a K = 0 block timed right before
it (so load from outside this run drifts out), as the median over `rounds` rounds.

    python bench/train_pool.py --gpt [--seeds 5] [--rounds 3]

prints the GPT goals of the Train page instead, each with the load average (1, 5, 15 min) before and after, through
a pool of one worker (this machine's default) with the page's own defaults (ui/training/gpt_settings.py's
DEFAULTS, submitted as Start submits them): the induction run from submit until some head's induction score on
100 fresh sequences reaches 0.5, for each seed (a run that never forms the head is a failure, not an outlier), the
median and the spread; English text's held-out loss when its 90 s are up; and the traced forward while a GPT
trains over the forward alone (the same ratio as above, K = 1).
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
from contextlib import contextmanager

import torch

from model import get_task, load_pretrained
from model.train import StepInfo, TrainConfig, default_model_config, train
from services.training import PoolSettings, TrainingPool
from services.training.settings import default_workers

TRAIN = TrainConfig(steps=20_000, until=None)  # the Train page's defaults, without the early stop


class ThreadJob:
    """One training run in a plain thread of this process, as the app trained before the pool (its view() is
    itself: .step)."""

    def __init__(self, task):
        self.step, self._stop = 0, threading.Event()
        kwargs = {"callback": self._on_step, "should_stop": self._stop}
        self._thread = threading.Thread(target=train, args=(task, default_model_config(task), TRAIN), kwargs=kwargs)
        self._thread.start()

    def _on_step(self, info: StepInfo) -> None:
        self.step = info.step

    def view(self) -> ThreadJob:
        return self

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)


def timed_forwards(loaded, text: str, repeats: int) -> list[float]:
    """Milliseconds of each traced forward (after a few warm-up runs)."""
    for _ in range(5):
        loaded.run(text)
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        loaded.run(text)
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def wait_training(jobs, need: int, timeout: float = 120.0) -> None:
    """Until `need` of the jobs have taken a few steps."""
    deadline = time.monotonic() + timeout
    while sum(job.view().step >= 3 for job in jobs) < need:
        if time.monotonic() > deadline:
            raise SystemExit("the training jobs did not start in time")
        time.sleep(0.05)


@contextmanager
def training(jobs: list, need: int):
    """While `need` of the jobs train; stops them all afterwards."""
    try:
        wait_training(jobs, need)
        yield
    finally:
        for job in jobs:
            job.stop()
        for job in jobs:
            job.join(10)


def threads_training(k: int):
    task = get_task("reverse")
    return training([ThreadJob(task) for _ in range(k)], k)  # one torch thread each: main() sets it for all


def pool_training(pool: TrainingPool, k: int):
    task = get_task("reverse")
    jobs = [
        pool.submit(f"owner-{i}", task, default_model_config(task), TRAIN, name=f"p{i}", heartbeat_timeout=None)
        for i in range(k)
    ]
    return training(jobs, min(k, pool.settings.workers))


def warm(pool: TrainingPool, workers: int) -> None:
    """Start the pool's workers before anything is timed."""
    task = get_task("copy")
    jobs = [
        pool.submit(f"warm-{i}", task, default_model_config(task), TrainConfig(steps=2, until=None), name="w")
        for i in range(workers)
    ]
    for job in jobs:
        job.join(180)


def load() -> str:
    return "/".join(f"{x:.2f}" for x in os.getloadavg())


def gpt_job(pool: TrainingPool, task: str, seed: int = 0, owner: str = "bench", **changes):
    """A GPT run with the Train page's defaults for `task` (changed by `changes`), submitted as Start submits it."""
    from dataclasses import replace

    from ui.training.gpt_settings import DEFAULTS, configs_of

    gpt_task, model_config, train_config, run = configs_of(task, replace(DEFAULTS[task], **changes), seed)
    return pool.submit(owner, gpt_task, model_config, train_config, name=f"bench-{task}-{seed}", gpt=run,
                       heartbeat_timeout=None)  # fmt: skip


def induction_seeds(pool: TrainingPool, seeds: int) -> None:
    """Seconds from submit until the head formed, per seed; failures counted."""
    formed = []
    for seed in range(seeds):
        before = load()
        t0 = time.monotonic()
        job = gpt_job(pool, "induction", seed, owner=f"seed-{seed}")
        wall = None
        while not job.finished:
            view = job.view()
            if wall is None and view.gpt is not None and view.gpt.formed is not None:
                wall = time.monotonic() - t0
            time.sleep(0.02)
        view = job.view()
        head = view.gpt.formed if view.gpt else None
        if head is None:
            best = view.gpt.scores[-1][1].best_induction if view.gpt and view.gpt.scores else float("nan")
            print(f"  seed {seed}: FAILED, no head formed in {view.step} steps, {view.seconds:.1f} s "
                  f"(best induction score {best:.3f}); load {before} -> {load()}")  # fmt: skip
            continue
        wall = wall if wall is not None else time.monotonic() - t0
        formed.append(wall)
        print(f"  seed {seed}: formed at step {head.step} (score {head.score:.2f}), {head.seconds:.1f} s of training, "
              f"{wall:.1f} s from submit; load {before} -> {load()}")  # fmt: skip
    if formed:
        print(f"  induction from submit: median {statistics.median(formed):.1f} s, spread {min(formed):.1f}–"
              f"{max(formed):.1f} s; {seeds - len(formed)} of {seeds} failed (goal: ≤ 60 s)")  # fmt: skip
    else:
        print(f"  induction: all {seeds} seeds failed to form the head (goal: ≤ 60 s)")


def english_held_out(pool: TrainingPool) -> None:
    before = load()
    t0 = time.monotonic()
    job = gpt_job(pool, "shakespeare")
    job.join(600)
    view, result = job.view(), job.result
    quick = view.gpt.held_out[-1] if view.gpt and view.gpt.held_out else (0, float("nan"))
    whole = getattr(result, "held_out_loss", None)
    print(f"  English text: {view.step} steps in {view.seconds:.1f} s of training ({time.monotonic() - t0:.1f} s from "
          f"submit); held-out loss {whole:.3f} nats/char on the whole held-out text, {quick[1]:.3f} on the quick "
          f"sample at step {quick[0]} (goal: ≤ 2.2 within 90 s); load {before} -> {load()}")  # fmt: skip


def forward_while_gpt(pool: TrainingPool, rounds: int, repeats: int) -> None:
    loaded = load_pretrained("reverse")
    text = loaded.task.example
    ratios, before_load = [], load()
    for _ in range(rounds):
        alone = timed_forwards(loaded, text, repeats)
        job = gpt_job(pool, "shakespeare", steps=20_000, minutes=30.0)
        with training([job], 1):
            busy = timed_forwards(loaded, text, repeats)
        ratios.append(statistics.median(busy) / statistics.median(alone))
    print(f"  traced forward of 'reverse' while a GPT trains / alone: {statistics.median(ratios):.2f} (median of "
          f"{rounds}; goal ≤ 1.3); load {before_load} -> {load()}")  # fmt: skip


def gpt_goals(seeds: int, rounds: int, repeats: int) -> None:
    pool = TrainingPool(PoolSettings(workers=default_workers()))
    warm(pool, pool.settings.workers)
    print(f"GPT goals through a pool of {pool.settings.workers} worker(s) with the Train page's defaults; "
          f"load average (1/5/15 min) {load()} — the machine is shared")  # fmt: skip
    try:
        induction_seeds(pool, seeds)
        english_held_out(pool)
        forward_while_gpt(pool, rounds, repeats)
    finally:
        pool.shutdown()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, nargs="+", default=[2, 4], help="K values besides 0")
    p.add_argument("--repeats", type=int, default=60, help="forwards per block")
    p.add_argument("--rounds", type=int, default=3, help="rounds of (no jobs, K jobs) blocks per condition")
    p.add_argument("--model", default="reverse")
    p.add_argument("--gpt", action="store_true", help="the GPT goals instead (induction, English text, forward)")
    p.add_argument("--seeds", type=int, default=5, help="induction runs (seeds 0 … n−1), with --gpt")
    args = p.parse_args()
    torch.set_num_threads(1)
    if args.gpt:
        gpt_goals(args.seeds, args.rounds, args.repeats)
        return
    loaded = load_pretrained(args.model)
    text = loaded.task.example
    default_size = default_workers()
    pools = {"pool": TrainingPool(PoolSettings(workers=default_size))}
    for k in args.jobs:
        if k != default_size:
            pools[f"pool={k}"] = TrainingPool(PoolSettings(workers=k))
    for pool in pools.values():
        warm(pool, pool.settings.workers)
    print(f"traced forward of '{args.model}' on {text!r}, {args.repeats} runs each, 1 thread; "
          f"{default_size} default worker(s) on {default_size + 1} core(s)")  # fmt: skip

    conditions = []
    for k in args.jobs:
        conditions += [
            ("thread", k, lambda k=k: threads_training(k)),
            ("pool", k, lambda k=k: pool_training(pools["pool"], k)),
        ]
        if f"pool={k}" in pools:
            conditions.append((f"pool={k}", k, lambda k=k: pool_training(pools[f"pool={k}"], k)))
    baseline: list[float] = []
    loaded_times: dict[tuple[str, int], list[float]] = {c[:2]: [] for c in conditions}
    ratios: dict[tuple[str, int], list[float]] = {c[:2]: [] for c in conditions}
    for _ in range(args.rounds):
        for mode, k, training in conditions:
            before = timed_forwards(loaded, text, args.repeats)  # right before, so outside load drifts out
            with training():
                times = timed_forwards(loaded, text, args.repeats)
            baseline += before
            loaded_times[mode, k] += times
            ratios[mode, k].append(statistics.median(times) / statistics.median(before))
    print(f"{'training':>10} {'K':>3} {'p50 ms':>8} {'p90 ms':>8} {'p50 / K=0':>10}  (median of {args.rounds} rounds)")
    print(f"{'-':>10} {0:>3} {statistics.median(baseline):>8.2f} {_p90(baseline):>8.2f} {1.0:>10.2f}")
    for (mode, k), times in loaded_times.items():
        ratio = statistics.median(ratios[mode, k])
        print(f"{mode:>10} {k:>3} {statistics.median(times):>8.2f} {_p90(times):>8.2f} {ratio:>10.2f}")
    for pool in pools.values():
        pool.shutdown()


def _p90(times: list[float]) -> float:
    return statistics.quantiles(times, n=10)[-1]


if __name__ == "__main__":
    main()
