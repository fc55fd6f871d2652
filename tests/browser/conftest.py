"""Browser-test fixtures beyond the shared server and Chromium (tests/conftest.py): subpage probes, and the
server's log in a failure report."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from devtools.harness import server_log_tail

from .figures import SUBPAGE_PROBES


def _record_probes(page) -> list:
    """404 responses of the frontend's health probes under a subpage path (streamlit#7074)."""
    found = []

    def record(response) -> None:
        if response.status == 404 and urlparse(response.url).path.endswith(SUBPAGE_PROBES):
            found.append(response)

    page.on("response", record)
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
