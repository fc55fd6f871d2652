"""Learned positions (MiniLM's, a GPT's) beside the sinusoidal table: each table's position × position cosine
similarity, and how similarity falls with distance in both, to answer whether learned positions resemble sinusoids.
Every number is computed by model.analysis.positions; this draws them."""

from __future__ import annotations

import streamlit as st

from model import LoadedEncoder, sinusoidal_table
from model.analysis.positions import cosine_matrix, learned_positions, matrix_correlation, similarity_by_distance
from model.gpt import LoadedGPT
from views import PositionalView
from viz.curves import Series, line_figure
from viz.matrix import SIGNED_SCALE, matrix_figure

from ..charts import chart_name, show_chart
from ..i18n import _
from ..widths import chart_share

PAGE = PositionalView.PAGE
POSITIONS = 128  # the first 128 positions: MiniLM's sentences are rarely longer (a GPT: its context, if shorter)
MAX_DISTANCE = 64  # the curve's x axis: distances 0 … 63


def learned_section(loaded: LoadedEncoder | LoadedGPT) -> None:
    """Two similarity matrices side by side, the similarity-by-distance curves, and the one-number answer."""
    st.header(_("Learned positions beside sinusoids"))
    d = loaded.config.d_model
    n = min(POSITIONS, loaded.config.max_len)
    learned = cosine_matrix(learned_positions(loaded.model, n))  # (P, P)
    sinusoid = cosine_matrix(sinusoidal_table(n, d).numpy())  # (P, P)
    if isinstance(loaded, LoadedGPT):
        st.caption(_("A GPT does not compute its positions either: it learned one row of {d} numbers for each of "
                     "the {context} places of its context while it was trained. Below, the cosine similarity of "
                     "every pair of the first {n} positions, for its learned rows and for the sinusoidal table of "
                     "the same width.").format(d=d, context=loaded.config.max_len, n=n))  # fmt: skip
    else:
        st.caption(
            _(
                "MiniLM does not compute its positions: it learned one row of {d} numbers per position while it was "
                "trained. Below, the cosine similarity of every pair of the first {n} positions, for its learned "
                "rows and for the sinusoidal table of the same width."
            ).format(d=d, n=n)
        )
    labels = [str(p) for p in range(n)]
    who = "MiniLM" if isinstance(loaded, LoadedEncoder) else loaded.name
    learned_title = _("{name}'s learned positions: cos(P[i], P[j])").format(name=who)
    columns = st.columns(2)
    for column, name, matrix, title in (
        (columns[0], "learned", learned, learned_title),
        (columns[1], "sinusoidal", sinusoid, _("Sinusoidal, d_model {d}: cos(PE[i], PE[j])").format(d=d)),
    ):
        with column, chart_share(0.5):
            fig = matrix_figure(
                matrix, title=title, x_title=_("Position j"), y_title=_("Position i"), x_labels=labels,
                y_labels=labels, colorscale=SIGNED_SCALE, zmin=-1.0, zmax=1.0, zmid=0.0, cell_text=False, height=420,
                role=f"position-cosine-{name}",
            )  # fmt: skip
            show_chart(fig, f"position_cosine_{name}", name=chart_name(PAGE, name, "position-cosine"))
    distance = list(range(min(MAX_DISTANCE, n)))
    learned_k, sinusoid_k = (similarity_by_distance(m)[: len(distance)].tolist() for m in (learned, sinusoid))
    fig = line_figure(
        [Series(_("learned ({name})").format(name=who), distance, learned_k, "#d62728"),
         Series(_("sinusoidal"), distance, sinusoid_k, "#1f77b4", dash="dash")],
        title=_("How alike are two positions k apart? (mean cosine similarity)"), x_title=_("Distance k"),
        y_title=_("Mean cosine similarity"), height=380, role="position-distance",
    )  # fmt: skip
    show_chart(fig, "position_distance", name=chart_name(PAGE, "position-distance"))
    if isinstance(loaded, LoadedGPT):  # measured on this model: no claim written in advance
        st.markdown(
            _(
                "**Measured on this model:** the two similarity matrices correlate at {r:.2f} (1 would be the same "
                "pattern); two learned positions 1 apart have a mean cosine similarity of {near:.2f}, {far:.2f} at "
                "{k} apart (the sinusoids: {s_near:.2f} and {s_far:.2f})."
            ).format(
                r=matrix_correlation(learned, sinusoid), near=learned_k[1], far=learned_k[-1], k=distance[-1],
                s_near=sinusoid_k[1], s_far=sinusoid_k[-1],
            )
        )  # fmt: skip
        return
    st.markdown(
        _(
            "**The answer, measured:** in both tables near positions look alike and similarity falls with distance, "
            "but the learned one is no sinusoid: the two similarity matrices correlate at {r:.2f} (1 would be the same "
            "pattern), and the learned rows lack the sinusoids' regular ripples."
        ).format(r=matrix_correlation(learned, sinusoid))
    )
