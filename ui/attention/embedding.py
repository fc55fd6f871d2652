"""What MiniLM outputs, on the Attention page: the sentence embedding of the input (the mean of its last layer's
vectors, L2-normalised: model.bert.pooling) and its cosine similarity with a second sentence typed beside it, the use
its model card gives. Every number is computed by model.bert; this draws them."""

from __future__ import annotations

import numpy as np
import streamlit as st

from model import InputError, LoadedEncoder, Trace, cosine_similarity, sentence_embedding
from views.common import MAX_INPUT_CHARS
from viz.matrix import SIGNED_SCALE, matrix_figure

from ..charts import chart_name, show_chart
from ..i18n import _, explain
from .view import PAGE

SECOND_KEY = "second_sentence"  # views.AttentionView.second
CACHE_KEY = "_second_embedding"  # (model name, text) → its embedding, this session's last one


def second_sentence() -> str:
    """The box for the sentence compared with the input (beside it)."""
    return st.text_input(
        _("Second sentence"), key=SECOND_KEY, max_chars=MAX_INPUT_CHARS,
        help=_("MiniLM turns each sentence into one vector; the cosine of the two vectors says how alike they are."),
    )  # fmt: skip


def _embedding(loaded: LoadedEncoder, text: str) -> np.ndarray:
    """loaded.embed(text), remembered for the last text in this session (the box is re-read on every rerun)."""
    key = (loaded.name, text)
    cached = st.session_state.get(CACHE_KEY)
    if cached is not None and cached[0] == key:
        return cached[1]
    vector = loaded.embed(text)
    st.session_state[CACHE_KEY] = (key, vector)
    return vector


def embedding_section(loaded: LoadedEncoder, trace: Trace, second: str) -> None:
    """The input's sentence embedding beside the second sentence's, and their cosine similarity."""
    st.markdown("#### " + _("MiniLM's output: one vector per sentence"))
    st.caption(
        _(
            "MiniLM is a sentence encoder, not a translator: its output is the mean of its last layer's vectors over "
            "the tokens, divided by its length, {d} numbers per sentence. Sentences that mean alike point alike."
        ).format(d=loaded.config.d_model)
    )
    first = sentence_embedding(trace)[0]  # (d,) from the run drawn on this page
    if not second.strip():
        st.info(_("Type a second sentence beside the input to compare the two."))
        return
    try:
        other = _embedding(loaded, second)
    except InputError as exc:
        st.warning(explain(exc))
        return
    similarity = cosine_similarity(first, other)
    st.metric(_("Cosine similarity of the two sentences"), f"{similarity:.3f}",
              help=_("1: the same direction; 0: unrelated; −1: opposite."))  # fmt: skip
    for label, vector in ((_("Input"), first), (_("Second sentence"), other)):
        head = ", ".join(f"{x:+.3f}" for x in vector[:SHOWN])
        st.markdown(_("**{label}** → ({numbers}, … {n} numbers)").format(label=label, numbers=head, n=vector.shape[0]))
    box = st.expander(_("Both embeddings in full"), key="embedding_strip", on_change="rerun")
    if box.open:  # lazy: one more chart only when asked for
        with box:
            embedding_strip(first, other)


SHOWN = 6  # numbers of each embedding written out on the page


def embedding_strip(first: np.ndarray, other: np.ndarray) -> None:
    """The two embeddings as two rows of a heatmap, one column per dimension."""
    dims = [str(i + 1) for i in range(first.shape[0])]
    fig = matrix_figure(
        np.stack([first, other]), title=_("The two sentence embeddings ({d} numbers each)").format(d=first.shape[0]),
        x_title=_("dimension"), y_title="", x_labels=dims, y_labels=[_("Input"), _("Second sentence")],
        colorscale=SIGNED_SCALE, zmin=None, zmax=None, zmid=0.0, cell_text=False, height=230, role="sentence-embedding",
    )  # fmt: skip
    show_chart(fig, "sentence_embedding", name=chart_name(PAGE, "embedding"))
