"""Steps 1–4 of the walkthrough (projections, scores, scaling, mask), plus the shared panel helpers.

Each step: a formula with the real numbers (viz.walkthrough_latex), a figure, two or three sentences.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from model.teach.walkthrough import scaling_demo
from model.transformer.attention import scale_factor
from viz import walkthrough as fig
from viz import walkthrough_latex as tex
from viz.latex import text as tex_text

from ..charts import chart_name, show_chart
from ..i18n import _
from ..in_place_chart import unused_key
from ..models import selected_model
from ..presenter import presenting, slot, stage_columns
from ..tokens import reads_tokens
from .state import EXAMPLE, STEPS, Walk, md_plain

MASKED = "−∞"
SCALING_QUERIES, SCALING_KEYS = 1000, 8  # the scaling demo's random queries and keys per d_k (its caption says them)
PRESENT_HEIGHT = 440  # px: a step's figure beside its formula, above the fold of a 1280×720 projector
FULL_STOPS = ("。", "！", "？", "：", "；")  # a Chinese sentence after one of these needs no space


def header(step: int, walk: Walk) -> None:
    words = {"step": step, "n": len(STEPS), "name": _(STEPS[step]), "head": walk.head + 1, "heads": walk.n_heads}
    if step <= 6:
        title = _("Step {step} of {n} · {name} · head {head} of {heads}").format(**words)
    else:
        title = _("Step {step} of {n} · {name}").format(**words)
    st.subheader(title, anchor=False)


def say(*sentences: str) -> None:
    """Sentences as one paragraph: a space between English ones, none after a Chinese full stop."""
    text = ""
    for sentence in filter(None, sentences):
        text += sentence if not text or text.endswith(FULL_STOPS) else " " + sentence
    st.markdown(text)


def formula(walk: Walk, latex: str) -> None:
    """A formula; the worked example's small matrices one size up, for a projector's back row. (In the presenter
    view formulas go to the stage's left column, sized by its CSS instead.)"""
    with slot("formula"):
        st.latex((r"\large " if walk.source == EXAMPLE and not presenting() else "") + latex)


def chart(figure, walk: Walk, what: str, head: int | None = -1, where: str = "figure") -> None:
    """A step's figure; its download is named after the source (example or model block), `what` and the head
    (the walk's head unless given; None: no head). In the presenter view's stage it goes where `where` says: the
    right column beside the formula, short enough to fit there ("figure"), or the full width under the formula and
    its figure ("wide": the scaling demo's two panels need it), restyled for the projector either way."""
    head = walk.head if head == -1 else head
    if walk.source == EXAMPLE:
        name = chart_name("step-by-step", what, head=head, model="example")
    else:
        block = [walk.notes.get("kind", ""), f"L{int(walk.notes.get('layer', 0)) + 1}"]
        name = chart_name("step-by-step", *block, what, head=head, model=walk.notes.get("model", ""))
    height = PRESENT_HEIGHT if where == "figure" else None
    with slot(where):
        show_chart(figure, unused_key("walk_chart_"), name=name, theme="streamlit", present_height=height)


def sym(name: str, walk: Walk) -> str:
    """'Q' → 'Q^{(1)}': per-head symbols carry the head number."""
    return f"{name}^{{({walk.head + 1})}}"


def q_tex(walk: Walk, i: int) -> str:
    return tex_text(walk.q_tokens[i])


def dims(n: int) -> list[str]:
    return [str(j + 1) for j in range(n)]


def step_projections(walk: Walk, query: int) -> None:
    v = walk.view
    d = v["X"].shape[1]
    say(
        _(
            "Every token's row of X is multiplied by three learned matrices. The **query** q says what the token is "
            "looking for, the **key** k what it can be found by, the **value** v what it hands on when it is chosen."
        ),
        _("This head uses its own {d_k} columns of W_Q, W_K and W_V (d_k = d_model / h = {d} / {h}).").format(
            d_k=walk.d_k, d=d, h=walk.n_heads
        ),
    )
    if walk.cross:
        say(_("In cross-attention the queries come from the decoder (X) and the keys and values from the encoder "
              "output (M)."))  # fmt: skip
    bias = walk.has_bias
    for name, w, src in (("Q", "W_Q", "X"), ("K", "W_K", "M"), ("V", "W_V", "M")):
        in_sym = "M" if walk.cross and src == "M" else "X"
        b_sym = sym(f"b_{name}", walk) if bias else None
        latex = tex.projection(
            sym(name, walk),
            in_sym,
            sym(w, walk),
            b_sym,
            v[src],
            v[w],
            v[f"b_{name}"],
            v[name],
            size=walk.size,
            split=walk.split,
        )
        formula(walk, latex)
    if bias:
        st.caption(_("The model's projections also add a learned bias b (a row added to every token)."))
    cols = stage_columns(3)
    for col, name, tokens in zip(cols, "QKV", (walk.q_tokens, walk.k_tokens, walk.k_tokens), strict=True):
        with col:
            title = _("{matrix} (head {head})").format(matrix=name, head=walk.head + 1)
            chart(fig.matrix_heatmap(v[name], tokens, dims(walk.d_k), title), walk, name)


def step_scores(walk: Walk, query: int) -> None:
    v = walk.view
    say(
        _(
            "The score s_ij = q_i · k_j compares query i with key j: the more they point the same way, "
            "the larger it is."
        ),
        _("One matrix product does every pair at once: one row per query token, one column per key token."),
        _("The highlighted row is the query token you follow, **{token}**.").format(
            token=md_plain(walk.q_tokens[query])
        ),
    )
    latex = tex.scores(
        sym("Q", walk),
        sym("K", walk),
        v["Q"],
        v["K"],
        v["scores"],
        highlight_row=query,
        size=walk.size,
        split=walk.split,
    )
    formula(walk, latex)
    chart(fig.matrix_heatmap(v["scores"], walk.q_tokens, walk.k_tokens, _("Q Kᵀ: queries (rows) × keys (columns)"),
                             highlight_row=query), walk, "scores")  # fmt: skip


@st.cache_data(show_spinner=False)
def _scaling_demo() -> dict:
    return scaling_demo(n_keys=SCALING_KEYS, n_samples=SCALING_QUERIES)


def step_scaling(walk: Walk, query: int) -> None:
    v = walk.view
    numbers = {
        "d_k": walk.d_k,
        "root": f"{scale_factor(walk.d_k):.3f}",
        "tau": f"{walk.temperature:g}",
        "divisor": f"{scale_factor(walk.d_k, scale=walk.scale, temperature=walk.temperature):.3f}",
    }
    if not walk.scale:
        divided = ""
    elif walk.temperature != 1:
        divided = _(
            "Scores are divided by √d_k = √{d_k} ≈ {root} and by the temperature τ = {tau} (÷ {divisor} in all)."
        ).format(**numbers)
    else:
        divided = _("Scores are divided by √d_k = √{d_k} ≈ {root}.").format(**numbers)
    say(
        divided,
        _(
            "**Why:** if the entries of q and k have variance 1, q · k adds up d_k products, so its spread grows like "
            "√d_k. Large scores make the softmax put nearly all the weight on one key and its gradients vanish; "
            "dividing by √d_k brings the spread back to about 1."
        ),
    )
    if not walk.scale:
        st.warning(_("Scaling is switched off: the scores are divided only by τ = {tau}.").format(**numbers))
    latex = tex.scaling(
        v["scores"],
        v["scaled"],
        walk.d_k,
        walk.temperature,
        walk.scale,
        highlight_row=query,
        size=walk.size,
        split=walk.narrow,
    )
    formula(walk, latex)
    left, _right = stage_columns([2, 3])
    with left:
        chart(fig.matrix_heatmap(v["scaled"], walk.q_tokens, walk.k_tokens, _("Scaled scores"), highlight_row=query),
              walk, "scaled")  # fmt: skip
    demo = _scaling_demo()
    figure = fig.scaling_demo_figure(
        demo, (_("std of q · k"), _("largest softmax weight")), "d_k",
        (_("std of q · k  (≈ √d_k)"), _("largest weight, not scaled"), _("largest weight, ÷ √d_k")), walk.d_k,
    )  # fmt: skip
    chart(figure, walk, f"why-scale-d_k{walk.d_k}", head=None, where="wide")  # the full width: two panels
    with slot("wide"):
        st.caption(_("Measured on {queries} random queries against {keys} random keys for each d_k (entries drawn "
                     "from N(0, 1)); the dashed line is this head's d_k = {d_k}. Without scaling the softmax saturates "
                     "on one key as d_k grows; with it, the weights stay spread out.").format(
            queries=SCALING_QUERIES, keys=SCALING_KEYS, d_k=walk.d_k))  # fmt: skip


def step_mask(walk: Walk, query: int, mask_note: str) -> None:
    v = walk.view
    say(
        _(
            "A mask says which keys each query may look at. Forbidden cells are set to −∞ before the softmax, so "
            "e^−∞ = 0 and they get **exactly zero** weight."
        ),
        _("A decoder uses a causal mask (no peeking at later tokens); padding masks hide filler tokens."),
        mask_note,
    )
    if not np.isneginf(v["masked"]).any() and walk.source == EXAMPLE:
        st.info(_("No cell is masked right now: pick a mask in the **Mask** box above (causal, padding or your own), "
                  "or switch **Mask off** off, to see cells become −∞."))  # fmt: skip
    elif walk.notes.get("decoder_only"):
        causal_note(v["masked"], walk.q_tokens, query)
    elif not np.isneginf(v["masked"]).any():
        st.info(_("No cell is masked in this block. The decoder's self-attention has a causal mask: pick it under "
                  "**Attention** above, with **Mask off** switched off, to see cells become −∞."))  # fmt: skip
    latex = tex.masking(
        v["scaled"], v["masked"], allowed=_("if {i} may attend to {j}"), otherwise=_("otherwise"),
        highlight_row=query, size=walk.size, stacked=walk.narrow,
    )  # fmt: skip
    formula(walk, latex)
    chart(fig.matrix_heatmap(v["masked"], walk.q_tokens, walk.k_tokens, _("Masked scores (grey = −∞)"),
                             highlight_row=query, masked_label=MASKED), walk, "masked")  # fmt: skip


def causal_note(masked: np.ndarray, tokens: list[str], query: int) -> None:
    """A GPT's causal mask on this input, read from the model's own masked scores (Lq, Lk): how many cells are −∞,
    and what the followed row may see (or, with the mask switched off, what it now sees that it should not)."""
    hidden = np.isneginf(masked)
    if not hidden.any():
        st.warning(_("Mask off: every character now sees the ones after it, the very characters a GPT is trained to "
                     "predict; its numbers after this step are no longer the model's."))  # fmt: skip
        return
    tokens_read = reads_tokens(selected_model())  # a folder's BPE GPT: its rows are tokens of several characters
    st.info(
        (_(
            "A GPT writes left to right, so every one of its attention blocks is causal: here {hidden} of the {cells} "
            "cells are −∞, those above the diagonal. Row {row} (“{token}”) may see {seen} keys: itself and the "
            "tokens before it, never the ones it will be asked to predict."
        ) if tokens_read else _(
            "A GPT writes left to right, so every one of its attention blocks is causal: here {hidden} of the {cells} "
            "cells are −∞, those above the diagonal. Row {row} (“{token}”) may see {seen} keys: itself and the "
            "characters before it, never the ones it will be asked to predict."
        )).format(
            hidden=int(hidden.sum()), cells=hidden.size, row=query + 1, token=md_plain(tokens[query]),
            seen=int((~hidden[query]).sum()),
        )
    )  # fmt: skip
