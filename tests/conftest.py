"""Fixtures every test folder shares: one app server and one Chromium per test session.

They live here, not in tests/browser/, so the browser, deploy and hostile folders use the SAME session
browser: Playwright's sync API cannot start a second instance while one runs in the process.
Outside CI a missing Chromium skips the browser tests with the reason; in CI (CI set) it fails them,
so a browser test can never be skipped silently there.
"""

from __future__ import annotations

import os

import pytest
import torch

from devtools.harness import CHROMIUM, chromium, chromium_available, new_page, streamlit_server

# One intra-op thread in each test process, as app.py sets for the server. The suite runs two processes on two cores
# beside the app servers and Chromium; with torch's default of one thread per core, a parallel op waited for a thread
# another process had taken off its core: the RNN's 300 training steps took 68 s in the suite against 9 s alone.
torch.set_num_threads(1)


@pytest.fixture(autouse=True)
def one_torch_thread():
    """Put the count back after each test: `python -m model.train` sets its --threads (default 2) in-process, and a
    later test comparing bit-for-bit ran its matmuls split differently (tests/model/test_threads.py failed in CI)."""
    yield
    torch.set_num_threads(1)


@pytest.fixture(scope="session")
def app_url():
    # One training worker, whatever the machine: a run that is stopped must free the only worker for the next.
    with streamlit_server(env={"ATTENTION_LAB_TRAIN_WORKERS": "1"}) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    if not chromium_available():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(f"browser tests must run in CI: {message}")
        pytest.skip(message)
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser):
    page = new_page(browser)
    yield page
    page.context.close()
