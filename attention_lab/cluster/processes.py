"""Starting and stopping the processes the launcher (and the tests) start: only ever by their own handle."""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable

_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def free_port() -> int:
    """A TCP port free on the loopback interface right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def find_binary(path: str) -> str | None:
    """The binary at `path`, or by its name on PATH, or None."""
    return path if os.access(path, os.X_OK) else shutil.which(os.path.basename(path))


def end_with_parent() -> None:
    """In a child before exec: on Linux, receive SIGTERM when the launcher dies, even by SIGKILL, so no server is
    left holding a port. Elsewhere nothing."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def stop_process(process: subprocess.Popen, grace: float = 10.0) -> None:
    """Terminate a process started here (kill it after `grace` s) and reap it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=grace)


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float, log_tail: Callable[[], str], what: str) -> None:
    """Poll url's /_stcore/health until it answers 200; RuntimeError (with the log's tail) if proc exits first or
    `timeout` s pass."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}:\n{log_tail()}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not answer {url}/_stcore/health within {timeout} s:\n{log_tail()}")
        time.sleep(0.1)
