"""Locust users that speak Streamlit's websocket protocol (devtools/load/protocol.py): no browser per session.

    locust -f bench/load/locustfile.py --headless --host http://127.0.0.1:8501 -u 40 -r 1 -t 5m Explorer

Users (choose them by class name on the command line):
  Explorer  opens /attention?model=reverse and, after a think time, types a new input (3 in 4) or picks another
            layer or head (1 in 4); each rerun is timed from the send to script_finished
  Trainer   opens /train and trains `reverse` again and again (the page's defaults: until 99 %, at most
            2000 steps), following the progress fragment's run_every timer like a browser
  Teacher   one per run: opens --class-page (step-by-step or attention), presses Start a class, then every
            --step-every seconds clicks Next (step-by-step) or types a new input (attention)
  Student   waits for the teacher's room, opens the same page with ?room=CODE and follows; each new view it shows
            is a "follow" sample: from the teacher's change being sent to the student's rerun finished with it

Every timed rerun is a Locust request (type "st"), so Locust's own statistics and CSV work; with --samples FILE
each one is also written as a JSON line (time, name, ms, users), and with --server-pid the server process's CPU
seconds and RSS (and its children's: the training workers) are sampled every 2 s into the same file, for
bench/load/run.py to cut a ramp into steps.
"""

from __future__ import annotations

import random
import time

import gevent
import psutil
from locust import User, between, events, task

from devtools.load.classroom import PAGES, Follower, Room, change_view, open_page, start_class
from devtools.load.pages import (
    change_focus,
    edit_input,
    open_attention,
    open_train,
    start_training,
    wait_training,
)
from devtools.load.protocol import ProtocolError, Run, StreamlitSession
from devtools.load.samples import SAMPLES, write


@events.init_command_line_parser.add_listener
def _options(parser) -> None:
    parser.add_argument("--samples", default="", help="write every timed rerun (and server samples) as JSON lines")
    parser.add_argument("--server-pid", type=int, action="append", default=[],
                        help="sample this app server's CPU and RSS every 2 s (once per server)")  # fmt: skip
    parser.add_argument("--think", default="5,15", help="an explorer's think time between edits, min,max seconds")
    parser.add_argument("--train-steps", type=int, default=0, help="a trainer's steps per run (0: until 99 %%)")
    parser.add_argument("--trainers", type=int, default=0, help="how many of the users are Trainers (rest: others)")
    parser.add_argument("--step-every", type=float, default=10.0, help="seconds between the teacher's changes")
    parser.add_argument(
        "--last-change",
        type=float,
        default=1e9,
        help="seconds after its start when the teacher stops changing the view (the class settles)",
    )
    parser.add_argument("--class-page", default="step-by-step", choices=sorted(PAGES),
                        help="where the class meets: Next clicks on step-by-step, new inputs on attention, "
                             "a token written on next-token")  # fmt: skip


@events.init.add_listener
def _counts(environment, **_kwargs) -> None:
    if environment.parsed_options is not None and environment.parsed_options.trainers:
        Trainer.fixed_count = environment.parsed_options.trainers


def _now(environment) -> dict:
    return {"t": time.time(), "users": environment.runner.user_count if environment.runner else 0}


def record(user: User, name: str, started: float, run: Run | None = None, error: Exception | None = None) -> None:
    """One timed action (its run's latency, or the time since `started` when it failed)."""
    seconds = run.latency if run is not None and run.finished else time.monotonic() - started
    if run is not None and run.exceptions and error is None:
        error = ProtocolError(f"the page shows an exception: {run.exceptions[0]}")
    record_ms(user, name, seconds * 1000, run.bytes if run else 0, error)


def record_ms(user: User, name: str, ms: float, size: int = 0, error: Exception | None = None) -> None:
    """A sample for Locust's statistics and for the samples file."""
    user.environment.events.request.fire(
        request_type="st", name=name, response_time=ms, response_length=size, exception=error, context={}
    )
    SAMPLES.append({**_now(user.environment), "name": name, "ms": ms, "ok": error is None})


def host_of(user: User) -> str:
    """The app's URL (Locust's --host, or a User's `host`)."""
    if user.host is None:  # (StreamlitSession failed on None before)
        raise ValueError("no host: give Locust --host with the app's URL")
    return user.host


def timed(user: User, name: str, action):
    """Run `action()` (which returns a Run); record it; None when it failed (recorded as a failure)."""
    started = time.monotonic()
    try:
        run = action()
    except (ProtocolError, OSError, KeyError, ValueError) as exc:
        record(user, name, started, error=exc)
        return None
    record(user, name, started, run)
    return run


class Explorer(User):
    """A person exploring the Attention page on their own."""

    def wait_time(self):
        low, high = (float(x) for x in self.environment.parsed_options.think.split(","))
        return between(low, high)(self)

    def on_start(self) -> None:
        self.rng = random.Random()
        self.session: StreamlitSession | None = None
        started = time.monotonic()
        try:
            self.session, run = open_attention(host_of(self))
        except (ProtocolError, OSError) as exc:
            record(self, "open attention", started, error=exc)
            raise
        record(self, "open attention", started, run)

    def on_stop(self) -> None:
        if self.session is not None:
            self.session.close()

    def _opened(self) -> StreamlitSession:
        """The session on_start opened (Locust runs the tasks only after on_start succeeded)."""
        assert self.session is not None
        return self.session

    @task(3)
    def type_input(self) -> None:
        timed(self, "edit input", lambda: edit_input(self._opened(), self.rng))

    @task(1)
    def pick_head(self) -> None:
        timed(self, "layer/head", lambda: change_focus(self._opened(), self.rng))


class Trainer(User):
    """A student training `reverse` on the Train page, one run after another."""

    wait_time = between(1, 2)

    def on_start(self) -> None:
        self.session, run = open_train(host_of(self))
        record(self, "open train", time.monotonic(), run)

    def on_stop(self) -> None:
        self.session.close()

    @task
    def train(self) -> None:
        steps = self.environment.parsed_options.train_steps or None
        started = time.monotonic()
        if timed(self, "train start", lambda: start_training(self.session, steps=steps)) is None:
            return
        timed(self, "train run", lambda: _whole_run(self.session, started))


ROOM = Room()  # the class of this Locust process


class Teacher(User):
    """The one teacher: starts a class on /step-by-step, then steps through it."""

    fixed_count = 1

    def wait_time(self):
        return self.environment.parsed_options.step_every

    def on_start(self) -> None:
        self.rng = random.Random()
        self.started = time.monotonic()
        ROOM.page = PAGES[self.environment.parsed_options.class_page]
        started = time.monotonic()
        self.session, run = open_page(host_of(self), ROOM.page)
        record(self, "open teacher", started, run)
        ROOM.code, run = start_class(self.session)
        record(self, "start class", time.monotonic(), run)
        ROOM.opened.set()

    def on_stop(self) -> None:
        self.session.close()

    @task
    def step(self) -> None:
        if time.monotonic() - self.started > self.environment.parsed_options.last_change:
            return  # the end of the run: the class settles on the last view (checked when Locust quits)
        timed(self, "teacher next", lambda: change_view(self.session, ROOM, self.rng))


class Student(User):
    """A student who joined the teacher's class and follows it (never clicks)."""

    wait_time = between(5, 10)

    def on_start(self) -> None:
        ROOM.opened.wait()
        started = time.monotonic()
        self.session, run = open_page(host_of(self), ROOM.page, f"room={ROOM.code}")
        record(self, "open student", started, run)
        self.follower = Follower(self.session, ROOM, self._followed)
        ROOM.followers.append(self.follower)

    def _followed(self, seconds: float, run: Run) -> None:
        record_ms(self, "follow", seconds * 1000, run.bytes)

    def on_stop(self) -> None:
        self.session.close()

    @task
    def listen(self) -> None:
        """Nothing to do: the session's fragment timer and the follower do the work."""


def _whole_run(session, started: float) -> Run:
    run = wait_training(session, started)
    run.requested = started  # the whole training run, from Start to the trained model's panel
    return run


@events.test_start.add_listener
def _monitor(environment, **_kwargs) -> None:
    pids = environment.parsed_options.server_pid
    if pids:
        gevent.spawn(_sample_server, environment, [psutil.Process(pid) for pid in pids])
    gevent.spawn(_sample_client, environment)


LAG_EVERY = 0.1  # s: the load generator's own check of how late its greenlets wake


def _sample_client(environment) -> None:
    """Is the load generator the limit? How late a 0.1 s sleep wakes (the greenlets queued before it run first) and
    how many watchers the gevent loop holds ready to run, once a second."""
    loop, own = gevent.get_hub().loop, psutil.Process()
    while True:
        lags = []
        for _ in range(10):
            asked = time.monotonic()
            gevent.sleep(LAG_EVERY)
            lags.append(time.monotonic() - asked - LAG_EVERY)
        cpu = sum(own.cpu_times()[:2])
        SAMPLES.append({**_now(environment), "name": "client", "lag_ms": max(lags) * 1000,
                        "pending": loop.pendingcnt, "active": loop.activecnt, "cpu": cpu})  # fmt: skip


def _sample_server(environment, servers: list[psutil.Process]) -> None:
    """Every 2 s: the CPU seconds and RSS of each server and of its children (training workers)."""
    while True:
        try:
            family = [p for server in servers for p in (server, *server.children(recursive=True))]
            cpu = {str(p.pid): sum(p.cpu_times()[:2]) for p in family}
            rss = {str(p.pid): p.memory_info().rss for p in family}
        except psutil.Error:
            return
        SAMPLES.append({**_now(environment), "name": "server", "server_pids": [p.pid for p in servers], "cpu": cpu,
                        "rss": rss})  # fmt: skip
        gevent.sleep(2.0)


@events.quitting.add_listener
def _write_samples(environment, **_kwargs) -> None:
    target = ROOM.target
    for follower in ROOM.followers:  # did every student end on the teacher's last view?
        SAMPLES.append({**_now(environment), "name": "final", "ok": follower.shown == target, "ms": 0.0})
    if environment.parsed_options.samples:
        write(environment.parsed_options.samples)
