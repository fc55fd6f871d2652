"""The attention kinds the model on the page has: all three for our encoder–decoder, encoder self-attention only for
MiniLM (no decoder, no cross kinds offered)."""

from __future__ import annotations

import streamlit as st

from model import Trace
from model.naming import TRANSFORMER_KINDS, attention_name


def model_kinds(trace: Trace) -> list[str]:
    """The kinds with weights in `trace`; a kind chosen before (the view's default: cross) that this model lacks is
    replaced by its first kind before the picker is drawn."""
    kinds = [k.value for k in TRANSFORMER_KINDS if attention_name(k, 0, "weights") in trace]
    if kinds and st.session_state.get("kind") not in kinds:
        st.session_state["kind"] = kinds[0]
    return kinds
