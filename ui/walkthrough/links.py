"""Choices shown with translated labels: the labels of a widget's options, translated in the script run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from ..i18n import _

T = TypeVar("T")


def translated_labels(labels: Mapping[T, str]) -> dict[T, str]:
    """{option: label in this session's language} for a widget's format_func (pass its `__getitem__`: every option
    has a label). Translated now, in the script run: Streamlit's test harness calls format_func again after the run,
    where the session's language is unknown."""
    return {option: _(msgid) for option, msgid in labels.items()}
