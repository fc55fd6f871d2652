"""TrainingPool: a bounded pool of worker processes that train jobs from a first-come-first-served queue.

The serving process never trains. `submit` checks the limits and queues a JobHandle; one reader thread
per pool starts workers as jobs need them (up to `settings.workers`), hands jobs to idle workers as JSON,
reads their progress (bytes: JSON headers, safetensors arrays and models; never a pickle), and keeps
watch: a session that ended or stopped sending heartbeats stops its job, a worker that does not
acknowledge Stop within `stop_grace` seconds or runs a job past `time_limit` is ended, and any worker
that died is replaced. Its job alone fails, with a message; the other jobs and the queue go on.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import logging
import os
import statistics
import subprocess
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import asdict
from multiprocessing.connection import wait

import numpy as np

from model import CheckpointError, Task, load_checkpoint_bytes
from model.architectures import AnyConfig
from model.gpt import GPTConfig, GPTTask, LoadedGPT
from model.gpt.train import GPTTrainConfig
from model.io.checkpoint import task_model
from model.train import TrainConfig, TrainResult

from ..allocator import release_freed_memory
from .errors import (
    REASON_SHUTDOWN,
    JobFailedError,
    OwnerBusyError,
    PoolClosedError,
    QueueFullError,
    TimeLimitError,
    TooManyStepsError,
    TrainingError,
    WorkerCrashedError,
    WorkersCannotStartError,
    error_from_worker,
)
from .estimate import DEFAULT_SECONDS_PER_STEP, queue_waits, seconds_left
from .gpt_job import GPTResult, GPTRun
from .gpt_progress import GPT_FIELDS
from .handle import DONE, FAILED, QUEUED, STOPPED, JobHandle
from .settings import PoolSettings
from .snapshots import Snapshot
from .wire import MAX_MESSAGE_BYTES, Message, WireError, arrays_from_bytes, pack, unpack
from .workers import Worker

log = logging.getLogger(__name__)

TICK = 0.25  # seconds between the reader thread's watchdog rounds when nothing arrives
WATCHDOG_EVERY = 0.5  # seconds between checks that a job's browser session is still there
FAILED_STARTS_ALLOWED = 3  # workers in a row that die before they are ready, then queued jobs fail
START_LIMIT = 120.0  # seconds a new worker may take to import torch and say it is ready
DEFAULT_START_SECONDS = 5.0  # a worker's start (importing torch) before one has been measured
# After a job has finished, the reader thread frees the garbage of dropped sessions and gives glibc's free heap back
# (services/allocator.py), at most once in this many seconds: a class's runs ending together cost one release.
RELEASE_EVERY = 30.0


class TrainingPool:
    """Worker processes, a queue, and the jobs in them. Thread-safe; use one per server (get_pool())."""

    def __init__(self, settings: PoolSettings | None = None):
        self.settings = settings or PoolSettings.from_env()
        self._lock = threading.Lock()
        self._queue: deque[JobHandle] = deque()
        self._active: dict[int, JobHandle] = {}  # queued or running jobs by id
        self._workers: list[Worker] = []
        self._wanted = 0  # workers to keep: grows with demand up to settings.workers; a dead one is replaced
        self._ids = itertools.count(1)
        self._rates: deque[float] = deque(maxlen=20)  # seconds per step of recent jobs
        self._fractions: deque[float] = deque(maxlen=20)  # steps used / steps allowed of recent finished jobs
        self._failed_starts = 0
        self._start_seconds = DEFAULT_START_SECONDS  # how long the last worker took to be ready
        self._last_watchdog = 0.0
        self._release_due, self._last_release = False, float("-inf")  # a job finished since the last release
        self._wake_r, self._wake_w = os.pipe()  # a byte here wakes the reader thread; never blocks a page
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._reader: threading.Thread | None = None
        self._closed = self._stop_reader = False

    # ---- the page's side ----
    def submit(
        self,
        owner: str,
        task: Task | GPTTask,
        model_config: AnyConfig | GPTConfig,  # a Transformer's, an RNN's, or a GPT's (then `gpt` says the rest)
        train_config: TrainConfig | GPTTrainConfig,
        *,
        name: str | None = None,
        snapshot_every: int | None = None,
        probe: tuple[str, str] | None = None,
        alive: Callable[[], bool] | None = None,
        heartbeat_timeout: float | None = 180.0,
        gpt: GPTRun | None = None,
    ) -> JobHandle:
        """Queue a job for `owner` (the browser session id); raises a TrainingLimitError when a limit is reached."""
        if train_config.steps > self.settings.max_steps:
            raise TooManyStepsError(train_config.steps, self.settings.max_steps)
        job = JobHandle(
            self, next(self._ids), owner, task, model_config, train_config, name=name or task.name,
            snapshot_every=snapshot_every, probe=probe, alive=alive, heartbeat_timeout=heartbeat_timeout,
            max_snapshots=self.settings.max_snapshots, gpt=gpt,
        )  # fmt: skip
        with self._lock:
            if self._closed:
                raise PoolClosedError()
            if any(other.owner == owner and other.stop_requested_at is None for other in self._active.values()):
                raise OwnerBusyError()
            if len(self._queue) >= self.settings.max_queue:
                raise QueueFullError(self.settings.max_queue)
            self._queue.append(job)
            self._active[job.id] = job
            if self._reader is None:
                self._reader = threading.Thread(target=self._read_loop, name="training-pool-reader", daemon=True)
                self._reader.start()
        self._wake()
        return job

    def job_of(self, owner: str) -> JobHandle | None:
        """The owner's queued or running job, if any."""
        return next((job for job in self.active_jobs() if job.owner == owner), None)

    def active_jobs(self) -> list[JobHandle]:
        """Jobs queued or running, oldest first."""
        with self._lock:
            return list(self._active.values())

    def queue_place(self, job: JobHandle) -> tuple[int | None, float | None]:
        """(position from 1, estimated seconds until it starts) of a queued job; (None, None) otherwise."""
        with self._lock:
            if job.status != QUEUED or job not in self._queue:
                return None, None
            position = self._queue.index(job) + 1
            rate = self._seconds_per_step()
            used = statistics.fmean(self._fractions) if self._fractions else 1.0
            busy = [
                0.0 if w.job.stop_requested_at is not None
                else seconds_left(w.job.train_config.steps, w.job.step, _rate_of(w.job) or rate, used,
                                  _budget(w.job), w.job.seconds)
                for w in self._workers if w.job is not None
            ]  # fmt: skip
            now = time.monotonic()  # workers still starting, and those not started yet, are free once started
            busy += [max(0.0, self._start_seconds - (now - w.started)) for w in self._workers if not w.ready]
            busy += [self._start_seconds] * max(0, self.settings.workers - len(self._workers))
            ahead = [
                seconds_left(j.train_config.steps, 0, rate, used, _budget(j))
                for j in itertools.islice(self._queue, position)
            ]
            return position, queue_waits(busy, ahead, self.settings.workers)[-1]

    def request_stop(self, job: JobHandle) -> None:
        """Called by JobHandle.stop: a queued job leaves the queue; a running one has its worker's flag raised."""
        with self._lock:
            queued = job in self._queue
            if queued:
                self._queue.remove(job)
                self._active.pop(job.id, None)
            for worker in self._workers:
                if worker.job is job:
                    worker.stop_flag.value = job.id
        if queued:
            job.finish(STOPPED)
        self._wake()

    def worker_pids(self) -> list[int]:
        """Pids of the worker processes now alive and ready (for tests and the operator)."""
        with self._lock:
            return [w.pid for w in self._workers if w.ready and w.pid is not None]

    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop every job, end the workers this pool started and its reader thread. Safe to call twice."""
        with self._lock:
            self._closed = True
            jobs = list(self._active.values())
        for job in jobs:
            job.stop(REASON_SHUTDOWN)
        deadline = time.monotonic() + timeout
        for job in jobs:
            job.join(max(0.0, deadline - time.monotonic()))
        with self._lock:
            self._stop_reader = True
        self._wake()
        if self._reader is not None and self._reader is not threading.current_thread():
            self._reader.join(max(0.1, deadline - time.monotonic()))
        with self._lock:
            workers, self._workers = self._workers, []
            left = list(self._active.values())
            self._active.clear()
            self._queue.clear()
        for worker in workers:
            if worker.ready:  # one still importing torch would only hear it later: it is ended below
                with contextlib.suppress(OSError):
                    worker.conn.send_bytes(pack("quit"))
        for worker in workers:
            if worker.ready and worker.process is not None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    worker.process.wait(max(0.1, deadline - time.monotonic()))
            worker.end()
        for job in left:
            if not job.finished:
                job.finish(STOPPED)

    # ---- the reader thread ----
    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # full: the reader is awake already
            os.write(self._wake_w, b"!")

    def _read_loop(self) -> None:
        while True:
            with self._lock:
                if self._stop_reader:
                    return
                workers = list(self._workers)
            owners: dict[object, Worker] = {w.conn: w for w in workers}  # wait() answers these very objects
            try:
                for ready in wait([self._wake_r, *(w.conn for w in workers)], timeout=TICK):
                    if ready == self._wake_r:
                        with contextlib.suppress(BlockingIOError):
                            os.read(self._wake_r, 4096)
                    elif owners[ready] in self._workers:
                        self._read(owners[ready])  # a worker that died reads as end of file: retired there
                self._watch(time.monotonic())
                self._dispatch()
                self._release_memory(time.monotonic())
            except Exception:  # a bug here must not leave every job hanging: log it and go on
                log.exception("training pool reader")
                time.sleep(TICK)

    def _read(self, worker: Worker) -> None:
        """Every message the worker has sent; a worker that sends garbage or hangs up is retired."""
        try:
            while worker in self._workers and worker.conn.poll():
                self._handle(worker, unpack(worker.conn.recv_bytes(MAX_MESSAGE_BYTES)))
        except (EOFError, OSError, WireError, KeyError, TypeError, ValueError) as exc:
            if not isinstance(exc, EOFError):
                log.warning("training worker %s sent a bad message (%s); replacing it", worker.pid, exc)
            self._retire(worker)

    def _handle(self, worker: Worker, message: Message) -> None:
        fields = message.fields
        if message.kind == "ready":
            worker.pid, worker.ready, self._failed_starts = int(fields["pid"]), True, 0
            self._start_seconds = time.monotonic() - worker.started
            return
        job = worker.job
        if job is None or fields.get("job") != job.id:
            return  # about a job the pool has already given up on
        if message.kind == "started":
            job.mark_running(int(fields["pid"]))
        elif message.kind == "stopping":
            worker.stop_acknowledged = True
        elif message.kind == "progress":
            job.add_progress(
                [int(s) for s in fields["steps"]], [float(x) for x in fields["losses"]],
                [(int(s), float(a)) for s, a in fields["accuracies"]], float(fields["seconds"]),
                _snapshots(message), {k: fields[k] for k in GPT_FIELDS if k in fields},
            )  # fmt: skip
        elif message.kind == "done":
            worker.release()
            self._finish_trained(job, message)
        elif message.kind == "failed":
            worker.release()
            self._finish(job, FAILED, failure=error_from_worker(fields.get("template"), fields.get("params")))

    def _finish_trained(self, job: JobHandle, message: Message) -> None:
        fields = message.fields
        try:
            blobs = message.blobs
            loaded = load_checkpoint_bytes(blobs["config.json"], blobs["model.safetensors"], job.name)
            if job.gpt_run is None:
                loaded = task_model(loaded)
            elif not isinstance(loaded, LoadedGPT):
                raise CheckpointError("a GPT job handed back a toy model")
        except (CheckpointError, KeyError) as exc:
            self._finish(job, FAILED, failure=JobFailedError(f"the trained model came back damaged ({exc})"))
            return
        steps, seconds, stopped = int(fields["steps"]), float(fields["seconds"]), bool(fields["stopped"])
        losses = [loss for _, loss in job.losses]
        result: TrainResult | GPTResult
        if isinstance(loaded, LoadedGPT):
            held = fields.get("held_out_loss")
            result = GPTResult(loaded, steps, seconds, None if held is None else float(held), stopped, losses)
        else:
            result = TrainResult(loaded, steps, seconds, float(fields["accuracy"]), stopped, losses)
        with self._lock:
            if steps:
                self._rates.append(seconds / steps)
            if not stopped:
                self._fractions.append(steps / job.train_config.steps)
        self._finish(job, STOPPED if stopped else DONE, result=result)

    def _finish(self, job: JobHandle, status: str, result=None, failure: TrainingError | None = None) -> None:
        with self._lock:
            self._active.pop(job.id, None)
            self._release_due = True
        job.finish(status, result, failure)

    def _release_memory(self, now: float) -> None:
        """Once a job has finished and the next one has been handed out (_dispatch), in this thread, not a page's:
        the sessions Streamlit dropped since (each with its trained model, archive and figures, all in reference
        cycles) are collected and the heap glibc kept is given back (services/allocator.py; docs/capacity.md, "Memory").
        At most once in RELEASE_EVERY seconds; a finish within that waits for the next round."""
        with self._lock:
            due = self._release_due and now - self._last_release >= RELEASE_EVERY
            if due:
                self._release_due, self._last_release = False, now
        if due:
            release_freed_memory()

    def _retire(self, worker: Worker, failure: TrainingError | None = None) -> None:
        """End a worker (dead, hung or over time). Its job fails with `failure` (or as crashed), or ends as
        stopped when a stop was asked for; _dispatch starts a replacement."""
        with self._lock:
            if worker in self._workers:
                self._workers.remove(worker)
        code = worker.end()
        if not worker.ready:
            self._failed_starts += 1
        job = worker.release()
        if job is None:
            log.warning("training worker %s ended (exit code %s)", worker.pid, code)
        elif failure is None and job.stop_requested_at is not None:
            self._finish(job, STOPPED)
        else:
            log.warning("training worker %s ended (exit code %s) during job %s", worker.pid, code, job.id)
            self._finish(job, FAILED, failure=failure or WorkerCrashedError(code))

    def _watch(self, now: float) -> None:
        """Stop jobs nobody watches; end workers that ignore Stop or run past the time limit."""
        with self._lock:
            jobs = list(self._active.values())
            busy = [(w, w.job) for w in self._workers if w.job is not None]
            starting = [w for w in self._workers if not w.ready]
        for worker in starting:
            if now - worker.started > START_LIMIT:
                log.warning("a training worker was not ready after %.0f s; replacing it", START_LIMIT)
                self._retire(worker)
        if now - self._last_watchdog >= WATCHDOG_EVERY:
            self._last_watchdog = now
            for job in jobs:
                if job.stop_requested_at is None and (reason := job.watchdog_reason(now)):
                    job.stop(reason)
        for worker, job in busy:
            if now - worker.job_started > self.settings.time_limit:
                self._retire(worker, TimeLimitError(self.settings.time_limit))
            elif (
                job.stop_requested_at is not None and not worker.stop_acknowledged
                and now - max(job.stop_requested_at, worker.job_started) > self.settings.stop_grace
            ):  # fmt: skip
                log.warning("training worker %s did not acknowledge Stop; replacing it", worker.pid)
                self._retire(worker)

    def _dispatch(self) -> None:
        """Start the workers demand calls for, then hand queued jobs to idle workers, first come first served."""
        with self._lock:
            if self._closed:
                return
            if self._failed_starts >= FAILED_STARTS_ALLOWED:
                self._give_up_starting()
                return
            demand = len(self._queue) + sum(1 for w in self._workers if w.job is not None)
            self._wanted = min(self.settings.workers, max(self._wanted, demand))
            missing = self._wanted - len(self._workers)
        for _ in range(missing):
            self._start_worker()
        with self._lock:
            handed = []
            for worker in self._workers:
                if worker.idle and self._queue:
                    job = self._queue.popleft()
                    worker.job = job
                    handed.append((worker, job))
        for worker, job in handed:
            try:
                worker.take(job, self._job_frame(job))
            except OSError:  # died before it could take the job: not the job's fault, so it queues again
                worker.release()
                with self._lock:
                    self._queue.appendleft(job)
                job.mark_queued()
                self._retire(worker)
                if job.stop_requested_at is not None:
                    self.request_stop(job)
            else:
                job.mark_running(worker.pid)

    def _start_worker(self) -> None:
        worker = Worker(self.settings)
        try:
            worker.start()
        except Exception as exc:  # e.g. out of processes or memory: counted, and retried on the next round
            log.warning("a training worker could not start: %s", exc)
            worker.end()
            self._failed_starts += 1
            return
        with self._lock:
            closed = self._closed
            if not closed:
                self._workers.append(worker)
        if closed:  # shut down while it was starting
            worker.end()

    def _give_up_starting(self) -> None:
        """Workers keep dying before they are ready: fail the queued jobs with a message (lock held)."""
        log.error("%d training workers in a row died before they were ready", self._failed_starts)
        self._failed_starts, self._wanted = 0, len(self._workers)
        jobs, self._queue = list(self._queue), deque()
        for job in jobs:
            self._active.pop(job.id, None)
            job.finish(FAILED, failure=WorkersCannotStartError())

    def _job_frame(self, job: JobHandle) -> bytes:
        """The job description a worker needs, as JSON: names and plain dicts, no Python objects."""
        return pack("job", {
            "job": job.id, "task": job.task.name, "architecture": job.model_config.arch,
            "model": job.model_config.to_dict(), "train": asdict(job.train_config), "probe": list(job.probe),
            "snapshot_every": job.snapshot_every, "max_snapshots": job.max_snapshots, "name": job.name,
            "gpt": job.gpt_run.to_dict() if job.gpt_run else None,
        })  # fmt: skip

    def _seconds_per_step(self) -> float:
        """Measured seconds per step: of the jobs running now, else of recent jobs, else a default (lock held)."""
        running = [r for w in self._workers if w.job is not None and (r := _rate_of(w.job))]
        if running:
            return statistics.fmean(running)
        return statistics.median(self._rates) if self._rates else DEFAULT_SECONDS_PER_STEP


def _budget(job: JobHandle) -> float | None:
    """A GPT run's time budget in seconds (it ends at its minutes), or None."""
    minutes = getattr(job.train_config, "minutes", None)
    return None if minutes is None else 60.0 * minutes


def _rate_of(job: JobHandle) -> float | None:
    """A running job's own seconds per step, once a few steps tell."""
    step, seconds = job.step, job.seconds
    return seconds / step if step >= 3 and seconds > 0 else None


def _snapshots(message: Message) -> list[Snapshot]:
    """The snapshots in a progress message, by step: safetensors arrays named "<step>/<attention>", (H, Lq, Lk)."""
    if "snapshots" not in message.blobs:
        return []
    by_step: dict[int, dict[str, np.ndarray]] = defaultdict(dict)
    for key, weights in arrays_from_bytes(message.blobs["snapshots"]).items():
        step, _, name = key.partition("/")
        if weights.dtype != np.float32 or weights.ndim != 3:
            raise WireError(f"snapshot {key} is {weights.dtype} {weights.shape}, not float32 (H, Lq, Lk)")
        by_step[int(step)][name] = weights
    return [Snapshot(step, by_step[step]) for step in sorted(by_step)]


_pool: TrainingPool | None = None
_pool_lock = threading.Lock()


def get_pool() -> TrainingPool:
    """The server's one pool, made on first use from ATTENTION_LAB_TRAIN_* and shut down when the process exits."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = TrainingPool(PoolSettings.from_env())
            atexit.register(_pool.shutdown)
        return _pool
