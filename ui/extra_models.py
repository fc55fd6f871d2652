"""Checkpoints named in the environment, for benchmarks and local experiments (e.g. a large untrained model).

ATTENTION_LAB_EXTRA_MODELS holds checkpoint folders joined by os.pathsep; each appears in the model picker
under its folder name. Unset (the normal case), nothing is added.
"""

from __future__ import annotations

import os
from pathlib import Path

import streamlit as st

from model import LoadedModel, load_checkpoint
from model.gpt import LoadedGPT

from .loading import load_once

EXTRA_MODELS_ENV = "ATTENTION_LAB_EXTRA_MODELS"


@st.cache_resource(show_spinner=False)
def _load(folder: str) -> LoadedModel | LoadedGPT:
    return load_checkpoint(folder)


def extra_models() -> dict[str, LoadedModel | LoadedGPT]:
    """name → model for every folder in $ATTENTION_LAB_EXTRA_MODELS (shared read-only, like the shipped ones)."""
    folders = [f for f in os.environ.get(EXTRA_MODELS_ENV, "").split(os.pathsep) if f]
    return {Path(f).name: load_once(_load, f) for f in folders}
