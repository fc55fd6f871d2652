"""What the tests that start real servers (redis-server, haproxy) share: finding the Debian binary, and stopping
only the process they started."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest


def require_binary(path: str, package: str, what: str) -> str:
    """The binary at `path` (or on PATH), or skip with the reason; in CI (CI set) fail instead, never skip."""
    name = os.path.basename(path)
    binary = path if os.access(path, os.X_OK) else shutil.which(name)
    if binary is None:
        message = f"no {name} at {path} (apt-get install {package})"
        if os.environ.get("CI"):
            pytest.fail(f"{what} must run in CI: {message}")
        pytest.skip(message)
    return binary


def stop_process(process: subprocess.Popen) -> None:
    """Terminate a process this test started (kill it after 10 s) and reap it."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
