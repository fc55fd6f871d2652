"""Browser fixtures: one app server and one Chromium per test session.

Outside CI a missing Chromium skips these tests with the reason; in CI (CI set) it fails them,
so a browser test can never be skipped silently there.
"""

from __future__ import annotations

import os

import pytest

from .harness import CHROMIUM, chromium, chromium_available, new_page, streamlit_server


@pytest.fixture(scope="session")
def app_url():
    with streamlit_server() as url:
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
