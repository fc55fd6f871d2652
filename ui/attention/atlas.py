"""The head atlas, a section of the Attention page: one grid of every head of the model (a row per layer, of each
kind), coloured by what each head mostly attends to (model.analysis.atlas), on this input or averaged over 50 fixed
inputs; hovering a head lists its scores, and a picker (row, head) opens that head in the focused view above.

The section is an expander opened on demand (its grid is built only then: the page's edit-to-paint is unchanged). The
fixed inputs' atlas is computed once per server for a shipped model (MiniLM: its 50 sentences in batches)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from model import AnyLoaded, LoadedEncoder, Trace
from model.analysis.atlas import (
    CORPUS_SIZE,
    DOMINANT,
    DOMINANT_SHARE,
    ROLES,
    Atlas,
    atlas_texts,
    corpus_atlas,
    trace_atlas,
)
from model.analysis.gpt_texts import gpt_texts
from model.bert.sentences import atlas_sentences
from model.gpt import LoadedGPT
from model.naming import TRANSFORMER_KINDS, AttentionKind
from views.attention import ATLAS_LABELS
from viz.atlas import atlas_figure

from ..charts import chart_name, show_chart
from ..choices import shown_as
from ..i18n import N_, _
from ..models import is_server_model, server_model
from ..state import fit, sync_url
from .view import PAGE, head_name, layer_name, one_based

ROLE_NAMES = {
    "previous": N_("previous token"), "next": N_("next token"), "self": N_("itself"), "cls": N_("[CLS]"),
    "sep": N_("[SEP]"), "punctuation": N_("punctuation"), "mirror": N_("mirrored position"),
    "previous_line": N_("same place, line above"), "induction": N_("induction: after the same token earlier"),
    "broad": N_("broad"), "mixed": N_("mixed"),
}  # fmt: skip
KIND_SHORT = {
    AttentionKind.ENCODER: N_("Encoder"),
    AttentionKind.DECODER: N_("Decoder"),
    AttentionKind.CROSS: N_("Cross"),
}
ATLAS_LABEL = N_("Head atlas: what every head attends to")
SESSION_ATLASES = "_atlas_corpus"  # this session's own models' fixed-input atlases (never shared)


@st.cache_resource(show_spinner=False, max_entries=16)
def _server_corpus_atlas(name: str) -> Atlas:
    loaded = server_model(name)
    return corpus_atlas(loaded, atlas_texts(loaded))


def fixed_atlas(loaded: AnyLoaded) -> Atlas:
    """The atlas over the model's fixed inputs: once per server for one of the server's models (shipped, or from a
    folder it was started with), once per session otherwise."""
    if is_server_model(loaded):
        return _server_corpus_atlas(loaded.name)
    mine: dict = st.session_state.setdefault(SESSION_ATLASES, {})
    if id(loaded.model) not in mine:
        mine[id(loaded.model)] = corpus_atlas(loaded, atlas_texts(loaded))
    return mine[id(loaded.model)]


def atlas_rows(atlas: Atlas) -> list[tuple[int, AttentionKind, int]]:
    """(row of the atlas, kind, layer) in the grid's order: encoder, decoder, cross, each by layer."""
    return [(b, kind, atlas.layers[b]) for kind in TRANSFORMER_KINDS for b in atlas.kind_rows(kind)]


def row_label(kind: AttentionKind, layer: int, kinds: int) -> str:
    return layer_name(layer) if kinds == 1 else f"{_(KIND_SHORT[kind])} · {layer_name(layer)}"


def _open_head(rows: list[tuple[int, AttentionKind, int]]) -> None:
    """The atlas picker changed: show that head above (kind, layer, head of the focused view)."""
    index = min(int(st.session_state.get("atlas_row", 0)), len(rows) - 1)
    _, kind, layer = rows[index]
    st.session_state["kind"], st.session_state["layer"] = kind.value, layer
    st.session_state["head"] = int(st.session_state.get("atlas_head", 0))


def atlas_section(loaded: AnyLoaded, trace: Trace) -> None:
    """The atlas expander of the Attention page."""
    box = st.expander("★ " + _(ATLAS_LABEL), key="atlas", on_change="rerun")
    if not box.open:
        return
    with box:
        over = st.segmented_control(
            _("Averaged over"), list(ATLAS_LABELS), required=True, key="atlas_over",
            format_func=shown_as({k: _(label) for k, label in ATLAS_LABELS.items()}),
        )  # fmt: skip
        assert over is not None  # required=True, and ui.state.settle gave the key the view's value before any draw
        if over == "input":
            atlas = trace_atlas(trace)
        else:
            with st.spinner(_("Running the model on its {n} fixed inputs (once per server)…").format(n=CORPUS_SIZE)):
                atlas = fixed_atlas(loaded)
        draw_atlas(loaded, atlas, over)
        rows = atlas_rows(atlas)
        kinds = len({kind for _, kind, _ in rows})
        fit(PAGE, {"atlas_row": len(rows) - 1, "atlas_head": atlas.n_heads - 1})
        row_col, head_col = st.columns([1, 2])
        labels = {i: row_label(kind, layer, kinds) for i, (_, kind, layer) in enumerate(rows)}
        row_col.selectbox(_("Layer"), range(len(rows)), format_func=shown_as(labels), key="atlas_row",
                          on_change=_open_head, args=(rows,))  # fmt: skip
        head_col.radio(_("Head"), range(atlas.n_heads), format_func=one_based, key="atlas_head", horizontal=True,
                       on_change=_open_head, args=(rows,))  # fmt: skip
        st.caption(_("Picking a layer or a head here opens it above, in the focused head and its head view."))
        picked = rows[min(int(st.session_state.get("atlas_row", 0)), len(rows) - 1)]
        st.markdown(head_line(atlas, picked, int(st.session_state.get("atlas_head", 0)), kinds))
    sync_url(PAGE)


def atlas_slide(loaded: AnyLoaded, trace: Trace, over: str) -> None:
    """A lesson slide's atlas: the grid alone, on the slide's input or over the fixed inputs."""
    draw_atlas(loaded, trace_atlas(trace) if over == "input" else fixed_atlas(loaded), over)


def head_line(atlas: Atlas, row: tuple[int, AttentionKind, int], head: int, kinds: int) -> str:
    """One head's numbers in a line: its dominant role, each role's share, its breadth."""
    numbers = atlas.head(row[1], row[2], min(head, atlas.n_heads - 1))
    shares = " · ".join(f"{_(ROLE_NAMES[r])} {numbers[r]:.2f}" for r in ROLES if np.isfinite(numbers[r]))
    return _("**{where} · {head}**: mostly *{role}* · {shares} · breadth {breadth:.2f}").format(
        where=row_label(row[1], row[2], kinds), head=head_name(head), role=_(ROLE_NAMES[str(numbers["dominant"])]),
        shares=shares, breadth=float(numbers["entropy_norm"]),
    )  # fmt: skip


def family_lacks(loaded: AnyLoaded) -> tuple[str, ...]:
    """The roles the legend leaves out for this model: [CLS] and [SEP] outside the BERT family, the line above
    outside a GPT (the only family trained on lines of poems)."""
    lacks = () if isinstance(loaded, LoadedEncoder) else ("cls", "sep")
    return lacks if loaded.config.arch == "gpt" else (*lacks, "previous_line")


def draw_atlas(loaded: AnyLoaded, atlas: Atlas, over: str) -> None:
    """The grid, coloured by dominant role, with what the roles mean."""
    rows = atlas_rows(atlas)
    kinds = len({kind for _, kind, _ in rows})
    order = [b for b, _, _ in rows]
    dominant = atlas.dominant()[order]
    roles = [r for r in DOMINANT if r not in family_lacks(loaded)]
    where = _("averaged over {n} fixed inputs").format(n=atlas.n_inputs) if over == "corpus" else _("on this input")
    fig = atlas_figure(
        dominant, atlas.scores[order], atlas.entropy_norm[order],
        title=_("Each head's dominant role, {where}").format(where=where),
        row_names=[row_label(kind, layer, kinds) for _, kind, layer in rows],
        head_names=[head_name(h) for h in range(atlas.n_heads)], roles=roles,
        role_names={r: _(ROLE_NAMES[r]) for r in DOMINANT}, score_names=[_(ROLE_NAMES[r]) for r in ROLES],
        breadth_name=_("breadth (0 = one key, 1 = uniform)"), role_title=_("mostly"),
    )  # fmt: skip
    show_chart(fig, "head_atlas", name=chart_name(PAGE, "atlas", over))
    st.caption(
        _(
            "A head's role is the kind of key that gets at least {share}% of its attention: the previous or next "
            "token, itself, [CLS], [SEP], punctuation, (cross-attention) the mirrored position, the same place "
            "one line above (lines end at ，。 or a new line), or the token after an earlier occurrence of the same "
            "token (induction); otherwise broad (spread out) or mixed. Hover a head for its shares."
        ).format(share=round(DOMINANT_SHARE * 100))
    )
    if over == "corpus" and isinstance(loaded, LoadedEncoder):
        st.caption(_("MiniLM: {en} English and {zh} Chinese sentences shipped with the lab (its vocabulary is "
                     "English, so many Chinese characters are [UNK]).").format(
            en=len(atlas_sentences("en")), zh=len(atlas_sentences("zh"))))  # fmt: skip
    elif over == "corpus" and isinstance(loaded, LoadedGPT) and loaded.task.name == "induction":
        st.caption(_("{name}: {n} random sequences of its task, each a segment repeated once.").format(
            name=loaded.name, n=atlas.n_inputs))  # fmt: skip
    elif over == "corpus" and isinstance(loaded, LoadedGPT):
        n = len(gpt_texts(loaded.task.language))
        texts = (_("{n} Tang poems of five-character lines shipped with the lab") if loaded.task.language == "zh" else
                 _("{n} passages of Shakespeare shipped with the lab")).format(n=n)  # fmt: skip
        st.caption(_("{name}: {texts}, in the language it writes.").format(name=loaded.name, texts=texts))
