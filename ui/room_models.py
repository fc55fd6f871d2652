"""Models a teacher shared with a class room: listed in that room's students' model picker, and nobody else's.

Each is loaded from its safetensors bytes once per server and room (st.cache_resource), shared read-only by
the room's students like a shipped model (so their traces are computed once for all of them).
"""

from __future__ import annotations

import streamlit as st

from model import CheckpointError, LoadedModel, load_checkpoint_bytes
from model.gpt import LoadedGPT
from services.rooms import RoomError

from .class_role import current_role, room_store
from .shared_models import mark_shared


@st.cache_resource(max_entries=32, show_spinner=False)
def _load(code: str, name: str, size: int) -> LoadedModel | LoadedGPT:
    """The room's model `name` (size: its byte count, so a model shared again under that name at another size
    is loaded afresh)."""
    shared = room_store().get_room_model(code, name)
    return mark_shared(load_checkpoint_bytes(shared.config_json, shared.weights, name=name))


def _listing() -> dict[str, int]:
    """name → size of the models this session's room shares (students only; a teacher has them as their own)."""
    role = current_role()
    if role is None or role.is_teacher:
        return {}
    try:
        return {info.name: info.size for info in room_store().room_models(role.code)}
    except RoomError:
        return {}


def room_model_names() -> list[str]:
    return list(_listing())


def room_model(name: str) -> LoadedModel | LoadedGPT | None:
    """The room's model `name`, or None if this session's room shares none by that name. A model that cannot
    be loaded raises CheckpointError with the reason."""
    listing = _listing()
    if name not in listing:
        return None
    role = current_role()
    assert role is not None  # _listing() names models only for a session in a room
    try:
        return _load(role.code, name, listing[name])
    except RoomError as exc:
        raise CheckpointError(exc.template, **exc.params) from None
