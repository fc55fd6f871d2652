"""Models from folders this server offers every session, beside the shipped ones: `attention-lab --model-dir PATH`
(a GPT-2 or BERT folder, or one of this lab's checkpoints; benchmarks offer big untrained ones), which the command
writes into $ATTENTION_LAB_EXTRA_MODELS for every server it starts (attention_lab/model_dirs.py).

Each is listed under its name (model.io.model_dir.model_name), loaded once per server on first use (serve.py's warm-up
loads them before the first visitor) and shared read-only like a shipped model. Unset (the normal case), none.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from attention_lab.model_dirs import EXTRA_MODELS_ENV, env_folders
from model import AnyLoaded
from model.io.model_dir import model_arch, model_name, open_model_dir

from .loading import load_once

__all__ = ["EXTRA_MODELS_ENV", "extra_model", "extra_model_arch", "extra_model_names"]


def _folders() -> dict[str, Path]:
    """name → folder of each folder in $ATTENTION_LAB_EXTRA_MODELS (the first of a name wins; the command refuses
    two)."""
    found: dict[str, Path] = {}
    for folder in env_folders():
        found.setdefault(model_name(folder), folder)
    return found


@st.cache_resource(show_spinner=False)
def _load(folder: str) -> AnyLoaded:
    return open_model_dir(Path(folder))


def extra_model_names() -> list[str]:
    return list(_folders())


def extra_model(name: str) -> AnyLoaded | None:
    """The folder model `name` (loaded on first use), or None when this server offers none by that name; a folder
    that cannot be opened (removed since the start, say) raises CheckpointError with the reason."""
    folder = _folders().get(name)
    return None if folder is None else load_once(_load, str(folder))


def extra_model_arch(name: str) -> str | None:
    """The family ("gpt", "bert", …) of the folder model `name`, read from its config without loading it."""
    folder = _folders().get(name)
    return None if folder is None else model_arch(folder)
