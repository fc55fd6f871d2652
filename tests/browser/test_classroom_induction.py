"""A class watches an induction head form, in Chromium: the teacher (1280×720) opens the Train page on the induction
task in a class, asks "which head will copy?" and presses Start; a student follows.
- On the shared server, a Chinese phone (390×844): the question with every head as a button, an answer tapped before
  training, then the teacher's run drawn on the phone (its curves), the same step the head formed at as on the
  teacher's page, and the reveal naming the head beside the teacher's evidence.
- Across two servers on one Redis (the teacher on A, a laptop on B): the student's page draws the teacher's one run
  and the same formed step, with nothing trained on B.
"""

from __future__ import annotations

import re

import pytest

from attention_lab.chart import CHARTS
from devtools.classroom import close_dialog, join, room_of, start_class
from devtools.harness import exceptions_on, new_page

pytestmark = pytest.mark.browser
WAIT = 60_000  # ms: a wait, not a timing
TRAIN_WAIT = 300_000  # ms: the run from Start until its head forms, on a loaded 2-core machine (~35 s quiet)
WORDS = {
    "en": {"ask": "❓ Ask the class: which head will copy?", "start": "▶ Start training",
           "asked": "The answer appears on every screen", "question": "Which head will copy?",
           "formed": r"An induction head formed at step ([\d,]+)", "run": "The teacher's run",
           "answer": "The model's answer:", "head": "Layer {l} · Head {h}"},
    "zh": {"question": "哪个头会负责复制？", "formed": r"归纳头在第 ([\d,]+) 步形成", "run": "老师的训练",
           "answer": "模型的答案：", "head": "第 {l} 层 · 头 {h}"},
}  # fmt: skip


def formed_step(page, lang: str) -> int:
    found = page.get_by_text(re.compile(WORDS[lang]["formed"])).first
    found.wait_for(timeout=TRAIN_WAIT)
    match = re.search(WORDS[lang]["formed"], found.inner_text())
    assert match is not None
    return int(match.group(1).replace(",", ""))


def open_the_run(teacher, server: str, code: str, key: str) -> None:
    """The teacher's Train page on the induction task, in the class; the question asked (a click a fragment's redraw
    swallowed is tried again)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    teacher.goto(f"{server}/train?lang=en&room={code}&key={key}&arch=gpt&task=induction", timeout=120_000)
    for _ in range(3):
        teacher.get_by_role("button", name=WORDS["en"]["ask"]).click(timeout=WAIT)
        try:
            teacher.get_by_text(WORDS["en"]["asked"]).wait_for(timeout=20_000)
            return
        except PlaywrightTimeout:  # the click was lost
            continue
    raise AssertionError("the question did not open on the teacher's page")


def test_a_phone_follows_the_teachers_one_induction_run(browser, app_url):
    teacher, phone = new_page(browser, (1280, 720)), new_page(browser, (390, 844))
    try:
        code, key = start_class(teacher, app_url)
        close_dialog(teacher)
        join(phone, app_url, code, "zh")
        open_the_run(teacher, app_url, code, key)
        phone.get_by_text(WORDS["zh"]["question"]).first.wait_for(timeout=WAIT)
        heads = [WORDS["zh"]["head"].format(l=layer, h=head) for layer in (1, 2) for head in (1, 2)]
        for label in heads:  # the induction run's default model: 2 layers of 2 heads, each an option
            assert phone.get_by_text(label, exact=True).count() == 1, label
        phone.get_by_text(heads[2], exact=True).click()  # layer 2, head 1
        teacher.get_by_role("button", name=WORDS["en"]["start"]).click(timeout=WAIT)
        step = formed_step(teacher, "en")
        assert formed_step(phone, "zh") == step  # the same moment, from the one run
        phone.get_by_text(WORDS["zh"]["run"]).first.wait_for(timeout=WAIT)
        assert phone.locator(CHARTS).count() >= 2  # the loss and the head scores, drawn on the phone
        answer = phone.get_by_text(WORDS["zh"]["answer"]).first
        answer.wait_for(timeout=WAIT)
        shown = answer.locator("xpath=..").inner_text()
        assert any(label in shown for label in heads[2:]), shown  # an induction head is in layer 2
        assert teacher.get_by_text(re.compile(rf"At step {step}, Layer 2 · Head \d reached")).count() == 1
        assert room_of(phone) == (code, None) and exceptions_on(phone) == [] and exceptions_on(teacher) == []
    finally:
        teacher.context.close()
        phone.context.close()


def test_a_student_on_another_server_draws_the_same_run(class_across_two_servers):
    teacher, student, server_a, server_b = class_across_two_servers
    code, key = start_class(teacher, server_a)
    close_dialog(teacher)
    join(student, server_b, code)
    open_the_run(teacher, server_a, code, key)
    student.get_by_text(WORDS["en"]["question"]).first.wait_for(timeout=WAIT)
    teacher.get_by_role("button", name=WORDS["en"]["start"]).click(timeout=WAIT)
    step = formed_step(teacher, "en")
    assert formed_step(student, "en") == step
    student.get_by_text(WORDS["en"]["run"]).first.wait_for(timeout=WAIT)
    student.get_by_text(WORDS["en"]["answer"]).first.wait_for(timeout=WAIT)
    assert student.url.startswith(server_b) and exceptions_on(student) == [] and exceptions_on(teacher) == []
