"""The GPT's run on the text so far, kept per session: the trace of the prompt's tokens followed by exactly the ids
written after it (never the joined text re-encoded: LoadedGPT.continued), and the chain of the next token under this
session's settings (model.sampling on the trace's own last logits, so the numbers on screen are those the model
computed, with one forward pass per text)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import streamlit as st

from model import Trace
from model.gpt import LoadedGPT, NextToken
from model.gpt.runner import Prompt
from model.sampling import SamplingSettings, chain

from ..trace_cache import traced_gpt

CACHE_KEY = "_next_token_runs"
CACHE_SIZE = 8  # the last few texts: Back and a click on a candidate come back to one of them


@dataclass(frozen=True)
class Run:
    """The text so far as the model read it: `read` (LoadedGPT.continued: the joined text for a character-level GPT,
    else the prompt's ids then the written ones), `prompt` (its ids, tokens, the cut) and the trace."""

    read: str | list[int]
    prompt: Prompt
    trace: Trace


def run_written(loaded: LoadedGPT, text: str, written: tuple[int, ...]) -> Run:
    """The model's run on the prompt `text` followed by exactly the ids `written` (InputError when both are empty),
    once per session and text; the trace is shared between sessions for a shipped model (ui.trace_cache)."""
    cache: OrderedDict = st.session_state.setdefault(CACHE_KEY, OrderedDict())
    key = (loaded.model, text, tuple(written))
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    read = loaded.continued(text, written)
    found = Run(read, loaded.read(read), traced_gpt(loaded, read))
    cache[key] = found
    while len(cache) > CACHE_SIZE:
        cache.popitem(last=False)
    return found


def next_token(loaded: LoadedGPT, run: Run, settings: SamplingSettings) -> NextToken:
    """The next token's whole chain (logits, ÷ T, softmax, kept, renormalised) from the run's last logits."""
    return NextToken.of(chain(loaded.next_logits(run.trace), settings), loaded.vocab)
