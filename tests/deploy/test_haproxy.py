"""deploy/haproxy.cfg, the file compose uses, run by the Debian haproxy in front of two app servers that share a
real redis-server; Chromium goes through it: pages load, each tab keeps one server (its websocket included), a
teacher on one server leads a student on the other, and a training run completes.

Which server took a request is read from haproxy's own log (`option httplog`, the sticky cookie captured).
"""

from __future__ import annotations

import re
import subprocess
import sys
from contextlib import ExitStack

import pytest
from playwright.sync_api import expect

from attention_lab.chart import CHARTS
from devtools.classroom import close_dialog, go_to, join, start_class, wait_for_step
from devtools.harness import exceptions_on, free_port, new_page, open_page, streamlit_server
from devtools.redis_server import redis_server

from ..browser.test_train import go, train_tiny
from .balancer import COOKIE, check_config, haproxy, require_haproxy
from .conftest import BALANCER_LOGS
from .dockerfile import instructions

pytestmark = pytest.mark.browser
SERVERS = ("app1", "app2")
FOLLOW_TIMEOUT = 30.0  # s: generous for a loaded CI machine


@pytest.fixture(scope="module")
def balancer(tmp_path_factory):
    """redis-server, two app servers using it, and haproxy in front of them; each stopped by its own handle."""
    require_haproxy()
    workdir = tmp_path_factory.mktemp("balancer")
    with ExitStack() as stack:
        redis = stack.enter_context(redis_server(workdir))
        env = {"ATTENTION_LAB_REDIS_URL": redis.url, "ATTENTION_LAB_TRAIN_WORKERS": "1"}
        urls = {name: stack.enter_context(streamlit_server(env=env)) for name in SERVERS}
        running = stack.enter_context(haproxy(urls, workdir))
        BALANCER_LOGS.append(running)
        stack.callback(BALANCER_LOGS.remove, running)
        yield running


def server_of(page) -> str:
    """The app server the page's sticky cookie names."""
    values = [c["value"] for c in page.context.cookies() if c["name"] == COOKIE]
    assert len(values) == 1, page.context.cookies()
    return values[0]


def assert_kept_to(balancer, since: int, server: str) -> None:
    """Every request logged since `since` that carried the cookie for `server` was sent there by it, and the
    websocket among them."""
    carried = [r for r in balancer.requests(since) if r.request_cookie == server]
    assert carried, f"no request carried the cookie for {server}"
    assert {(r.server, r.cookie_state) for r in carried} == {(server, "V")}, carried
    sockets = [r for r in carried if r.websocket]
    assert sockets and all(r.status == 101 for r in sockets), sockets


def test_haproxy_accepts_the_configuration(balancer):
    checked = check_config(require_haproxy(), balancer.env)
    assert checked.returncode == 0 and "Configuration file is valid" in checked.stdout, checked
    missing = check_config(require_haproxy(), {k: v for k, v in balancer.env.items() if k != "APP2_ADDR"})
    assert missing.returncode != 0 and "server" in missing.stderr, missing  # the file really reads the variables


def test_the_image_health_check_passes_on_a_live_server_and_fails_on_a_closed_port(balancer):
    (health,) = [i for i in instructions() if i.keyword == "HEALTHCHECK"]
    form = health.exec_form()
    assert form is not None, health  # HEALTHCHECK CMD ["python", "-c", …]
    python, flag, code = form
    assert (python, flag) == ("python", "-c") and "127.0.0.1:8501" in code

    def check(address: str) -> int:
        run = [sys.executable, "-c", code.replace("127.0.0.1:8501", address)]
        return subprocess.run(run, capture_output=True, timeout=30).returncode

    assert check(balancer.servers["app1"].removeprefix("http://")) == 0
    assert check(f"127.0.0.1:{free_port()}") != 0


def test_pages_load_each_tab_keeps_its_server_and_training_completes(browser, balancer):
    since = len(balancer.requests())
    page = new_page(browser)
    try:
        open_page(page, f"{balancer.url}/?lang=en")
        server = server_of(page)
        assert server in SERVERS
        first = balancer.requests(since)[0]
        # The first request carries no cookie; haproxy picks a server and inserts the cookie naming it.
        assert (first.path, first.server, first.cookie_state, first.cookie_action) == ("/?lang=en", server, "N", "I")
        assert page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').is_visible()
        go(page, "Attention")
        assert page.locator(f"{CHARTS} svg.main-svg").first.is_visible()
        train_tiny(page, steps=30)
        expect(page.get_by_text(re.compile(r"^Done: all 30 steps"))).to_be_visible(timeout=30_000)  # how it ended
        assert exceptions_on(page) == []
        assert server_of(page) == server
        assert_kept_to(balancer, since, server)
    finally:
        page.context.close()


def test_a_teacher_on_one_server_leads_a_student_on_the_other(browser, balancer):
    since = len(balancer.requests())
    teacher, student = new_page(browser, (1280, 720)), new_page(browser, (1280, 720))
    try:
        code, _ = start_class(teacher, balancer.url)
        close_dialog(teacher)
        teacher_server = server_of(teacher)
        student_server = next(s for s in SERVERS if s != teacher_server)
        # The student's browser was sent to the other server before (its cookie says so): the class must cross.
        student.context.add_cookies([{"name": COOKIE, "value": student_server, "url": balancer.url}])
        join(student, balancer.url, code)
        teacher.get_by_text("1 student connected").wait_for(timeout=30_000)
        go_to(teacher, "Step by step", "Attention, step by step")
        wait_for_step(student, 1, FOLLOW_TIMEOUT)  # the student's page followed the teacher's, through Redis
        assert exceptions_on(teacher) == [] and exceptions_on(student) == []
        assert (server_of(teacher), server_of(student)) == (teacher_server, student_server)
        assert_kept_to(balancer, since, teacher_server)
        assert_kept_to(balancer, since, student_server)
    finally:
        teacher.context.close()
        student.context.close()
