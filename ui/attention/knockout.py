"""Switch heads off on the Attention page: pick heads per attention kind and layer, see the model's output with and
without them side by side, and the attention figures redrawn with them off.

The link holds ?off=e1.3,c2.1 (model.knockout's code: kind letter, layer.head 1-based; the same in every language):
the view's `heads_off` control (views.AttentionView), kept under OFF_KEY. A code this model cannot use gets a
message and leaves every head on, and stays as it was until a head is picked, so nothing typed is lost.

Runs (each cached per session by ui.trace_cache): the outputs compared are the model's own greedy outputs with
and without the heads; the figures with heads off come from a run whose decoder reads the same input as the page's
trace (the typed target, or the output with every head on), so the two can be compared cell by cell.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from model import Ablation, AnyLoaded, InputError, LoadedModel, Trace
from model.analysis.knockout import (
    HeadsOff,
    attention_blocks,
    every_head,
    file_word,
    format_heads_off,
    parse_heads_off,
)
from model.gpt import LoadedGPT
from views import AttentionView, key_of
from views.attention import KIND_LABELS as KINDS

from ..i18n import _, explain
from ..lazy_fold import lazy_fold
from ..presenter import controls, folding, presenting, shut
from ..tokens import md_escape, reads_tokens, token_chips
from ..trace_cache import cached_run
from .knockout_runs import Knockout

OFF_KEY = key_of(AttentionView, "heads_off_code")
PILLS_KEY = "off_pills_{name}"  # one multi-select per attention block
FOLD_KEY = "off_fold"  # the panel's fold on the page: open or not


def heads_off_now(loaded: LoadedModel | LoadedGPT) -> HeadsOff:
    """The heads switched off for this model (a message when the session's code does not fit it)."""
    code = str(st.session_state.get(OFF_KEY, ""))
    try:
        return parse_heads_off(code, loaded.config)
    except InputError as exc:
        exc.params = {name: md_escape(str(value)) for name, value in exc.params.items()}  # the link's text as typed
        st.warning(_("{reason} Every head stays on.").format(reason=explain(exc)), icon="⚠️")
        return frozenset()


def _valid(config) -> HeadsOff:
    try:
        return parse_heads_off(st.session_state.get(OFF_KEY, ""), config)
    except InputError:
        return frozenset()


def _picked(config, block_name: str, key: str) -> None:
    """A block's selection changed: the others stay as they were."""
    chosen = st.session_state.get(key)
    heads = chosen if isinstance(chosen, list) else [0] if chosen is True else []
    kept = {pair for pair in _valid(config) if pair[0] != block_name}
    st.session_state[OFF_KEY] = format_heads_off(frozenset(kept | {(block_name, h) for h in heads}), config)


def _all_on() -> None:
    st.session_state[OFF_KEY] = ""


def knockout_controls(loaded: LoadedModel | LoadedGPT, heads_off: HeadsOff) -> None:
    """Per attention kind, one row of head buttons per layer (or, for an RNN, one switch); a button to switch every
    head back on."""
    config, blocks = loaded.config, attention_blocks(loaded.config)
    if not blocks:
        st.info(_("This model has no attention, so it has no head to switch off."))
        return
    if config.arch == "rnn":
        key = PILLS_KEY.format(name=blocks[0].name)
        st.session_state[key] = (blocks[0].name, 0) in heads_off
        st.toggle(
            _("Switch the attention off: the decoder reads a zero context vector at every step"), key=key,
            on_change=_picked, args=(config, blocks[0].name, key),
        )  # fmt: skip
        return
    st.caption(
        _(
            "A head switched off hands on zeros instead of its weighted sum of values, as if it did not exist: "
            "Wᴼ and everything after it see only the other heads."
        )
    )
    st.caption(_("A link keeps the choice as `?off=c1.2`: e, d or c for the kind, then layer.head."))
    kinds = {kind: title for kind, title in KINDS.items() if any(b.kind == kind for b in blocks)}  # a GPT: one kind
    columns = st.columns(len(kinds))
    for column, (kind, title) in zip(columns, kinds.items(), strict=True):
        column.markdown(f"**{_(title)}**")
        for block in (b for b in blocks if b.kind == kind):
            key = PILLS_KEY.format(name=block.name)
            st.session_state[key] = sorted(h for name, h in heads_off if name == block.name)
            column.pills(
                _("Layer {n}").format(n=block.layer + 1), range(block.n_heads), selection_mode="multi", key=key,
                format_func=lambda h: str(h + 1), on_change=_picked, args=(config, block.name, key),
            )  # fmt: skip
    st.button(_("Switch every head back on"), on_click=_all_on, disabled=not heads_off, key="off_all_on")


def _output_line(label: str, prediction: str | None, expected: str | None) -> str:
    """One output as token chips, marked correct or wrong when the task knows the right answer."""
    tokens = token_chips((prediction or "").split()) or _("(empty)")
    if expected is None:
        line = _("**{label}:** {tokens}")
    elif prediction == expected:
        line = _("**{label}:** {tokens} :green[(correct)]")
    else:
        line = _("**{label}:** {tokens} :red[(wrong)]")
    return line.format(label=label, tokens=tokens)


def _off_label(loaded: AnyLoaded, heads_off: HeadsOff, code: str) -> str:
    """What the run with heads off is called beside the one with every head on."""
    if loaded.config.arch == "rnn":  # one attention, one switch
        return _("Attention off")
    if heads_off >= every_head(loaded.config):
        return _("Every head off")
    return _("Heads {heads} off").format(heads=code)


def _gpt_knockout(
    loaded: LoadedGPT, text: str, trace: Trace, heads_off: HeadsOff, ablation: Ablation
) -> Knockout | None:
    """A GPT with heads off: the next character it expects with every head on and with them off, side by side (the
    prompt is the same in both runs, so the figures compare cell by cell)."""
    off = cached_run(loaded, text, ablation=ablation)
    if off is None:
        return None
    code = format_heads_off(heads_off, loaded.config)
    with_col, without_col = st.columns(2)
    line = _("**{label}:** next token {token}") if reads_tokens(loaded) else _("**{label}:** next character {token}")
    with_col.markdown(line.format(label=_("Every head on"), token=token_chips([trace.prediction or ""])))
    without_col.markdown(
        line.format(label=_off_label(loaded, heads_off, code), token=token_chips([off.prediction or ""]))
    )
    same = off.prediction == trace.prediction
    if reads_tokens(loaded):
        without_col.caption(_("The same next token: the other heads make up for the ones switched off.") if same
                            else _("The next token changed."))  # fmt: skip
    else:
        without_col.caption(_("The same next character: the other heads make up for the ones switched off.") if same
                            else _("The next character changed."))  # fmt: skip
    st.caption(_("The figures below are drawn with the heads off; switched-off heads show as “off”."))
    return Knockout(heads_off, code, file_word(heads_off, loaded.config), trace, off)


def knockout_section(
    loaded: LoadedModel | LoadedGPT, text: str, target: str | None, trace: Trace, bar: DeltaGenerator | None = None
) -> Knockout | None:
    """The "Switch heads off" panel (in the presenter view a popover in `bar`, page_header's bar), then (with heads
    off) the two outputs side by side; returns the runs the figures draw, or None when every head is on."""
    heads_off = heads_off_now(loaded)
    label = _("Switch heads off")
    # a follower's fold is lazy: its ~10 head buttons are drawn only while it is open (a rerun per student per change)
    folded = presenting() or folding()
    if folded:
        with controls(bar, label, lazy=True) as box:
            if not shut(box):
                knockout_controls(loaded, heads_off)
    elif fold := lazy_fold(label, FOLD_KEY, start_open=bool(heads_off)):  # a link with heads off opens it
        with fold:
            knockout_controls(loaded, heads_off)
    if not heads_off:
        return None
    ablation = Ablation(heads_off=heads_off)
    if isinstance(loaded, LoadedGPT):
        return _gpt_knockout(loaded, text, trace, heads_off, ablation)
    on_free = trace if not target else cached_run(loaded, text)
    off_free = cached_run(loaded, text, ablation=ablation)
    decoder_input = target or (trace.prediction or "")
    off = cached_run(loaded, text, decoder_input, ablation) if decoder_input.strip() else off_free
    if on_free is None or off_free is None or off is None:
        return None
    code = format_heads_off(heads_off, loaded.config)
    expected = loaded.task.target_for(text)
    with_col, without_col = st.columns(2)
    with_col.markdown(_output_line(_("Every head on"), on_free.prediction, expected))
    without_col.markdown(_output_line(_off_label(loaded, heads_off, code), off_free.prediction, expected))
    if off_free.prediction == on_free.prediction:
        without_col.caption(_("The same output: the other heads make up for the ones switched off."))
    else:
        without_col.caption(_("The output changed."))
    if loaded.config.arch != "rnn":
        st.caption(
            _(
                "The figures below are drawn with the heads off; switched-off heads show as “off”. The decoder reads "
                "the same input as with every head on, so the two runs compare cell by cell."
            )
        )
    return Knockout(heads_off, code, file_word(heads_off, loaded.config), trace, off)
