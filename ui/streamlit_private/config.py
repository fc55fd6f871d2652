"""Read Streamlit's options without its config lock: every message a run sends asks for one (its cache size), and
the lock made a follower's run wait.

Streamlit's `config.get_option` takes a process-wide RLock on every call, and every ForwardMsg a script sends asks
for `global.minCachedMessageSize` through it (`populate_hash_if_needed`). The event loop thread, sending the
previous run's messages, asks too; when it is switched out while holding the lock, the script thread waits for
the lock and then for the GIL. py-spy put 36 % of a following student's /attention run (wall time) on that line
(docs/capacity.md §11). Once the options are parsed, reading one is a dict lookup, atomic under the GIL: the lock
only guards the parse, which a read never starts here (the parsed dict exists before any script runs).
"""

from __future__ import annotations

import functools
from typing import Any

from streamlit import config


def _read_without_lock(key: str, locked=config.get_option) -> Any:  # Streamlit's own, as imported
    """config.get_option(key) from the parsed options, without the lock; as Streamlit's before they are parsed or
    for an unknown key (its error)."""
    options = config._config_options  # replaced whole by a reparse, never changed in place
    option = options.get(key) if options is not None else None
    return locked(key) if option is None else option.value


def _is_streamlits_own(get_option) -> bool:
    """Whether config.get_option is Streamlit's own (AppTest swaps in a mock for each run, with its overrides)."""
    return getattr(get_option, "__module__", "") == config.__name__ and get_option.__qualname__ == "get_option"


@functools.cache
def read_options_without_lock_once() -> bool:
    """Install the lock-free read in Streamlit's config module, once per process (app.py runs every rerun); not
    over a mock (an AppTest run's options stay its own). Whether it was installed."""
    if not _is_streamlits_own(config.get_option):
        return False
    config.get_option = _read_without_lock
    return True
