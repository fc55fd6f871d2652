"""Traces kept per browser session, so a rerun with the same model and input does not run the model again.

Per session (st.session_state), never on the shared model: another user's trace can never show up here.
"""

from __future__ import annotations

from collections import OrderedDict

import streamlit as st

from model import NO_ABLATION, Ablation, LoadedModel, Trace

from .inputs import fit_to_limit, run_or_explain

CACHE_KEY = "_trace_cache"
CACHE_SIZE = 8  # a few recent inputs (each trace of our models is well under 2 MB)


def cached_run(
    loaded: LoadedModel, text: str, target: str | None = None, ablation: Ablation = NO_ABLATION
) -> Trace | None:
    """run_or_explain(...), remembered per (model, input, target, ablation) for this session."""
    text = fit_to_limit(loaded, text) if text.strip() else text
    target = fit_to_limit(loaded, target, "target") if target and target.strip() else ""
    cache: OrderedDict = st.session_state.setdefault(CACHE_KEY, OrderedDict())
    key = (loaded.model, text, target, ablation)  # the model object itself: a retrained model is a new key
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    trace = run_or_explain(loaded, text, target or None, ablation=ablation)
    if trace is not None:
        cache[key] = trace
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    return trace
