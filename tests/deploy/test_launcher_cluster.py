"""`attention-lab --servers N`, started for real: the app command itself starts N app servers, a redis-server and
HAProxy (deploy/haproxy.cfg), a teacher on one server leads a student on the other, and the launcher stops exactly
what it started: on SIGTERM, and when it is killed outright (its children end with it)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

from attention_lab.cluster import launch
from attention_lab.cluster.haproxy_config import config_env, config_text
from attention_lab.paths import APP_ROOT
from devtools.classroom import close_dialog, go_to, join, start_class, wait_for_step
from devtools.harness import exceptions_on, free_port, new_page
from devtools.redis_server import require_redis_server

from .balancer import COOKIE, check_config, parse_log_line, require_haproxy

FOLLOW_TIMEOUT = 30.0  # s: generous for a loaded CI machine
START_TIMEOUT = 120.0


@dataclass
class Launched:
    """The launcher this test started: its process, public URL, output file, and the processes it started."""

    process: subprocess.Popen
    url: str
    output: Path
    children: list[psutil.Process]

    def logs(self) -> Path:
        found = re.search(r"\(logs: (\S+)\)", self.output.read_text())
        assert found, self.output.read_text()
        return Path(found[1])

    def servers_of_websockets(self) -> set[str]:
        """The app servers haproxy sent a websocket to, from its log."""
        lines = (self.logs() / "haproxy.log").read_text(errors="replace").splitlines()
        return {r.server for r in map(parse_log_line, lines) if r is not None and r.websocket}


@contextmanager
def launched(tmp_path: Path, servers: int = 2) -> Iterator[Launched]:
    """`python -m attention_lab --servers N` on a free loopback port, until its URL answers; SIGTERM afterwards."""
    require_haproxy()
    require_redis_server()
    port = free_port()
    output = tmp_path / "launcher.out"
    command = [sys.executable, "-m", "attention_lab", "--servers", str(servers), "--server.port", str(port),
               "--server.address", "127.0.0.1", "--server.fileWatcherType", "none"]  # fmt: skip
    env = {**os.environ, "ATTENTION_LAB_TRAIN_WORKERS": "1"}
    with output.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while "URL:" not in output.read_text():
            assert process.poll() is None, output.read_text()
            assert time.monotonic() < deadline, output.read_text()
            time.sleep(0.2)
        yield Launched(process, url, output, psutil.Process(process.pid).children())
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=60)


def wait_gone(processes: list[psutil.Process], timeout: float = 30.0) -> list[psutil.Process]:
    """The processes still running after `timeout` s (none, if they all ended)."""
    _gone, alive = psutil.wait_procs(processes, timeout=timeout)
    return alive


def test_a_teacher_on_one_server_leads_a_student_on_the_other_and_sigterm_stops_everything(browser, tmp_path):
    with launched(tmp_path) as cluster:
        names = sorted(p.name() for p in cluster.children)
        assert names.count("haproxy") == 1 and names.count("redis-server") == 1, names
        assert sum(1 for p in cluster.children if "streamlit" in " ".join(p.cmdline())) == 2, names
        teacher, student = new_page(browser, (1280, 720)), new_page(browser, (390, 844))
        try:
            code, _ = start_class(teacher, cluster.url)
            close_dialog(teacher)
            (teacher_server,) = [c["value"] for c in teacher.context.cookies() if c["name"] == COOKIE]
            other = "app2" if teacher_server == "app1" else "app1"
            student.context.add_cookies([{"name": COOKIE, "value": other, "url": cluster.url}])
            join(student, cluster.url, code)
            teacher.get_by_text("1 student connected").wait_for(timeout=30_000)
            go_to(teacher, "Step by step", "Attention, step by step")
            wait_for_step(student, 1, FOLLOW_TIMEOUT)  # across the two servers, through the launcher's Redis
            assert exceptions_on(teacher) == [] and exceptions_on(student) == []
            assert cluster.servers_of_websockets() == {"app1", "app2"}
        finally:
            teacher.context.close()
            student.context.close()
        cluster.process.send_signal(signal.SIGTERM)
        assert cluster.process.wait(timeout=60) == 0
        assert wait_gone(cluster.children) == []
        assert "stopped" in cluster.output.read_text()
        assert not cluster.logs().exists()  # a clean stop leaves no folder behind


def test_a_launcher_killed_outright_takes_its_servers_with_it(tmp_path):
    with launched(tmp_path) as cluster:
        assert len(cluster.children) == 4
        cluster.process.kill()  # SIGKILL: the launcher cleans nothing up itself
        cluster.process.wait(timeout=30)
        assert wait_gone(cluster.children) == []
        shutil.rmtree(cluster.logs())  # what a killed launcher leaves: the folder of its logs


def test_without_haproxy_the_launcher_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr(launch, "HAPROXY", "/nonexistent/haproxy")
    monkeypatch.setenv("PATH", "/nonexistent")
    made = set(Path(tempfile.gettempdir()).glob("attention-lab-*"))
    assert launch.serve(2, []) == 1
    assert "--servers 2 needs haproxy (Debian: apt-get install haproxy)" in capsys.readouterr().out
    assert set(Path(tempfile.gettempdir()).glob("attention-lab-*")) == made  # nothing started, nothing left


def test_a_bad_port_is_a_message_not_a_traceback(capsys):
    assert launch.serve(2, ["--server.port", "http"]) == 1
    assert "--server.port must be a number from 1 to 65535, not 'http'" in capsys.readouterr().out


@pytest.mark.parametrize("servers", [2, 3, 5])
def test_haproxy_accepts_the_configuration_for_n_servers(tmp_path, servers):
    config = tmp_path / "haproxy.cfg"
    config.write_text(config_text(servers))
    env = config_env("127.0.0.1:18080", [f"127.0.0.1:{9000 + i}" for i in range(servers)])
    checked = check_config(require_haproxy(), env, config)
    assert checked.returncode == 0 and "Configuration file is valid" in checked.stdout, checked
    lines = [line.split() for line in config.read_text().splitlines() if line.strip().startswith("server ")]
    assert [line[1] for line in lines] == [f"app{i + 1}" for i in range(servers)]
    assert [line[-1] for line in lines] == [line[1] for line in lines]  # each one's sticky cookie is its name


def test_two_servers_use_the_deploy_file_as_it_is():
    assert config_text(2) == (APP_ROOT / "deploy" / "haproxy.cfg").read_text()
