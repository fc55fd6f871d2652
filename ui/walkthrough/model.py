"""The model source: one attention block of the sidebar's model on the shared input, read from its trace."""

from __future__ import annotations

import streamlit as st

from model import Ablation, AnyLoaded, transformer_of
from model.gpt import LoadedGPT
from model.naming import AttentionKind
from model.teach.inspect import from_trace, kinds_of, n_layers
from views import StepByStepView, key_of
from views.attention import KIND_LABELS

from ..i18n import N_, _
from ..inputs import source_text
from ..state import fit
from ..tokens import reads_tokens, visible
from ..trace_cache import cached_run
from .links import translated_labels
from .state import MODEL, Ablations, Walk, md_plain

PAGE = StepByStepView.PAGE
KIND_KEY, LAYER_KEY = key_of(StepByStepView, "wt_kind"), key_of(StepByStepView, "wt_layer")
KIND_NAMES = KIND_LABELS | {AttentionKind.CROSS: N_("Cross-attention (decoder → encoder)")}  # the direction named


def model_controls(loaded: AnyLoaded) -> tuple[str, AttentionKind, int]:
    """Input text is shared with the other pages; kind and layer are this page's."""
    text_col, kind_col, layer_col = st.columns([3, 2, 1], vertical_alignment="bottom")
    with text_col:
        text = source_text(_("Input"), loaded=loaded)
    kind = AttentionKind(
        kind_col.selectbox(
            _("Attention"), model_kinds(loaded), format_func=translated_labels(KIND_NAMES).__getitem__, key=KIND_KEY
        )
    )
    layers = list(range(n_layers(transformer_of(loaded), kind)))
    fit(PAGE, {"wt_layer": len(layers) - 1})
    layer = layer_col.selectbox(_("Layer"), layers, format_func=lambda i: str(i + 1), key=LAYER_KEY)
    return text, kind, int(layer)


def model_kinds(loaded: AnyLoaded) -> list[AttentionKind]:
    """The blocks this model has (MiniLM: encoder self-attention only); a kind chosen before that it lacks gives way
    to its first."""
    kinds = list(kinds_of(transformer_of(loaded)))
    if st.session_state.get(KIND_KEY) not in kinds:
        st.session_state[KIND_KEY] = kinds[0]
    return kinds


def model_walk(
    loaded: AnyLoaded, text: str, kind: AttentionKind, layer: int, head: int, ablations: Ablations
) -> Walk | None:
    """Trace the current input with the ablations, and take this block's numbers from the trace."""
    ablation = Ablation(scale=ablations.scale, temperature=ablations.temperature, causal=ablations.mask)
    trace = cached_run(loaded, text, ablation=ablation)
    if trace is None:
        return None
    model = transformer_of(loaded)
    full = from_trace(trace, model, kind, layer)
    q_tokens, k_tokens = visible(trace.tokens(kind.query_side)), visible(trace.tokens(kind.key_side))
    decoder_only = isinstance(loaded, LoadedGPT)
    if decoder_only:
        shown = md_plain(visible([trace.prediction or ""])[0])
        line = _("A decoder-only model reads the prompt itself, with causal self-attention; its most likely next token "
                 "is “{output}”.") if reads_tokens(loaded) else _("A decoder-only model reads the prompt itself, with "
                                                                   "causal self-attention; its most likely next "
                                                                   "character is “{output}”.")  # fmt: skip
        st.caption(line.format(output=shown))
    elif trace.prediction is not None and kind is not AttentionKind.ENCODER:
        st.caption(
            _("Decoder input: `<bos>` + the model's own output, “{output}”.").format(output=md_plain(trace.prediction))
        )
    if not ablations.mask and kind is not AttentionKind.DECODER:
        st.caption(_("Mask off changes only the decoder's causal mask: this block has no mask to remove."))
    pre_ln = model.config.norm == "pre"
    notes = {"kind": kind.value, "layer": layer, "model": loaded.name, "pre_ln": pre_ln, "prediction": trace.prediction,
             "decoder_only": decoder_only}  # fmt: skip
    return Walk(
        full, head, q_tokens, k_tokens, MODEL, ablations.temperature, ablations.scale,
        has_bias=True, cross=kind is AttentionKind.CROSS, notes=notes, trace=trace,
    )  # fmt: skip
