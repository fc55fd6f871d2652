"""A worker process as the pool sees it: the process, its pipe, its stop flag and the job it runs."""

from __future__ import annotations

import time
from multiprocessing.context import BaseContext

from . import worker
from .handle import JobHandle
from .settings import PoolSettings

KILL_WAIT = 1.0  # seconds after SIGTERM before SIGKILL


class Worker:
    """One worker process. Only the pool's reader thread changes it."""

    def __init__(self, ctx: BaseContext, settings: PoolSettings, number: int):
        self.conn, child_conn = ctx.Pipe(duplex=True)
        self.stop_job = ctx.RawValue("q", 0)  # id of the job this worker must stop; checked every step
        self.process = ctx.Process(
            target=worker.main, args=(child_conn, self.stop_job, settings.torch_threads, settings.nice),
            name=f"attention-lab-train-{number}", daemon=True,
        )  # fmt: skip
        self._child_conn = child_conn
        self.pid: int | None = None  # as the worker reported it once ready
        self.ready = False
        self.job: JobHandle | None = None
        self.job_started = 0.0  # time.monotonic() when the job was handed over
        self.stop_acknowledged = False

    def start(self) -> None:
        self.process.start()
        self._child_conn.close()  # the child has its own copy; ours would hide the child's end of file

    @property
    def sentinel(self) -> int:
        return self.process.sentinel

    @property
    def idle(self) -> bool:
        return self.ready and self.job is None

    def take(self, job: JobHandle, frame: bytes) -> None:
        """Hand a job over (raises OSError when the process is gone)."""
        self.job, self.job_started, self.stop_acknowledged = job, time.monotonic(), False
        self.conn.send_bytes(frame)

    def release(self) -> JobHandle | None:
        job, self.job = self.job, None
        return job

    def end(self) -> int | None:
        """Make sure the process is gone (SIGTERM, then SIGKILL) and reaped; its exit code."""
        self.conn.close()
        if self.process.pid is None:  # never started
            return None
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(KILL_WAIT)
            if self.process.is_alive():
                self.process.kill()
        self.process.join(KILL_WAIT)
        return self.process.exitcode
