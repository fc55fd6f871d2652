"""app.py's hook for services.loop_wakes: the server's event loop wakes once per burst of messages."""

from __future__ import annotations

import functools

from streamlit.runtime import Runtime

from services.loop_wakes import coalesce_wakes


@functools.cache
def coalesce_server_wakes_once() -> bool:
    """Patch the running server's event loop, once per process (app.py runs every rerun); False where there is no
    server (AppTest) or its loop is not asyncio's selector loop."""
    if not Runtime.exists():
        return False
    return coalesce_wakes(Runtime.instance()._get_async_objs().eventloop) is not None
