"""The Next-token page's lesson slide: the text so far, Most likely / Sample / Back, and the next token's bars beside
the chain, so a teacher writes on the slide itself. The slide's view holds the prompt, the tokens it starts with and
the sampling settings (it has no controls); what is written on the slide lives in this session under the slide's own
key, so the full page's view stays as it was, and "Open this view" carries it there (slide_view)."""

from __future__ import annotations

import dataclasses
import hashlib

import streamlit as st

from model.errors import InputError
from model.gpt import LoadedGPT
from model.sampling import greedy, sample
from views import NextTokenView
from views.next_token import WrittenError, written_ids

from ..attention.page import slide_input
from ..i18n import _, explain
from ..models import get_model
from ..tokens import md_escape
from ..walkthrough.state import md_plain
from .distribution import candidates_chart, chain_formulas, distribution_section
from .run import next_token, run_written
from .settings import view_settings
from .writing import write_buttons, written_section

PREFIX = "nt_slide"  # the slide's widget keys (the page's are nt_…)
STORE = "_nt_slide_written:"  # + the slide view's fingerprint: the ids written on that slide in this session


def store_key(view: NextTokenView) -> str:
    """The session key of what is written on the slide of `view` (each slide its own, kept while stepping away)."""
    return STORE + hashlib.sha256(repr(view).encode()).hexdigest()[:16]


def slide_view(view: NextTokenView) -> NextTokenView:
    """The slide's view as it shows now: with the tokens written on it in this session."""
    return dataclasses.replace(view, written=str(st.session_state.get(store_key(view), view.written)))


def slide_ids(view: NextTokenView, loaded: LoadedGPT) -> tuple[int, ...]:
    """The ids written on the slide, checked against the model's vocabulary (a bad one said, and none kept)."""
    store = store_key(view)
    try:
        return written_ids(st.session_state.setdefault(store, view.written), len(loaded.vocab), "nt_written")
    except WrittenError as exc:
        st.warning(explain(exc), icon="⚠️")
        st.session_state[store] = ""
        return ()


def render_slide(view: NextTokenView) -> None:
    """The model and prompt in a line, the written text, the writing buttons, then the bars and the chain."""
    loaded = get_model(view.common.model)
    if not isinstance(loaded, LoadedGPT):
        st.info(_("This slide shows how a GPT writes the next token, and **{name}** is not a GPT.").format(
            name=md_escape(loaded.name)))  # fmt: skip
        return
    prompt = slide_input(view, loaded)
    ids = slide_ids(view, loaded)
    try:
        run = run_written(loaded, prompt, ids)
    except InputError as exc:
        st.info(explain(exc), icon="✍️")
        return
    st.caption(_("Model **{model}** · prompt “{prompt}”").format(model=md_plain(loaded.name), prompt=md_plain(prompt)))
    dist = next_token(loaded, run, view_settings(view, len(loaded.vocab)))
    step_seed = view.seed + len(ids)  # the n-th written token is drawn with seed + n, as on the page
    sampled, most_likely = sample(dist.chain, step_seed), greedy(dist.chain)
    written_section(loaded, run.read, run.prompt.cut, ids, prefix=PREFIX)
    write_buttons(ids, most_likely, sampled, step_seed, prefix=PREFIX, store=store_key(view))
    bars, formulas = distribution_section()
    with bars:
        candidates_chart(dist, sampled, step_seed, loaded.name)
    with formulas:
        chain_formulas(dist)
