"""A worker process as the pool sees it: the process, its pipe, its stop flag and the job it runs.

Workers are fresh interpreters (`python -m services.training.worker`), never forks of the serving
process. Not multiprocessing's spawn or forkserver: both re-run the parent's `__main__` in each child,
and under Streamlit `__main__` is the app script (Streamlit runs pages as `__main__`), so every worker
would run the whole app. The worker inherits two file descriptors: its end of the pipe and the stop flag.
"""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import time
from pathlib import Path

from .handle import JobHandle
from .settings import PoolSettings
from .stopflag import StopFlag

ROOT = Path(__file__).resolve().parents[2]  # the repository: the worker runs from here, so `-m` finds it
WORKER_MODULE = "services.training.worker"
KILL_WAIT = 1.0  # seconds after SIGTERM before SIGKILL, and after SIGKILL before giving up on reaping


class Worker:
    """One worker process. Only the pool's reader thread changes it."""

    def __init__(self, settings: PoolSettings):
        self.settings = settings
        self.conn, self._child_conn = multiprocessing.Pipe(duplex=True)  # a socket pair; bytes only
        self.stop_flag = StopFlag.create()
        self.process: subprocess.Popen | None = None
        self.started = 0.0  # time.monotonic() at start
        self.pid: int | None = None  # as the worker reported it once ready
        self.ready = False
        self.job: JobHandle | None = None
        self.job_started = 0.0  # time.monotonic() when the job was handed over
        self.stop_acknowledged = False

    def start(self) -> None:
        """Start the process (returns at once; the worker says "ready" once it has imported torch)."""
        fds = (self._child_conn.fileno(), self.stop_flag.fileno())
        command = [
            sys.executable, "-m", WORKER_MODULE, "--conn", str(fds[0]), "--stop", str(fds[1]),
            "--threads", str(self.settings.torch_threads), "--nice", str(self.settings.nice),
        ]  # fmt: skip
        try:
            self.process = subprocess.Popen(
                command, cwd=ROOT, pass_fds=fds, stdin=subprocess.DEVNULL, start_new_session=True
            )
        finally:
            self._child_conn.close()  # the child has its own copy; ours would hide the child's end of file
        self.started = time.monotonic()

    @property
    def idle(self) -> bool:
        return self.ready and self.job is None

    def take(self, job: JobHandle, frame: bytes) -> None:
        """Hand a job over (raises OSError when the process is gone)."""
        self.job_started, self.stop_acknowledged = time.monotonic(), False
        self.conn.send_bytes(frame)

    def release(self) -> JobHandle | None:
        job, self.job = self.job, None
        return job

    def end(self) -> int | None:
        """Make sure the process is gone (SIGTERM, then SIGKILL) and reaped; its exit code (−signal if killed)."""
        self.conn.close()
        self._child_conn.close()
        try:
            if self.process is None:
                return None
            if self.process.poll() is None:
                self.process.terminate()
                try:
                    self.process.wait(KILL_WAIT)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    try:
                        self.process.wait(KILL_WAIT)
                    except subprocess.TimeoutExpired:
                        return None
            return self.process.returncode
        finally:
            self.stop_flag.close()
