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
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, nargs="+", default=[2, 4], help="K values besides 0")
    p.add_argument("--repeats", type=int, default=60, help="forwards per block")
    p.add_argument("--rounds", type=int, default=3, help="rounds of (no jobs, K jobs) blocks per condition")
    p.add_argument("--model", default="reverse")
    args = p.parse_args()
    torch.set_num_threads(1)
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
