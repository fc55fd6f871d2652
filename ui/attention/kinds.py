"""The attention kinds the model on the page has: all three for our encoder–decoder, encoder self-attention only for
MiniLM (no decoder, no cross kinds offered), decoder self-attention only for a GPT."""

from __future__ import annotations

import streamlit as st

from model import Trace
from model.naming import TRANSFORMER_KINDS, attention_name
from views import AttentionView

DEFAULT_KIND = AttentionView().kind  # what the picker shows when the session has no kind yet


def trace_kinds(trace: Trace) -> list[str]:
    """The kinds with weights in `trace`, in the page's order (a GPT: the decoder's alone)."""
    return [k.value for k in TRANSFORMER_KINDS if attention_name(k, 0, "weights") in trace]


def model_kinds(trace: Trace) -> list[str]:
    """The kinds with weights in `trace`; a kind chosen before (or the view's default, cross) that this model lacks is
    replaced by its first kind before the picker is drawn. The session is left alone otherwise: a write here would
    read as the user's own change (a following student would go exploring)."""
    kinds = trace_kinds(trace)
    current = st.session_state.get("kind")
    if kinds and (DEFAULT_KIND if current is None else current) not in kinds:
        st.session_state["kind"] = kinds[0]
    return kinds
