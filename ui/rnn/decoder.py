"""Part 2: the RNN decoder one time step at a time, every number from model.analysis.rnn.decoder_step on the trace:
the state it starts from, the score of each encoder state, the softmax, the context vector c_t, the new state and
the token it writes. Built from the step-by-step page's parts (Previous/Next, formulas, softmax bars)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from model import LoadedModel, Trace, rnn_of
from model.analysis.rnn import DecoderStep, decoder_step
from model.naming import RNN_DEC_S, RNN_ENC_H, AttentionKind, attention_name
from model.teach.walkthrough import softmax_steps
from viz import rnn_latex as rtex
from viz import walkthrough as fig
from viz import walkthrough_latex as tex
from viz.latex import text as tex_text

from ..charts import chart_name, show_chart
from ..i18n import _
from ..models import CELL_NAMES
from ..presenter import StepLabels, step_buttons
from ..tokens import md_escape
from ..walkthrough.steps import say
from ..widths import chart_share
from .pairs import output_line, run_models
from .parts import keep_in

STEP_KEY = "rnn_step"  # the decoder step t, 1-based (?rnn_step=3)
SIZE = 8  # entries of a state vector printed before the ⋯
TOP = 5  # most likely output tokens drawn
ROW = 10  # softmax entries printed in full (more: the first eight, ⋯, the last), so a line fits a 1280 px window


def chart(figure, model: LoadedModel, what: str, t: int) -> None:
    """One of a decoder step's figures; its download is named after the model, what it shows and the step
    ("rnn-vs-transformer_translate-rnn_weights_t3")."""
    show_chart(
        figure, None, name=chart_name("rnn-vs-transformer", what, f"t{t + 1}", model=model.name), theme="streamlit"
    )


def decoder_section(model: LoadedModel | None, text: str) -> None:
    if model is None:
        return  # pairs.describe has said which models to pick
    traces = run_models([model], text)
    if traces is None:
        return
    trace = traces[0]
    output_line(model, trace)
    vocab = model.task.tgt_vocab.itos
    n_steps = trace[RNN_DEC_S].shape[1]
    steps = [decoder_step(trace, t) for t in range(n_steps)]
    written = [vocab[s["output_id"]] for s in steps]
    labels = StepLabels(
        _("◀ Previous"), _("Next ▶"),
        _("Previous step (Page Up, or a presenter clicker's back button)"),
        _("Next step (Page Down, or a presenter clicker's forward button)"),
    )  # fmt: skip
    options = list(range(1, n_steps + 1))
    chosen = step_buttons(STEP_KEY, options, labels, button_key="rnn", middle=lambda: step_picker(written))
    assert chosen is not None  # step_buttons returns middle()'s value, and middle is given
    t = chosen - 1
    step, token = steps[t], written[t]
    with st.container(border=True):
        st.subheader(
            _("Decoder step {t} of {n} · writes “{token}”").format(t=t + 1, n=n_steps, token=token), anchor=False
        )
        state_part(model, trace, t, step)
        if step["weights"] is None:
            fixed_context_part(t, step)
        else:
            attention_part(model, trace, t, step, written)
        output_part(model, t, step, token, vocab)


def step_picker(written: list[str]) -> int:
    """Which decoder step to open (1-based, bound to ?rnn_step=); each option is captioned with the token it wrote."""
    options = list(range(1, len(written) + 1))
    keep_in(STEP_KEY, options, 1)
    chosen = st.radio(
        _("Decoder step"), options, format_func=str, captions=[md_escape(w) for w in written], horizontal=True,
        key=STEP_KEY, help=_("The buttons and Page Up / Page Down move one step."),
    )  # fmt: skip
    return int(chosen)


def state_part(model: LoadedModel, trace: Trace, t: int, step: DecoderStep) -> None:
    cell = _(CELL_NAMES[rnn_of(model).config.cell])
    st.markdown(_("**1 · The state it starts from**"))
    if t == 0:
        say(
            _("The decoder starts from the encoder's final state h_fin, passed through one layer: that is s_0."),
            _("Its {cell} cell holds d_hidden = {d} numbers.").format(cell=cell, d=len(step["s_prev"])),
        )
        st.latex(rtex.first_state(step["s_prev"], SIZE))
    else:
        say(
            _("Step {t} starts from s_{prev}, the state the previous step left (its {d} numbers).").format(
                t=t + 1, prev=t, d=len(step["s_prev"])
            ),
            _("The {cell} cell carries everything the decoder has written so far in this one vector.").format(
                cell=cell
            ),
        )
        st.latex(rtex.previous_state(t + 1, step["s_prev"], SIZE))


def attention_part(model: LoadedModel, trace: Trace, t: int, step: DecoderStep, written: list[str]) -> None:
    keys = trace.tokens("src")
    st.markdown(_("**2 · A score for every encoder state**"))
    say(
        _(
            "The state s_{prev} is compared with each encoder state h_i, one per input token: the score e_t,i says "
            "how useful input token i looks for writing the next word."
        ).format(prev=t)
    )
    for line in rtex.score_lines(rnn_of(model).config.score, t + 1, step["scores"], keys):
        st.latex(line)
    st.markdown(_("**3 · Softmax: the attention weights**"))
    say(
        _("The softmax turns the scores into weights a_t,i ≥ 0 that sum to 1, the same numerically stable way as "
          "in the Transformer.")
    )  # fmt: skip
    soft = softmax_steps(step["masked"])
    lines = tex.softmax_lines(
        t, tex_text(written[t]), soft, every_entry=_("every entry"), digits=2, notation=tex.RNN, max_cols=ROW,
        stacked=True,
    )  # fmt: skip
    for line in lines:
        st.latex(line)
    left, right = st.columns([2, 3])
    with left, chart_share(2 / 5):
        title = _("a_{t}: where step {t} looks").format(t=t + 1)
        weights_bars = fig.softmax_bars(
            step["weights"], np.zeros(len(keys), bool), keys, title, _("weight"), _("masked")
        )
        chart(weights_bars, model, "weights", t)
    with right, chart_share(3 / 5):
        weights = trace.numpy(attention_name(AttentionKind.RNN, part="weights"))
        rows = [f"{i + 1} · {w}" for i, w in enumerate(written)]
        title = _("Every step's attention (row {t} is this step)").format(t=t + 1)
        chart(fig.matrix_heatmap(weights, rows, keys, title, weights=True, highlight_row=t), model, "attention", t)
    st.markdown(_("**4 · The context vector c_t**"))
    say(
        _("The context vector is the weighted sum of the encoder states: the decoder reads mostly the states with "
          "large weights. Unlike the fixed vector of a plain encoder–decoder, it is new at every step.")
    )  # fmt: skip
    states = trace.numpy(RNN_ENC_H)
    st.latex(tex.contribution_sum(t, step["weights"], states, keys, step["context"], notation=tex.RNN))


def fixed_context_part(t: int, step: DecoderStep) -> None:
    st.markdown(_("**2 · The context: one fixed vector**"))
    say(
        _(
            "This model has no attention. Every step reads the same vector, the encoder's final state h_fin: the "
            "whole input squeezed into d_hidden numbers. That is the bottleneck attention removes."
        )
    )
    st.latex(rtex.fixed_context(t + 1, step["context"], _("the same at every step"), SIZE))


def output_part(model: LoadedModel, t: int, step: DecoderStep, token: str, vocab: list[str]) -> None:
    number = 5 if step["weights"] is not None else 3
    st.markdown(_("**{n} · The new state and the word it writes**").format(n=number))
    say(
        _("The cell reads the word written last and the context vector, and updates its state to s_t."),
        _("A linear layer over [s_t ; c_t] and a softmax give a probability for every word; the decoder writes the "
          "most likely one and feeds it back in at the next step."),
    )  # fmt: skip
    st.latex(rtex.state_update(rnn_of(model).config.cell, t + 1, step["s"], SIZE))
    probabilities = step["probabilities"]
    chosen = _("{token} with probability {p}")
    for line in rtex.output_lines(t + 1, token, float(probabilities[step["output_id"]]), chosen):
        st.latex(line)
    top = np.argsort(-probabilities)[:TOP]
    labels = [vocab[i] for i in top]
    title = _("p_{t}: the {k} most likely words").format(t=t + 1, k=len(top))
    chart(
        fig.softmax_bars(probabilities[top], np.zeros(len(top), bool), labels, title, _("probability"), ""),
        model,
        "output",
        t,
    )
