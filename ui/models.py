"""Which models a session can use: the server's (the shipped ones and the folders it was started with: shared,
cached), the session's own, and those its class room shares with it."""

from __future__ import annotations

from typing import cast

import streamlit as st

from model import AnyLoaded, LoadedModel, available_pretrained, load_pretrained
from model.bert import EncoderTask
from model.errors import LabError
from model.gpt import GPTTask
from model.tasks import Task

from .extra_models import extra_model, extra_model_names
from .i18n import N_, _
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


def task_title(task: Task | GPTTask | EncoderTask) -> str:
    """What the pages call a task (a toy task, a GPT's corpus, an encoder's use), translated; a folder's GPT, whose
    title is empty: its name."""
    return _(task.title) if task.title else task.name


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


def server_names() -> tuple[str, ...]:
    """The models every session of this server has: the shipped ones, then the folders it was started with
    (attention-lab --model-dir)."""
    shipped = shipped_names()
    return shipped + tuple(n for n in extra_model_names() if n not in shipped)


def server_model(name: str) -> AnyLoaded:
    """One of server_names()'s models, loaded once per server and shared read-only by every session."""
    folder_model = extra_model(name) if name not in shipped_names() else None
    return folder_model if folder_model is not None else shared_model(name)


def is_server_model(loaded: AnyLoaded) -> bool:
    """Whether `loaded` is the server's shared copy of one of its models (every session may reuse what it computes)."""
    return loaded.name in server_names() and server_model(loaded.name).model is loaded.model


def user_models() -> dict[str, LoadedModel]:
    """This session's own models (never visible to other sessions)."""
    return st.session_state.setdefault(USER_MODELS_KEY, {})


MAX_USER_MODELS = 12  # each model lives in this session's memory: a bound on uploads and training runs
SHIPPED_NAME = N_("'{name}' is the name of a shipped model; choose another name.")


def add_user_model(name: str, loaded: AnyLoaded) -> None:
    """Add a model to this session's list; LabError (a ValueError; show it with explain) for the name of one of the
    server's models or a full list."""
    if name in server_names():
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
    mine[name] = cast(LoadedModel, loaded)  # any family: trained GPTs, opened folders (the dict's type predates them)


def model_names() -> list[str]:
    """The server's models first (shipped, then its folders), then this session's, then those its class room shares
    with it."""
    server = server_names()
    names = list(server) + [n for n in user_models() if n not in server]
    return names + [n for n in room_model_names() if n not in names]


def get_model(name: str) -> AnyLoaded:
    mine = user_models()
    if name in mine:
        return mine[name]
    shared = room_model(name) if name not in server_names() else None
    return shared if shared is not None else server_model(name)


def selected_model_name() -> str:
    name = st.session_state.get("model")
    return name if name in model_names() else DEFAULT_MODEL


def selected_model() -> AnyLoaded:
    """The model picked in the sidebar."""
    return get_model(selected_model_name())
