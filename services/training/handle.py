"""JobHandle: one training job as the page sees it (queued, then running in a worker), read safely from any thread.

The Train page (ui/training/) keeps it in the session's state and reads view(), snapshot_list(), probe_tokens,
running and result; it calls stop(reason) and heartbeat(). The pool's reader thread writes progress into it under
its lock. A GPT job (gpt=GPTRun) also keeps its GPTProgress (view().gpt), and its probe arrives from the worker.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from model import Task
from model.analysis.probe import probe_tokens
from model.architectures import AnyConfig
from model.gpt import GPTConfig, GPTTask
from model.gpt.train import GPTTrainConfig
from model.train import TrainConfig, TrainResult

from .errors import REASON_NO_HEARTBEAT, REASON_SESSION_ENDED, TrainingError
from .gpt_job import GPTResult, GPTRun
from .gpt_progress import GPTProgress
from .snapshots import Snapshot, keep_bounded

QUEUED, RUNNING, DONE, STOPPED, FAILED = "queued", "running", "done", "stopped", "failed"
FINISHED = (DONE, STOPPED, FAILED)


@dataclass(frozen=True)
class JobView:
    """A consistent copy of a job's progress for drawing (lists are copies)."""

    status: str  # queued | running | done | stopped | failed
    reason: str  # why it stopped (English, N_-marked where the pool wrote it), when it did
    error: str  # the failure in English, "" when none
    step: int
    total_steps: int
    seconds: float
    losses: list[tuple[int, float]]
    accuracies: list[tuple[int, float]]
    snapshot_count: int
    position: int | None = None  # 1 = next to start, while queued
    wait_seconds: float | None = None  # estimated seconds until it starts, while queued
    failure: TrainingError | None = None  # the failure with its template and params, for translation
    gpt: GPTProgress | None = None  # a GPT run's held-out losses, samples, head scores (a copy); None otherwise

    @property
    def finished(self) -> bool:
        return self.status in FINISHED


class JobQueue(Protocol):
    """What a job asks of the pool that holds it (TrainingPool, which imports this module, not the reverse)."""

    def queue_place(self, job: JobHandle) -> tuple[int | None, float | None]: ...

    def request_stop(self, job: JobHandle) -> None: ...


class JobHandle:
    """A training job in the pool. Made by TrainingPool.submit; the page keeps it in its session state."""

    def __init__(
        self,
        pool: JobQueue,
        job_id: int,
        owner: str,
        task: Task | GPTTask,
        model_config: AnyConfig | GPTConfig,  # a Transformer's, an RNN's or a GPT's (with a GPTTask and `gpt`)
        train_config: TrainConfig | GPTTrainConfig,
        *,
        name: str,
        snapshot_every: int | None,
        probe: tuple[str, str] | None,
        alive: Callable[[], bool] | None,
        heartbeat_timeout: float | None,
        max_snapshots: int,
        gpt: GPTRun | None = None,
    ):
        self._pool, self.id, self.owner = pool, job_id, owner
        self.task, self.model_config, self.train_config, self.name = task, model_config, train_config, name
        self.gpt_run = gpt
        self.snapshot_every = snapshot_every or (gpt.snapshot_every if gpt else max(5, train_config.steps // 100))
        self.gpt_progress: GPTProgress | None = None
        if gpt is not None or isinstance(task, GPTTask):  # the worker makes the probe and sends its tokens
            self.gpt_progress = GPTProgress(task.name)
            self.probe: tuple[str, str] = ("", "")
            self.probe_tokens: tuple[list[str], list[str]] = ([], [])
        else:
            source = probe[0] if probe else task.example
            target = probe[1] if probe else task.target_for(source)
            if target is None:  # cannot happen for a task's own example
                raise ValueError(f"the probe {source!r} is not an input of the task {task.name!r}")
            self.probe = (source, target)
            self.probe_tokens = probe_tokens(task, *self.probe)
        self.alive, self.heartbeat_timeout, self.max_snapshots = alive, heartbeat_timeout, max_snapshots
        self.registered_as: str | None = None  # set by the page once the model is in the session's list
        self.worker_pid: int | None = None  # the process training it, once it runs
        self.result: TrainResult | GPTResult | None = None
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._last_heartbeat = time.monotonic()
        self.stop_requested_at: float | None = None
        self.status, self.reason = QUEUED, ""
        self.failure: TrainingError | None = None
        self.step, self.seconds = 0, 0.0
        self.losses: list[tuple[int, float]] = []
        self.accuracies: list[tuple[int, float]] = []
        self.snapshots: list[Snapshot] = []

    # ---- called from the page (any thread) ----
    def view(self) -> JobView:
        position, wait = self._pool.queue_place(self)
        with self._lock:
            return JobView(
                self.status, self.reason, str(self.failure) if self.failure else "", self.step,
                self.train_config.steps, self.seconds, list(self.losses), list(self.accuracies),
                len(self.snapshots), position, wait, self.failure,
                self.gpt_progress.copy() if self.gpt_progress else None,
            )  # fmt: skip

    def snapshot_list(self) -> list[Snapshot]:
        with self._lock:
            return list(self.snapshots)

    def stop(self, reason: str = "stopped") -> None:
        """End the job at once: a queued job leaves the queue, a running one stops at its next step and keeps
        the model trained so far. The reason is kept for the page (the first one given wins)."""
        with self._lock:
            if self.status in FINISHED or self.stop_requested_at is not None:
                return
            self.reason, self.stop_requested_at = reason, time.monotonic()
        self._pool.request_stop(self)

    def heartbeat(self) -> None:
        """The page is still showing this job (called from its progress fragment)."""
        self._last_heartbeat = time.monotonic()

    def join(self, timeout: float | None = None) -> bool:
        """Wait until the job has finished; True when it has."""
        return self._done.wait(timeout)

    @property
    def finished(self) -> bool:
        return self._done.is_set()

    @property
    def running(self) -> bool:
        """True until the job has finished, queued or training (the page keeps refreshing and offers Stop)."""
        return not self._done.is_set()

    # ---- called by the pool ----
    def watchdog_reason(self, now: float) -> str | None:
        """Why nobody is watching any more (no heartbeat, or the browser session ended), or None."""
        if self.heartbeat_timeout is not None and now - self._last_heartbeat > self.heartbeat_timeout:
            return REASON_NO_HEARTBEAT
        if self.alive is not None:
            try:
                if not self.alive():
                    return REASON_SESSION_ENDED
            except Exception:  # a broken check must not end a student's run; the heartbeat is the backstop
                return None
        return None

    def mark_running(self, pid: int | None) -> None:
        with self._lock:
            self.status, self.worker_pid = RUNNING, pid

    def mark_queued(self) -> None:
        """Back in the queue: its worker died before it could start."""
        with self._lock:
            self.status, self.worker_pid = QUEUED, None

    def add_progress(
        self, steps: list[int], losses: list[float], accuracies: list[tuple[int, float]], seconds: float,
        snapshots: list[Snapshot], gpt_fields: dict | None = None,
    ) -> None:  # fmt: skip
        gpt = self.gpt_progress.extended(gpt_fields) if self.gpt_progress and gpt_fields else None
        with self._lock:
            if gpt is not None:
                self.gpt_progress = gpt
                if gpt.probe:  # a GPT reads one sequence: its tokens are both axes of the attention
                    self.probe, self.probe_tokens = ("".join(gpt.probe), ""), ([], list(gpt.probe))
            self.losses.extend(zip(steps, losses, strict=True))
            self.accuracies.extend(accuracies)
            if steps:
                self.step = steps[-1]
            self.seconds = seconds
            for snapshot in snapshots:
                self.snapshots, _ = keep_bounded([*self.snapshots, snapshot], self.max_snapshots)

    def finish(
        self, status: str, result: TrainResult | GPTResult | None = None, failure: TrainingError | None = None
    ) -> None:
        with self._lock:
            self.status, self.result, self.failure = status, result, failure
            if result is not None:
                self.step, self.seconds = result.steps, result.seconds
        self._done.set()
