"""Upload a model zip (model.safetensors + config.json) into this session's model list: a toy task's model or a GPT
(one whose config does not match its tensors is refused with a message)."""

from __future__ import annotations

import re

import streamlit as st

from model import CheckpointError
from model.io.archive import MAX_ARCHIVE_BYTES, load_any_archive

from ..i18n import _, explain
from ..models import add_user_model, task_title
from .panels import unique_name

_DONE_KEY = "upload_done"  # file id of the upload already loaded → message, so a rerun does not load it twice


def _name_from_file(filename: str) -> str:
    stem = filename.rsplit(".", 1)[0]
    cleaned = re.sub(r"[^A-Za-z0-9 _.\-]", "-", stem).strip(" -_.")[:32]
    return unique_name(cleaned or "uploaded")


def upload_panel() -> None:
    """File picker; a valid archive joins the sidebar's list, anything else gets a clear error."""
    file = st.file_uploader(
        _("Upload a model (.zip with model.safetensors + config.json)"),
        type=["zip"],
        max_upload_size=MAX_ARCHIVE_BYTES // 2**20,
        key="upload_zip",
        help=_("Safetensors only: pickles are never loaded. The zip the Download button gives you works here."),
    )
    if file is None:
        return
    done = st.session_state.setdefault(_DONE_KEY, {})
    if file.file_id in done:
        kind, message = done[file.file_id]
        getattr(st, kind)(message)
        return
    name = _name_from_file(file.name)
    try:
        loaded = load_any_archive(file.getvalue(), name=name)
    except CheckpointError as exc:
        done[file.file_id] = ("error", _("This file cannot be used: {reason}").format(reason=explain(exc)))
        st.error(done[file.file_id][1])
        return
    try:
        add_user_model(name, loaded)
    except ValueError as exc:
        done[file.file_id] = ("error", explain(exc))
        st.error(done[file.file_id][1])
        return
    done[file.file_id] = (
        "success",
        _("Loaded **{name}** ({task}); pick it in the sidebar's model list.").format(
            name=name, task=task_title(loaded.task)
        ),
    )
    st.rerun()  # so the sidebar lists it
