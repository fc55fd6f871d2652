"""Before the server says it is ready: what the first visitor of a deep link would otherwise wait for.

On a fresh server the first visitor's run imported the app's modules (torch, plotly, every page's glue: ~3–6 s on
this machine), loaded the default model and ran its first trace, so the first visitor of a shared /attention link
waited 1.74× as long as the second (bench/ui_latency.py --cases cold, docs/streamlit-internals.md). serve.py's
st.App lifespan calls `warm()` before the server answers its health check; nothing here needs a session.
"""

from __future__ import annotations

import ast
import importlib
import logging
import time
from pathlib import Path

from attention_lab.paths import APP_ROOT

from .extra_models import extra_model, extra_model_names
from .models import DEFAULT_MODEL, shared_model
from .trace_cache import traced

_LOG = logging.getLogger(__name__)


def app_imports(root: Path = APP_ROOT) -> list[str]:
    """The modules app.py and every page script import (read from their source, in order, each once)."""
    names: dict[str, None] = {}
    for path in [root / "app.py", *sorted((root / "pages").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(dict.fromkeys(alias.name for alias in node.names))
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names[node.module] = None
    return list(names)


def warm(root: Path = APP_ROOT) -> dict[str, float]:
    """Import what the app's scripts import, load the default model and trace its example input; seconds per part.
    A part that fails is logged and skipped: a cold first visitor is better than a server that does not start."""
    took: dict[str, float] = {}
    started = time.perf_counter()
    for name in app_imports(root):
        try:
            importlib.import_module(name)
        except Exception:  # the visitor's run will say what is wrong
            _LOG.warning("warm: could not import %s", name, exc_info=True)
    took["imports"] = time.perf_counter() - started
    started = time.perf_counter()
    try:
        loaded = shared_model(DEFAULT_MODEL)
        took["model"] = time.perf_counter() - started
        started = time.perf_counter()
        traced(loaded, loaded.task.example, None)  # the server's shared trace of the page's default input
        took["trace"] = time.perf_counter() - started
    except Exception:  # the visitor's run will say it
        _LOG.warning("warm: the default model's first trace failed", exc_info=True)
    if extra_model_names():  # the folders the server was started with (--model-dir): a class's first visitor waits less
        started = time.perf_counter()
        for name in extra_model_names():
            try:
                extra_model(name)
            except Exception:  # the picker will say why when it is picked
                _LOG.warning("warm: the folder model %s could not be loaded", name, exc_info=True)
        took["folders"] = time.perf_counter() - started
    return took
