"""A real redis-server (Debian package) on a free loopback port, in a temp dir, without persistence, for the tests
(attention_lab.cluster.redis_process starts it, as the launcher does).

Only the process started here is ever stopped, by its own handle. Outside CI a missing redis-server
skips the Redis tests with the reason; in CI (CI set) it fails them.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from attention_lab.cluster.redis_process import REDIS_SERVER
from attention_lab.cluster.redis_process import RedisProcess as RedisServer
from attention_lab.cluster.redis_process import start_redis as start_redis_server

from .processes import require_binary

__all__ = ["RedisServer", "redis_server", "require_redis_server", "start_redis_server"]


def require_redis_server() -> str:
    """The redis-server binary, or skip (fail in CI) with the reason."""
    return require_binary(REDIS_SERVER, "redis-server", "Redis tests")


@contextmanager
def redis_server(workdir: Path) -> Iterator[RedisServer]:
    """A redis-server for the duration of the block (a free port; one retry if another process took it)."""
    binary = require_redis_server()
    try:
        server = start_redis_server(binary, workdir)
    except RuntimeError:
        server = start_redis_server(binary, workdir)
    try:
        yield server
    finally:
        server.stop()
