"""The sampling controls (temperature, top-k, top-p, seed) and the settings they give, each checked by
model.sampling: a value it refuses is said in one translated sentence and left out of this run (its default used)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from model.errors import InputError
from model.sampling import SamplingSettings
from views import NextTokenView, key_of
from views.base import spec_of
from views.controls import Number, Whole

from ..i18n import _, explain
from ..state import fit

PAGE = NextTokenView.PAGE
TEMPERATURE, TOP_K, TOP_P, SEED = (key_of(NextTokenView, name) for name in
                                   ("nt_temperature", "nt_top_k", "nt_top_p", "nt_seed"))  # fmt: skip


def sampling_controls(vocab_size: int) -> None:
    """The four widgets, in a row (they stack on a phone); top-k's high is this model's vocabulary (fit_top_k)."""
    temperature = spec_of(NextTokenView, "nt_temperature", Number)
    seed = spec_of(NextTokenView, "nt_seed", Whole)
    columns = st.columns(4)
    columns[0].slider(
        _("Temperature"), temperature.low, temperature.high, step=0.05, key=TEMPERATURE,
        help=_("The logits are divided by T before the softmax: below 1 the likely tokens get likelier, above 1 the "
               "distribution flattens. 0 always picks the most likely token (greedy)."),
    )  # fmt: skip
    columns[1].number_input(
        _("Top-k"), min_value=1, max_value=vocab_size, value=None, step=1, key=TOP_K, placeholder=_("no cut"),
        help=_("Keep only the k most likely tokens (empty: no cut)."),
    )  # fmt: skip
    columns[2].slider(
        _("Top-p"), 0.0, 1.0, step=0.01, key=TOP_P,
        help=_("Keep the smallest set of most likely tokens whose probability reaches p (1: no cut); what the cut "
               "keeps is renormalised to sum to 1."),
    )  # fmt: skip
    columns[3].number_input(
        _("Seed"), min_value=seed.low, max_value=seed.high, step=1, key=SEED,
        help=_("Sample draws the n-th written token with seed + n, so the same link writes the same text."),
    )  # fmt: skip


def fit_top_k(vocab_size: int) -> None:
    """A link's top-k past this model's vocabulary back to none, said on the page (before the controls' fold, so the
    message is not inside a presenter's popover)."""
    fit(PAGE, {"nt_top_k": vocab_size})


def _checked(make: Callable[[], SamplingSettings], fallback: SamplingSettings) -> SamplingSettings:
    """make(), or after its InputError said on the page, the fallback."""
    try:
        return make()
    except InputError as exc:
        st.warning(explain(exc), icon="⚠️")
        return fallback


def sampling_settings(vocab_size: int) -> SamplingSettings:
    """The settings the controls hold, each checked by model.sampling on its own (so one refusal keeps the others)."""
    session = st.session_state
    return checked_settings(vocab_size, session.get(TEMPERATURE, 1.0), session.get(TOP_K), session.get(TOP_P, 1.0))


def view_settings(view: NextTokenView, vocab_size: int) -> SamplingSettings:
    """The settings a view holds (a lesson slide's, which has no controls), checked the same way."""
    return checked_settings(vocab_size, view.temperature, view.top_k, view.top_p)


def checked_settings(vocab_size: int, temperature: float, top_k: int | None, top_p: float) -> SamplingSettings:
    """Temperature, top-k and top-p (1: no cut) as SamplingSettings; a refused one said and left at its default."""
    t = _checked(lambda: SamplingSettings(temperature=temperature), SamplingSettings()).temperature
    k = _checked(lambda: _within(SamplingSettings(top_k=top_k), vocab_size), SamplingSettings()).top_k
    p = _checked(lambda: SamplingSettings(top_p=top_p), SamplingSettings()).top_p
    settings = SamplingSettings(t, k, None if p is None or p >= 1 else p)
    if settings.greedy:
        st.info(_("Temperature 0: the most likely token is always chosen (greedy), so Sample writes what Most likely "
                  "writes."), icon="🎯")  # fmt: skip
    return settings


def _within(settings: SamplingSettings, vocab_size: int) -> SamplingSettings:
    settings.check_vocabulary(vocab_size)
    return settings


def seed() -> int:
    """The seed of the first written token."""
    return int(st.session_state.get(SEED, 0))
