"""The balancer test's fixtures: a browser (the browser tests' own fixture) and failure reports that also show
the app servers' and haproxy's logs."""

from __future__ import annotations

import pytest

from ..browser.conftest import browser  # noqa: F401  (a fixture: one Chromium for this directory)
from ..browser.harness import server_log_tail

BALANCER_LOGS: list = []  # the running Balancer, while one runs (for failure reports)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and call.when == "call":
        report.sections.append(("streamlit server logs (tail)", server_log_tail()))
        for balancer in BALANCER_LOGS:
            report.sections.append(("haproxy log (tail)", balancer.log_tail()))
    return report
