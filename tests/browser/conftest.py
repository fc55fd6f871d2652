"""Browser fixtures: one app server and one Chromium per test session.

Outside CI a missing Chromium skips these tests with the reason; in CI (CI set) it fails them,
so a browser test can never be skipped silently there.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

import pytest

from .figures import SUBPAGE_PROBES
from .harness import CHROMIUM, chromium, chromium_available, new_page, server_log_tail, streamlit_server


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


def _record_probes(page) -> list:
    """404 responses of the frontend's health probes under a subpage path (streamlit#7074)."""
    found = []
    page.on("response", lambda r: r.status == 404 and urlparse(r.url).path.endswith(SUBPAGE_PROBES) and found.append(r))
    return found


@pytest.fixture
def probes(page):
    """The subpage probe 404s of the `page` fixture, recorded so tests can excuse exactly those."""
    return _record_probes(page)


@pytest.fixture
def probes_for():
    """The same for a page a test makes itself."""
    return _record_probes


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test also reports the app server's log, so a CI failure can be read afterwards."""
    report = yield
    if report.failed and call.when == "call":
        report.sections.append(("streamlit server log (tail)", server_log_tail()))
    return report
