"""Which models a session can use: the shipped ones (shared, cached) and the session's own."""

from __future__ import annotations

import os

import streamlit as st

from model import AnyLoaded, LoadedModel, available_pretrained, load_pretrained
from model.errors import LabError

from .extra_models import EXTRA_MODELS_ENV, extra_models
from .i18n import N_
from .loading import load_once
from .room_models import room_model, room_model_names

DEFAULT_MODEL = "translate"
USER_MODELS_KEY = "user_models"  # st.session_state: name -> LoadedModel trained or uploaded here
# What the config values are called on screen (English msgids; translate with _ where shown).
POSITIONAL_NAMES = {"sinusoidal": N_("sinusoidal"), "learned": N_("learned"), "none": N_("none")}
NORM_NAMES = {"post": N_("post-LN"), "pre": N_("pre-LN")}
CELL_NAMES = {"gru": N_("GRU"), "lstm": N_("LSTM"), "rnn": N_("plain RNN (tanh)")}
SCORE_NAMES = {
    "additive": N_("additive (Bahdanau)"), "dot": N_("dot (Luong)"), "general": N_("general (Luong)"),
    "none": N_("none (no attention)"),
}  # fmt: skip


@st.cache_resource(show_spinner=False)
def _load_shipped(name: str) -> AnyLoaded:
    return load_pretrained(name)


def shipped_names() -> tuple[str, ...]:
    """The pretrained models this server offers: the shipped checkpoints, then MiniLM when its package is installed."""
    return available_pretrained()


def shared_model(name: str) -> AnyLoaded:
    """A pretrained model (shipped, or MiniLM from its package), loaded once per server and shared read-only by every
    session."""
    return load_once(_load_shipped, name)


def user_models() -> dict[str, LoadedModel]:
    """This session's own models (never visible to other sessions)."""
    mine = st.session_state.setdefault(USER_MODELS_KEY, {})
    if os.environ.get(EXTRA_MODELS_ENV):  # benchmarks: checkpoints named in the environment
        for name, loaded in extra_models().items():
            mine.setdefault(name, loaded)
    return mine


MAX_USER_MODELS = 12  # each model lives in this session's memory: a bound on uploads and training runs
SHIPPED_NAME = N_("'{name}' is the name of a shipped model; choose another name.")


def add_user_model(name: str, loaded: LoadedModel) -> None:
    """Add a model to this session's list; LabError (a ValueError; show it with explain) for a shipped name
    or a full list."""
    if name in shipped_names():
        raise LabError(SHIPPED_NAME, name=name)
    mine = user_models()
    if name not in mine and len(mine) >= MAX_USER_MODELS:
        raise LabError(
            N_(
                "This session already holds {limit} models of its own, the most it keeps; reload the page to start "
                "a fresh session (download the ones you want to keep first)."
            ),
            limit=MAX_USER_MODELS,
        )
    mine[name] = loaded


def model_names() -> list[str]:
    """Shipped names first, then this session's models, then those its class room shares with it."""
    shipped = shipped_names()
    names = list(shipped) + [n for n in user_models() if n not in shipped]
    return names + [n for n in room_model_names() if n not in names]


def get_model(name: str) -> AnyLoaded:
    mine = user_models()
    if name in mine:
        return mine[name]
    shared = room_model(name) if name not in shipped_names() else None
    return shared if shared is not None else shared_model(name)


def selected_model_name() -> str:
    name = st.session_state.get("model")
    return name if name in model_names() else DEFAULT_MODEL


def selected_model() -> AnyLoaded:
    """The model picked in the sidebar."""
    return get_model(selected_model_name())
