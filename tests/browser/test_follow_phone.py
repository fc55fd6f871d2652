"""A class in Chromium where the student holds a phone: a teacher (1280×720) and a student (390×844), each in their own
browser context. The following student sees the teacher's step first: its formula lies above the fold, the page's
controls fold behind one button, and the student's screen follows the teacher's Next without a timer of its own."""

from __future__ import annotations

import pytest

from devtools.classroom import close_dialog, go_to, join, start_class, step_shown, wait_for_step
from devtools.harness import exceptions_on, new_page

pytestmark = pytest.mark.browser
PHONE = (390, 844)
FOLLOW_TIMEOUT = 20.0  # s: generous for a loaded machine; bench/load/run.py follow measures the real figures

# The first formula of the page's main area and the first of the page's own controls (the step picker), as boxes.
BOXES_JS = """
() => {
  const box = (el) => el && (({top, bottom, left, right}) => ({top, bottom, left, right}))(el.getBoundingClientRect());
  const main = document.querySelector('[data-testid="stMain"]');
  return {
    formula: box(main.querySelector('.katex-display')),
    picker: box([...main.querySelectorAll('[data-testid="stRadio"]')].find((el) => el.checkVisibility()) || null),
    height: innerHeight,
  };
}
"""


def next_button(page):
    return page.locator(".st-key-wt_next button:visible").first


def test_a_phone_following_the_teacher_sees_the_formula_above_the_fold(browser, app_url):
    """A class with an English phone, then a new class with a Chinese one, the teacher's and the student's pages each
    in one browser context for both (a new context costs ~2.5 s of loading Streamlit and plotly into a new renderer)."""
    teacher, student = new_page(browser, (1280, 720)), new_page(browser, PHONE)
    try:
        for lang in ("en", "zh"):
            phone_follows_with_the_formula_above_the_fold(teacher, student, app_url, lang)
    finally:
        for page in (teacher, student):
            page.context.close()


def phone_follows_with_the_formula_above_the_fold(teacher, student, app_url: str, lang: str) -> None:
    """The teacher starts a class on step 2; the student joins in `lang` on the phone and follows to step 3."""
    teacher.goto(f"{app_url}/?lang=en", timeout=120_000)  # the server's first page can be slow to come
    teacher.get_by_role("button", name="Start a class").wait_for(timeout=120_000)
    code, _key = start_class(teacher, app_url)
    close_dialog(teacher)
    go_to(teacher, "Step by step", "Attention, step by step")
    next_button(teacher).click()  # step 2, whose formula is QKᵀ
    step_shown(teacher, 2).wait_for(timeout=30_000)

    join(student, app_url, code, lang)
    heading = "Step 2 of 8" if lang == "en" else "第 2 步"
    student.locator('[data-testid="stHeadingWithActionElements"]', has_text=heading).wait_for(
        timeout=FOLLOW_TIMEOUT * 1000
    )
    student.locator('[data-testid="stMain"] .katex-display').first.wait_for(timeout=30_000)
    boxes = student.evaluate(BOXES_JS)
    assert boxes["height"] == PHONE[1]
    assert boxes["formula"] is not None and boxes["formula"]["bottom"] <= PHONE[1], boxes  # above the fold
    assert boxes["picker"] is None, boxes  # the controls wait behind "This page's settings"
    settings = "This page's settings" if lang == "en" else "本页设置"
    assert student.get_by_role("button", name=settings).is_visible()

    next_button(teacher).click()  # the student's page moves with the teacher's, woken by the room
    step_shown(teacher, 3).wait_for(timeout=30_000)
    if lang == "en":
        wait_for_step(student, 3, FOLLOW_TIMEOUT)
    else:
        student.locator('[data-testid="stHeadingWithActionElements"]', has_text="第 3 步").wait_for(
            timeout=FOLLOW_TIMEOUT * 1000
        )
    assert exceptions_on(student) == [] and exceptions_on(teacher) == []
