"""A teacher's change runs a follower's page once for all the students whose sessions were alike, and the others get
that run (ui/classroom/fanout.py): the same page, number for number, as a run of their own would draw.

One real server (`python -m devtools.count_runs run app.py`, whose timeline notes each script run and each run sent
from a recording) and bench/load's protocol client (no browser; tests/browser/test_classroom.py has the browsers).
"""

from __future__ import annotations

import copy
import json
import random
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from devtools.count_runs import COUNTS_ENV
from devtools.harness import streamlit_process
from devtools.load.classroom import PAGES, Room, change_view, next_step, open_page, start_class
from devtools.load.protocol import ProtocolError, StreamlitSession
from devtools.timeline import TIMELINE_ENV
from ui.classroom.teacher import PUBLISH_EVERY

STEP, ATTENTION = PAGES["step-by-step"], PAGES["attention"]
FOLLOW_TIMEOUT = 60.0  # s: generous for a loaded machine; nothing here is timed


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """(base URL, the timeline's file) of a server that notes its runs and replays."""
    timeline = tmp_path_factory.mktemp("timeline") / "timeline"
    env = {TIMELINE_ENV: str(timeline), COUNTS_ENV: str(timeline) + ".counts"}
    with streamlit_process(120, env=env, module="devtools.count_runs") as (url, proc):
        yield url, Path(f"{timeline}.{proc.pid}")


def events(timeline: Path, since: float) -> list[dict]:
    time.sleep(1.5)  # the timeline is written once a second
    lines = timeline.read_text().splitlines() if timeline.exists() else []
    return [e for e in map(json.loads, lines) if e["t"] >= since]


def started_since(timeline: Path, session: StreamlitSession, since: float) -> list[dict]:
    """The session's runs and replays that started at or after `since` (one noted later may have started before)."""
    return [e for e in events(timeline, since) if e.get("session") == session.session_id[:8]
            and e["event"] in ("run", "replay") and e.get("started", e["t"]) >= since]  # fmt: skip


def shows(session: StreamlitSession, page, view: str):
    def shown(run) -> bool:
        try:
            return run.ok and page.shown(session) == view
        except KeyError:
            return False

    return shown


def page_drawn(session: StreamlitSession) -> dict:
    """Every element and block on the session's page, as bytes, by where it is."""
    with session._cond:
        return {path: drawn.element.SerializeToString(deterministic=True) for path, drawn in session.drawn.items()}


def exploring(session: StreamlitSession) -> bool:
    return any(line.startswith("🧭 **Exploring on my own**") for line in session.markdown())


def follow(teacher, students, room, change, page) -> float:
    """The teacher's change; returns when it was sent, once every student shows it."""
    sent = time.time()
    started = time.monotonic()
    change()
    view = page.shown(teacher)
    for student in students:
        run = student.wait_for_run(shows(student, page, view), after=started, timeout=FOLLOW_TIMEOUT)
        assert len(run.fragment_ids) == 1, "the student's whole app ran, not its page's fragment"
    return sent


@contextmanager
def a_class(url: str, page, languages: tuple[str, ...]):
    """(teacher, students, room): a teacher who started a class on `page` in English, and a student following in each
    of `languages`; all closed afterwards."""
    teacher, _ = open_page(url, page)
    code, _ = start_class(teacher)
    followers = []
    for lang in languages:
        query = f"room={code}&" + page.query.replace("lang=en", f"lang={lang}")
        followers.append(StreamlitSession(url, page.path, query, timeout=120.0))  # as open_page
        followers[-1].open()
    try:
        yield teacher, followers, Room(code=code, page=page)
    finally:
        for session in (*followers, teacher):
            session.close()


def test_one_run_of_a_followers_page_reaches_every_student_alike_and_draws_what_their_own_would(server):
    url, timeline = server
    with a_class(url, STEP, ("en",) * 4) as (teacher, students, room):
        follow(teacher, students, room, lambda: next_step(teacher, room), STEP)  # the class settles into step 2
        sent = follow(teacher, students, room, lambda: next_step(teacher, room), STEP)
        assert STEP.shown(teacher) == "3"
        noted = events(timeline, sent)
        student_ids = {s.session_id[:8] for s in students}
        runs = [e for e in noted if e["event"] == "run" and e["fragment"] and e["session"] in student_ids]
        replays = [e for e in noted if e["event"] == "replay"]
        assert len(runs) == 1 and len(replays) == 3, (runs, replays)  # without the fan-out: 4 runs, no replay
        assert {e["session"] for e in runs + replays} == student_ids
        pages = [page_drawn(s) for s in students]
        assert all(p == pages[0] for p in pages[1:])  # element for element, byte for byte
        assert teacher.formulas(), "step 3 shows no formula"
        assert students[0].formulas() == teacher.formulas()  # the teacher's step, number for number


def test_a_student_in_another_language_gets_a_run_of_their_own_and_a_replayed_student_still_explores(server):
    url, timeline = server
    with a_class(url, ATTENTION, ("en", "en", "zh")) as (teacher, students, room):
        english, chinese = students[:2], students[2]
        rng = random.Random(7)
        follow(teacher, students, room, lambda: change_view(teacher, room, rng), ATTENTION)
        sent = follow(teacher, students, room, lambda: change_view(teacher, room, rng), ATTENTION)
        noted = events(timeline, sent)
        assert [e["session"] for e in noted if e["event"] == "replay"] != []
        assert chinese.session_id[:8] in {e["session"] for e in noted if e["event"] == "run" and e["fragment"]}
        assert chinese.session_id[:8] not in {e["session"] for e in noted if e["event"] == "replay"}
        assert "🎓 **正在跟随老师**" in chinese.markdown()
        assert "🎓 **Following the teacher**" in english[0].markdown()
        assert page_drawn(english[0]) == page_drawn(english[1])
        assert chinese.value("text") == english[0].value("text") == teacher.value("text")

        # A replayed student changes the input: they explore on their own, and the class goes on without them.
        replayed_ids = {e["session"] for e in noted if e["event"] == "replay"}
        replayed = next(s for s in english if s.session_id[:8] in replayed_ids)
        typed = time.monotonic()
        with pytest.raises(ProtocolError, match="status 2"):  # FINISHED_EARLY_FOR_RERUN: the page's run hands over
            replayed.rerun({"text": "1 2 3"})  # to the app's, which draws the bar saying so (page_fragment.py)
        replayed.wait_for_run(lambda run: run.ok and exploring(replayed), after=typed, timeout=FOLLOW_TIMEOUT)
        others = [s for s in students if s is not replayed]
        sent = follow(teacher, others, room, lambda: change_view(teacher, room, rng), ATTENTION)
        assert replayed.value("text") == "1 2 3"
        assert started_since(timeline, replayed, sent) == []  # exploring: not woken


def test_no_student_is_sent_a_change_before_the_teacher_has_been_sent_its_whole_page(server):
    """Students are woken only once the teacher's session has settled: its run over and every message of it sent
    (ui/classroom/wake.py _after_teacher). Streamlit sends in cycles, session by session, so students' runs and replays
    started first made the teacher's own script_finished wait for a cycle of the class's messages. Read off the
    server's timeline, one clock: each student's run or replay of a change starts after the teacher's script_finished
    was sent."""
    url, timeline = server
    with a_class(url, ATTENTION, ("en",) * 4) as (teacher, students, room):
        rng = random.Random(11)
        follow(teacher, students, room, lambda: change_view(teacher, room, rng), ATTENTION)  # settle into the class
        for _ in range(3):
            sent = follow(teacher, students, room, lambda: change_view(teacher, room, rng), ATTENTION)
            noted = events(timeline, sent)
            teacher_id, student_ids = teacher.session_id[:8], {s.session_id[:8] for s in students}
            finished = [e["t"] for e in noted if e["event"] == "finished sent" and e["session"] == teacher_id]
            starts = [e.get("started", e["t"]) for e in noted if e["event"] in ("run", "replay")
                      and e["session"] in student_ids]  # fmt: skip
            assert finished and len(starts) >= len(students), (finished, starts)
            assert min(starts) > finished[0], "a student was sent the change before the teacher's page had been sent"


def test_a_teacher_browser_still_sending_the_head_from_before_a_new_input_does_not_move_the_class(server):
    """A new input moves the head the page computes (the sharpest; None in the view, before and after). The teacher's
    publish timer may rerun with the widget values the browser held before it drew that run: the old head, which read
    as a head the teacher chose and went to the class, then back (seen in CI under load). Now no new version."""
    url, timeline = server
    with a_class(url, ATTENTION, ("en",)) as (teacher, students, room):
        rng = random.Random(5)
        teacher.timers_on = False  # the publish fragment's reruns are the ones sent below
        for _ in range(20):  # a change whose sharpest head differs from the one before
            before, head = copy.deepcopy(teacher.states), teacher.value("head")
            follow(teacher, students, room, lambda: change_view(teacher, room, rng), ATTENTION)
            if teacher.value("head") != head:
                break
        else:
            pytest.fail("20 inputs, all with the same sharpest head")
        publish = next(f for f, every in teacher.timed_fragments().items() if every == PUBLISH_EVERY)
        sent = time.time()
        teacher.tick(publish, before)  # sent before the browser drew the change
        teacher.tick(publish)  # and once it has
        rooms = [e for e in events(timeline, 0.0) if e["event"] == "room" and e["code"] == room.code]
        was = max(e["version"] for e in rooms if e["t"] < sent)
        assert [e["version"] for e in rooms if e["t"] >= sent and e["version"] != was] == [], "the old head went out"
        assert started_since(timeline, students[0], sent) == [], rooms[-6:]
