"""The one way pages run the model: traces kept per browser session, so a rerun (a Next click, a head
change, a switch to another page) with the same model and input does not run the model again.

Per session (st.session_state), never on the shared model: another user's trace can never show up here.
Below that, traces of models every session shares (shipped ones, a class room's models: ui.shared_models)
are also kept once per server in a bounded LRU that computes each missing trace once, so the N followers
of a class asking for the teacher's input at the same moment run the model once, not N times. A model
trained or uploaded in a session is never in it.
"""

from __future__ import annotations

from collections import OrderedDict

import streamlit as st

from model import NO_ABLATION, Ablation, AnyLoaded, InputError, LoadedEncoder, LoadedModel, Trace
from model.gpt import LoadedGPT
from services.shared_cache import SharedCache

from .i18n import _, explain
from .inputs import fit_to_limit
from .models import is_server_model
from .shared_models import is_marked_shared

CACHE_KEY = "_trace_cache"
CACHE_SIZE = 8  # a few recent inputs (each trace of our models is well under 2 MB)
SHARED_ENTRIES, SHARED_BYTES = 16, 64 * 2**20  # process-wide: a class's recent inputs (soak: bounded memory)


def trace_bytes(trace: Trace) -> int:
    """Memory held by a trace's tensors (a deferred one counted, not computed: see model.trace.Deferred)."""
    return trace.nbytes()


SHARED_TRACES: SharedCache[Trace] = SharedCache(SHARED_ENTRIES, SHARED_BYTES, trace_bytes)


def is_shared(loaded: AnyLoaded) -> bool:
    """One of the server's models as its cache holds it (shipped, or from a folder it was started with: loaded once
    per server, read-only) or a class room's model: every session may reuse its traces."""
    if isinstance(loaded, LoadedModel) and is_marked_shared(loaded):  # only a room's models are marked: never MiniLM
        return True
    return is_server_model(loaded)


def traced(loaded: AnyLoaded, text: str, target: str | None, ablation: Ablation = NO_ABLATION) -> Trace:
    """loaded.run(text, target, ablation): once per server for a shared model, else in this session's thread.
    InputError passes through (never cached)."""
    if not is_shared(loaded):
        return loaded.run(text, target, ablation=ablation)
    key = (loaded.model, text, target or "", ablation)  # the model object: shared models live for the process
    return SHARED_TRACES.get(key, lambda: loaded.run(text, target, ablation=ablation))


def traced_gpt(loaded: LoadedGPT, text_or_ids: str | list[int]) -> Trace:
    """A GPT's trace of what LoadedGPT.continued gives: text as traced keys it (the same entry as any page's), token
    ids by their tuple, so a BPE's ids are read as they are, never re-encoded from text. InputError passes through."""
    if isinstance(text_or_ids, str):
        return traced(loaded, text_or_ids, None)
    ids = list(text_or_ids)
    if not is_shared(loaded):
        return loaded.trace(ids)
    key = (loaded.model, tuple(ids), "", NO_ABLATION)  # a tuple of ids: never equal to a text's key
    return SHARED_TRACES.get(key, lambda: loaded.trace(ids))


def cached_run(
    loaded: AnyLoaded, text: str, target: str | None = None, ablation: Ablation = NO_ABLATION
) -> Trace | None:
    """loaded.run(...) remembered per (model, input, target, ablation) for this session, or None after a
    friendly message for empty or unusable input; over-long input and target are cut with a notice."""
    text = fit_to_limit(loaded, text) if text.strip() else text
    target = target if target and target.strip() else ""
    if target:  # MiniLM and a GPT refuse any target in run(): a clear message, never cut here
        target = fit_to_limit(loaded, target, "target")
    cache: OrderedDict = st.session_state.setdefault(CACHE_KEY, OrderedDict())
    key = (loaded.model, text, target, ablation)  # the model object itself: a retrained model is a new key
    if key in cache:
        cache.move_to_end(key)
        trace = cache[key]
    else:
        trace = _run_or_explain(loaded, text, target or None, ablation)
    if trace is not None:
        cache[key] = trace
        while len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
        for notice in trace.notices:  # MiniLM's cut at 256 tokens: said on every run that uses the cut input
            st.warning(explain(notice), icon="✂️")
    return trace


def _run_or_explain(loaded: AnyLoaded, text: str, target: str | None, ablation: Ablation) -> Trace | None:
    if not text.strip():
        example = loaded.task.example
        if isinstance(loaded, LoadedEncoder):
            st.info(_("The input is empty: type a sentence, for example “{example}”.").format(example=example))
        elif isinstance(loaded, LoadedGPT):
            st.info(_("The prompt is empty: type a few characters for the model to continue, for example "
                      "“{example}”.").format(example=example))  # fmt: skip
        else:
            st.info(_("Type a few tokens separated by spaces, for example `{example}`.").format(example=example))
        return None
    try:
        return traced(loaded, text, target, ablation)
    except InputError as exc:
        st.warning(explain(exc))
        return None
