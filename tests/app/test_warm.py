"""ui/warm.py and serve.py: the server's start imports what the app's scripts import and traces the default model's
example input once, into the server's shared trace cache; `streamlit run serve.py` serves app.py as an st.App."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import torch
from streamlit.web.server.app_discovery import discover_asgi_app

from model import Trace, load_pretrained
from ui import trace_cache, warm
from ui.models import DEFAULT_MODEL, shared_model

ROOT = Path(__file__).resolve().parents[2]


def test_the_imports_are_every_module_app_py_and_the_pages_name():
    names = warm.app_imports(ROOT)
    assert {"streamlit", "torch", "ui.classroom.follow", "ui.attention.page", "ui.navigation"} <= set(names), names
    pages = sorted((ROOT / "pages").glob("*.py"))
    assert len(pages) >= 8
    for page in pages:  # each page's own render module is among them (read here independently, with ast)
        tree = ast.parse(page.read_text(encoding="utf-8"))
        found = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert found <= set(names), (page.name, found - set(names))
    assert len(names) == len(set(names))


def test_warm_loads_the_default_model_and_caches_its_first_trace():
    took = warm.warm(ROOT)
    assert set(took) == {"imports", "model", "trace"}, took  # no part failed
    loaded = shared_model(DEFAULT_MODEL)
    assert loaded.name == DEFAULT_MODEL and "ui.attention.page" in sys.modules
    calls: list[str] = []

    def computed() -> Trace:
        calls.append("run")
        return loaded.run(loaded.task.example, None)

    trace = trace_cache.SHARED_TRACES.get((loaded.model, loaded.task.example, "", trace_cache.NO_ABLATION), computed)
    assert calls == [], "the example's trace was not in the server's cache after warm()"
    fresh = load_pretrained(DEFAULT_MODEL).run(loaded.task.example, None)  # an independent run, not the cache's
    assert trace.names() == fresh.names()
    for name in ("encoder.0.self_attn.weights", "logits"):
        # float32's rounding, relative: another test of this process may have left a different thread count
        torch.testing.assert_close(trace[name], fresh[name], rtol=1e-5, atol=1e-5, msg=name)


def test_streamlit_run_serve_py_serves_the_app_as_an_st_app():
    found = discover_asgi_app(ROOT / "serve.py")
    assert found.is_asgi_app and found.import_string == "serve:app", found
    tree = ast.parse((ROOT / "serve.py").read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "App"]
    assert [ast.literal_eval(c.args[0]) for c in calls] == ["app.py"]
    assert [k.arg for c in calls for k in c.keywords] == ["lifespan"]
