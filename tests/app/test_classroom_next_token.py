"""A class on the Next token page (AppTest), in English and Chinese: the teacher writes token by token and the
student follows; the teacher asks "what will the model write next?"; the student's page waits until the reveal, the
student picks a candidate (or types a character); the reveal sets the class's answers beside the model's
probabilities, which are checked against torch.softmax of the model's own logits (T = 1, no cut).

The GPT is a tiny untrained one (tests.toys.tiny_gpt), the teacher's own model, shared with the room as a
checkpoint (the way a teacher's trained model reaches the class)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from model.gpt import LoadedGPT
from model.teach.questions import OTHER, WRITE
from services.rooms import shared_room_store
from tests.toys import tiny_gpt
from ui.class_role import ROLE_KEY, ClassRole
from ui.classroom.ask import QUESTION_KEY

from .charts import charts_of
from .test_classroom import APP, buttons, run, text_of
from .training import heatmap_z

PAGE = "pages/next-token.py"
ELSE = {"en": "another character", "zh": "别的字符"}  # the OTHER option's label
HIDDEN = {"en": "comes back when the teacher reveals the answer", "zh": "老师揭晓答案后"}
ASKED = {"en": "What will the model write next, after", "zh": "模型接下来会写什么？"}


def model_probs(lm: LoadedGPT, text: str) -> np.ndarray:
    """softmax of the model's own logits for the token after `text`: (V,) float64."""
    ids = torch.tensor([lm.vocab.encode(text)[0][-lm.max_len :]])
    with torch.no_grad():
        logits = lm.model(ids)[0, -1].double()
    return torch.softmax(logits, -1).numpy()


def teacher_on_next_token(lm: LoadedGPT, lang: str) -> tuple[AppTest, ClassRole]:
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["user_models"] = {lm.name: lm}
    at.query_params.update(lang=lang, model=lm.name)
    run(at)
    at.switch_page(PAGE)
    run(at)
    run(at.button(key="_class_start").click())
    return at, at.session_state[ROLE_KEY]


def student_of(code: str, lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(lang=lang, room=code)
    return run(at)


def written(at: AppTest) -> str:
    return str(at.session_state["nt_written"])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_class_follows_the_teacher_s_writing_and_answers_what_comes_next(lang):
    lm = tiny_gpt("zh", seed=5)
    teacher, role = teacher_on_next_token(lm, lang)
    student = student_of(role.code, lang)
    assert student.session_state["model"] == lm.name  # the teacher's own model, shared with the room
    for n in (1, 2, 3):  # token by token, as the teacher writes
        run(teacher.button(key="nt_most_likely").click())
        run(student)
        assert len(written(teacher).split(".")) == n and written(student) == written(teacher)
    text = lm.task.example + lm.vocab.decode([int(i) for i in written(teacher).split(".")])
    run(teacher.button(key="_q_ask_write").click())
    question = teacher.session_state[QUESTION_KEY]
    assert question["kind"] == WRITE and question["options"][-1] == OTHER
    probs = model_probs(lm, text)
    best = lm.vocabulary[int(np.argmax(probs))]
    assert question["options"][question["answer"]] == best
    run(student)
    shown = text_of(student)
    assert not charts_of(student) and any(HIDDEN[lang] in i.value for i in student.info)  # the bars wait
    assert any(ASKED[lang] in m.value for m in student.markdown)
    assert f"{probs.max():.3f}" not in shown and f"{probs.max():.1%}" not in shown  # no probability, anywhere
    pick = 0 if question["options"][0] != best else 1  # a candidate that is not the answer
    student.button_group(key=f"_class_pick_{question['id']}_pills").set_value(pick)
    run(student)
    counts = shared_room_store().answer_counts(role.code, role.teacher_key)
    assert counts is not None and counts.counts[pick] == 1 and counts.total == 1
    run(teacher.button(key="_q_reveal_class").click())
    beside = next(c.spec for c in charts_of(teacher) if c.key == "class_answers")
    labels = beside["layout"]["yaxis"]["ticktext"]
    model_bars = heatmap_x(beside["data"][1])
    listed = [lm.vocabulary.index(o) for o in question["options"][:-1]]
    assert labels[-1] == ELSE[lang] and model_bars[-1] == pytest.approx(1 - probs[listed].sum(), abs=1e-6)
    for label, p in zip(labels[:-1], model_bars[:-1], strict=True):  # the candidates (nobody typed another)
        assert p == pytest.approx(probs[lm.vocabulary.index(label.removeprefix("✓ "))], abs=1e-6)
    assert len(labels) == question["context"]["shown"] + 1 and f"✓ {best}" in labels
    run(student)
    mine = next(c.spec for c in charts_of(student) if c.key == "student_answers")
    assert mine["layout"]["yaxis"]["ticktext"] == labels  # the student's page computes the same distribution
    np.testing.assert_allclose(heatmap_x(mine["data"][1]), model_bars, atol=1e-9)
    np.testing.assert_allclose(heatmap_x(mine["data"][0]), [1.0 if i == pick else 0.0 for i in range(len(labels))])
    assert charts_of(student)  # the page's own bars are back
    assert "_q_close" in buttons(teacher)


def test_a_typed_character_counts_as_its_option_or_as_another_character():
    lm = tiny_gpt("en", seed=2)
    teacher, role = teacher_on_next_token(lm, "en")
    students = [student_of(role.code, "en") for _ in range(2)]
    run(teacher.button(key="_q_ask_write").click())
    question = teacher.session_state[QUESTION_KEY]
    listed = question["options"][question["context"]["shown"]]  # a typed-only option: not a candidate button
    unlisted = next(ch for ch in "Zqxj" if ch not in question["options"])  # the tiny vocabulary is all listed
    for student, typed in zip(students, (listed, unlisted), strict=True):
        run(student)
        student.text_input(key=f"_class_typed__class_pick_{question['id']}").input(typed)
        run(student)
    counts = shared_room_store().answer_counts(role.code, role.teacher_key)
    assert counts is not None
    assert counts.counts[question["context"]["shown"]] == 1 and counts.counts[-1] == 1  # its option, and OTHER


def heatmap_x(trace: dict) -> np.ndarray:
    """A bar trace's x as plotly's JSON carries it (typed array or list)."""
    return heatmap_z({"z": trace["x"]}).reshape(-1)
