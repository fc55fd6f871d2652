"""A class in Chromium where one student's page run is sent to another (ui/classroom/fanout.py): a teacher in Chinese,
two Chinese phones and an English laptop, each in their own browser context, on a server whose timeline notes every
run sent from another student's. The phone that gets the other's run reads exactly as the one that ran it, step after
step, and the English student is not sent a Chinese page."""

from __future__ import annotations

import json
import re
import time

import pytest

from devtools.classroom import close_dialog, join, start_class
from devtools.count_runs import COUNTS_ENV
from devtools.harness import exceptions_on, new_page, streamlit_process
from devtools.timeline import TIMELINE_ENV

pytestmark = pytest.mark.browser
PHONE, LAPTOP = (390, 844), (1280, 720)
FOLLOW_TIMEOUT = 60_000  # ms: a wait, not a timing (bench/load/run.py follow measures)
HEADING = '[data-testid="stHeadingWithActionElements"]'


def zh_step(page, step: int):
    return page.locator(HEADING, has_text=re.compile(rf"^第 {step} 步（共 8 步）")).first


def en_step(page, step: int):
    return page.locator(HEADING, has_text=re.compile(rf"^Step {step} of 8")).first


def test_a_phone_sent_another_phones_run_reads_the_same_and_the_english_laptop_stays_english(browser, tmp_path):
    timeline = tmp_path / "timeline"
    env = {TIMELINE_ENV: str(timeline), COUNTS_ENV: str(tmp_path / "counts")}
    with streamlit_process(120, env=env, module="devtools.count_runs") as (url, proc):
        teacher = new_page(browser, LAPTOP)
        phones = [new_page(browser, PHONE) for _ in range(2)]
        laptop = new_page(browser, LAPTOP)
        try:
            code, key = start_class(teacher, url, lang="zh")
            close_dialog(teacher)
            for phone in phones:
                join(phone, url, code, lang="zh")
            join(laptop, url, code, lang="en")
            teacher.goto(f"{url}/step-by-step?room={code}&key={key}&lang=zh", timeout=120_000)
            for phone in phones:
                zh_step(phone, 1).wait_for(timeout=FOLLOW_TIMEOUT)
            en_step(laptop, 1).wait_for(timeout=FOLLOW_TIMEOUT)
            for step in (2, 3, 4):
                teacher.locator("button", has_text="▶").first.click()
                zh_step(teacher, step).wait_for(timeout=FOLLOW_TIMEOUT)
                for phone in phones:
                    zh_step(phone, step).wait_for(timeout=FOLLOW_TIMEOUT)
                    zh_step(phone, step - 1).wait_for(state="detached", timeout=FOLLOW_TIMEOUT)  # nothing stale left
                en_step(laptop, step).wait_for(timeout=FOLLOW_TIMEOUT)
                time.sleep(1.0)  # the charts of the step, drawn in place after its text
                read = [phone.get_by_test_id("stMain").inner_text() for phone in phones]
                assert read[0] == read[1]
                assert "正在跟随老师" in read[0]
            english = laptop.get_by_test_id("stMain").inner_text()
            assert "Following the teacher" in english and "正在跟随老师" not in english
            assert [exceptions_on(page) for page in (teacher, *phones, laptop)] == [[]] * 4
            time.sleep(1.5)  # the timeline is written once a second
            noted = [json.loads(line) for line in timeline.with_name(f"timeline.{proc.pid}").read_text().splitlines()]
            assert sum(e["event"] == "replay" for e in noted) >= 3  # a phone was sent the other's run at each Next
        finally:
            for page in (teacher, *phones, laptop):
                page.context.close()
