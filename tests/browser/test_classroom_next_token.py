"""A class on /next-token in Chromium: the teacher (1280×720) writes two tokens and the student's phone (390×844)
follows them; the teacher asks "what will the model write next?", the student's page waits, the student taps a
candidate, and at the reveal the phone shows the class's answers beside the model's probabilities (the model's
answer the argmax of its own logits), nothing wider than the phone, no exception.

The server is started here with a tiny GPT (tests.toys) written as a checkpoint and offered through
ATTENTION_LAB_EXTRA_MODELS, so it is in every session's picker."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import torch

from devtools.classroom import close_dialog, join, start_class
from devtools.harness import exceptions_on, new_page, streamlit_server
from model import save_checkpoint
from model.teach.questions import write_question
from tests.toys import tiny_gpt

from .figures import figures, wait_for_figure

pytestmark = pytest.mark.browser
PHONE = (390, 844)
FOLLOW_TIMEOUT = 30_000  # ms: generous for a loaded machine; bench/load/run.py follow measures the real figures
LM = tiny_gpt("zh", seed=7)
WORDS = {"en": {"in": "Your answer is in", "answer": "The model's answer:"},
         "zh": {"in": "已收到你的答案", "answer": "模型的答案："}}  # fmt: skip
WIDTH_JS = """() => Math.max(...[...document.querySelectorAll('.st-key-class_question *')]
  .map((e) => e.getBoundingClientRect().right))"""


@pytest.fixture(scope="module")
def gpt_url():
    with tempfile.TemporaryDirectory(prefix="class-next-token-") as tmp:
        folder = str(save_checkpoint(LM, Path(tmp) / LM.name))
        with streamlit_server(env={"ATTENTION_LAB_EXTRA_MODELS": folder}) as url:
            yield url


def probs_after(text: str) -> torch.Tensor:
    ids = torch.tensor([LM.vocab.encode(text)[0][-LM.max_len :]])
    with torch.no_grad():
        return torch.softmax(LM.model(ids)[0, -1].double(), -1)


def written_text(page) -> str:
    return page.locator(".st-key-nt_written_text").inner_text().replace("\u00a0", " ")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_phone_follows_the_teacher_s_writing_and_answers_what_comes_next(browser, gpt_url, lang):
    teacher, student = new_page(browser, (1280, 720)), new_page(browser, PHONE)
    words = WORDS[lang]
    try:
        code, key = start_class(teacher, gpt_url)
        close_dialog(teacher)
        teacher.goto(f"{gpt_url}/next-token?model={LM.name}&lang=en&room={code}&key={key}", timeout=120_000)
        wait_for_figure(teacher, "next-token-candidates")
        join(student, gpt_url, code, lang)
        text = LM.task.example
        for _ in range(2):  # the teacher writes the most likely token twice; the phone follows each
            token = LM.vocab.itos[int(torch.argmax(probs_after(text)))]
            text += token
            teacher.get_by_role("button", name="Most likely", exact=True).click()
            teacher.wait_for_function(
                "(t) => document.querySelector('.st-key-nt_written_text')?.innerText.replace(/\\u00a0/g, ' ')"
                ".includes(t)", arg=text, timeout=FOLLOW_TIMEOUT,
            )  # fmt: skip
            student.wait_for_function(
                "(t) => document.querySelector('.st-key-nt_written_text')?.innerText.replace(/\\u00a0/g, ' ')"
                ".includes(t)", arg=text, timeout=FOLLOW_TIMEOUT,
            )  # fmt: skip
        question = write_question(probs_after(text).numpy(), LM.vocabulary, text)
        teacher.locator(".st-key-_q_ask_write button").click()
        box = student.locator(".st-key-class_question")
        box.wait_for(timeout=FOLLOW_TIMEOUT)
        assert student.locator(".st-key-nt_written_text").count() == 0  # the page waits for the reveal
        pick = 0 if question.answer != 0 else 1
        box.get_by_test_id("stButtonGroup").get_by_text(question.options[pick], exact=True).click()  # a pill
        box.get_by_text(words["in"]).wait_for(timeout=FOLLOW_TIMEOUT)
        assert student.evaluate(WIDTH_JS) <= PHONE[0]  # the question fits the phone
        teacher.locator(".st-key-_q_reveal_class button").click()
        box.get_by_text(words["answer"]).wait_for(timeout=FOLLOW_TIMEOUT)
        wait_for_figure(student, "answers-beside-model", timeout_ms=FOLLOW_TIMEOUT)
        labels = figures(student)["answers-beside-model"]["y"]
        assert f"✓ {question.options[question.answer]}" in labels and question.options[pick] in labels
        assert exceptions_on(student) == [] and exceptions_on(teacher) == []
    finally:
        for page in (teacher, student):
            page.context.close()
