"""The Attention page as a function of its view: `render(view)` draws the page; `render(view, slide=True)` draws
the part a lesson slide shows (one head large beside its layer's head view), with no controls."""

from __future__ import annotations

import streamlit as st

from model import AnyLoaded, LoadedEncoder, Trace
from model.analysis.attention import attention_layers, attention_tokens, sharpest_head
from model.gpt import LoadedGPT
from views import AttentionView

from ..classroom.ask import question_panel
from ..i18n import N_, _
from ..inputs import source_text
from ..models import get_model, selected_model
from ..navigation import NEXT_TOKEN
from ..presenter import controls, folding, page_header, presenting
from ..rnn.notice import transformer_only
from ..tokens import reads_tokens, show_tokens, source_tokens, token_chips, visible
from ..trace_cache import cached_run
from ..trace_download import trace_downloads
from ..walkthrough.state import md_plain
from .atlas import atlas_section, atlas_slide
from .embedding import embedding_section, second_sentence
from .kinds import trace_kinds
from .knockout import knockout_section
from .repeated import repeat_button, repeat_line
from .view import attention_section, focused_charts, within

PAGE = AttentionView.PAGE
CAUSAL_CHARACTERS = N_(
    "A decoder-only model has causal self-attention alone: each character looks at itself and the ones before it, "
    "never after. The Next token page shows the whole distribution and writes on."
)
CAUSAL_TOKENS = N_(
    "A decoder-only model has causal self-attention alone: each token looks at itself and the ones before it, never "
    "after. The Next token page shows the whole distribution and writes on."
)  # a folder's BPE model: its tokens are pieces of text


def render(view: AttentionView, *, slide: bool = False) -> None:
    """The page for `view`; with `slide`, the slide's part of it."""
    if slide:
        render_slide(view)
        return
    bar = page_header(
        _("Attention"),
        _(
            "Type an input: the model runs on it and every attention weight it computed is drawn below. "
            "Each row of an attention matrix is one query token; its weights over the keys sum to 1."
        ),
    )
    loaded = get_model(view.common.model)
    if not transformer_only(loaded):
        return
    if isinstance(loaded, LoadedEncoder):
        render_encoder(loaded, bar)
        return
    if isinstance(loaded, LoadedGPT):
        render_decoder_only(loaded, bar)
        return
    with controls(bar, _("Input")):
        text_col, target_col = st.columns([3, 2])
        with text_col:
            text = source_text(loaded=loaded)
        with target_col:
            target = st.text_input(
                _("Target (optional)"),
                key="target",
                max_chars=2000,
                placeholder=_("blank: the model's own output"),
                help=_("Teacher-force the decoder on this output instead of the model's own answer."),
            )
    trace = cached_run(loaded, text, target)
    if trace is None:
        return
    output_lines(trace)
    knockout = knockout_section(loaded, text, target, trace, bar)
    attention_section(trace, knockout, lambda: question_panel(loaded, text, target, trace))
    atlas_section(loaded, trace)
    if folding():  # a following student: the teacher's view only (its downloads cost every follower's rerun)
        return
    if knockout:
        trace_downloads(knockout.off, PAGE, heads_off=knockout.code, off_word=knockout.word)
    else:
        trace_downloads(trace, PAGE)


def render_encoder(loaded: LoadedEncoder, bar) -> None:
    """The page for an encoder-only model (MiniLM): the input beside a second sentence, the word pieces, encoder
    self-attention (72 heads), then what it outputs (the sentence embeddings, their similarity) and the head atlas."""
    with controls(bar, _("Input")):
        text_col, second_col = st.columns([1, 1])
        with text_col:
            text = source_text(loaded=loaded)
        with second_col:
            second = second_sentence()
    trace = cached_run(loaded, text)
    if trace is None:
        return
    source_tokens(trace)
    attention_section(trace, None, lambda: question_panel(loaded, text, "", trace))
    embedding_section(loaded, trace, second)
    atlas_section(loaded, trace)
    trace_downloads(trace, PAGE)


def render_decoder_only(loaded: LoadedGPT, bar) -> None:
    """The page for a decoder-only GPT: the prompt (or a random repeated sequence, by its button) and its characters,
    the next one it expects, where a repeat's induction stripe lies, its causal self-attention (every layer × head),
    heads to switch off and the head atlas."""
    with controls(bar, _("Input")):
        text = source_text(_("Prompt"), loaded=loaded)
        repeat_button(loaded)
    trace = cached_run(loaded, text)
    if trace is None:
        return
    source_tokens(trace)
    next_token_line(trace)
    repeat_line(trace)
    knockout = knockout_section(loaded, text, None, trace, bar)
    attention_section(trace, knockout, lambda: question_panel(loaded, text, "", trace))
    atlas_section(loaded, trace)
    if folding():
        return
    if knockout:
        trace_downloads(knockout.off, PAGE, heads_off=knockout.code, off_word=knockout.word)
    else:
        trace_downloads(trace, PAGE)


def next_token_line(trace: Trace) -> None:
    """What a GPT expects next, and where it writes: one line and a link to the Next token page (a folder's BPE model
    reads tokens of several characters: its lines say token)."""
    tokens = reads_tokens(selected_model())
    line = _("**Most likely next token:** {token}") if tokens else _("**Most likely next character:** {token}")
    st.markdown(line.format(token=token_chips([trace.prediction or ""])))
    st.caption(_(CAUSAL_TOKENS if tokens else CAUSAL_CHARACTERS))
    st.page_link(NEXT_TOKEN.script, label=_(NEXT_TOKEN.title), icon=NEXT_TOKEN.icon)


def output_lines(trace: Trace) -> None:
    """The source tokens, and what the decoder reads: the model's own output, or the typed target."""
    source_tokens(trace)
    if trace.prediction is not None:
        output = token_chips(trace.prediction.split()) or _("(empty)")
        st.markdown(_("**Model output:** {tokens}").format(tokens=output))
        st.caption(_("The decoder reads `<bos>` followed by this output: one row of its attention per position."))
    else:
        show_tokens(
            _("Decoder input:"),
            trace.tokens("tgt"),
            trace.unknown_target,
            _("Target words not in the vocabulary (read as <unk>): {words}"),
        )
        st.caption(_("The decoder input is your target (teacher forcing); clear it to see the model's own output."))


def run_line(loaded: AnyLoaded, text: str, trace: Trace) -> None:
    """Which model read what, and what it wrote (a slide's one line about its run); a GPT writes no output of its
    own, so its line ends with the character it finds most likely next (a space shown as ␣)."""
    words = {"model": md_plain(loaded.name), "input": md_plain(text), "output": md_plain(trace.prediction or "")}
    if trace.prediction is None or (isinstance(loaded, LoadedGPT) and not trace.prediction):  # no text written
        st.caption(_("Model **{model}** · input “{input}”").format(**words))
        return
    if isinstance(loaded, LoadedGPT):
        words["output"] = md_plain(visible([trace.prediction])[0])
        tokens = reads_tokens(loaded)  # a folder's BPE GPT
        line = _("Model **{model}** · input “{input}” · most likely next token “{output}”") if tokens else (
            _("Model **{model}** · input “{input}” · most likely next character “{output}”"))  # fmt: skip
        st.caption(line.format(**words))
        return
    st.caption(_("Model **{model}** · input “{input}” · output “{output}”").format(**words))


def slide_input(view, loaded: AnyLoaded) -> str:
    """A slide's input: its own, or the model's example when it has none."""
    text = view.common.input
    return text if isinstance(text, str) and text.strip() else loaded.task.example


def render_slide(view: AttentionView) -> None:
    """One head of one layer large, beside its layer's head view; layers, heads and rows past the model's are
    clamped to its last one (a lesson is written without knowing the model); a slide naming no layer or head shows
    the sharpest one, as the page does."""
    loaded = get_model(view.common.model)
    text = slide_input(view, loaded)
    trace = cached_run(loaded, text, view.target)
    if trace is None:
        return
    run_line(loaded, text, trace)
    if view.atlas:  # the head atlas's slide
        atlas_slide(loaded, trace, view.atlas_over)
        return
    kinds = trace_kinds(trace)
    kind = view.kind if view.kind in kinds else kinds[0]  # MiniLM: its encoder's; a GPT: its decoder's
    weights = attention_layers(trace, kind)  # (L, H, Lq, Lk)
    queries, keys = (visible(tokens) for tokens in attention_tokens(trace, kind))
    token = view.token if view.token is not None and view.token < len(queries) else None
    layer = within(view.layer, weights.shape[0]) if view.layer is not None else sharpest_head(weights)[0]
    head = within(view.head, weights.shape[1]) if view.head is not None else sharpest_head(weights, layer)[1]
    focused_charts(weights, kind, layer, head, token, queries, keys, cell_text=False if presenting() else None)
