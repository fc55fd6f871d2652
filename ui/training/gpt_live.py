"""Train page, GPT family, live: the loss with the held-out loss, the samples written so far, and during an
induction run every head's scores over the steps and the two heads of the circuit side by side.

Everything is read from the job's one live state, a JobView (`job.view()`, its `.gpt`: GPTProgress), so a classroom
follower that rebuilds the view from a room's record draws the same run: `gpt_live(view, key=..., name=...)`.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from services.training import JobView
from services.training.gpt_progress import Circuit, GPTProgress
from viz.gpt_training import gpt_loss_figure, induction_curves_figure
from viz.training import before_after_figure

from ..charts import chart_name, show_chart
from ..i18n import _
from ..tokens import md_escape
from ..widths import chart_share

SAMPLES_HEIGHT = 340  # px of the scrolling samples list, the loss figure's height


def gpt_live(view: JobView, *, key: str = "", name: str = "") -> None:
    """The GPT run's figures from its view alone: loss beside the samples, and for induction the head scores and
    the circuit under them. `key` prefixes the charts' and containers' keys (two runs on one page), `name` is the
    model's name in the charts' download names."""
    progress = view.gpt
    if progress is None or not view.losses:  # not a GPT run, or no step yet
        return
    steps, losses = zip(*view.losses, strict=True)
    held = tuple(zip(*progress.held_out, strict=True)) if progress.held_out else ((), ())
    fig = gpt_loss_figure(
        (steps, losses), (held[0], held[1]), title=_("Training loss"), x_title=_("step"),
        y_title=_("cross-entropy (nats per token)"), names=(_("this step's batch"), _("held-out text")),
        step_name=_("step"),  # no fixed range: a run ends at its minutes or its head long before its most steps
    )  # fmt: skip
    induction = progress.task == "induction"
    left, right = st.columns(2)
    with left, chart_share(0.5):
        show_chart(fig, f"{key}train_gpt_loss", name=chart_name("train", "loss", model=name), theme="streamlit")
    with right:
        samples_panel(progress, key)
    if induction:
        induction_panel(view, progress, key, name)


def samples_panel(progress: GPTProgress, key: str = "") -> None:
    """The samples written so far, newest first, each after the same prompt with the same seed."""
    if not progress.samples:
        return
    induction = progress.task == "induction"
    st.markdown(
        _("**Copies so far** (the model continues the sequence after its first copy; newest first)")
        if induction
        else _("**Written by the model so far** (same prompt, same seed; newest first)")
    )
    with st.container(height=SAMPLES_HEIGHT, key=f"{key}train_gpt_samples"):
        for sample in reversed(progress.samples):
            st.caption(_("step {n}").format(n=f"{sample.step:,}"))
            st.code(f"{sample.prompt}▌{sample.text}", language=None, wrap_lines=True)
            if sample.expected:
                st.caption(_("the copy: {expected} · {right} of {n} right").format(
                    expected=md_escape(sample.expected), right=sample.right, n=len(sample.expected)))  # fmt: skip


def head_names(layers: int, heads: int) -> list[list[str]]:
    """[layer][head] → "L2 H1" (1-based, as on every page)."""
    return [[_("L{layer} H{head}").format(layer=i + 1, head=h + 1) for h in range(heads)] for i in range(layers)]


def induction_panel(view: JobView, progress: GPTProgress, key: str = "", name: str = "") -> None:
    """Every head's induction and previous-token scores over the steps above the losses, then the circuit."""
    if not progress.scores:
        return
    steps = [step for step, _s in progress.scores]
    scores = [s for _step, s in progress.scores]
    induction = np.stack([s.induction for s in scores])  # (N, L, H)
    previous = np.stack([s.previous for s in scores])  # (N, L, H)
    formed = progress.formed
    fig = induction_curves_figure(
        steps, induction, previous, [s.loss for s in scores], [s.in_context_loss for s in scores],
        head_names=head_names(*induction.shape[1:]),
        titles=(_("Induction score of every head"), _("Previous-token score of every head")),
        loss_title=_("Loss on 100 fresh repeated sequences"), x_title=_("step"), score_title=_("score"),
        loss_axis_title=_("nats per token"), loss_names=(_("loss"), _("in-context loss (2nd copy − 1st)")),
        step_name=_("step"), formed_step=formed.step if formed else None,
        formed_label=_("head formed") if formed else "",
    )  # fmt: skip
    st.subheader(_("An induction head forming"))
    if formed:
        st.success(_("An induction head formed at step {step}, {seconds} s after the start (score {score}).").format(
            step=f"{formed.step:,}", seconds=f"{formed.seconds:.1f}", score=f"{formed.score:.2f}"))  # fmt: skip
    else:
        every = steps[1] - steps[0] if len(steps) > 1 else 1
        st.caption(_("Scored every {n} steps on 100 repeated sequences the model never trains on. A head has formed "
                     "when its induction score reaches 0.5.").format(n=every))  # fmt: skip
    show_chart(fig, f"{key}train_gpt_scores", name=chart_name("train", "head-scores", model=name), theme="streamlit")
    if formed and progress.circuit is not None:
        at = next((s for step, s in reversed(progress.scores) if step == progress.circuit.step), scores[-1])
        circuit_panel(progress.circuit, at, list(progress.probe), key, name)


def circuit_panel(found: Circuit, last, tokens: list[str], key: str = "", name: str = "") -> None:
    """Layer 1's previous-token head and layer 2's induction head side by side, on the same repeated sequence."""
    prev_layer, prev_head, ind_layer, ind_head = found.heads
    fig = before_after_figure(
        found.previous, found.induction, tokens, tokens,
        before_title=_("Layer {layer}, head {head}: previous token ({score})").format(
            layer=prev_layer + 1, head=prev_head + 1, score=f"{last.previous[prev_layer, prev_head]:.2f}"),
        after_title=_("Layer {layer}, head {head}: induction ({score})").format(
            layer=ind_layer + 1, head=ind_head + 1, score=f"{last.induction[ind_layer, ind_head]:.2f}"),
        x_title=_("key (looked at)"), y_title=_("query (looking)"), weight_name=_("weight"), height=480, title_size=16,
    )  # fmt: skip
    st.subheader(_("The circuit: two heads that copy"))
    show_chart(fig, f"{key}train_gpt_circuit", name=chart_name("train", "circuit", model=name), theme="streamlit")
    st.markdown(_(
        "The same repeated sequence in both. **Left:** each token looks at the one just before it (the diagonal under "
        "the main one), so every position holds *which token came before me*. **Right:** in the second copy each "
        "token looks at the position just after its own earlier occurrence (a stripe offset by the segment's "
        "length) and copies the token there: the next token, predicted from the context alone."
    ))  # fmt: skip
