"""Import what the first page needs in a background thread while Streamlit starts (the `attention-lab` command).

A fresh server's first page used to import torch, plotly and the model inside its first script run, after the
browser had loaded the page and connected: ~85 % of that run's time was torch's import (docs/capacity.md). Started
with the server, the same imports overlap Streamlit's start and the browser's loading. Only the layers below ui/ are
imported here (no Streamlit glue runs before Streamlit's runtime exists); a script run that needs a module still
being imported waits for it on Python's import lock, so nothing is imported twice or half.
"""

from __future__ import annotations

import importlib
import threading

FIRST_PAGE_IMPORTS = ("torch", "numpy", "pandas", "plotly.graph_objects", "model", "viz", "views", "services.rooms")


def warm_imports(modules: tuple[str, ...] = FIRST_PAGE_IMPORTS) -> list[str]:
    """Import `modules` in turn; the names that failed (the page's own import then shows why, as before)."""
    failed = []
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # a warm-up never stops the server: the script run imports it again and reports it
            failed.append(name)
    return failed


def warm_in_background(modules: tuple[str, ...] = FIRST_PAGE_IMPORTS) -> threading.Thread:
    thread = threading.Thread(target=warm_imports, args=(modules,), name="warm-imports", daemon=True)
    thread.start()
    return thread
