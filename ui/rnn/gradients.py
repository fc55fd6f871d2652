"""Part 5: how much the loss at the end of a sequence still feels each earlier input, for a plain tanh RNN, a GRU
and an LSTM (model.analysis.rnn.gradient_through_time, untrained cells): the vanishing gradient, and the gates."""

from __future__ import annotations

import streamlit as st

from model.analysis.rnn import GRADIENT_BATCH, GRADIENT_HIDDEN, gradient_through_time
from model.rnn.cells import CELL_TYPES
from views import Number, RnnView, Whole
from views.base import spec_of
from viz.curves import Series, line_figure

from ..charts import show_chart
from ..i18n import _
from ..models import CELL_NAMES
from ..state import sync_url

LENGTH_KEY, BIAS_KEY = "grad_length", "grad_bias"
STYLES = {"rnn": ("#d62728", "solid", "circle"), "gru": ("#2ca02c", "solid", "diamond"),
          "lstm": ("#9467bd", "dash", "square")}  # fmt: skip


LENGTH, BIAS = spec_of(RnnView, LENGTH_KEY, Whole), spec_of(RnnView, BIAS_KEY, Number)  # the sliders' bounds


@st.cache_data(show_spinner=False, max_entries=64)
def profiles(length: int, keep_bias: float) -> dict[str, tuple[list[float], list[float]]]:
    """cell → (‖∂loss/∂x_t‖ by distance from the end, the same relative to distance 0), once per server per setting."""
    out = {}
    for cell in CELL_TYPES:
        p = gradient_through_time(cell, length=length, keep_bias=keep_bias)
        out[cell] = (p.norm.tolist(), p.relative.tolist())
    return out


@st.fragment
def gradients_section() -> None:
    st.markdown(
        _(
            "Training an RNN sends the error back through every step it took. A plain tanh RNN multiplies the "
            "gradient by the same recurrent matrix (and a tanh′ ≤ 1) at each step back, so it shrinks geometrically: "
            "the **vanishing gradient**, and why distant words are hard to learn from. A GRU's update gate and an "
            "LSTM's forget gate can carry the state, and its gradient, across steps almost unchanged — when they are "
            "set to keep it. At PyTorch's default start (bias 0) they are half open and the gradient still fades, "
            "only more slowly; raise the bias of the gate below and watch their curves flatten."
        )
    )
    length_col, bias_col = st.columns(2)
    length = length_col.slider(_("Sequence length"), LENGTH.low, LENGTH.high, step=LENGTH.step, key=LENGTH_KEY)
    bias = bias_col.slider(
        _("Bias of the gate that keeps the state"), BIAS.low, BIAS.high, step=0.5, key=BIAS_KEY,
        help=_("Added to the bias of the GRU's update gate and the LSTM's forget gate: a larger bias starts the cell "
               "closer to keeping its state. The plain RNN has no such gate."),
    )  # fmt: skip
    with st.spinner(_("Computing the gradients…")):
        found = profiles(int(length), float(bias))
    series = []
    for cell in CELL_TYPES:
        norm, _relative = found[cell]
        color, dash, symbol = STYLES[cell]
        series.append(Series(_(CELL_NAMES[cell]), list(range(len(norm))), norm, color, dash, symbol))
    fig = line_figure(
        series, title=_("‖∂loss/∂x_t‖ against the distance from the output"),
        x_title=_("distance from the last input (steps)"), y_title=_("gradient norm (log scale)"), log_y=True,
        role="gradients",
    )  # fmt: skip
    show_chart(fig, "gradients")
    far = len(found["rnn"][0]) - 1
    shares = {cell: f"{found[cell][1][far]:.1e}" for cell in CELL_TYPES}
    st.markdown(
        _(
            "At the first input, {far} steps from the output, the gradient is {rnn} of its size at the last input for "
            "the tanh RNN, {gru} for the GRU and {lstm} for the LSTM."
        ).format(far=far, **shares)
    )
    st.caption(
        _(
            "Fresh, untrained cells ({width} numbers wide, random starting weights) read {batch} sequences of "
            "random vectors; a linear read-out of the last state gives the loss (cross-entropy against random "
            "labels). Nothing is trained: this is the gradient a first training step would see."
        ).format(width=GRADIENT_HIDDEN, batch=GRADIENT_BATCH)
    )
    sync_url(RnnView.PAGE)
