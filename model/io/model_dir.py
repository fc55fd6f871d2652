"""A model folder given to the lab (`attention-lab --model-dir`, $ATTENTION_LAB_EXTRA_MODELS) opened by what it holds:
this lab's own checkpoint (config.json of format "attention-lab/1": load_checkpoint) or a Hugging Face folder
(a save_pretrained output, a cache snapshot: load_folder). Both raise a CheckpointError saying what is wrong.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..architectures import DEFAULT_ARCH
from ..errors import N_, CheckpointError
from .checkpoint import CONFIG_FILE, FORMAT, load_checkpoint
from .folder import inspect_folder, load_folder
from .pretrained import AnyLoaded

CACHE_PREFIX = "models--"  # a Hugging Face cache folder: models--{org}--{name}/snapshots/{commit}/
NO_FOLDER = N_("{path} is not a folder.")
FOLDER_ARCH = {"gpt2": "gpt", "bert": "bert"}  # a Hugging Face model_type → the family it loads into


def model_name(folder: Path) -> str:
    """The name a folder's model goes by: its folder's name, or for a snapshot in the Hugging Face cache
    (…/models--openai-community--gpt2/snapshots/<commit>) the model's own (gpt2)."""
    if folder.parent.name == "snapshots" and folder.parent.parent.name.startswith(CACHE_PREFIX):
        return folder.parent.parent.name.removeprefix(CACHE_PREFIX).split("--")[-1]
    return folder.name


def snapshot_of(folder: Path) -> Path:
    """`folder` itself, or for a Hugging Face cache folder (models--org--name, holding refs/main and snapshots/) the
    snapshot refs/main names, so a user may give either."""
    ref = folder / "refs" / "main"
    if folder.name.startswith(CACHE_PREFIX) and ref.is_file() and not (folder / CONFIG_FILE).exists():
        return folder / "snapshots" / ref.read_text(encoding="utf-8").strip()
    return folder


def _config(folder: Path) -> dict:
    """The folder's config.json, or {} when it has none that parses to an object."""
    try:
        config = json.loads((folder / CONFIG_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return config if isinstance(config, dict) else {}


def is_own_checkpoint(folder: Path) -> bool:
    """Whether the folder holds one of this lab's checkpoints (its config.json's "format" is "attention-lab/1")."""
    return _config(folder).get("format") == FORMAT


def model_arch(folder: Path) -> str | None:
    """The family the folder's model loads as ("gpt", "bert", "transformer", "rnn"), read from its config.json
    without loading it; None for one the lab does not open."""
    config = _config(folder)
    if config.get("format") == FORMAT:
        return str(config.get("architecture", DEFAULT_ARCH))
    return FOLDER_ARCH.get(str(config.get("model_type")))


def check_model_dir(folder: Path) -> str:
    """What the folder holds, in a line (English, for the command line), after the checks made before loading
    anything big; CheckpointError (FolderError for a Hugging Face folder) naming what is wrong."""
    if not folder.is_dir():
        raise CheckpointError(NO_FOLDER, path=str(folder))
    if is_own_checkpoint(folder):
        loaded = load_checkpoint(folder)  # ours are small: checking them is loading them
        return f"an Attention Lab {loaded.config.arch} checkpoint"
    info = inspect_folder(folder)
    return f"{info.model_type}, {info.n_params:,} parameters"


def open_model_dir(folder: Path, name: str | None = None) -> AnyLoaded:
    """The folder's model, named `name` (by default model_name(folder)); CheckpointError saying what is wrong."""
    name = name or model_name(folder)
    if not folder.is_dir():
        raise CheckpointError(NO_FOLDER, path=str(folder))
    if is_own_checkpoint(folder):
        return load_checkpoint(folder, name=name)
    return load_folder(folder, name=name)
