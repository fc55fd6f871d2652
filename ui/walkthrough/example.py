"""The worked example: four tokens, X and the weights in editable tables, a mask, a random button.

Each table is text, checked cell by cell (ui.walkthrough.parse); a bad cell is named in a message and
the last valid numbers stay in use. The math itself is model.teach.walkthrough.worked_example.

The mask kind and the custom grid are controls of the page's view like the source (see ui.walkthrough.state):
?mask=custom&custom=1000/1100/1110/1111 in the link, the grid's rows of 0/1 (1: the query may see that key).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from model.teach.walkthrough import (
    DEFAULT_TOKENS,
    MAX_ABS_INPUT,
    build_mask,
    default_example,
    random_example,
    worked_example,
)
from views.validate import grid_cells, grid_text
from views.walkthrough import MASK_LABELS

from ..i18n import _
from ..presenter import folding
from .links import translated_labels
from .parse import as_text_frame, parse_matrix, parse_tokens
from .state import EXAMPLE, MASK_KIND_KEY, Ablations, Walk

N_HEADS = 2
MATRICES = ("X", "W_Q", "W_K", "W_V", "W_O")
VALUES_KEY, VERSION_KEY, MASK_KEY = "wt_values", "wt_version", "wt_custom_mask"


def editor_key(name: str) -> str:
    """Session key of a matrix's data editor (changes when a new example replaces the tables)."""
    return f"wt_edit_{name}_{st.session_state.get(VERSION_KEY, 0)}"


def _reset(values: dict) -> None:
    st.session_state[VALUES_KEY] = {"tokens": list(DEFAULT_TOKENS), **values}
    st.session_state[VERSION_KEY] = st.session_state.get(VERSION_KEY, 0) + 1
    st.session_state.pop(MASK_KEY, None)


def _on_d_model() -> None:
    _reset(default_example(int(st.session_state["wt_d_model"])))


def _on_random() -> None:
    _reset(random_example(int(st.session_state.get("wt_d_model", 4)), int(st.session_state.get("wt_seed", 0))))


def default_values() -> dict:
    """The worked example as it first opens: four tokens, d_model 4."""
    return {"tokens": list(DEFAULT_TOKENS), **default_example(4)}


def _values() -> dict:
    if VALUES_KEY not in st.session_state:
        st.session_state[VALUES_KEY] = default_values()
    return st.session_state[VALUES_KEY]


def _dims(d: int) -> list[str]:
    return [str(i + 1) for i in range(d)]


def _table(name: str, base: pd.DataFrame, problems: list[str], **kwargs) -> pd.DataFrame | None:
    """The data editor of one table, or None with a message when the edits sent cannot be applied or change its
    rows or columns (the tables have fixed rows: only a hand-made request sends such edits). The tables then start
    again from the last valid values, which stay in use."""
    try:
        frame = st.data_editor(base, key=editor_key(name), **kwargs)
    except (KeyError, IndexError, TypeError, ValueError):  # Streamlit applies edits naming cells that do not exist
        frame = None
    if frame is not None and frame.shape == base.shape and list(frame.columns) == list(base.columns):
        return frame
    problems.append(_("{matrix}: its rows and columns are fixed; the edit was undone.").format(matrix=name))
    st.session_state[VERSION_KEY] = st.session_state.get(VERSION_KEY, 0) + 1  # fresh editors from the values
    if frame is None:  # nothing was drawn: draw the table afresh
        st.data_editor(base, key=editor_key(name), **kwargs)
    return None


def _edit_matrix(name: str, label: str, values: dict, problems: list[str]) -> None:
    """One weight matrix's editor; a valid table replaces values[name]."""
    d = values[name].shape[0]
    st.markdown(label)
    frame = _table(
        name,
        as_text_frame(values[name], _dims(d), _dims(d)),
        problems,
        width="stretch",
        column_config={"_index": st.column_config.Column(disabled=True)},
    )
    if frame is None:
        return
    parsed, bad = parse_matrix(frame, name)
    problems += bad
    if parsed is not None:
        values[name] = parsed


def _edit_x(values: dict, problems: list[str]) -> None:
    d = values["X"].shape[1]
    base = as_text_frame(values["X"], _dims(d), _dims(4))
    base.insert(0, "token", pd.array(values["tokens"], dtype="string"))
    st.markdown(_("**X** — one row per token (names editable)"))
    frame = _table(
        "X", base, problems, width="stretch", hide_index=True,
        column_config={"token": st.column_config.TextColumn(_("token"))},
    )  # fmt: skip
    if frame is None:
        return
    tokens, bad_tokens = parse_tokens(frame["token"])
    parsed, bad = parse_matrix(frame, "X", _dims(d))
    problems += bad_tokens + bad
    if tokens is not None:
        values["tokens"] = tokens
    if parsed is not None:
        values["X"] = parsed


def example_inputs() -> dict:
    """Editors for X, W_Q, W_K, W_V, W_O; returns the last valid values (tokens + matrices). A student following the
    teacher gets no editors (the class's room does not carry the numbers: a follower shows the example's own)."""
    values = _values()
    if folding():
        return values
    problems: list[str] = []
    with st.expander(_("✏️ Edit the numbers: X, W_Q, W_K, W_V, W_O"), expanded=False):
        size_col, seed_col, button_col = st.columns([2, 1, 1], vertical_alignment="bottom")
        size_col.radio(
            "d_model", [4, 6], horizontal=True, key="wt_d_model", on_change=_on_d_model,
            help=_("Width of each token vector; the two heads get d_model / 2 columns each."),
        )  # fmt: skip
        seed_col.number_input(_("Seed"), 0, 10**6, 0, key="wt_seed")
        button_col.button(_("🎲 New random example"), on_click=_on_random, width="stretch", key="wt_random")
        _edit_x(values, problems)
        d = values["X"].shape[1]
        st.caption(
            _(
                "Columns 1–{half} of W_Q, W_K and W_V feed head 1, columns {next}–{d} head 2. "
                "Type any number with |x| ≤ {limit}."
            ).format(half=d // 2, next=d // 2 + 1, d=d, limit=f"{MAX_ABS_INPUT:,.0f}")
        )
        cols = [*st.columns(2), *st.columns(2)]
        for col, name in zip(cols, ("W_Q", "W_K", "W_V", "W_O"), strict=True):
            with col:
                _edit_matrix(name, f"**{name}**", values, problems)
    if problems:
        shown = [f"- {p}" for p in problems[:8]]
        if len(problems) > 8:
            shown.append("- " + _("… and {n} more").format(n=len(problems) - 8))
        intro = _("Some cells are not usable numbers; the last valid values stay in use.")
        st.error(intro + "\n\n" + "\n".join(shown))
    return values


def mask_controls(tokens: list[str], mask_on: bool) -> np.ndarray | None:
    """Mask kind (and the custom grid): bool (L, L), True = may attend, or None for no mask."""
    kind = st.selectbox(
        _("Mask"), list(MASK_LABELS), format_func=translated_labels(MASK_LABELS).__getitem__, key=MASK_KIND_KEY,
        help=_("Causal: each token sees only itself and the tokens before it (no peeking ahead). "
               "Padding: the last token is treated as padding and hidden from every query. "
               "Custom: tick the cells you allow."),
    )  # fmt: skip
    L = len(tokens)
    grid = None
    if kind == "custom":
        grid = custom_grid(L)
        labels = [f"{i + 1} {t}" for i, t in enumerate(tokens)]
        with st.popover(_("Edit the custom mask"), width="stretch"):
            st.caption(
                _("Rows are queries, columns are keys; untick a cell to forbid that query from seeing that key.")
            )
            shown = grid_text(grid)  # a grid from a link or the class opens a fresh editor
            frame = st.data_editor(
                pd.DataFrame(grid, index=labels, columns=labels),
                key=f"wt_mask_{st.session_state.get(VERSION_KEY, 0)}_{shown}",
            )
        grid = frame.to_numpy(dtype=bool)
        st.session_state[MASK_KEY] = grid_text(grid)  # the view's custom_mask: in the link and the class's room
    if not mask_on:
        return None
    return build_mask(kind, L, L, n_padding=1, custom=grid)


def custom_grid(n: int) -> np.ndarray:
    """The view's custom grid for `n` tokens; causal when it has none, or one for another number of tokens."""
    stored = st.session_state.get(MASK_KEY)
    grid = np.array(grid_cells(stored), dtype=bool) if isinstance(stored, str) else None
    return grid if grid is not None and grid.shape == (n, n) else build_mask("causal", n, n)


def example_walk(ablations: Ablations, head: int, mask: np.ndarray | None, values: dict) -> Walk:
    """Run the worked example through model.teach.walkthrough (which calls model.attention)."""
    full = worked_example(
        values["X"], values["W_Q"], values["W_K"], values["W_V"], values["W_O"], N_HEADS,
        mask=mask, temperature=ablations.temperature, scale=ablations.scale,
    )  # fmt: skip
    full["mask"] = np.ones(full["scores"].shape[1:], dtype=bool) if mask is None else mask
    tokens = values["tokens"]
    return Walk(full, head, tokens, tokens, EXAMPLE, ablations.temperature, ablations.scale, has_bias=False)
