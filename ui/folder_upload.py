"""The sidebar's "Open your own model": a zip of a GPT-2 or BERT folder (a save_pretrained output, a Hugging Face
snapshot) uploaded from the browser, opened for this session only.

The zip is bounded (MAX_FOLDER_ZIP_BYTES, the server's upload limit too: .streamlit/config.toml), unpacked by
model.io.folder_zip's checks (no path out of the folder, no link, no bomb) into a temporary folder that is gone once
the model is loaded, and the folder is checked (model.inspect_folder, inside load_folder) before a weight is read.
Each opened model lives in this session's memory, so a session holds at most MAX_SESSION_FOLDERS of them.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import streamlit as st

from model import CheckpointError, load_folder
from model.io.folder_zip import MAX_ZIP_BYTES, extract_folder_zip
from views import Common, key_of

from .i18n import _, explain
from .models import add_user_model, server_names, user_models

MAX_FOLDER_ZIP_BYTES = MAX_ZIP_BYTES  # 600 MB: GPT-2 small's safetensors are ~500 MB, and barely shrink in a zip
MAX_SESSION_FOLDERS = 2  # a GPT-2 small takes ~0.5 GB of the server's memory per session that opens one
UPLOAD_KEY = "folder_zip"
_SAID_KEY = "_folder_zip_said"  # (kind, message) of the last upload, shown while it stays in the uploader
MODEL_KEY = key_of(Common, "model")  # the sidebar's picker (ui/sidebar.py)


def from_folder(loaded: object) -> bool:
    """Whether the model was opened from a folder (model.load_folder notes where in its meta). Such a model is never
    shared with a class room: GPT-2 small is ~0.5 GB, and our checkpoint format holds no BPE; a class on every server
    gets it from the same --model-dir instead."""
    return "folder" in getattr(loaded, "meta", {})


def opened_in_session() -> list[str]:
    """The names of the folder models this session opened from an upload."""
    return [name for name, loaded in user_models().items() if from_folder(loaded)]


def name_of_upload(filename: str) -> str:
    """A picker name from the file's name ("gpt2-small.zip" → "gpt2-small"), not one the session or server uses."""
    stem = filename.rsplit(".", 1)[0]
    base = re.sub(r"[^A-Za-z0-9 _.\-]", "-", stem).strip(" -_.")[:32] or "my-model"
    taken, name, k = set(user_models()) | set(server_names()), base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    return name


def folder_upload() -> None:
    """The expander with the uploader; a good folder joins the picker and is picked, anything else gets a clear
    message (what the last upload came to, until the next one)."""
    with st.expander(_("Open your own model"), key="folder_upload"):
        st.file_uploader(
            _("A zip of a GPT-2 or BERT folder"), type=["zip"], key=UPLOAD_KEY, on_change=_uploaded,
            max_upload_size=MAX_FOLDER_ZIP_BYTES // 2**20,
            help=_("Zip a folder holding config.json, model.safetensors and the tokenizer (tokenizer.json, or "
                   "vocab.json + merges.txt, or vocab.txt), as save_pretrained writes it; at most {mb} MB. "
                   "Safetensors only: pickles are never opened. The model is for this session only.").format(
                mb=MAX_FOLDER_ZIP_BYTES // 2**20),
        )  # fmt: skip
        said = st.session_state.get(_SAID_KEY)
        if said is not None and st.session_state.get(UPLOAD_KEY) is not None:
            kind, message = said
            getattr(st, kind)(message)


def _uploaded() -> None:
    """on_change of the uploader (before the script, so the picker may still be set): open what came."""
    file = st.session_state.get(UPLOAD_KEY)
    if file is None:
        st.session_state.pop(_SAID_KEY, None)
        return
    st.session_state[_SAID_KEY] = _open(file.name, file.getvalue())


def _open(filename: str, data: bytes) -> tuple[str, str]:
    """Open the uploaded zip into this session's models and pick it: ("success" | "error", the message to show)."""
    if len(opened_in_session()) >= MAX_SESSION_FOLDERS:
        return "error", _("This session already holds {n} models opened from folders, the most it keeps: reload the "
                          "page to start a fresh session.").format(n=MAX_SESSION_FOLDERS)  # fmt: skip
    name = name_of_upload(filename)
    try:
        with (
            tempfile.TemporaryDirectory(prefix="attention-lab-folder-") as tmp,
            st.spinner(_("Opening {name}…").format(name=name)),
        ):
            folder = extract_folder_zip(data, Path(tmp), max_bytes=MAX_FOLDER_ZIP_BYTES)
            loaded = load_folder(folder, name=name)
        add_user_model(name, loaded)
    except CheckpointError as exc:
        return "error", _("This zip cannot be opened: {reason}").format(reason=explain(exc))
    except ValueError as exc:  # the session's list is full (LabError)
        return "error", explain(exc)
    st.session_state[MODEL_KEY] = name
    return "success", _("Opened **{name}**, now picked in the model list above (for this session only).").format(
        name=name)  # fmt: skip
