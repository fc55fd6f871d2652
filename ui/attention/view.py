"""The Attention page's sections: kind picker + every-head overview, one head large + head view, summaries.

The head view is always drawn beside the focused head, not behind a tab: dropping those lazy st.tabs (and
the focused head's colorbar) took ~30 ms off every edit-to-paint here (bench/ui_latency.py conditions).
The summaries are chosen with a segmented control rather than st.tabs: a tab's identity is its label, so a
language switch made a new tab bar whose choice dropped out of the URL; the control's options are ids.

Fragments: changing the kind reruns only the attention section; changing layer, head or token reruns
only the focused part. The model is never run again for those (the trace is cached per session).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import SupportsInt, cast, overload

import numpy as np
import streamlit as st

from model import Trace
from model.analysis.attention import (
    attention_layers,
    attention_rollout,
    attention_tokens,
    head_entropy,
    head_mean,
    head_peak,
    sharpest_head,
)
from model.analysis.knockout import blank_heads_off
from model.naming import AttentionKind
from views import AttentionView
from views.attention import KIND_LABELS, SUMMARY_LABELS
from viz.attention import head_figure, overview_figure
from viz.head_view import head_view_figure
from viz.matrix import SIGNED_SCALE, matrix_figure

from ..charts import chart_name, show_chart
from ..choices import shown_as
from ..i18n import N_, _
from ..language import keep_on_language_switch
from ..presenter import controls, in_order, presenting, section_fragment, shut
from ..state import computed_default, fit, sync_url
from ..tokens import has_source, visible
from ..widths import chart_share
from .kinds import model_kinds
from .knockout_runs import Knockout
from .thumbnails import overview_title, thumbnails

# The link (views.AttentionView): ?kind=encoder|decoder|cross, ?layer= and ?head= counted from 1, ?token=,
# ?summaries=true, ?more=entropy|peak|mean|rollout, ?off= (ui.state writes it; a link written with a label in
# either language still opens the same view).
KINDS = {kind.value: label for kind, label in KIND_LABELS.items()}  # kind id → msgid: the page's kinds are ids
KIND_HELP = N_(
    "Encoder self-attention: each source token looks at every source token. "
    "Decoder masked self-attention: each output position looks only at earlier outputs. "
    "Cross-attention: each output position looks at the source."
)
AXES: dict[str, tuple[str, str]] = {  # kind id → (query axis title, key axis title)
    AttentionKind.ENCODER: (N_("Query: source token"), N_("Key: source token")),
    AttentionKind.DECODER: (N_("Query: decoder input"), N_("Key: decoder input")),
    AttentionKind.CROSS: (N_("Query: decoder input"), N_("Key: source token")),
}
HOVER = (N_("query"), N_("key"), N_("weight"))
READING = N_("rows = queries, columns = keys")  # how to read a tile of the overview
SUMMARIES_LABEL = N_("Summaries: entropy and largest weight per head, mean over heads, attention rollout")
SUMMARIES = SUMMARY_LABELS
keep_on_language_switch("token", "kind", "more", "summaries")
FOCUS_PRESENT_HEIGHT = 400  # px: the focused head in the presenter view, above the fold of a 1280×720 projector
HEAD_VIEW_PRESENT_HEIGHT = 330  # px: the head view beside it, under its pickers: above the same fold
PAGE = AttentionView.PAGE  # also the first word of every chart's file name
PICKERS = ("layer", "head", "token")  # the focused head's pickers: their widget keys (the view's controls)
Panel = Callable[[], None]  # the question panel, drawn under the focused head


@overload
def hover_names(query: str, key: str, /) -> tuple[str, str]: ...
@overload
def hover_names(query: str, key: str, value: str, /) -> tuple[str, str, str]: ...
def hover_names(*names: str) -> tuple[str, ...]:
    """The names translated: the two axis titles, or the three words of a heatmap's hover (query, key, value)."""
    return tuple(_(n) for n in names)


def layer_name(i: int) -> str:
    return _("Layer {n}").format(n=i + 1)


def head_name(h: int) -> str:
    return _("Head {n}").format(n=h + 1)


def one_based(i: int) -> str:
    return str(i + 1)


def numbered(tokens: list[str]) -> list[str]:
    """Axis labels that stay distinct even when a token repeats: '3 · dog'."""
    return [f"{i} · {t}" for i, t in enumerate(tokens)]


@section_fragment
def attention_section(trace: Trace, knockout: Knockout | None = None, panel: Panel | None = None) -> None:
    """Kind picker, the every-layer × every-head overview, the focused head, then per-head summaries; with heads
    switched off (knockout), drawn from the run with them off, each off head shown as "off". `panel` (the question
    panel) is drawn under the focused head, in the fragment that the kind, layer and head rerun: its rows and keys
    are always those of the head on screen."""
    kinds = model_kinds(trace)  # MiniLM: encoder self-attention only (no decoder, no cross kinds offered)
    with controls(label=_("Attention kind"), lazy=True, holds=("kind",)) as box:  # a follower's: drawn while open
        if shut(box):
            kind = st.session_state.get("kind")
            kind = kind if kind in kinds else kinds[0]
        else:
            kind = st.radio(
                _("Attention kind"), kinds, format_func=shown_as({k: _(label) for k, label in KINDS.items()}),
                key="kind", horizontal=True, help=_(KIND_HELP),
            )  # fmt: skip
    heads_off, off = (knockout.heads_off, [knockout.word]) if knockout else (frozenset(), [])
    trace = knockout.off if knockout else trace
    weights = blank_heads_off(attention_layers(trace, kind), kind, heads_off)  # (L, H, Lq, Lk), off heads NaN
    queries, keys = (visible(tokens) for tokens in attention_tokens(trace, kind))  # a GPT's blanks made visible
    n_layers, n_heads = weights.shape[:2]
    layers, heads = [layer_name(i) for i in range(n_layers)], [head_name(h) for h in range(n_heads)]
    tiles, tile_queries, tile_keys, size = thumbnails(weights, queries, keys)  # pooled when the grid is large
    title = overview_title(_("{kind}: every layer and head").format(kind=_(KINDS[kind])), _(READING), size)
    fig = overview_figure(
        tiles, title=title, layer_names=layers, head_names=heads, query_tokens=tile_queries,
        key_tokens=tile_keys, hover_names=hover_names(*HOVER), off_label=_("off"),
    )  # fmt: skip
    overview_box, focus_box = in_order((1, 0))  # presenter view: the focused head first, above the fold
    with overview_box:
        show_chart(fig, "overview", name=chart_name(PAGE, kind, "overview", *off))
    with focus_box:
        focus_section(weights, kind, queries, keys, knockout.change(kind) if knockout else None, off, panel)
    box = st.expander(_(SUMMARIES_LABEL), key="summaries", on_change="rerun")
    if box.open:  # lazy: built and painted only when opened
        with box:
            summaries(trace, weights, kind, layers, heads, queries, keys, heads_off, off)
    sync_url(PAGE)


def within(value: int, count: int) -> int:
    """A 0-based index clamped to 0..count-1."""
    return min(max(int(value), 0), count - 1)


def is_off(weights) -> bool:
    """A head switched off: its weights are left out (NaN, model.analysis.knockout.blank_heads_off)."""
    return bool(np.isnan(weights).all())


@section_fragment
def focus_section(
    weights, kind: str, queries: list[str], keys: list[str], change=None, off=(), panel: Panel | None = None
) -> None:
    """Layer / head / token pickers, the chosen head large, and the layer's head view; with heads switched off, the
    focused head's change (with them off − every head on) under it. `off`: the file-name words of the knockout;
    `panel`: drawn last (see attention_section)."""
    n_layers, n_heads = weights.shape[:2]
    fit(PAGE, {"layer": n_layers - 1, "head": n_heads - 1, "token": len(queries) - 1})
    sharpest_defaults(weights)
    pickers, columns = st.container(), st.columns([3, 2])
    where = columns[1] if presenting() else pickers  # presenter: beside the head
    with controls(where, _("Layer, head, token"), lazy=True, holds=PICKERS) as box:  # a follower's: while open
        if shut(box):  # the view as fitted above: what the pickers would show
            session = st.session_state
            layer, head, token = int(session["layer"]), int(session["head"]), session.get("token")
        else:
            pick_layer, pick_head, pick_token = st.columns([1, 2, 1])
            # options show as 1, 2, … so a shared link reads ?layer=2&head=3
            layer = pick_layer.selectbox(_("Layer"), range(n_layers), format_func=one_based, key="layer")
            head = pick_head.radio(_("Head"), range(n_heads), format_func=one_based, key="head", horizontal=True)
            every = _("All tokens")  # None, which Streamlit shows as the box's placeholder, not as an option
            token = pick_token.selectbox(
                _("Isolate one query token"), [None, *range(len(queries))], key="token", placeholder=every,
                format_func=shown_as({None: every} | {i: f"{i} · {q}" for i, q in enumerate(queries)}),
                help=_("Keep only the lines from this token in the head view."),
            )  # fmt: skip
    focused_charts(weights, kind, layer, head, token, queries, keys, change, off, columns=columns)
    if panel is not None:
        panel()
    sync_url(PAGE)


def sharpest_defaults(weights) -> tuple[int, int]:
    """The view's default layer and head (None in the view, computed here before their pickers): the sharpest head of
    the kind shown, by the model's own mean row entropy (model.analysis.attention.sharpest_head), and within a layer
    the link or the user chose, that layer's sharpest head. A layer or head the user, a link or a class chose stays."""
    # computed_default is typed `object`; these keys hold a layer or head index (an int, maybe a NumPy one)
    layer = int(cast(SupportsInt, computed_default("layer", lambda: sharpest_head(weights)[0])))
    head = int(cast(SupportsInt, computed_default("head", lambda: sharpest_head(weights, layer)[1])))
    return layer, head


def focused_charts(
    weights,
    kind: str,
    layer: int,
    head: int,
    token: int | None,
    queries,
    keys,
    change=None,
    off=(),
    *,
    columns=None,
    cell_text: bool | None = None,
) -> None:
    """One head large beside its layer's head view (`token`: the one query whose lines the head view keeps, or
    None), and with heads switched off the focused head's change; in `columns` (left, right) when given, else in two
    new columns; cell_text=False leaves the values out of the head's cells (a narrow column). The Attention page
    draws it under its pickers; a lesson slide draws it for the slide's settings."""
    n_heads = weights.shape[1]
    left, right = columns if columns is not None else st.columns([3, 2])
    query_title, key_title = hover_names(*AXES[kind])
    with left, chart_share(3 / 5):
        if is_off(weights[layer, head]):
            st.info(_("{layer} · {head} is switched off: it hands on zeros, so it has no weights to draw.").format(
                layer=layer_name(layer), head=head_name(head)))  # fmt: skip
        else:
            fig = head_figure(
                weights[layer, head], title=f"{layer_name(layer)} · {head_name(head)}",
                query_tokens=numbered(queries), key_tokens=numbered(keys),
                query_title=query_title, key_title=key_title, hover_names=hover_names(*HOVER), cell_text=cell_text,
            )  # fmt: skip
            show_chart(fig, "focused", name=chart_name(PAGE, kind, *off, layer=layer, head=head),
                       present_height=FOCUS_PRESENT_HEIGHT)  # fmt: skip
            if change is not None:
                change_chart(change[layer, head], kind, layer, head, numbered(queries), numbered(keys), off)
    with right, chart_share(2 / 5):
        names = [_("{head} (off)").format(head=head_name(h)) if is_off(weights[layer, h]) else head_name(h)
                 for h in range(n_heads)]  # fmt: skip
        fig = head_view_figure(
            weights[layer], title=_("Head view · {layer}").format(layer=layer_name(layer)),
            query_tokens=queries, key_tokens=keys, head_names=names,
            query_title=_("Query"), key_title=_("Key"), focus=token,
            thinned=_("many lines: those under {weight} are left out"),
        )  # fmt: skip
        show_chart(fig, "head_view", name=chart_name(PAGE, kind, "head-view", *off, layer=layer),
                   present_height=HEAD_VIEW_PRESENT_HEIGHT)  # fmt: skip
        st.caption(_("Line thickness = weight. Click a head in the legend to hide it; double-click to show only it."))


def change_chart(change, kind: str, layer: int, head: int, queries: list[str], keys: list[str], off) -> None:
    """The focused head's weights with the heads off minus with every head on (red: more, blue: less)."""
    query_title, key_title = hover_names(*AXES[kind])
    fig = matrix_figure(
        change, title=_("{layer} · {head}: weight with the heads off − with every head on").format(
            layer=layer_name(layer), head=head_name(head)),
        x_title=key_title, y_title=query_title, x_labels=keys, y_labels=queries,
        hover_names=hover_names(N_("query"), N_("key"), N_("change")), colorscale=SIGNED_SCALE + "_r",
        zmin=None, zmax=None, zmid=0.0, height=420, role="attention-change",
    )  # fmt: skip
    show_chart(fig, "focused_change", name=chart_name(PAGE, kind, "change", *off, layer=layer, head=head))


def summaries(
    trace: Trace, weights, kind: str, layers: list[str], heads: list[str], queries, keys, heads_off=frozenset(), off=()
) -> None:
    """Per-head entropy and peak weight, each layer's mean over heads, and the encoder's attention rollout
    (one at a time: only the chosen one is built and painted). Heads switched off (NaN in `weights`) are left out."""
    chosen = st.segmented_control(
        _("Summary"), list(SUMMARIES), required=True, key="more", label_visibility="collapsed",
        format_func=shown_as({k: _(label) for k, label in SUMMARIES.items()}),
    )  # fmt: skip
    height = 170 + 70 * len(layers)
    if chosen == "entropy":
        fig = matrix_figure(
            head_entropy(weights), title=_("Mean row entropy in nats: 0 = each query looks at one token"),
            x_title="", y_title="", x_labels=heads, y_labels=layers,
            hover_names=hover_names(N_("layer"), N_("head"), N_("entropy")),
            colorscale="Purples", zmin=0.0, zmax=math.log(max(2, len(keys))), cell_text=True, height=height,
            role="head-entropy",
        )  # fmt: skip
        show_chart(fig, "entropy", name=chart_name(PAGE, kind, "entropy", *off))
    elif chosen == "peak":
        fig = matrix_figure(
            head_peak(weights), title=_("Mean of each row's largest weight: 1 = every query looks at one token"),
            x_title="", y_title="", x_labels=heads, y_labels=layers,
            hover_names=hover_names(N_("layer"), N_("head"), N_("max weight")),
            cell_text=True, height=height, role="head-peak",
        )  # fmt: skip
        show_chart(fig, "peak", name=chart_name(PAGE, kind, "peak", *off))
    elif chosen == "mean":
        fig = overview_figure(  # layers side by side, as the overview puts heads
            head_mean(weights)[None],
            title=_("{kind}: the mean of the {n} heads of each layer").format(kind=_(KINDS[kind]), n=len(heads)),
            layer_names=[_("Mean")], head_names=layers, query_tokens=queries, key_tokens=keys,
            hover_names=hover_names(*HOVER), off_label=_("off"),
            role="head-mean",
        )  # fmt: skip
        show_chart(fig, "head_mean", name=chart_name(PAGE, kind, "mean", *off))
    elif chosen == "rollout":
        rollout_chart(trace, heads_off, off)


def rollout_chart(trace: Trace, heads_off=frozenset(), off=()) -> None:
    """Attention rollout over the self-attention stack the input goes through: the encoder's, or (a decoder-only
    GPT, which has no source) the decoder's causal one."""
    decoder_only = not has_source(trace)
    kind = AttentionKind.DECODER if decoder_only else AttentionKind.ENCODER
    if decoder_only:
        st.caption(_("Each layer's heads averaged, the residual connection added (½ identity + ½ attention), and the "
                     "layers multiplied bottom-up: row i shows how much of each character reaches position i at the "
                     "top, never a later one (the mask is causal)."))  # fmt: skip
    else:
        st.caption(
            _(
                "Each encoder layer's heads averaged, the residual connection added (½ identity + ½ attention), "
                "and the layers multiplied bottom-up: row i shows how much of each input token reaches position i "
                "at the encoder's top."
            )
        )
    tokens = numbered(visible(trace.tokens(kind.query_side)))
    stack = blank_heads_off(attention_layers(trace, kind), kind, heads_off)
    title = _("Decoder attention rollout") if decoder_only else _("Encoder attention rollout")
    fig = matrix_figure(
        attention_rollout(stack), title=title,
        x_title=_("Input token"), y_title=_("Position at the top"), x_labels=tokens, y_labels=tokens,
        hover_names=hover_names(N_("position"), N_("input token"), N_("share")), height=560, role="rollout",
    )  # fmt: skip
    show_chart(fig, "rollout", name=chart_name(PAGE, kind, "rollout", *off))
