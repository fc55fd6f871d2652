"""Browser-test fixtures beyond the shared server and Chromium (tests/conftest.py): subpage probes, and the
server's log in a failure report."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from devtools.harness import new_page, server_log_tail, streamlit_server
from devtools.redis_server import redis_server

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


@pytest.fixture(scope="session")
def servers_on_one_redis(tmp_path_factory):
    """(server A's URL, server B's URL): two app servers on one real redis-server, started once per test process for
    the class tests across servers (each starts its own class, under its own room code). Two fresh servers and their
    first pages cost ~10-15 s, which each of those tests paid again."""
    with redis_server(tmp_path_factory.mktemp("redis")) as redis:
        env = {"ATTENTION_LAB_REDIS_URL": redis.url}
        with streamlit_server(env=env) as server_a, streamlit_server(env=env) as server_b:
            yield server_a, server_b


@pytest.fixture
def class_across_two_servers(browser, servers_on_one_redis):
    """(teacher, student, server A, server B): a teacher's page for server A and a student's for server B, each in its
    own browser context (1280×720), closed after the test (devtools.classroom.class_across_two_servers, on the shared
    servers)."""
    teacher, student = new_page(browser, (1280, 720)), new_page(browser, (1280, 720))
    yield teacher, student, *servers_on_one_redis
    teacher.context.close()
    student.context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test also reports the app server's log, so a CI failure can be read afterwards."""
    report = yield
    if report.failed and call.when == "call":
        report.sections.append(("streamlit server log (tail)", server_log_tail()))
    return report
