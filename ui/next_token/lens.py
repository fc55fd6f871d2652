"""The logit lens: each layer's guess at the next token (model.analysis.logit_lens), where the answer forms."""

from __future__ import annotations

from model import Trace
from model.gpt import LoadedGPT


def lens_section(loaded: LoadedGPT, trace: Trace) -> None:
    """Filled in when model/analysis/logit_lens.py lands."""
