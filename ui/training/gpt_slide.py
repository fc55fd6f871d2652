"""The Train page's lesson slide on the GPT family: on the induction task, "an induction head forms" shows the two
heads of the circuit — of the slide's model when it is trained on the task (the shipped induction checkpoint), else of
the run's model before training (the task's default size, seeded random weights: no head copies yet) — and its Open
this view opens the Train page on that task with its defaults, the run ready to start.

The circuit is found as the Train page finds it during a run: every head scored on the run's 100 fixed repeated
sequences (model.analysis.induction.head_scores, circuit), its two heads drawn on the run's probe sequence.
"""

from __future__ import annotations

import streamlit as st
import torch

from model.analysis.attention import attention_layers
from model.analysis.induction import circuit, head_scores
from model.errors import LabError
from model.gpt import GPT, GPT_TASKS, CharVocab, GPTConfig, LoadedGPT
from model.gpt.induction import InductionSettings, induction_vocab, repeated_batch
from model.naming import AttentionKind
from services.training.gpt_job import INDUCTION, SCORE_SEQUENCES
from services.training.gpt_worker import SCORE_SEED, page_probe
from views import TrainView
from viz.training import before_after_figure

from ..charts import chart_name, show_chart
from ..i18n import _, explain
from ..models import get_model
from ..tokens import md_escape
from ..trace_cache import cached_run
from ..widths import chart_share
from .gpt_settings import DEFAULTS

UNTRAINED_SEED = 0  # the random weights the slide shows before training
SLIDE_HEIGHT = 400  # px: the two heads side by side, above the fold of a 1280×720 projector with the slide's words


def gpt_slide(view: TrainView) -> None:
    """The slide of the GPT family: the induction circuit of the slide's model, or what the run will show."""
    ready = _("**Open this view ↗**, then **▶ Start training**: a GPT starts from random weights, in the server's "
              "worker pool, and the page draws its curves live.")  # fmt: skip
    if view.gpt_task != INDUCTION:
        st.info(ready)
        return
    chosen = get_model(view.common.model)
    trained = isinstance(chosen, LoadedGPT) and trained_on_induction(chosen)
    loaded = chosen if isinstance(chosen, LoadedGPT) and trained else untrained_induction()
    settings = InductionSettings(context=loaded.max_len)
    scored = repeated_batch(settings, SCORE_SEQUENCES, torch.Generator().manual_seed(SCORE_SEED))
    try:
        heads = circuit(head_scores(loaded.model, scored))
    except LabError as exc:
        st.info(explain(exc))
        return
    probe = page_probe(settings)  # the run's own probe sequence
    end = int(probe.start[0] + 2 * probe.segment[0])  # as the run's probe: cut after the second copy
    tokens = [loaded.vocabulary[i] for i in probe.ids[0, :end].tolist()]
    trace = cached_run(loaded, "".join(tokens))
    if trace is None:
        return
    weights = attention_layers(trace, AttentionKind.DECODER)  # (L, H, T, T)
    prev_layer, prev_head, ind_layer, ind_head = heads
    fig = before_after_figure(
        weights[prev_layer, prev_head], weights[ind_layer, ind_head], tokens, tokens,
        before_title=_("Layer {layer}, head {head}: previous token").format(layer=prev_layer + 1, head=prev_head + 1),
        after_title=_("Layer {layer}, head {head}: induction").format(layer=ind_layer + 1, head=ind_head + 1),
        x_title=_("key (looked at)"), y_title=_("query (looking)"), weight_name=_("weight"), height=SLIDE_HEIGHT,
    )  # fmt: skip
    with chart_share(1.0):
        show_chart(fig, "train_slide_circuit", name=chart_name("train", "circuit", model=loaded.name))
    if trained:
        words = _("Trained: **{model}**, on a sequence whose second half repeats the first. {ready}")
    else:
        words = _("Random weights, before training, on a sequence whose second half repeats the first: no head "
                  "copies yet. {ready}")  # fmt: skip
    st.caption(words.format(model=md_escape(loaded.name), ready=ready))


@st.cache_resource(show_spinner=False)
def untrained_induction() -> LoadedGPT:
    """The induction run's model as Start builds it (the task's default size), with seeded random weights."""
    d = DEFAULTS[INDUCTION]
    vocab = induction_vocab(InductionSettings(context=d.context))
    config = GPTConfig(vocab_size=len(vocab), d_model=d.d_model, n_heads=d.n_heads, n_layers=d.n_layers,
                       d_ff=4 * d.d_model, max_len=d.context, mlp=d.mlp)  # fmt: skip
    with torch.random.fork_rng():
        torch.manual_seed(UNTRAINED_SEED)
        model = GPT(config)
    return LoadedGPT(model, CharVocab(vocab), name="induction-untrained", task=GPT_TASKS[INDUCTION])


def trained_on_induction(loaded: LoadedGPT) -> bool:
    """Whether the model reads the induction task's vocabulary (of its size) and a context that holds a copy."""
    try:
        settings = InductionSettings(vocab_size=len(loaded.vocabulary), context=loaded.max_len)
    except LabError:
        return False
    return loaded.vocabulary == induction_vocab(settings)
