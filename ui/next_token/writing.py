"""Writing one token at a time: the tokens appended after the prompt (the view's `written`, vocabulary ids), the
buttons that append one (Most likely, Sample, a candidate) or take the last one back, and the text so far with the
appended tokens marked.

Every button changes the ids in its callback, before the run that draws the result, so the link written after that
run holds the new text. The n-th appended token is sampled with seed + n: a shared link reproduces the next Sample.
"""

from __future__ import annotations

import streamlit as st

from model.gpt import CharVocab, LoadedGPT
from views import NextTokenView, key_of
from views.next_token import MAX_WRITTEN, WrittenError, written_ids, written_text
from viz.next_token import token_label

from ..i18n import _, explain, ngettext
from ..tokens import md_escape

WRITTEN = key_of(NextTokenView, "nt_written")
MADE_WITH = "_nt_written_with"  # (model, written) when this session last drew them: a new model starts afresh


def current_ids(loaded: LoadedGPT) -> tuple[int, ...]:
    """The ids written after the prompt, checked against this model's vocabulary; ids another model wrote (the
    sidebar switched models since) are dropped, and ids a link gave that cannot be read are dropped with a message."""
    session = st.session_state
    text = session.get(WRITTEN, "")
    made_with = session.get(MADE_WITH)
    if made_with is not None and made_with[0] != loaded.name and made_with[1] == text:
        text = ""  # written by the model picked before, whose ids name other characters
    try:
        ids = written_ids(text, len(loaded.vocab))
    except WrittenError as exc:
        st.warning(_("This link's written tokens cannot be shown: {reason} The page opens with the prompt alone.")
                   .format(reason=explain(exc)), icon="⚠️")  # fmt: skip
        ids, text = (), ""
    session[WRITTEN] = text
    session[MADE_WITH] = (loaded.name, text)
    return ids


def _append(token: int, store: str = WRITTEN) -> None:
    ids = written_ids(st.session_state.get(store, ""))
    if len(ids) < MAX_WRITTEN:
        st.session_state[store] = written_text((*ids, token))


def _back(store: str = WRITTEN) -> None:
    st.session_state[store] = written_text(written_ids(st.session_state.get(store, ""))[:-1])


def clear_written() -> None:
    """The prompt changed: what was written after the old one goes."""
    st.session_state[WRITTEN] = ""


def write_buttons(ids: tuple[int, ...], most_likely: int, sampled: int, seed: int, *, prefix: str = "nt",
                  store: str = WRITTEN) -> None:  # fmt: skip
    """Most likely, Sample (with this token's seed) and Back, in a row; `store`: the session key of the ids they
    change (the page's view, or a lesson slide's own), `prefix`: their widget keys'."""
    full = len(ids) >= MAX_WRITTEN
    row = st.container(horizontal=True, gap="small", key=f"{prefix}_write")
    row.button(_("Most likely"), key=f"{prefix}_most_likely", icon=":material/trending_up:", on_click=_append,
               args=(most_likely, store), disabled=full, type="primary",
               help=_("Append the token with the highest probability (greedy)."))  # fmt: skip
    row.button(_("Sample"), key=f"{prefix}_sample", icon=":material/casino:", on_click=_append, args=(sampled, store),
               disabled=full, help=_("Append a token drawn from the renormalised distribution with seed {seed} (the "
                                     "ringed bar).").format(seed=seed))  # fmt: skip
    row.button(_("Back"), key=f"{prefix}_back", icon=":material/undo:", on_click=_back, args=(store,),
               disabled=not ids, help=_("Remove the last appended token."))  # fmt: skip
    if full:
        st.caption(_("{n} tokens are written, the most this page appends.").format(n=MAX_WRITTEN))


def written_section(
    loaded: LoadedGPT, read: str | list[int], cut: int, ids: tuple[int, ...], *, prefix: str = "nt"
) -> None:
    """The text so far (`read`: what the model reads, LoadedGPT.continued) in a box, the appended tokens marked, and
    how many were appended."""
    with st.container(border=True, key=f"{prefix}_written_text"):
        st.markdown(written_markdown(*shown_pieces(loaded, read, cut, len(ids))))
        if ids:
            st.caption(
                ngettext(
                    "{n} token written after the prompt (on blue).",
                    "{n} tokens written after the prompt (on blue).",
                    len(ids),
                ).format(n=len(ids))
            )
        else:
            st.caption(_("Nothing written yet: append a token with the buttons below."))


def candidate_buttons(candidates: list[tuple[int, str, float, bool, float]], disabled: bool) -> None:
    """A button per candidate (a chart's bars cannot be clicked: plotly clicks do not come back to the server)."""
    st.caption(_("Or append a candidate of your own choice (the cut ones too):"))
    row = st.container(horizontal=True, gap="small", key="nt_candidates")
    for rank, (token, text, prob, kept, _renormalised) in enumerate(candidates):
        row.button(f"{token_label(text)} · {100 * prob:.1f}%", key=f"nt_pick_{rank}", on_click=_append, args=(token,),
                   disabled=disabled, type="secondary" if kept else "tertiary")  # fmt: skip


STYLES = {"cut": ":gray[{}]", "prompt": "{}", "written": ":blue-background[{}]"}


def shown_pieces(loaded: LoadedGPT, read: str | list[int], cut: int, n_written: int) -> tuple[list[str], int, int]:
    """written_markdown's arguments for the text so far (`read`: LoadedGPT.continued's text or ids, uncut): one piece
    per character for a character-level GPT; for a folder's BPE (tokens of several characters, or of part of one) the
    text left out, the prompt and what was written, each decoded whole from the ids the model reads (never the text
    re-encoded, whose tokens may merge across the join), so the last `n_written` ids are exactly those marked."""
    ids = loaded.vocab.encode(read)[0] if isinstance(read, str) else list(read)
    if isinstance(loaded.vocab, CharVocab):
        return [loaded.vocab.itos[i] for i in ids], cut, n_written
    first_written = len(ids) - n_written
    left_out, prompt, written = (loaded.vocab.decode(part) for part in (ids[:cut], ids[cut:first_written],
                                                                        ids[first_written:]))  # fmt: skip
    pieces = [piece for piece in (left_out, prompt, written) if piece]
    return pieces, int(bool(left_out)), int(bool(written))


def _edges_kept(text: str) -> str:
    """A segment's first and last space as no-break spaces, so Markdown keeps them (a written space shows)."""
    if text[:1] == " ":
        text = "\u00a0" + text[1:]
    if text[-1:] == " ":
        text = text[:-1] + "\u00a0"
    return text


def written_markdown(chars: list[str], cut: int, n_written: int) -> str:
    """The text so far as Markdown, from the characters the model reads it as (□ for those it lacks): the first `cut`
    (left out of the context) grey, the last `n_written` (appended) on a blue background, line breaks kept and shown
    as ↵; the text itself escaped, never Markdown or HTML."""
    first_written = len(chars) - n_written
    kinds = ["cut" if i < cut else "written" if i >= first_written else "prompt" for i in range(len(chars))]
    groups: list[tuple[str, str]] = []
    for kind, ch in zip(kinds, chars, strict=True):
        if groups and groups[-1][0] == kind:
            groups[-1] = (kind, groups[-1][1] + ch)
        else:
            groups.append((kind, ch))
    parts = []
    for kind, text in groups:
        lines = text.split("\n")
        for j, line in enumerate(lines):
            shown = _edges_kept(line + ("↵" if j < len(lines) - 1 else ""))
            if shown:
                parts.append(STYLES[kind].format(md_escape(shown)))
            if j < len(lines) - 1:
                parts.append("  \n")
    return "".join(parts)
