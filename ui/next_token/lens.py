"""The logit lens: each layer's guess at the next token (model.analysis.logit_lens: the residual stream read through
the final LayerNorm and the LM head), as a table of colour, so the reader sees at which layer the answer forms."""

from __future__ import annotations

import streamlit as st

from model import Trace
from model.analysis.logit_lens import logit_lens
from model.gpt import LoadedGPT
from views import NextTokenView
from viz.next_token import logit_lens_figure, token_label

from ..charts import chart_name, show_chart
from ..i18n import _

PAGE = NextTokenView.PAGE
TOP = 5  # each layer's most likely tokens shown


def depth_name(depth: int) -> str:
    """0: the embeddings; d: after block d (counted from 1, as the pages count layers)."""
    return _("Embeddings") if depth == 0 else _("After layer {n}").format(n=depth)


def lens_section(loaded: LoadedGPT, trace: Trace) -> None:
    """The lens at the newest token: a row per depth, its top tokens, and the final answer's probability and rank."""
    lens = logit_lens(loaded.model, trace, loaded.vocabulary, k=TOP)
    st.subheader(_("Logit lens: each layer's guess"))
    answer = token_label(lens.answer)
    fig = logit_lens_figure(
        [[token_label(t) for t in row.tokens] for row in lens.rows],
        [[*row.probs, row.answer_prob] for row in lens.rows],
        answer=[_("{token} · #{rank}").format(token=answer, rank=row.answer_rank) for row in lens.rows],
        title=_("The next token read from every layer: the answer “{token}”").format(token=answer),
        layer_names=[depth_name(row.depth) for row in lens.rows],
        rank_names=[_("#{n}").format(n=n) for n in range(1, TOP + 1)],
        answer_name=_("the answer"), hover_names=(_("layer"), _("column"), _("probability")),
    )  # fmt: skip
    show_chart(fig, "nt_lens", name=chart_name(PAGE, "logit-lens", model=loaded.name))
    formed = next(row.depth for row in lens.rows if row.answer_rank == 1)  # the last row's is the answer itself
    st.caption(
        _(
            "Each row reads the residual stream at the newest token through the final LayerNorm and the LM head, as if "
            "the model stopped there; colour: probability. The last column follows the model's answer and its rank: it "
            "first ranks first at “{depth}”."
        ).format(depth=depth_name(formed))
    )
