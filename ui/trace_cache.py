"""The one way pages run the model: traces kept per browser session, so a rerun (a Next click, a head
change, a switch to another page) with the same model and input does not run the model again.

Per session (st.session_state), never on the shared model: another user's trace can never show up here.
"""

from __future__ import annotations

from collections import OrderedDict

import streamlit as st

from model import NO_ABLATION, Ablation, InputError, LoadedModel, Trace

from .i18n import _, explain
from .inputs import fit_to_limit

CACHE_KEY = "_trace_cache"
CACHE_SIZE = 8  # a few recent inputs (each trace of our models is well under 2 MB)


def cached_run(
    loaded: LoadedModel, text: str, target: str | None = None, ablation: Ablation = NO_ABLATION
) -> Trace | None:
    """loaded.run(...) remembered per (model, input, target, ablation) for this session, or None after a
    friendly message for empty or unusable input; over-long input and target are cut with a notice."""
    text = fit_to_limit(loaded, text) if text.strip() else text
    target = fit_to_limit(loaded, target, "target") if target and target.strip() else ""
    cache: OrderedDict = st.session_state.setdefault(CACHE_KEY, OrderedDict())
    key = (loaded.model, text, target, ablation)  # the model object itself: a retrained model is a new key
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    trace = _run_or_explain(loaded, text, target or None, ablation)
    if trace is not None:
        cache[key] = trace
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    return trace


def _run_or_explain(loaded: LoadedModel, text: str, target: str | None, ablation: Ablation) -> Trace | None:
    if not text.strip():
        example = loaded.task.example
        st.info(_("Type a few tokens separated by spaces, for example `{example}`.").format(example=example))
        return None
    try:
        return loaded.run(text, target, ablation=ablation)
    except InputError as exc:
        st.warning(explain(exc))
        return None
