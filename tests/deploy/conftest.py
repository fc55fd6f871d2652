"""Failure reports of the balancer test that also show the app servers' and haproxy's logs (the browser is the
session's shared one, tests/conftest.py)."""

from __future__ import annotations

import pytest

from devtools.harness import server_log_tail

BALANCER_LOGS: list = []  # the running Balancer, while one runs (for failure reports)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and call.when == "call":
        report.sections.append(("streamlit server logs (tail)", server_log_tail()))
        for balancer in BALANCER_LOGS:
            report.sections.append(("haproxy log (tail)", balancer.log_tail()))
    return report
