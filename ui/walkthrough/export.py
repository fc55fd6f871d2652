"""Download the current example: every matrix as JSON, or any one matrix as CSV.

JSON has no −∞, so masked cells are written as the string "-Infinity" (and +∞ / NaN, which the
walkthrough never produces, as "Infinity" / "NaN"): Python's float() and JavaScript's Number() both
read these strings back, and a masked cell stays distinguishable from a missing one.

Keys, ids ("source": "example" or "model", "kind") and file names are the same in every language; the one
field a person reads, "conventions", is written in the session's language.
"""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pandas as pd
import streamlit as st

from views import PageView, StepByStepView, to_mapping

from ..i18n import N_, _
from ..state import current
from ..trace_download import trace_downloads
from .state import Walk

WALK_KEY = "wt_walk"  # session: the Walk the download buttons export (tests call to_json on it)
CONVENTIONS_KEY = "wt_conventions"  # session: the "conventions" text the JSON button writes
VIEW_KEY = "wt_export_view"  # session: the page's view the JSON button writes
CORE = ("X", "W_Q", "W_K", "W_V", "Q", "K", "V", "scores", "scaled", "masked", "weights", "Z")
MULTI_HEAD = ("W_O", "heads", "concat", "out")
MORE = ("M", "b_Q", "b_K", "b_V", "b_O", "R", "resid", "norm", "ln_gamma", "ln_beta", "mask")
INFINITY_NOTE = N_('Masked cells (−∞) are written as the string "-Infinity"; float("-Infinity") reads them back.')
CONVENTIONS = N_(
    "Row vectors: Q = X W_Q + b_Q, K = M W_K + b_K, V = M W_V + b_V (M = X for self-attention; biases are 0 in "
    "the worked example); Z = weights V; out = concat W_O + b_O."
)


def _jsonable(x):
    if isinstance(x, list):
        return [_jsonable(v) for v in x]
    if isinstance(x, bool):
        return x
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    return x


def export_arrays(walk: Walk) -> dict[str, np.ndarray]:
    """The matrices of the current view (one head for CORE; all heads for the multi-head ones)."""
    view = walk.view
    return {name: view[name] for name in (*CORE, *MULTI_HEAD, *MORE)}


def conventions_text() -> str:
    """The export's "conventions" field in this session's language (call it in the script run: the download's
    data callable runs outside it)."""
    return _(CONVENTIONS) + " " + _(INFINITY_NOTE)


def to_json(walk: Walk, conventions: str, view: PageView | None = None) -> str:
    """Strictly valid JSON (json.dumps with allow_nan=False) of every matrix plus what produced it;
    conventions is the text of the "conventions" field (conventions_text()); `view`, the page's view that drew it,
    goes in "view" with a lesson slide's ids (a slide's "state" can be pasted from it)."""
    arrays = export_arrays(walk)
    payload = {
        **({"view": {"page": view.PAGE, **to_mapping(view, "lesson")}} if view is not None else {}),
        "source": walk.source,
        "head": walk.head + 1,
        "n_heads": walk.n_heads,
        "d_k": walk.d_k,
        "temperature": walk.temperature,
        "scale": walk.scale,
        "query_tokens": walk.q_tokens,
        "key_tokens": walk.k_tokens,
        "conventions": conventions,
        **{k: v for k, v in walk.notes.items() if isinstance(v, (str, int, float, bool)) or v is None},
    }
    for name, a in arrays.items():
        payload[name] = _jsonable(np.asarray(a).tolist())
    return json.dumps(payload, allow_nan=False)


def _labels(walk: Walk, name: str, a: np.ndarray) -> tuple[list[str], list[str]]:
    rows = walk.k_tokens if name in ("K", "V", "M") else walk.q_tokens
    if name.startswith("W_") or a.ndim == 1:
        rows = [str(i + 1) for i in range(a.shape[0])]
    key_cols = name in ("scores", "scaled", "masked", "weights", "mask")
    cols = walk.k_tokens if key_cols else [str(j + 1) for j in range(a.shape[-1])]
    return rows, cols


def matrix_csv(walk: Walk, name: str) -> str:
    """One matrix as CSV with token / dimension labels; −∞ written as -inf."""
    a = export_arrays(walk)[name]
    if name == "heads":  # (H, L, dk) → the heads side by side, as in the concatenation
        a = np.concatenate(list(a), axis=1)
    a = np.atleast_2d(a) if a.ndim == 1 else a
    rows, cols = _labels(walk, name, a)
    if name == "heads":
        cols = [f"head{h + 1}_{j + 1}" for h in range(walk.n_heads) for j in range(walk.d_k)]
    buffer = io.StringIO()
    pd.DataFrame(a, index=rows if len(rows) == a.shape[0] else None, columns=cols).to_csv(buffer)
    return buffer.getvalue()


def export_section(walk: Walk) -> None:
    """JSON of everything, and a CSV of the matrix picked from a list. Both are generated on click
    (a callable `data`), so a rerun does not ship ~270 KB of model numbers to the browser."""
    conventions, view = conventions_text(), current(StepByStepView)
    st.session_state[WALK_KEY], st.session_state[CONVENTIONS_KEY], st.session_state[VIEW_KEY] = walk, conventions, view
    with st.container(border=True):
        json_col, pick_col, csv_col = st.columns([2, 2, 2], vertical_alignment="bottom")
        json_col.download_button(
            _("⬇️ This example as JSON"), lambda: to_json(walk, conventions, view),
            file_name="attention-walkthrough.json", mime="application/json", width="stretch", on_click="ignore",
            help=_(INFINITY_NOTE),
        )  # fmt: skip
        names = [n for n in (*CORE, *MULTI_HEAD, *MORE) if n != "mask"]
        name = pick_col.selectbox(_("Matrix"), names, key="wt_csv_name")
        csv_col.download_button(
            _("⬇️ {matrix} as CSV").format(matrix=name), lambda: matrix_csv(walk, name), file_name=f"{name}.csv",
            mime="text/csv", width="stretch", on_click="ignore",
        )  # fmt: skip
        if walk.trace is not None:  # the model source: the whole forward pass this block was read from
            trace_downloads(walk.trace, "step-by-step", model=walk.notes.get("model"))
