"""What the tests that start real servers (redis-server, haproxy) share: finding the Debian binary, and stopping
only the process they started."""

from __future__ import annotations

import os

import pytest

from attention_lab.cluster.processes import find_binary, stop_process

__all__ = ["require_binary", "stop_process"]


def require_binary(path: str, package: str, what: str) -> str:
    """The binary at `path` (or on PATH), or skip with the reason; in CI (CI set) fail instead, never skip."""
    name = os.path.basename(path)
    binary = find_binary(path)
    if binary is None:
        message = f"no {name} at {path} (apt-get install {package})"
        if os.environ.get("CI"):
            pytest.fail(f"{what} must run in CI: {message}")
        pytest.skip(message)
    return binary
