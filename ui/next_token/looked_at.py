"""What the newest token looked at: its attention row (its weights over the text so far) in every layer and head,
as one figure, and a BertViz-style head view of one head on the text itself (the newest token's lines)."""

from __future__ import annotations

from typing import SupportsInt, cast

import numpy as np
import streamlit as st

from model.analysis.attention import attention_layers
from model.naming import AttentionKind
from views import NextTokenView
from viz.head_view import head_view_figure
from viz.next_token import newest_rows_figure, token_label

from ..attention.view import head_name, layer_name, one_based
from ..charts import chart_name, show_chart
from ..i18n import _
from ..presenter import section_fragment
from ..state import computed_default, fit, sync_url

PAGE = NextTokenView.PAGE
KIND = AttentionKind.DECODER  # a GPT's one kind: causal self-attention
LAYER, HEAD = "nt_layer", "nt_head"  # the head view's pickers (the view's controls)
HEAD_VIEW_PRESENT_HEIGHT = 420


def looked_at_section(weights: np.ndarray, tokens: list[str], model: str) -> None:
    """`weights` (L, H, T, T) of the text so far; `tokens` its T characters (the last one the newest); `model`: the
    model's name (the downloads' file names)."""
    st.subheader(_("What the newest token looked at"))
    st.caption(_("A GPT's self-attention is causal: the newest token's row spreads over itself and the tokens before "
                 "it, never after. Each row below sums to 1."))  # fmt: skip
    n_layers, n_heads = weights.shape[:2]
    names = [f"{layer_name(i)} · {head_name(h)}" for i in range(n_layers) for h in range(n_heads)]
    fig = newest_rows_figure(
        weights[:, :, -1, :], title=_("The newest token “{token}”: its attention row in every layer and head").format(
            token=token_label(tokens[-1])),
        row_names=names, key_tokens=tokens, key_title=_("Key: the text so far"),
        hover_names=(_("head"), _("key"), _("weight")),
    )  # fmt: skip
    show_chart(fig, "nt_rows", name=chart_name(PAGE, "newest-rows", model=model))
    head_view_part(weights, tokens, model)


@section_fragment
def head_view_part(weights: np.ndarray, tokens: list[str], model: str) -> None:
    """A layer and a head picked, then that head's lines from the newest token over the text."""
    n_layers, n_heads = weights.shape[:2]
    fit(PAGE, {LAYER: n_layers - 1, HEAD: n_heads - 1})
    layer = int(cast(SupportsInt, computed_default(LAYER, lambda: n_layers - 1)))  # None in the view: the last layer
    pick_layer, pick_head = st.columns([1, 2])
    layer = pick_layer.selectbox(_("Layer"), range(n_layers), format_func=one_based, key=LAYER)
    head = pick_head.radio(_("Head"), range(n_heads), format_func=one_based, key=HEAD, horizontal=True)
    shown = [token_label(t) for t in tokens]
    fig = head_view_figure(
        weights[layer, head : head + 1], title=_("Head view · {layer} · {head}").format(
            layer=layer_name(layer), head=head_name(head)),
        query_tokens=shown, key_tokens=shown, head_names=[head_name(head)], query_title=_("Query"),
        key_title=_("Key"), focus=len(tokens) - 1, thinned=_("many lines: those under {weight} are left out"),
    )  # fmt: skip
    show_chart(fig, "nt_head_view", name=chart_name(PAGE, "head-view", layer=layer, head=head, model=model),
               present_height=HEAD_VIEW_PRESENT_HEIGHT)  # fmt: skip
    st.caption(_("The newest token's lines: thicker lines carry more weight."))
    sync_url(PAGE)


def attention_weights(trace) -> np.ndarray:
    """The trace's causal self-attention, every layer: (L, H, T, T)."""
    return attention_layers(trace, KIND)
