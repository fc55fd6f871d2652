"""Helpers for the Train page's AppTests: open the page, press Start, read figures, wait for the pool."""

from __future__ import annotations

import base64
import time
from dataclasses import replace

import numpy as np
from streamlit.testing.v1 import AppTest

from .charts import charts_of

WAIT = 120.0  # seconds any one wait may take on a loaded 2-core machine (a new worker imports torch first)


def open_train(lang: str = "en") -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/train.py").run()
    assert not at.exception
    return at


def start(at: AppTest) -> None:
    at.button(key="train_start").click().run()


def set_run(at: AppTest, task: str = "translate", steps: int = 10, arch: str = "transformer") -> None:
    """A run of `steps` steps exactly (the "after steps" rule) of `task`."""
    if arch != "transformer":
        at.radio(key="train_arch").set_value(arch).run()
    at.selectbox(key="train_task").set_value(task)
    at.radio(key="train_rule").set_value("after steps")
    at.number_input(key="train_steps").set_value(steps)


def figure(at: AppTest, key: str) -> dict:
    return next(c.spec for c in charts_of(at) if c.key == key)


def heatmap_z(trace: dict) -> np.ndarray:
    """A heatmap's z as plotly's JSON carries it (a typed array in base64, or nested lists)."""
    z = trace["z"]
    if isinstance(z, dict):
        shape = tuple(int(n) for n in z["shape"].split(","))
        return np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(shape)
    return np.asarray(z, dtype=np.float32)


def texts(elements) -> list[str]:
    return [e.value for e in elements]


def wait_for(condition, timeout: float = WAIT, what: str = "the condition") -> None:
    """Poll until condition() is true."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def set_limits(pool, **settings) -> None:
    """Change the pool's limits (the train_pool fixture restores them)."""
    pool.settings = replace(pool.settings, **settings)
