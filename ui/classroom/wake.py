"""Wake a class's students when the room moves: the room calls each student's session back, and the server reruns it.

Before, every student's browser ran a fragment every second whose run waited for the room in a script thread of
its own: with 60 students, 60 script threads polled, and a change queued behind a second of timer (docs/capacity.md
says what it cost). Now a student's full run registers a watcher with the room (services.rooms watch, keyed by the
session's id); when the teacher publishes, the room calls every watcher in the publishing thread, and each one asks
Streamlit, on its event loop, to rerun that session, as Streamlit reruns a session whose source changed. A session
that is not following wakes only when the question changes (it shows the question while exploring).

A teacher's own run publishes in the middle of drawing its page (the sidebar comes first): the wakes wait until
that run ends (release_wakes, at the end of app.py) and every message of it has been sent to the teacher's browser,
so the teacher's page is neither drawn nor sent while N students rerun.
Then the server reruns FOLLOWERS_AT_ONCE students at a time, in the order the room told them, each next one when a
run ends (or after SLOT_FOR seconds): N runs started at once share one GIL, convoy on it at every message they send
(each a write to the event loop's pipe) and all end late together; one at a time, each run takes about its CPU time
and the first students see the change first (docs/capacity.md measured both). A following student whose session holds
what another's held before its run of this version gets that recorded run instead, at once, with no run of its own
(fanout.py): a class of N alike students costs one run of the page, not N.

Streamlit 1.67 has no public call to rerun another session; this uses Runtime.get_app_session, the session's
request_rerun (a ClientState built from this session's last run, with the widget values its session state holds)
and its event loop, the way Streamlit's own file watcher does (AppSession._on_source_file_changed).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from services.rooms import RoomChange, RoomError, RoomStore

from ..class_role import ROLE_KEY, ClassRole
from ..streamlit_private import (
    app_session,
    has_fragment,
    rerun_session,
    run_identity,
    server_loop,
    server_running,
    session_state_of,
    wait_until_settled,
)
from . import fanout

FOLLOWERS_AT_ONCE = 1  # students' reruns the server runs at once
SLOT_FOR = 1.5  # s after which a rerun that has not said it ended gives its place to the next student anyway
HEARTBEAT_EVERY = 10.0  # s between heartbeats of the watched students (the room counts a student for 30 s after each)
_held = threading.local()  # a teacher's full run: the wakes its publish caused, sent when the run ends
HOLD_AT_MOST = 2.0  # s: wakes held by a run that never reached its end (an exception before it) are sent anyway
TEACHER_FIRST_AT_MOST = 0.5  # s the released wakes wait at most for the teacher's page to have been sent


@dataclass(frozen=True)
class _Target:
    """Which session to rerun, on which page and with which query string (its last full run's)."""

    session_id: str
    page_script_hash: str
    query_string: str


def watch_room(store: RoomStore, role: ClassRole) -> None:
    """At each full run of a student's session: rerun it when the room moves (or, exploring, its question does)."""
    run = run_identity()
    if run is None or not server_running() or role.is_teacher:
        return  # AppTest (no server), or a teacher (who is not woken)
    target = _Target(run.session_id, run.page_script_hash, run.query_string)
    try:
        store.watch(role.code, run.session_id, lambda change: _on_change(store, role, target, change))
        snapshot = store.snapshot(role.code)
    except RoomError:
        return  # the room ended meanwhile: this run says so
    _heartbeats.keep(store, role, run.session_id)
    # The room may have moved after this run applied it and before it watched (a teacher's Next, say): catch up.
    _on_change(store, role, target, RoomChange(snapshot.code, snapshot.version, False, snapshot.question_marker))


def forget_room(store: RoomStore, role: ClassRole) -> None:
    """This session left the class: stop waking it."""
    run = run_identity()
    if run is not None:
        store.unwatch(role.code, run.session_id)
        _heartbeats.drop(run.session_id)


def _on_change(store: RoomStore, role: ClassRole, target: _Target, change: RoomChange) -> bool:
    """The room moved: rerun the session if it must show it; False once the session has gone (stop watching)."""
    session = app_session(target.session_id)
    if session is None:
        return False  # closed, or disconnected (a reconnecting browser reruns it, which watches again)
    if _role_of(session) is not role:
        return False  # the session left the class (or joined another): its own role watches, if any
    if role.following:  # a question bumps the version; its marker too, should a run have applied it unseen
        due = change.ended or change.version != role.applied_version or change.question != role.question_seen
    else:
        due = change.ended or change.question != role.question_seen
    if due:
        _send(session, target, change)
    return True


def _role_of(session) -> object:
    try:
        return session_state_of(session)[ROLE_KEY]
    except KeyError:
        return None


def _follow_fragment(session) -> str:
    """The page fragment a following student's session still holds (page_fragment.py), or "" (none: the whole app)."""
    role = _role_of(session)
    fragment = role.follow_fragment if isinstance(role, ClassRole) and role.following else ""
    return fragment if has_fragment(session, fragment) else ""


def _replayed(session, target: _Target, change: RoomChange) -> bool:
    """On the event loop: a following student whose page fragment another student's run of this version already
    drew, from the same state, gets that run (fanout.py) instead of a run of their own."""
    fragment = _follow_fragment(session)
    if change.ended or not fragment:
        return False
    key = fanout.RunKey(
        change.code, change.version, tuple(change.question), fragment, target.page_script_hash, target.query_string,
        digest="",
    )  # fmt: skip
    return fanout.replay(session, key)


def _rerun(session, target: _Target, tries: int = 3) -> None:
    """On the server's event loop: rerun this session with the widget values it holds: a following student's page
    fragment alone when the session still holds it (page_fragment.py), else the whole app."""

    rerun = rerun_session(session, target.page_script_hash, target.query_string, _follow_fragment(session))
    if not rerun and tries:  # its own run changed its widget states just now: look again in a moment
        server_loop().call_later(0.05, _rerun, session, target, tries - 1)


def _send(session, target: _Target, change: RoomChange) -> None:
    """Queue a rerun on the event loop now, or at the end of the teacher's full run that caused it."""
    held = getattr(_held, "wakes", None)
    if held is not None:
        if not held:
            server_loop().call_soon_threadsafe(server_loop().call_later, HOLD_AT_MOST, _flush, held)
        held.append((session, target, change))
        return
    server_loop().call_soon_threadsafe(_queue.add, session, target, change)


class _Queue:
    """The students waiting for their rerun, and those rerunning (at most FOLLOWERS_AT_ONCE); event loop only."""

    def __init__(self) -> None:
        self._waiting: OrderedDict[str, tuple[object, _Target, RoomChange]] = OrderedDict()  # session id → its wake
        self._running: dict[str, float] = {}  # session id → monotonic time its place expires
        self._timer: asyncio.TimerHandle | None = None

    def add(self, session, target: _Target, change: RoomChange) -> None:
        self._waiting[session.id] = (session, target, change)  # queued twice: one place, the newest page and change
        self._pump()

    def done(self, session_id: str) -> None:
        if self._running.pop(session_id, None) is not None:
            self._pump()

    def _pump(self) -> None:
        now = time.monotonic()
        for session_id in [s for s, until in self._running.items() if until <= now]:
            del self._running[session_id]
        while self._waiting and len(self._running) < FOLLOWERS_AT_ONCE:
            session_id, (session, target, change) = self._waiting.popitem(last=False)
            if _replayed(session, target, change):
                continue  # sent at once, no run: the next student's turn
            self._running[session_id] = now + SLOT_FOR
            _rerun(session, target)
        if self._running and self._timer is None:
            self._timer = server_loop().call_later(SLOT_FOR, self._expire)

    def _expire(self) -> None:
        self._timer = None
        self._pump()


_queue = _Queue()


def _flush(wakes: list) -> None:
    """On the event loop: queue the held wakes (once: the run's end and the HOLD_AT_MOST timer both come here)."""
    while wakes:
        _queue.add(*wakes.pop(0))


def hold_wakes() -> None:
    """A teacher's full run starts: the wakes it causes wait for release_wakes."""
    release_wakes()
    _held.wakes = []


def release_wakes() -> None:
    """The end of a full run (app.py): send the wakes it held, once the run's own page has reached its browser
    (_after_teacher); a student's run gives its place to the next one."""
    wakes, _held.wakes = getattr(_held, "wakes", None), None
    run = run_identity()
    if wakes:
        session_id = run.session_id if run is not None else ""
        asyncio.run_coroutine_threadsafe(_after_teacher(session_id, wakes), server_loop())
    if run is not None and server_running():
        server_loop().call_soon_threadsafe(_queue.done, run.session_id)


async def _after_teacher(session_id: str, wakes: list) -> None:
    """On the event loop: queue the held wakes once the teacher's session has settled (its run over and every message
    of it sent: Streamlit's AppSession.wait_until_settled), or after TEACHER_FIRST_AT_MOST. Streamlit sends in cycles,
    session by session, a loop tick after every message; students' replays queued before the teacher's script_finished
    was sent made it wait for a whole cycle of the class's messages (docs/capacity.md, "The teacher first")."""
    try:
        async with asyncio.timeout(TEACHER_FIRST_AT_MOST):
            await wait_until_settled(session_id)
    except TimeoutError:
        pass  # a teacher's next run began meanwhile: their students wait no longer
    finally:
        _flush(wakes)  # whatever happened above: the students are never left behind


class _Heartbeats:
    """One thread per server keeps its watched students counted in their rooms (they no longer run a timer)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._students: dict[str, tuple[RoomStore, str, str]] = {}  # session id → (store, room code, student id)

    def keep(self, store: RoomStore, role: ClassRole, session_id: str) -> None:
        with self._lock:
            self._students[session_id] = (store, role.code, role.student_id or "")
            if self._thread is None:
                self._thread = threading.Thread(target=self._beat_forever, name="class-heartbeats", daemon=True)
                self._thread.start()

    def drop(self, session_id: str) -> None:
        with self._lock:
            self._students.pop(session_id, None)

    def _beat_forever(self) -> None:
        while True:
            time.sleep(HEARTBEAT_EVERY)
            with self._lock:
                students = list(self._students.items())
            for session_id, (store, code, student_id) in students:
                if app_session(session_id) is None:
                    self.drop(session_id)
                    continue
                try:
                    store.student_heartbeat(code, student_id)
                except RoomError:
                    self.drop(session_id)


_heartbeats = _Heartbeats()
