"""Train page: what a student waiting for a training worker reads — their place in line and the estimated wait."""

from __future__ import annotations

import streamlit as st

from ..i18n import N_, _

# The English ordinal of a place in line, by suffix; each language writes its own ("第 2 位").
ORDINALS = {"st": N_("{n}st"), "nd": N_("{n}nd"), "rd": N_("{n}rd"), "th": N_("{n}th")}


def ordinal(n: int) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th", 23 → "23rd" (in English; translated as a whole)."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return _(ORDINALS[suffix]).format(n=n)


def about(seconds: float) -> str:
    """A rough duration: whole seconds under 10 s, 5 s steps under 90 s, then minutes (so the number does not
    flicker as the estimate moves by a little every second)."""
    if seconds < 10:
        return _("{n} s").format(n=max(1, round(seconds)))
    if seconds < 90:
        return _("{n} s").format(n=5 * round(seconds / 5))
    return _("{n} min").format(n=round(seconds / 60))


def waiting_text(position: int | None, wait_seconds: float | None) -> str:
    """ "You are 2nd in line — about 40 s." (position 1 = next), or that a worker is taking the run."""
    if position is None or wait_seconds is None:
        return _("A training worker is taking your run…")
    return _("You are {place} in line — about {wait}.").format(place=ordinal(position), wait=about(wait_seconds))


def waiting_panel(view) -> None:
    """Shown instead of the progress while the job waits for a worker (redrawn by the progress fragment)."""
    st.info(waiting_text(view.position, view.wait_seconds), icon="⏳")
    st.caption(
        _(
            "Training runs on a few worker processes shared by everyone on this server; your run starts as soon "
            "as one is free. **■ Stop** takes it out of the line."
        )
    )
