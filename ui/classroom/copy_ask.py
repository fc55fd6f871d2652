"""The Train page's question for a class, during an induction run: "which head will copy?", asked before the head
forms and revealed when it does, from the run's own scores (model/teach/questions.py copy_question), never by hand.

The teacher asks at the top of the Train page (class_run.class_run_panel) once the induction task is chosen, before
Start or while the run has not formed its head yet; every head of the model is an option. The answer is unknown when
it is asked: the publish tick (class_run.share_run) reveals it on every screen at the moment the head forms.
"""

from __future__ import annotations

import streamlit as st

from model.errors import LabError
from model.gpt import GPTConfig
from model.teach.questions import COPY, copy_options, copy_question
from services.rooms import RoomError, RoomStore
from services.training import JobView
from services.training.gpt_job import INDUCTION
from views import TrainView, key_of

from ..class_role import ClassRole, notice_error
from ..i18n import _, explain
from ..training.gpt_settings import DEFAULTS
from ..training.panels import current_job
from .ask import QUESTION_KEY, _class_question, _close, _still_open, teacher_question_bar
from .opening import new_question, open_in_room

FAMILY_KEY, TASK_KEY = key_of(TrainView, "arch"), key_of(TrainView, "gpt_task")  # the Train page's family, task
FORM_KEYS = {"layers": f"train_gpt_layers_{INDUCTION}", "heads": f"train_gpt_heads_{INDUCTION}"}


def heads_to_ask() -> tuple[int, int, int | None] | None:
    """(layers, heads, the job whose head has formed already, if any) of the run the question is about: the induction
    job that trains now (or waits) before its head forms, else the induction form's settings (the next Start); None
    when the Train page is on something else."""
    job = current_job()
    if job is not None and job.running and isinstance(config := job.model_config, GPTConfig):
        view = job.view()
        if view.gpt is not None and view.gpt.task == INDUCTION and view.gpt.formed is None:
            return config.n_layers, config.n_heads, None
    session = st.session_state
    if session.get(FAMILY_KEY) != GPTConfig.arch or session.get(TASK_KEY) != INDUCTION:
        return None
    defaults = DEFAULTS[INDUCTION]
    layers = int(session.get(FORM_KEYS["layers"], defaults.n_layers))
    heads = int(session.get(FORM_KEYS["heads"], defaults.n_heads))
    return layers, heads, job.id if job is not None else None


def _induction(view: JobView | None) -> bool:
    return view is not None and view.gpt is not None and view.gpt.task == INDUCTION


def copy_question_panel(role: ClassRole) -> None:
    """At the top of the Train page, the teacher's: Ask the class "which head will copy?", then the answers coming in
    until the head forms; a question of another page still open shows as its one-line bar instead."""
    question = st.session_state.get(QUESTION_KEY)
    if question is not None and not _still_open(question, role):
        _close()
        question = None
    if question is not None and question["kind"] != COPY:
        teacher_question_bar(role)
        return
    heads = heads_to_ask() if question is None else None
    if question is None and heads is None:
        return
    with st.container(border=True, key="copy_question"):
        if heads is not None:
            if not st.button(_("❓ Ask the class: which head will copy?"), key="_q_ask_copy"):
                return
            question = ask_copy(role, *heads)
        if question is None:
            return
        st.markdown(_("#### ❓ Ask the class"))
        _class_question(question, role)


def ask_copy(role: ClassRole, layers: int, heads: int, formed_job: int | None) -> dict | None:
    """Open the question in the room, every head an option; its answer is left for the run (reveal_copy)."""
    try:
        options = copy_options(layers, heads)
    except LabError as exc:
        st.warning(explain(exc))
        return None
    question = new_question(COPY, options, {"layers": layers, "heads": heads}, None, {}, formed_job=formed_job)
    if not open_in_room(role, question):
        return None
    st.session_state[QUESTION_KEY] = question
    return question


def reveal_copy(store: RoomStore, role: ClassRole, view: JobView, job_id: int) -> bool:
    """If "which head will copy?" is open and this run's head has just formed (a run whose head had formed before it
    was asked does not count), reveal the head the run's scores name at that step. True when it revealed."""
    question = st.session_state.get(QUESTION_KEY)
    if not question or question["kind"] != COPY or question["revealed"] or not _induction(view):
        return False
    gpt = view.gpt
    if gpt is None or gpt.formed is None or not gpt.scores or question.get("formed_job") == job_id:
        return False
    step = gpt.formed.step
    scores = next((s for at, s in gpt.scores if at == step), gpt.scores[-1][1])  # the scores that formed it
    try:
        asked = copy_question(scores, step)
    except LabError:
        return False  # a one-layer run: no circuit to name (it was never offered)
    head = asked.options[asked.answer]
    if head not in question["options"]:  # the heads changed since it was asked: the options no longer fit
        return False
    answer = question["options"].index(head)
    try:
        store.reveal(role.code, role.teacher_key, answer, question["id"])
    except RoomError as exc:
        notice_error(exc)
        return False
    question.update(answer=answer, evidence=asked.evidence, revealed=True)
    return True
