"""Steps 5–8 of the walkthrough: softmax row by row, weighted sum, multi-head, residual + LayerNorm."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from model.walkthrough import contributions, layer_norm_steps, softmax_steps
from viz import walkthrough as fig
from viz import walkthrough_latex as tex

from .state import Walk, md_plain
from .steps import MASKED, chart, dims, formula, q_tex, say

SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _cell(x: float) -> str:
    return MASKED if x == float("-inf") else f"{x:.4f}"


def step_softmax(walk: Walk, query: int) -> None:
    v = walk.view
    steps = softmax_steps(v["masked"][query])
    say(
        f"The softmax turns row **{md_plain(walk.q_tokens[query])}** of the masked scores into weights that are "
        "≥ 0 and sum to 1: exponentiate each entry, then divide by the total.",
        "It is computed in the **numerically stable** form: the row's maximum is subtracted first, so every "
        "exponent is ≤ 0 and e^x ≤ 1 — even scores like 10¹² cannot overflow, and the result is the same because "
        "e^(s−m) / Σ e^(s−m) = e^s / Σ e^s.",
    )
    for line in tex.softmax_lines(query, q_tex(walk, query), steps):
        formula(walk, line)
    table = pd.DataFrame({
        "key": walk.k_tokens,
        "s (scaled, masked)": [_cell(x) for x in steps.row],
        "s − max": [_cell(x) for x in steps.shifted],
        "e^(s − max)": [f"{x:.4f}" for x in steps.exps],
        "α = e^(s − max) / Σ": [f"{x:.4f}" for x in steps.weights],
    })  # fmt: skip
    left, right = st.columns([3, 2])
    left.table(table, hide_index=True, border="horizontal")  # a static table: st.dataframe's grid took ~300 ms to paint
    with right:
        masked = np.isneginf(steps.row)
        chart(fig.softmax_bars(steps.weights, masked, walk.k_tokens, f"α for “{walk.q_tokens[query]}”", "weight α",
                               "masked", f"sum = {steps.weights_sum:.6f}"))  # fmt: skip
    chart(fig.matrix_heatmap(v["weights"], walk.q_tokens, walk.k_tokens, "All rows: attention weights α",
                             weights=True, highlight_row=query))  # fmt: skip


def step_weighted_sum(walk: Walk, query: int) -> None:
    v = walk.view
    row = v["weights"][query]
    contrib = contributions(row, v["V"])  # (Lk, dv)
    say(
        "Each output row is a weighted average of the value vectors: z_i = Σ_j α_ij v_j.",
        f"For **{md_plain(walk.q_tokens[query])}**, the bars show how much each token's value vector adds to each "
        "dimension of its output; the diamond is the total.",
    )
    formula(walk, tex.weighted_sum(v["weights"], v["V"], v["Z"], highlight_row=query, size=walk.size, split=walk.split))
    formula(walk, tex.contribution_sum(query, row, v["V"], walk.k_tokens, v["Z"][query]))
    left, right = st.columns([3, 2])
    with left:
        title = f"Contributions α_ij · v_j to z for “{walk.q_tokens[query]}”"
        dim_labels = [f"z·{j}" for j in dims(walk.d_k)]
        chart(fig.contribution_bars(contrib, v["Z"][query], walk.k_tokens, dim_labels, title, "z (total)"))
    with right:
        chart(fig.matrix_heatmap(v["Z"], walk.q_tokens, dims(walk.d_k), f"Z (head {walk.head + 1})",
                                 highlight_row=query))  # fmt: skip


def step_multi_head(walk: Walk, query: int) -> None:
    v = walk.view
    H = walk.n_heads
    say(
        f"This block runs {H} heads side by side, each with its own W_Q, W_K, W_V, so each can look for a "
        "different relation. Their outputs are concatenated back to d_model columns and mixed by W_O.",
        "Switch the head above to see steps 1–6 for another head.",
    )
    cols = st.columns(min(H, 4))
    for h in range(H):
        with cols[h % len(cols)]:
            title = f"Head {h + 1}: Z{str(h + 1).translate(SUPERSCRIPT)}"
            chart(fig.matrix_heatmap(v["heads"][h], walk.q_tokens, dims(walk.d_k), title))
    formula(
        walk,
        tex.concat_heads(
            [f"Z^{{({h + 1})}}" for h in range(H)], v["heads"], v["concat"], size=walk.size, split=walk.split
        ),
    )
    formula(
        walk,
        tex.output_projection(
            v["concat"], v["W_O"], v["b_O"], v["out"], walk.has_bias, size=walk.size, split=walk.split
        ),
    )
    chart(fig.matrix_heatmap(v["out"], walk.q_tokens, dims(v["out"].shape[1]), "Multi-head output = Concat · W_O",
                             highlight_row=query))  # fmt: skip


def step_residual_norm(walk: Walk, query: int) -> None:
    v = walk.view
    pre_ln = walk.notes.get("pre_ln", False)
    if walk.source != "From the model":
        say("In a Transformer layer the attention output is added back to its input (the **residual** connection) "
            "and the sum is normalised per token (**LayerNorm**). For the worked example γ = 1 and β = 0.")  # fmt: skip
    else:
        say("The attention output is added back to the block's input (the **residual** connection), then each "
            "token's row is normalised to mean 0 and variance 1 and rescaled by the learned γ and β (**LayerNorm**).",
            "These are the model's own numbers from the trace.")  # fmt: skip
    if pre_ln:
        st.info("This model is pre-LN: the LayerNorm came *before* attention (X is LayerNorm(x)); the residual "
                "sum below is the block's output.")  # fmt: skip
    formula(walk, tex.residual(v["R"], v["out"], v["resid"], size=walk.size, split=walk.split))
    if not pre_ln:
        ln = layer_norm_steps(v["resid"][query], v["ln_gamma"], v["ln_beta"], float(v["ln_eps"]))
        for line in tex.layer_norm_lines(query, q_tex(walk, query), v["resid"][query], ln, float(v["ln_eps"])):
            formula(walk, line)
        g, b = v["ln_gamma"], v["ln_beta"]
        if walk.has_bias:  # the model's learned γ, β (the worked example's are 1 and 0)
            st.caption(f"γ ranges over [{g.min():.2f}, {g.max():.2f}], β over [{b.min():.2f}, {b.max():.2f}].")
    d = v["resid"].shape[1]
    left, right = st.columns(2)
    with left:
        chart(fig.matrix_heatmap(v["resid"], walk.q_tokens, dims(d), "x + out (residual)", highlight_row=query))
    with right:
        chart(fig.matrix_heatmap(v["norm"], walk.q_tokens, dims(d), "LayerNorm(x + out): the block's output",
                                 highlight_row=query))  # fmt: skip
