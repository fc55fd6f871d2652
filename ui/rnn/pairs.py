"""Which models the page compares: the sidebar's model and the shipped model of the other family trained on the
same task (translate ↔ translate-rnn, reverse ↔ reverse-rnn), each run on the shared input."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from model import LoadedModel, Trace
from model.io.pretrained import PRETRAINED_ARCH

from ..i18n import _
from ..inputs import fit_to_limit
from ..models import shared_model
from ..sidebar import describe as model_shape
from ..tokens import md_escape, source_tokens, token_chips
from ..trace_cache import cached_run


@dataclass(frozen=True)
class Pair:
    """The sidebar's model and its partner of the other family; either side is None when nothing fits."""

    chosen: LoadedModel
    rnn: LoadedModel | None
    transformer: LoadedModel | None


def shipped_name(task: str, arch: str) -> str | None:
    """The shipped model of family `arch` trained on `task` (for an RNN, the one with attention), or None."""
    name = task if arch == "transformer" else f"{task}-rnn"
    return name if PRETRAINED_ARCH.get(name) == arch else None


def shipped_toy(name: str) -> LoadedModel:
    """shared_model(name) for the name of a shipped Transformer or RNN (never MiniLM, which is an encoder)."""
    loaded = shared_model(name)
    assert isinstance(loaded, LoadedModel), name
    return loaded


def pair_for(loaded: LoadedModel) -> Pair:
    other = "transformer" if loaded.config.arch == "rnn" else "rnn"
    name = shipped_name(loaded.task.name, other)
    partner = shipped_toy(name) if name is not None else None
    if other == "transformer":
        return Pair(loaded, loaded, partner)
    return Pair(loaded, partner, loaded)


def describe(pair: Pair) -> None:
    """One line per model compared (name and make-up), or what is missing and how to get it."""
    lines = []
    for model in (pair.rnn, pair.transformer):
        if model is not None:
            lines.append(f"**{md_escape(model.name)}** · {model_shape(model.config)}")
    st.caption("  \n".join(lines))
    task = md_escape(pair.chosen.task.name)
    if pair.rnn is None:
        st.info(
            _(
                "No shipped RNN is trained on the **{task}** task: pick translate or reverse (or one of their -rnn "
                "models) in the sidebar to compare the two families."
            ).format(task=task)
        )
    elif pair.transformer is None:
        alone = _("No shipped Transformer is trained on the **{task}** task, so the RNN is shown alone.")
        st.info(alone.format(task=task))


def run_models(models: list[LoadedModel], text: str) -> list[Trace] | None:
    """Each model's trace of the shared input (its own greedy output), or None after one message when the input
    cannot be run (empty, unusable); over-long input is cut once, to the shortest limit, with one notice."""
    shortest = min(models, key=lambda m: m.max_words)
    text = fit_to_limit(shortest, text) if text.strip() else text
    traces = []
    for model in models:
        trace = cached_run(model, text)
        if trace is None:
            return None
        traces.append(trace)
    source_tokens(traces[0])
    return traces


def output_line(model: LoadedModel, trace: Trace) -> None:
    output = token_chips((trace.prediction or "").split()) or _("(empty)")
    st.markdown(_("**{name}** writes: {tokens}").format(name=md_escape(model.name), tokens=output))
