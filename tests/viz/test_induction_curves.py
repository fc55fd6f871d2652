"""The Train page's induction curves: every head's scores as given, each head its own colour, none a loss's."""

from __future__ import annotations

import numpy as np

from viz.gpt_training import induction_curves_figure

LAYERS, HEADS, STEPS = 2, 4, 5


def _figure():
    rng = np.random.default_rng(0)
    induction = rng.random((STEPS, LAYERS, HEADS)).astype(np.float32)
    previous = rng.random((STEPS, LAYERS, HEADS)).astype(np.float32)
    names = [[f"L{layer + 1} H{head + 1}" for head in range(HEADS)] for layer in range(LAYERS)]
    fig = induction_curves_figure(
        [0, 100, 200, 300, 400],
        induction,
        previous,
        [3.4, 3.0, 2.1, 1.5, 1.2],
        [0.0, -0.1, -0.9, -1.6, -2.0],
        head_names=names,
        titles=("induction", "previous"),
        loss_title="loss",
        x_title="step",
        score_title="score",
        loss_axis_title="nats",
        loss_names=("loss", "in-context loss"),
        step_name="step",
        formed_step=300,
        formed_label="formed",
    )
    return fig, induction, previous


def test_each_head_is_drawn_with_its_own_scores():
    fig, induction, previous = _figure()
    heads = [t for t in fig.data if t.name.startswith("L")]
    assert len(heads) == 2 * LAYERS * HEADS  # one line per head in each of the two score rows
    first = {t.name: np.asarray(t.y) for t in heads if t.yaxis == "y"}
    second = {t.name: np.asarray(t.y) for t in heads if t.yaxis == "y2"}
    np.testing.assert_array_equal(first["L2 H3"], induction[:, 1, 2])
    np.testing.assert_array_equal(second["L1 H4"], previous[:, 0, 3])


def test_no_head_shares_a_colour_with_another_head_or_a_loss():
    fig, _, _ = _figure()
    head_colours = [t.line.color for t in fig.data if t.name.startswith("L") and t.showlegend]
    loss_colours = {t.line.color for t in fig.data if "loss" in t.name}
    assert len(head_colours) == LAYERS * HEADS
    assert len(set(head_colours)) == LAYERS * HEADS
    assert len(loss_colours) == 2 and not loss_colours & set(head_colours)
