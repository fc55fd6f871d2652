"""The distribution of the next token: the top candidates as bars before and after the cut, the one the seeded
sample draws ringed, and the chain with the real numbers (logits → ÷ T → softmax → cut → renormalise)."""

from __future__ import annotations

import streamlit as st

from model.gpt import NextToken
from views import NextTokenView
from viz.next_token import candidates_figure, token_label
from viz.next_token_latex import ChainRow, chain_formula, chain_table

from ..charts import chart_name, show_chart
from ..i18n import _
from ..presenter import presenting

PAGE = NextTokenView.PAGE
SHOWN = 10  # candidates drawn, as bars and as buttons
IN_TABLE = 6  # candidates in the chain's table (a formula wider than this does not fit a projector's column)
PRESENT_HEIGHT = 430


def candidates_chart(dist: NextToken, sampled: int, seed: int, model: str) -> None:
    """The bars: softmax(z / T) of each candidate, then its renormalised probability; the cut ones grey (`model`: the
    model's name, for the download's file name)."""
    candidates = dist.candidates(SHOWN)
    ids = [c[0] for c in candidates]
    fig = candidates_figure(
        [c[1] for c in candidates], [c[2] for c in candidates], [c[4] for c in candidates], [c[3] for c in candidates],
        marked=ids.index(sampled) if sampled in ids else None,
        title=_("The next token: the {n} most likely candidates").format(n=len(candidates)),
        before_name=_("softmax(z / T)"), after_name=_("after the cut, renormalised"), cut_name=_("cut"),
        marked_name=_("Sample (seed {seed})").format(seed=seed),
    )  # fmt: skip
    show_chart(fig, "nt_candidates", name=chart_name(PAGE, "candidates", model=model), present_height=PRESENT_HEIGHT)
    if sampled not in ids:
        rank = int((dist.chain.order == sampled).nonzero()[0, 0]) + 1  # one tensor op: GPT-2 has 50,257 tokens
        st.caption(_("Sample (seed {seed}) draws “{token}”, the candidate ranked {rank}.").format(
            seed=seed, token=token_label(dist.vocab.itos[sampled]), rank=rank))  # fmt: skip


def chain_formulas(dist: NextToken) -> None:
    """The chain's formula, then its numbers for the top candidates."""
    c = dist.chain
    rows = [
        ChainRow(token_label(text), float(c.logits[i]), float(c.scaled[i]), prob, kept, renormalised)
        for i, text, prob, kept, renormalised in dist.candidates(IN_TABLE)
    ]
    temperature = c.settings.temperature
    st.latex(chain_formula(temperature, kept_word=_("kept")))
    st.latex(chain_table(rows, temperature, token_word=_("token")))
    cut = [setting for setting, on in ((_("top-k = {k}").format(k=c.settings.top_k), c.settings.top_k is not None),
           (_("top-p = {p}").format(p=c.settings.top_p), c.settings.top_p is not None)) if on]  # fmt: skip
    st.caption(
        _(
            "z: the model's logits; T: the temperature; the cut: {cut} (grey: a token it removed); q: what is left, "
            "renormalised to sum to 1. Sample draws from q."
        ).format(cut=", ".join(cut) if cut else _("none"))
    )


def distribution_section() -> tuple:
    """Two columns: the bars (wider), the chain beside them; stacked on a phone."""
    return tuple(st.columns([1, 1], gap="medium" if not presenting() else "small"))
