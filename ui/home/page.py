"""The Home page as a function of its view: what the lab is, and a card for each page."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from services.lessons import DEFAULT_LESSON, Lesson, shipped_lessons
from views import HomeView

from .. import navigation as nav
from ..i18n import N_, _, ngettext
from ..presenter import page_header

# (page, its blurb: a message, or a function that words it from the thing itself)
SECTIONS: list[tuple[nav.PageSpec, str | Callable[[], str]]] = [
    (nav.ATTENTION, N_(
        "Type a sentence and see every layer's and every head's attention at once: encoder self-attention, "
        "masked decoder self-attention and cross-attention, a head view, entropy and rollout.")),
    (nav.STEP_BY_STEP, N_(
        "Walk through softmax(QKᵀ/√dₖ)V one step at a time with the real numbers in the formulas; "
        "edit X and the weights, change the mask, switch off the scaling.")),
    (nav.POSITIONAL, N_(
        "The sinusoidal table, how positions resemble each other, and what the model does without positions.")),
    (nav.INSIDE_A_LAYER, N_(
        "The residual stream, what attention and the feed-forward block each add, LayerNorm statistics.")),
    (nav.TRAIN, N_("Train a model from random weights in seconds and watch a head's attention form.")),
    (nav.RNN_VS_TRANSFORMER, N_(
        "Where attention came from: an RNN encoder–decoder squeezes the input into one vector, then attention lets "
        "it look back. Its alignment beside the Transformer's, its decoder step by step, and what the textbooks claim "
        "about the two, measured.")),
    (nav.NEXT_TOKEN, N_(
        "How a GPT writes: pick a GPT model, type a prompt in English or Chinese and watch it choose the next token. "
        "The probabilities with temperature, top-k and top-p, writing one token at a time, what the new token "
        "looked at, each layer's guess (the logit lens) and the cached keys and values.")),
    (nav.LESSON, lambda: lesson_blurb(shipped_lessons()[DEFAULT_LESSON])),
]  # fmt: skip


def lesson_blurb(lesson: Lesson) -> str:
    """The Lesson card's words, with the slides the shipped lesson has (a lesson that grows says so)."""
    n = len(lesson.slides)
    return ngettext(
        "A ready lesson in {n} slide, from why attention through the encoder–decoder and a GPT to a real model and a "
        "recap, each with a live view; download it, edit it, "
        "upload your own, or build one from the views you add.",
        "A ready lesson in {n} slides, from why attention through the encoder–decoder and a GPT to a real model and a "
        "recap, each with a live view; download it, edit it, "
        "upload your own, or build one from the views you add.",
        n,
    ).format(n=n)


def render(view: HomeView, *, slide: bool = False) -> None:
    """The page (no slide shows Home)."""
    page_header(
        "Attention Lab",
        _(
            "See every number a small Transformer computes. The models here are encoder–decoder Transformers "
            "laid out as in *Attention Is All You Need* (2017), trained here in seconds on an ordinary CPU on small "
            "tasks: copying, reversing and sorting digits, and a toy translation. Pick one in the sidebar; every page "
            "follows your choice and your input, and every view has its own link you can share."
        ),
        markdown=True,
        keep=True,
    )

    columns = st.columns(2)
    for i, (spec, blurb) in enumerate(SECTIONS):
        with columns[i % 2].container(border=True):
            st.page_link(spec.script, label=f"**{_(spec.title)}**", icon=spec.icon)
            st.caption(blurb() if callable(blurb) else _(blurb))
