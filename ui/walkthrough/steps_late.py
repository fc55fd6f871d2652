"""Steps 5–8 of the walkthrough: softmax row by row, weighted sum, multi-head, residual + LayerNorm."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from model.teach.walkthrough import contributions, layer_norm_steps, softmax_steps
from viz import walkthrough as fig
from viz import walkthrough_latex as tex

from ..i18n import _, pgettext
from ..presenter import stage_columns
from .state import MODEL, Walk, md_plain
from .steps import MASKED, chart, dims, formula, q_tex, say

SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def _cell(x: float) -> str:
    return MASKED if x == float("-inf") else f"{x:.4f}"


def step_softmax(walk: Walk, query: int) -> None:
    v = walk.view
    steps = softmax_steps(v["masked"][query])
    token = walk.q_tokens[query]
    say(
        _(
            "The softmax turns row **{token}** of the masked scores into weights that are ≥ 0 and sum to 1: "
            "exponentiate each entry, then divide by the total."
        ).format(token=md_plain(token)),
        _(
            "It is computed in the **numerically stable** form: the row's maximum is subtracted first, so every "
            "exponent is ≤ 0 and e^x ≤ 1 — even scores like 10¹² cannot overflow, and the result is the same "
            "because e^(s−m) / Σ e^(s−m) = e^s / Σ e^s."
        ),
    )
    for line in tex.softmax_lines(query, q_tex(walk, query), steps, every_entry=_("every entry")):
        formula(walk, line)
    table = pd.DataFrame({
        _("key"): walk.k_tokens,
        _("s (scaled, masked)"): [_cell(x) for x in steps.row],
        "s − m": [_cell(x) for x in steps.shifted],
        "e^(s − m)": [f"{x:.4f}" for x in steps.exps],
        "α = e^(s − m) / Σ": [f"{x:.4f}" for x in steps.weights],
    })  # fmt: skip
    left, right = stage_columns([3, 2])
    left.table(table, hide_index=True, border="horizontal")  # a static table: st.dataframe's grid took ~300 ms to paint
    with right:
        masked = np.isneginf(steps.row)
        title = _("α for “{token}” (sum = {total})").format(token=token, total=f"{steps.weights_sum:.6f}")
        chart(fig.softmax_bars(steps.weights, masked, walk.k_tokens, title, _("weight α"), _("masked")), walk,
              f"softmax-row{query + 1}")  # fmt: skip
    chart(fig.matrix_heatmap(v["weights"], walk.q_tokens, walk.k_tokens, _("All rows: attention weights α"),
                             weights=True, highlight_row=query), walk, "weights")  # fmt: skip


def step_weighted_sum(walk: Walk, query: int) -> None:
    v = walk.view
    row = v["weights"][query]
    contrib = contributions(row, v["V"])  # (Lk, dv)
    say(
        _("Each output row is a weighted average of the value vectors: z_i = Σ_j α_ij v_j."),
        _(
            "For **{token}**, the bars show how much each token's value vector adds to each dimension of its output; "
            "the diamond is the total."
        ).format(token=md_plain(walk.q_tokens[query])),
    )
    formula(walk, tex.weighted_sum(v["weights"], v["V"], v["Z"], highlight_row=query, size=walk.size, split=walk.split))
    formula(walk, tex.contribution_sum(query, row, v["V"], walk.k_tokens, v["Z"][query]))
    left, right = stage_columns([3, 2])
    with left:
        title = _("Contributions α_ij · v_j to z for “{token}”").format(token=walk.q_tokens[query])
        dim_labels = [f"z·{j}" for j in dims(walk.d_k)]
        chart(fig.contribution_bars(contrib, v["Z"][query], walk.k_tokens, dim_labels, title, _("z (total)")), walk,
              f"contributions-row{query + 1}")  # fmt: skip
    with right:
        title = _("{matrix} (head {head})").format(matrix="Z", head=walk.head + 1)
        chart(fig.matrix_heatmap(v["Z"], walk.q_tokens, dims(walk.d_k), title, highlight_row=query), walk, "Z")


def step_multi_head(walk: Walk, query: int) -> None:
    v = walk.view
    H = walk.n_heads
    if H == 1:  # its own sentence, not a plural form: "side by side" and "each" make no sense for one head
        runs = _(
            "This block runs a single head, with its own W_Q, W_K, W_V; its output has d_model columns and is "
            "mixed by W_O."
        )
    else:
        runs = _(
            "This block runs {n} heads side by side, each with its own W_Q, W_K, W_V, so each can look for a "
            "different relation. Their outputs are concatenated back to d_model columns and mixed by W_O."
        ).format(n=H)
    say(runs, _("Switch the head above to see steps 1–6 for another head.") if H > 1 else "")
    cols = stage_columns(min(H, 4))
    for h in range(H):
        with cols[h % len(cols)]:
            title = _("Head {head}: {matrix}").format(head=h + 1, matrix="Z" + str(h + 1).translate(SUPERSCRIPT))
            chart(fig.matrix_heatmap(v["heads"][h], walk.q_tokens, dims(walk.d_k), title), walk, "Z", head=h)
    formula(
        walk,
        tex.concat_heads(
            [f"Z^{{({h + 1})}}" for h in range(H)], v["heads"], v["concat"], size=walk.size, split=walk.split
        ),
    )
    latex = tex.output_projection(
        v["concat"], v["W_O"], v["b_O"], v["out"], walk.has_bias, out_name=pgettext("formula", "out"),
        size=walk.size, split=walk.split,
    )  # fmt: skip
    formula(walk, latex)
    chart(fig.matrix_heatmap(v["out"], walk.q_tokens, dims(v["out"].shape[1]), _("Multi-head output = Concat · W_O"),
                             highlight_row=query), walk, "out", head=None)  # fmt: skip


def step_residual_norm(walk: Walk, query: int) -> None:
    v = walk.view
    pre_ln = walk.notes.get("pre_ln", False)
    out = pgettext("formula", "out")
    if walk.source != MODEL:
        say(_("In a Transformer layer the attention output is added back to its input (the **residual** "
              "connection) and the sum is normalised per token (**LayerNorm**). For the worked example γ = 1 "
              "and β = 0."))  # fmt: skip
    else:
        say(_("The attention output is added back to the block's input (the **residual** connection), then each "
              "token's row is normalised to mean 0 and variance 1 and rescaled by the learned γ and β "
              "(**LayerNorm**)."),
            _("These are the numbers the model itself computed on this input."))  # fmt: skip
    if pre_ln:
        st.info(_("This model is pre-LN: the LayerNorm came *before* attention (X is LayerNorm(x)); the residual "
                  "sum below is the block's output."))  # fmt: skip
    latex = tex.residual(v["R"], v["out"], v["resid"], out_name=out, size=walk.size, split=walk.split,
                         wrap_terms=walk.narrow)  # fmt: skip
    formula(walk, latex)
    if not pre_ln:
        ln = layer_norm_steps(v["resid"][query], v["ln_gamma"], v["ln_beta"], float(v["ln_eps"]))
        for line in tex.layer_norm_lines(query, q_tex(walk, query), v["resid"][query], ln, float(v["ln_eps"])):
            formula(walk, line)
        g, b = v["ln_gamma"], v["ln_beta"]
        if walk.has_bias:  # the model's learned γ, β (the worked example's are 1 and 0)
            ranges = {"g_min": g.min(), "g_max": g.max(), "b_min": b.min(), "b_max": b.max()}
            st.caption(_("γ ranges over [{g_min}, {g_max}], β over [{b_min}, {b_max}].").format(
                **{k: f"{x:.2f}" for k, x in ranges.items()}))  # fmt: skip
    d = v["resid"].shape[1]
    left, right = stage_columns(2)
    with left:
        title = _("x + {out} (residual)").format(out=out)
        chart(fig.matrix_heatmap(v["resid"], walk.q_tokens, dims(d), title, highlight_row=query), walk, "resid", None)
    with right:
        title = _("LayerNorm(x + {out}): the block's output").format(out=out)
        chart(fig.matrix_heatmap(v["norm"], walk.q_tokens, dims(d), title, highlight_row=query), walk, "norm", None)
