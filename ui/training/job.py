"""TrainingJob: one training run in a plain background thread, read safely by the page.

The thread never calls Streamlit. It writes progress (losses, accuracies, attention snapshots of a
fixed probe input, status) into this object under a lock; the Train page reads `view()` from an
`st.fragment(run_every=...)`.

It stops when asked: Stop, or the app as soon as the session runs another page (ui.training.
stop_training_if_left). It also stops by itself when nobody is watching any more (a watchdog, checked
every step inside `should_stop`): when `alive()` says the browser session has ended (the tab was
closed), or, as a backstop, when the page's progress fragment has sent no heartbeat for
`heartbeat_timeout` seconds. That limit is long because Chrome slows the timers of a tab hidden for
five minutes to one tick a minute, and a teacher's hidden tab must keep training. So no training
thread outlives its session.

Threads: torch's intra-op thread count is process-wide for threads that start later, so the job
limits only its own thread to `torch_threads` and restores the process default for everyone else
(see `_limit_torch_threads_here`); serving sessions keep the other core. (app.py already sets the
process default to 1; the limit matters where the job runs in a process that has not.)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch

from model import LoadedModel, ModelConfig, Task
from model.train import StepInfo, TrainConfig, TrainResult, train

from ..i18n import N_

MAX_SNAPSHOTS = 120  # attention snapshots kept; thinned to every other one when full


@dataclass(frozen=True)
class Snapshot:
    """Attention weights of the probe at one step: trace name prefix → (H, Lq, Lk) float32."""

    step: int
    weights: dict[str, np.ndarray]


@dataclass(frozen=True)
class JobView:
    """A consistent copy of the job's progress for drawing (lists are copies)."""

    status: str  # pending | running | done | stopped | failed
    reason: str  # why it stopped, when it did: an English msgid (N_), translated where it is shown
    error: str
    step: int
    total_steps: int
    seconds: float
    losses: list[tuple[int, float]]
    accuracies: list[tuple[int, float]]
    snapshot_count: int

    @property
    def finished(self) -> bool:
        return self.status in ("done", "stopped", "failed")


def probe_attention(model: torch.nn.Module, task: Task, source: str, target: str) -> dict[str, np.ndarray]:
    """Every attention head's weights for the probe (teacher-forced on the right target, so the
    axes stay the same all through training). Leaves the model in the mode it found it in."""
    was_training = model.training
    model.eval()
    try:
        with torch.inference_mode():
            trace = LoadedModel(model, task).run(source, target)
    finally:
        model.train(was_training)
    return {
        name.removesuffix(".weights"): trace.numpy(name).astype(np.float32, copy=True)
        for name in trace.names()
        if name.endswith(".weights")
    }  # (H, Lq, Lk) each


def sharpest_head(weights: np.ndarray) -> int:
    """The head (axis 0 of (H, Lq, Lk)) whose rows put the most weight on one key: the clearest pattern."""
    return int(np.argmax(weights.max(axis=-1).mean(axis=-1)))


def _limit_torch_threads_here(n: int) -> None:
    """Use n intra-op threads in the calling thread only.

    torch.set_num_threads sets the caller's OpenMP/MKL thread count (thread-local) AND the value every
    thread started later initialises from (process-wide). A helper thread sets the process-wide value
    back, leaving only this thread limited (measured: a 1500² matmul takes 2× longer here, unchanged
    in threads started afterwards).
    """
    default = torch.get_num_threads()
    if n >= default:
        return
    torch.set_num_threads(n)
    restore = threading.Thread(target=torch.set_num_threads, args=(default,), name="torch-threads-restore")
    restore.start()
    restore.join()


class TrainingJob:
    """Train `task` with the given configs in a daemon thread; thread-safe progress for the page."""

    def __init__(
        self,
        task: Task,
        model_config: ModelConfig,
        train_config: TrainConfig,
        *,
        name: str,
        snapshot_every: int | None = None,
        probe: tuple[str, str] | None = None,
        alive: Callable[[], bool] | None = None,
        heartbeat_timeout: float | None = 180.0,
        torch_threads: int = 1,
    ):
        self.task, self.model_config, self.train_config, self.name = task, model_config, train_config, name
        self.snapshot_every = snapshot_every or max(5, train_config.steps // 100)
        source = probe[0] if probe else task.example
        self.probe = (source, probe[1] if probe else task.target_for(source))
        self.probe_tokens: tuple[list[str], list[str]] | None = None  # (source tokens, decoder input tokens)
        self._alive, self.heartbeat_timeout, self.torch_threads = alive, heartbeat_timeout, torch_threads
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_heartbeat = time.monotonic()
        self._last_alive_check = 0.0
        self.status, self.reason, self.error = "pending", "", ""
        self.step, self.seconds = 0, 0.0
        self.losses: list[tuple[int, float]] = []
        self.accuracies: list[tuple[int, float]] = []
        self.snapshots: list[Snapshot] = []
        self.result: TrainResult | None = None
        self.registered_as: str | None = None  # set by the page once the model is in the session's list
        self._snapshot_stride = self.snapshot_every

    # ---- called from the page (any thread) ----
    def start(self) -> TrainingJob:
        with self._lock:
            if self._thread is not None:
                raise RuntimeError("this job has already started")
            self.status = "running"
            self._last_heartbeat = time.monotonic()
            self._thread = threading.Thread(target=self._run, name=f"train-{self.name}", daemon=True)
        self._thread.start()
        return self

    def stop(self, reason: str = N_("stopped")) -> None:
        """Ask the thread to stop; `reason` (an N_-marked English message) is kept when it is the first."""
        with self._lock:
            if not self.reason:
                self.reason = reason
        self._stop.set()

    def heartbeat(self) -> None:
        """The page is still showing this job (called from its progress fragment)."""
        self._last_heartbeat = time.monotonic()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the thread; True when it has ended."""
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def view(self) -> JobView:
        with self._lock:
            return JobView(
                self.status, self.reason, self.error, self.step, self.train_config.steps, self.seconds,
                list(self.losses), list(self.accuracies), len(self.snapshots),
            )  # fmt: skip

    def snapshot_list(self) -> list[Snapshot]:
        with self._lock:
            return list(self.snapshots)

    # ---- the training thread ----
    def _should_stop(self) -> bool:
        if self._stop.is_set():
            return True
        now = time.monotonic()
        if self.heartbeat_timeout is not None and now - self._last_heartbeat > self.heartbeat_timeout:
            self.stop(N_("the page was left (no heartbeat)"))
            return True
        if self._alive is not None and now - self._last_alive_check > 0.5:
            self._last_alive_check = now
            if not self._alive():
                self.stop(N_("the browser session ended"))
                return True
        return False

    def _on_step(self, info: StepInfo) -> None:
        snapshot = None
        if info.step == 1 or info.step % self._snapshot_stride == 0 or info.step == info.total_steps:
            snapshot = Snapshot(info.step, probe_attention(info.model, self.task, *self.probe))
        with self._lock:
            self.step, self.seconds = info.step, info.seconds
            self.losses.append((info.step, info.loss))
            if info.accuracy is not None:
                self.accuracies.append((info.step, info.accuracy))
            if snapshot is not None:
                self._add_snapshot(snapshot)

    def _add_snapshot(self, snapshot: Snapshot) -> None:
        """Append; when full keep the first and every other one after it, and snapshot half as often."""
        self.snapshots.append(snapshot)
        if len(self.snapshots) > MAX_SNAPSHOTS:
            self.snapshots = self.snapshots[:1] + self.snapshots[2::2]
            self._snapshot_stride *= 2

    def _run(self) -> None:
        _limit_torch_threads_here(self.torch_threads)
        try:
            source, target = self.probe
            trace_tokens = self.task.src_vocab.encode(source).tokens + ["<eos>"]
            self.probe_tokens = (trace_tokens, ["<bos>", *self.task.tgt_vocab.encode(target).tokens])
            result = train(
                self.task, self.model_config, self.train_config,
                callback=self._on_step, should_stop=self._should_stop, name=self.name,
            )  # fmt: skip
            last = Snapshot(result.steps, probe_attention(result.loaded.model, self.task, *self.probe))
            with self._lock:
                if result.steps and (not self.snapshots or self.snapshots[-1].step != result.steps):
                    self._add_snapshot(last)
                self.result, self.seconds, self.step = result, result.seconds, result.steps
                if result.steps and (not self.accuracies or self.accuracies[-1][0] != result.steps):
                    self.accuracies.append((result.steps, result.accuracy))
                self.status = "stopped" if result.stopped else "done"
        except Exception as exc:  # shown on the page; the thread must not die silently
            with self._lock:
                self.status, self.error = "failed", f"{type(exc).__name__}: {exc}"
