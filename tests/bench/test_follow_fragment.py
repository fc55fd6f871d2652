"""A following student's page is rerun alone, in its fragment, when the teacher moves on (ui/classroom/page_fragment).

One `streamlit run` of the app and sessions of bench/load's protocol client (no browser): a teacher on /step-by-step,
students who join with the room's code. The teacher's Next reaches each student as a run of one fragment (not a run
of the whole app) that shows the teacher's step with the teacher's own formulas; a student who explores stays where
they are; the teacher going to another page reaches the student as a whole run of that page.
"""

from __future__ import annotations

import time

import pytest

from devtools.harness import streamlit_server
from devtools.load.classroom import PAGES, Room, next_step, open_page, start_class
from devtools.load.protocol import StreamlitSession

STEP = PAGES["step-by-step"]
FOLLOW_TIMEOUT = 60.0  # s: generous for a loaded machine; nothing here is timed


@pytest.fixture(scope="module")
def server_url():
    with streamlit_server(timeout=120) as url:
        yield url


def shows_step(session: StreamlitSession, step: str):
    """A predicate on runs: finished, and the session's page now shows `step`."""

    def shown(run) -> bool:
        try:
            return run.ok and STEP.shown(session) == step
        except KeyError:
            return False

    return shown


def test_a_teachers_next_reaches_each_student_as_a_run_of_the_page_fragment_alone(server_url):
    teacher, _ = open_page(server_url, STEP)
    code, _ = start_class(teacher)
    students = [open_page(server_url, STEP, f"room={code}")[0] for _ in range(2)]
    try:
        for student in students:
            assert STEP.shown(student) == "1"
        room = Room(code=code, page=STEP)
        for step in ("2", "3"):
            sent = time.monotonic()
            next_step(teacher, room)
            assert str(teacher.value(STEP.key)) == step
            for student in students:
                run = student.wait_for_run(shows_step(student, step), after=sent, timeout=FOLLOW_TIMEOUT)
                assert len(run.fragment_ids) == 1, "the student's whole app ran, not its page's fragment"
                assert teacher.formulas(), f"step {step} shows no formula"
                assert student.formulas() == teacher.formulas()  # the teacher's step, number for number
                assert "🎓 **Following the teacher**" in student.markdown()  # what lies outside the fragment stays
    finally:
        for session in (*students, teacher):
            session.close()


def test_an_exploring_student_stays_and_a_page_change_reaches_a_follower_as_a_whole_run(server_url):
    teacher, _ = open_page(server_url, STEP)
    code, _ = start_class(teacher)
    follower = open_page(server_url, STEP, f"room={code}")[0]
    explorer = open_page(server_url, STEP, f"room={code}")[0]
    try:
        explorer.rerun(click="_class_explore")
        room = Room(code=code, page=STEP)
        sent = time.monotonic()
        next_step(teacher, room)
        follower.wait_for_run(shows_step(follower, "2"), after=sent, timeout=FOLLOW_TIMEOUT)
        assert STEP.shown(explorer) == "1"

        sent = time.monotonic()
        teacher.go_to("lesson")
        run = follower.wait_for_run(lambda r: r.ok and "lesson_slide" in follower.widget_keys(), after=sent,
                                    timeout=FOLLOW_TIMEOUT)  # fmt: skip
        assert run.fragment_ids == ()  # another page: the whole app ran
        assert follower.value("lesson_slide") == teacher.value("lesson_slide")
    finally:
        for session in (follower, explorer, teacher):
            session.close()
