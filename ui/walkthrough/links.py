"""Choices shown with translated labels: the labels of a widget's options, translated in the script run."""

from __future__ import annotations

from ..i18n import _


def translated_labels(labels: dict) -> dict:
    """{option: label in this session's language} for a widget's format_func (pass `.get` or `__getitem__`).
    Translated now, in the script run: Streamlit's test harness calls format_func again after the run, where the
    session's language is unknown."""
    return {option: _(msgid) for option, msgid in labels.items()}
