"""deploy/haproxy.cfg for N app servers: the file compose and the tests use, with one `server` line more for each
server past the two it names (its backend is the file's last section), and the variables it reads."""

from __future__ import annotations

from collections.abc import Sequence

from attention_lab.paths import APP_ROOT

HAPROXY = "/usr/sbin/haproxy"
CONFIG = APP_ROOT / "deploy" / "haproxy.cfg"
NAMED_IN_CONFIG = 2  # app1 and app2


def server_name(index: int) -> str:
    """app1, app2, … as the configuration and its sticky cookie name them (index from 0)."""
    return f"app{index + 1}"


def config_text(servers: int) -> str:
    """deploy/haproxy.cfg, with a `server appK` line added for K = 3 … servers."""
    text = CONFIG.read_text()
    extra = [f'    server {server_name(i)} "${{{server_name(i).upper()}_ADDR}}" cookie {server_name(i)}'
             for i in range(NAMED_IN_CONFIG, servers)]  # fmt: skip
    return text.rstrip("\n") + "\n" + "".join(line + "\n" for line in extra)


def config_env(bind: str, addresses: Sequence[str]) -> dict[str, str]:
    """The variables the configuration reads: HAPROXY_BIND, and APPk_ADDR (host:port) for each server in order (at
    least the two the file names)."""
    return {"HAPROXY_BIND": bind, **{f"{server_name(i).upper()}_ADDR": a for i, a in enumerate(addresses)}}
