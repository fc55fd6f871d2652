"""The page's five parts, one at a time like slides (?rnn_part=1…5 in the link: a number in every language), and
a guard that keeps a number-valued widget inside its current options."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ..i18n import N_, _

ALIGN, DECODER, BOTTLENECK, CLAIMS, GRADIENTS = range(1, 6)
PARTS = {
    ALIGN: N_("Same input, two alignments"),
    DECODER: N_("Step through the decoder"),
    BOTTLENECK: N_("The bottleneck"),
    CLAIMS: N_("What the textbooks claim, measured"),
    GRADIENTS: N_("Gradients through time"),
}
PART_KEY = "rnn_part"


def part_picker() -> int:
    """The part shown, bound to ?rnn_part=."""
    part = st.radio(
        _("Part"), list(PARTS), format_func=str, captions=[_(name) for name in PARTS.values()], horizontal=True,
        key=PART_KEY, label_visibility="collapsed",
    )  # fmt: skip
    return int(part)


def keep_in(key: str, options: Sequence, default) -> None:
    """Before a keyed widget is drawn: if the session (or a link) holds a value its options no longer have (a
    shorter output, a model with fewer layers), fall back to `default` instead of Streamlit's error."""
    if key in st.session_state and st.session_state[key] not in options:
        st.session_state[key] = default
