"""Predict, then reveal, on the Attention and Step-by-step pages: one call per page draws the panel.

A teacher asks the class (students answer at the top of their page, the teacher sees the answers come in and
reveals the answer); anyone outside a class asks themselves. The question and its true answer come from the
trace through model/teach/questions.py; the panel only picks what to ask about.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import partial

import numpy as np
import streamlit as st

from model import NO_ABLATION, Ablation, AnyLoaded, Trace
from model.analysis.attention import attention_tokens
from model.gpt import LoadedGPT
from model.naming import TRANSFORMER_KINDS, AttentionKind, attention_name
from model.teach.questions import (
    ATTEND,
    NEXT,
    QUESTION_KINDS,
    WRITE,
    ModelQuestion,
    QuestionError,
    attend_question,
    block_weights,
    next_token_question,
    scaling_question,
    token_label,
    trace_logits,
)
from services.rooms import RoomError

from ..class_role import ClassRole, current_role, notice_error, room_store
from ..i18n import _, explain
from ..language import keep_on_language_switch
from ..lazy_fold import lazy_fold
from ..tokens import visible
from ..trace_cache import cached_run
from .answers import (
    KIND_NAMES,
    answer_pills,
    distribution,
    evidence_line,
    prompt,
    reveal_line,
    your_answer_line,
)
from .opening import new_question, open_in_room
from .write import ask_write, beside_model

QUESTION_KEY = "_question"  # st.session_state: the open question of the teacher or the solo user, with its answer
KIND_KEY = "_q_kind"
ASK_OPEN_KEY = "_q_ask_open"  # open the ask controls in this run ("Ask another question")
ASK_FOLD_KEY = "_q_fold"  # the ask controls' fold: open or not
COUNTS_EVERY = 1.0  # s between refreshes of the teacher's live answer counts
keep_on_language_switch(KIND_KEY)


@dataclass
class QuestionView:
    """What the page shows that a question can be about: one attention block, and the model's output."""

    where: str  # the page, for widget keys
    attention: str  # an AttentionKind of the Transformer (encoder / decoder / cross), or "example"
    layer: int | None
    head: int
    weights: np.ndarray  # (H, Lq, Lk) of the block in focus
    query_tokens: list[str]
    key_tokens: list[str]
    default_query: int
    number_from: int  # 0 on the Attention page, 1 on the walkthrough (as each page numbers its tokens)
    unscaled: Callable[[], np.ndarray | None]  # the block's weights in the same run without ÷√dₖ
    decoder_tokens: list[str] | None = None
    # (T, V), read only when a next-token question is asked: a GPT-2's 50,257-way logits at every position cost more
    # than the rest of the Attention page (the trace computes them on first read: model.trace.Deferred)
    logits: Callable[[], np.ndarray] | None = None
    vocabulary: list[str] | None = None


# ---- the two pages ---------------------------------------------------------------------------------------------


def question_panel(loaded: AnyLoaded, text: str, target: str | None, trace: Trace | None) -> None:
    """The Attention page's panel: questions about the head in focus above (kind, layer, head). Drawn inside the
    fragment those pickers rerun (ui.attention.view.focus_section), so its rows and keys are the kind's on screen."""
    if _hidden():
        return
    if trace is None:
        st.info(_(QuestionError.EMPTY))
        return
    kind = st.session_state.get("kind")
    kind = AttentionKind(kind) if kind in TRANSFORMER_KINDS else AttentionKind.ENCODER
    layer, head = int(st.session_state.get("layer") or 0), int(st.session_state.get("head") or 0)
    token = st.session_state.get("token")
    try:
        name = attention_name(kind, layer)
        weights = block_weights(trace, name)
        queries, keys = (visible(tokens) for tokens in attention_tokens(trace, kind))  # as the figures label them
        outputs = _outputs(loaded, trace)
    except QuestionError as exc:
        st.info(explain(exc))
        return
    decoder_text = _decoder_input(loaded, trace, target)

    def unscaled() -> np.ndarray | None:
        other = cached_run(loaded, text, decoder_text, replace(NO_ABLATION, scale=False))
        return None if other is None else block_weights(other, name)

    view = QuestionView(
        "attention", kind.value, layer, head, weights, queries, keys, token if isinstance(token, int) else 0, 0,
        unscaled, *outputs,
    )  # fmt: skip
    _panel(view)


def walk_question_panel(walk, query: int) -> None:
    """The Step-by-step page's panel: questions about the block and head the steps follow (`walk`, a
    ui.walkthrough.state.Walk) and its query row."""
    if _hidden():
        return
    kind = walk.notes.get("kind")  # the model block's AttentionKind; the worked example has none
    view = _model_view(walk, query, AttentionKind(kind)) if kind in TRANSFORMER_KINDS else _example_view(walk, query)
    if view is not None:
        _panel(view)


def _example_view(walk, query: int) -> QuestionView:
    from ..walkthrough.example import VALUES_KEY, example_walk
    from ..walkthrough.state import Ablations

    def unscaled() -> np.ndarray | None:
        if not walk.scale:
            raise QuestionError(QuestionError.SCALING_OFF)
        ablations = Ablations(walk.temperature, scale=False, mask=True)  # the mask in use is passed as it is
        return example_walk(ablations, walk.head, walk.full["mask"], st.session_state[VALUES_KEY]).full["weights"]

    return QuestionView(
        "walk", "example", None, walk.head, walk.full["weights"], walk.q_tokens, walk.k_tokens, query, 1, unscaled
    )


def _model_view(walk, query: int, kind: AttentionKind) -> QuestionView | None:
    """The model block of the walkthrough; its trace is the one the page ran (this session's cache holds it)."""
    from ..models import selected_model

    loaded, text = selected_model(), st.session_state.get("text") or ""
    mask_on = not st.session_state.get("wt_mask_off", False)
    ablation = Ablation(scale=walk.scale, temperature=walk.temperature, causal=mask_on)
    trace = cached_run(loaded, text, ablation=ablation)
    if trace is None:
        return None
    layer = int(walk.notes.get("layer", 0))
    name = attention_name(kind, layer)

    def unscaled() -> np.ndarray | None:
        if not walk.scale:
            raise QuestionError(QuestionError.SCALING_OFF)
        other = cached_run(loaded, text, _decoder_input(loaded, trace, None), replace(ablation, scale=False))
        return None if other is None else block_weights(other, name)

    return QuestionView(
        "walk", kind.value, layer, walk.head, walk.full["weights"], walk.q_tokens, walk.k_tokens, query, 1, unscaled,
        *_outputs(loaded, trace),
    )  # fmt: skip


def _decoder_input(loaded: AnyLoaded, trace: Trace, target: str | None) -> str | None:
    """What the decoder read, to run it again the same way: the typed target, else the model's own output; None for
    a GPT (its prompt is its decoder input: trace.prediction is the next character, not a text it read)."""
    if isinstance(loaded, LoadedGPT):
        return None
    return target if (target or "").strip() else (trace.prediction or None)


def _outputs(loaded, trace: Trace) -> tuple[list[str] | None, Callable[[], np.ndarray] | None, list[str] | None]:
    """(decoder tokens, logits, vocabulary) for the next-token question; None for an encoder-only model (MiniLM),
    which writes no tokens, so that question is not offered. A GPT's decoder tokens are its prompt's characters."""
    if loaded.config.arch == "bert":
        return None, None, None
    vocabulary = loaded.vocabulary if isinstance(loaded, LoadedGPT) else loaded.task.tgt_vocab.itos
    return trace.tokens("tgt"), partial(trace_logits, trace), vocabulary


# ---- the panel -------------------------------------------------------------------------------------------------


def _hidden() -> bool:
    """Students answer the class's question at the top of the page; the panel is the teacher's and the solo user's."""
    role = current_role()
    return role is not None and not role.is_teacher


def _panel(view: QuestionView) -> None:
    role = current_role()
    question = st.session_state.get(QUESTION_KEY)
    if question is not None and role is not None and not _still_open(question, role):
        _close()  # the teacher moved on after the reveal (services.rooms closes it), or another tab closed it
        question = None
    title = _("❓ Ask the class") if role is not None else _("❓ Predict, then reveal")
    if question is None:
        fold = lazy_fold(title, ASK_FOLD_KEY, open_now=bool(st.session_state.pop(ASK_OPEN_KEY, False)))
        if fold:
            with fold:
                question = _ask_controls(view, role)
    if question is not None:
        with st.container(border=True):
            st.markdown(f"#### {title}")
            if role is not None:
                _class_question(question, role)
            else:
                _solo_question(question)


def _ask_controls(view: QuestionView, role: ClassRole | None) -> dict | None:
    """What to ask about, and the Ask button; returns the new question once asked."""
    kinds = {k: _(KIND_NAMES[k]) for k in QUESTION_KINDS if k != NEXT or view.logits is not None}
    kind = st.radio(_("Question"), list(kinds), format_func=kinds.get, key=KIND_KEY)  # labels translated now
    if kind == NEXT:
        decoder_tokens = view.decoder_tokens or []
        pick = st.selectbox(
            _("Decoder position"), list(range(len(decoder_tokens))), key=f"_q_position_{view.where}",
            format_func=lambda t: token_label(t, decoder_tokens[t]),
            help=_("The model reads the decoder input up to this position and scores the token that comes next."),
        )  # fmt: skip
    else:
        n = len(view.query_tokens)
        pick = st.selectbox(
            _("Query token (row)"), list(range(n)), index=min(max(view.default_query, 0), max(n - 1, 0)),
            key=f"_q_query_{view.where}_{view.attention}",  # each kind its own rows
            format_func=lambda i: token_label(i + view.number_from, view.query_tokens[i]),
        )  # fmt: skip
    label = _("Ask the class") if role is not None else _("Ask me")
    if not st.button(label, type="primary", key=f"_q_ask_{view.where}"):
        return None
    try:
        asked = _build(view, kind, int(pick or 0))
    except QuestionError as exc:
        st.warning(explain(exc))
        return None
    if asked is None:
        return None  # cached_run has shown why
    question = new_question(asked.kind, asked.options, asked.context, asked.answer, asked.evidence)
    if role is not None and not open_in_room(role, question):
        return None
    st.session_state[QUESTION_KEY] = question
    return question


def _build(view: QuestionView, kind: str, pick: int) -> ModelQuestion | None:
    """The question about the chosen row (or decoder position), with its true answer and its context."""
    where = {"attention": view.attention, "layer": view.layer, "head": view.head, "number_from": view.number_from}
    if kind == NEXT:
        if view.logits is None or view.vocabulary is None or view.decoder_tokens is None:
            raise QuestionError(QuestionError.EMPTY)  # an encoder-only model writes no tokens (_outputs)
        asked = next_token_question(view.logits(), pick, view.vocabulary)
        return replace(asked, context={**asked.context, "token": view.decoder_tokens[pick]})
    if kind == ATTEND:
        asked = attend_question(view.weights, view.head, pick, view.key_tokens, view.number_from)
    else:
        unscaled = view.unscaled()
        if unscaled is None:
            return None
        asked = scaling_question(view.weights, unscaled, view.head, pick)
    token = view.query_tokens[pick] if 0 <= pick < len(view.query_tokens) else ""
    return replace(asked, context={**asked.context, **where, "token": token})


def _close() -> None:
    st.session_state.pop(QUESTION_KEY, None)


def _ask_another() -> None:
    _close()
    st.session_state[ASK_OPEN_KEY] = True


def _still_open(question: dict, role: ClassRole) -> bool:
    """Is the class's open question still this one? (Unknown when the room cannot be read: keep it.)"""
    try:
        open_question = room_store().snapshot(role.code).question
    except RoomError:
        return True
    return open_question is not None and open_question.id == question["id"]


# ---- a class: the teacher's side -------------------------------------------------------------------------------


def _class_question(question: dict, role: ClassRole) -> None:
    st.markdown(prompt(question["kind"], question["context"]))
    if question["revealed"]:
        _class_reveal(question, role)
        return
    _live_counts(question, role.code, role.teacher_key)
    if question["answer"] is None:  # "which head will copy?": the run reveals it when its head forms (copy_ask.py)
        st.caption(_("The answer appears on every screen the moment the head forms, read from the run's own scores."))
        st.button(_("Close the question"), on_click=_clear_class_question, args=(role,), key="_q_close")
        return
    reveal_col, close_col = st.columns(2)
    reveal_col.button(
        _("Reveal"), type="primary", on_click=_reveal_to_class, args=(question, role), width="stretch",
        key="_q_reveal_class",
    )  # fmt: skip
    close_col.button(
        _("Close the question"), on_click=_clear_class_question, args=(role,), width="stretch", key="_q_close"
    )


@st.fragment(run_every=COUNTS_EVERY)
def _live_counts(question: dict, code: str, key: str) -> None:
    """The answers as they come in (the teacher's screen), refreshed every COUNTS_EVERY seconds."""
    try:
        counts = room_store().answer_counts(code, key)
    except RoomError as exc:
        st.warning(explain(exc))
        return
    if counts is None or counts.question_id != question["id"]:
        st.info(_("This question is no longer open."))
        return
    distribution(question["kind"], question["options"], counts.counts, None, "class_answers_live", question["context"])


def _reveal_to_class(question: dict, role: ClassRole) -> None:
    try:
        room_store().reveal(role.code, role.teacher_key, question["answer"], question["id"])
    except RoomError as exc:
        notice_error(exc)
        return
    question["revealed"] = True


def _clear_class_question(role: ClassRole, ask_another: bool = False) -> None:
    with suppress(RoomError):  # the class has ended or moved on: nothing is left to close
        room_store().clear_question(role.code, role.teacher_key)
    (_ask_another if ask_another else _close)()


def _class_reveal(question: dict, role: ClassRole) -> None:
    try:
        counts = room_store().answer_counts(role.code, role.teacher_key)
    except RoomError as exc:
        st.warning(explain(exc))
        counts = None
    st.success(reveal_line(question["kind"], question["options"], question["answer"]))
    st.caption(evidence_line(question["kind"], question["evidence"]))
    if counts is not None and counts.question_id == question["id"]:
        kind, options, context = question["kind"], question["options"], question["context"]
        if kind == WRITE:  # the class beside the model's probabilities when it was asked
            beside_model(tuple(options), list(counts.counts), question["answer"], "class_answers",
                         question["evidence"].get("probabilities"), context)  # fmt: skip
        else:
            distribution(kind, options, counts.counts, question["answer"], "class_answers", context)
    again_col, close_col = st.columns(2)
    again_col.button(
        _("Ask another question"), on_click=_clear_class_question, args=(role, True), width="stretch", key="_q_again"
    )
    close_col.button(
        _("Close the question"), on_click=_clear_class_question, args=(role,), width="stretch", key="_q_close",
        help=_("Takes the question off every student's page (moving to another view does the same)."),
    )  # fmt: skip


def write_question_panel(role: ClassRole) -> None:
    """The Next token page's question for the class, above the page: "what will the model write next?" over the
    text on the teacher's page (ask_write), then the answers coming in, Reveal and Close as for the other questions;
    a question asked on another page and still open shows as the one-line bar instead."""
    question = st.session_state.get(QUESTION_KEY)
    if question is not None and not _still_open(question, role):
        _close()
        question = None
    if question is not None and question["kind"] != WRITE:
        teacher_question_bar(role)
        return
    with st.container(border=True, key="write_question"):
        if question is None:
            if not st.button(_("❓ Ask the class: what will the model write next?"), key="_q_ask_write"):
                return
            question = ask_write(role)
            if question is None:
                return
            st.session_state[QUESTION_KEY] = question
        st.markdown(_("#### ❓ Ask the class"))
        _class_question(question, role)


def teacher_question_bar(role: ClassRole) -> None:
    """On a page without the ask panel (Home, a lesson, …): the teacher's open question, one line, with Reveal (or,
    once revealed, the answer) and Close, so a question left open on the students' pages is never out of reach."""
    question = st.session_state.get(QUESTION_KEY)
    if question is None:
        return
    if not _still_open(question, role):
        _close()
        return
    with st.container(border=True, key="teacher_question_bar"):
        st.markdown(_("❓ **Your question is open on the students' pages:** {prompt}").format(
            prompt=prompt(question["kind"], question["context"])))  # fmt: skip
        buttons = st.container(horizontal=True)
        if question["revealed"]:
            buttons.success(reveal_line(question["kind"], question["options"], question["answer"]))
        else:
            buttons.button(
                _("Reveal"), type="primary", on_click=_reveal_to_class, args=(question, role), key="_q_reveal_bar"
            )
        buttons.button(_("Close the question"), on_click=_clear_class_question, args=(role,), key="_q_close_bar")


# ---- alone -----------------------------------------------------------------------------------------------------


def _solo_question(question: dict) -> None:
    kind, options = question["kind"], question["options"]
    st.markdown(prompt(kind, question["context"]))
    pick_key = f"_q_pick_{question['id']}"
    choice = answer_pills(kind, options, pick_key, disabled=question["revealed"])
    if not question["revealed"]:
        st.button(_("Reveal"), type="primary", on_click=question.update, kwargs={"revealed": True}, key="_q_reveal")
        return
    st.success(reveal_line(kind, options, question["answer"]))
    st.markdown(your_answer_line(kind, options, choice, question["answer"]))
    st.caption(evidence_line(kind, question["evidence"]))
    counts = [int(i == choice) for i in range(len(options))]
    distribution(kind, options, counts, question["answer"], "solo_answers", question["context"])
    st.button(_("Ask another question"), on_click=_ask_another, key="_q_again")
