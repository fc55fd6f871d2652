"""A class in Chromium, the teacher's link and the class's lesson: a teacher who opens a link of theirs in another
tab, or reloads, lands where the link says and the class follows there; a lesson the teacher uploads on one server
reaches a student on another server through a real redis-server."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from devtools.classroom import (
    close_dialog,
    go_to,
    join,
    press_next,
    start_class,
    step_shown,
    wait_for_step,
)
from devtools.harness import exceptions_on, new_page
from services.lessons import parse_lesson, shipped_file

pytestmark = pytest.mark.browser
FOLLOW_TIMEOUT = 60.0  # s: a wait, not a timing (at load average 20 a student on another server took 23 s)
NOT_HERE = "That lesson is not on this server"


def heading(page, name: str):
    return page.get_by_role("heading", name=name, exact=True).first


def test_a_teachers_link_opens_its_page_and_the_class_follows_there(browser, app_url):
    teacher, laptop, student = (new_page(browser, (1280, 720)) for _ in range(3))
    try:
        code, key = start_class(teacher, app_url)
        close_dialog(teacher)
        join(student, app_url, code)
        go_to(teacher, "Step by step", "Attention, step by step")
        press_next(teacher, 2)
        wait_for_step(student, 2, FOLLOW_TIMEOUT)

        text = "3 1 4 1 5"
        laptop.goto(f"{app_url}/attention?room={code}&key={key}&model=reverse&text={text.replace(' ', '+')}")
        heading(laptop, "Attention").wait_for(timeout=60_000)  # the link's page, not the room's (step by step)
        expect(laptop.get_by_role("textbox", name="Input", exact=True)).to_have_value(text, timeout=60_000)  # drawn
        assert laptop.get_by_role("button", name="End the class").count() == 1  # still the class's teacher
        heading(student, "Attention").wait_for(timeout=FOLLOW_TIMEOUT * 1000)  # the class follows the link
        student.get_by_role("button", name="Input", exact=True).click()  # a follower's controls: folded, by name
        expect(student.get_by_role("textbox", name="Input", exact=True)).to_have_value(
            text, timeout=FOLLOW_TIMEOUT * 1000
        )

        teacher.reload()  # the first tab, reloaded at step 2, keeps its page and step and takes the class back
        step_shown(teacher, 2).wait_for(timeout=60_000)
        assert "key=" in teacher.url
        wait_for_step(student, 2, FOLLOW_TIMEOUT)
        for page in (teacher, laptop, student):
            assert exceptions_on(page) == []
        assert key not in student.url and key not in student.content()
    finally:
        for page in (teacher, laptop, student):
            page.context.close()


def test_a_lesson_uploaded_on_one_server_reaches_a_student_on_another(class_across_two_servers, tmp_path):
    lesson = parse_lesson(shipped_file("attention-basics")).to_dict()
    lesson["title"]["en"] = "Our own lesson"
    lesson["slides"][0]["title"]["en"] = "A slide from the teacher's server"
    path = tmp_path / "ours.json"
    path.write_text(json.dumps(lesson, ensure_ascii=False), encoding="utf-8")
    teacher, student, server_a, server_b = class_across_two_servers
    assert isinstance(teacher, Page) and isinstance(student, Page)
    code, _ = start_class(teacher, server_a)
    close_dialog(teacher)
    join(student, server_b, code)
    go_to(teacher, "Lesson", "Lesson")
    heading(student, "Lesson").wait_for(timeout=FOLLOW_TIMEOUT * 1000)
    teacher.get_by_text("Download, upload").click()
    teacher.locator('input[type="file"][accept*=".json"]').set_input_files(path)
    heading(teacher, "A slide from the teacher's server").wait_for(timeout=60_000)
    heading(student, "A slide from the teacher's server").wait_for(timeout=FOLLOW_TIMEOUT * 1000)
    assert student.get_by_text(NOT_HERE).count() == 0
    assert student.url.startswith(server_b) and exceptions_on(student) == []
    assert exceptions_on(teacher) == []
