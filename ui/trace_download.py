"""Download every intermediate of the current input: NPZ (name → array, plus tokens) or a ZIP of CSVs with a README.

The bytes are built only when a button is clicked (st.download_button with a callable `data`), so a rerun ships
nothing to the browser. That callable runs outside the page's run, where the session's language is unknown, so the
README's words are translated now and handed to it.
"""

from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

from model import Trace
from model.io.export import README_MESSAGES, file_stem, to_csv_zip, to_npz
from views import VIEWS, to_params

from .i18n import _
from .models import selected_model_name
from .state import current


def trace_downloads(
    trace: Trace, page: str, *, model: str | None = None, heads_off: str = "", off_word: str = ""
) -> None:
    """NPZ and CSV-ZIP buttons for `trace`, named after the page, the model (the sidebar's unless given) and the
    heads switched off (`heads_off`: their link code, "e1.3,c2.1", written in the README; `off_word`: the file
    name's word for them, model.analysis.knockout.file_word)."""
    model = selected_model_name() if model is None else model
    stem = file_stem("trace", page, model, off_word)
    words = {msgid: _(msgid) for msgid in README_MESSAGES}
    about = _("Model: {model}").format(model=model)
    cls = VIEWS.get(page)
    if cls is not None:  # the view that drew this trace, as its link's parameters: reopen it with /page?…
        about += "  \n" + _("View: {link}").format(link=f"/{page}?{urlencode(to_params(current(cls)))}")
    if heads_off:
        about += "  \n" + _("Heads switched off: {heads} (the decoder reads the output with every head on).").format(
            heads=heads_off
        )
    row = st.container(horizontal=True, vertical_alignment="center")
    row.download_button(
        _("⬇️ Every number (NPZ)"), lambda: to_npz(trace), file_name=f"{stem}.npz", mime="application/octet-stream",
        key=f"trace_npz_{page}", on_click="ignore",
        help=_("Every intermediate by its name, plus tokens.src and tokens.tgt: numpy.load reads it."),
    )  # fmt: skip
    row.download_button(
        _("⬇️ Every number (CSV, zipped)"), lambda: to_csv_zip(trace, words, about), file_name=f"{stem}.zip",
        mime="application/zip", key=f"trace_zip_{page}", on_click="ignore",
        help=_("One CSV per matrix, rows and columns labelled with tokens, and a README of the names and shapes."),
    )  # fmt: skip
    row.caption(
        _(
            "Every number the model computed on this input: {n} arrays, from the embeddings to the output scores."
        ).format(n=len(trace))
    )
