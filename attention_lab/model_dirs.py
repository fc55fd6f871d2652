"""`attention-lab --model-dir PATH` (repeatable): the model folders a server offers every session besides the shipped
models. The command checks each folder (attention_lab/folder_check.py, the launcher's: it reads them with model/),
then writes them into $ATTENTION_LAB_EXTRA_MODELS, which every app server it starts inherits (the one server, or each
of `--servers N`, so a class on any of them finds the same models); ui/extra_models.py lists them in the sidebar's
picker by name (model.io.model_dir.model_name).

A folder that cannot be opened stops the command before any server starts, saying what is wrong: the models are for
every session, so a typo in a path or a folder the lab cannot read is better said now than found in class, and a
server started without the model its teacher asked for would look right until a student needs it.
"""

from __future__ import annotations

import os
from pathlib import Path

EXTRA_MODELS_ENV = "ATTENTION_LAB_EXTRA_MODELS"  # folders joined by os.pathsep
MODEL_DIR_OPTION = "--model-dir"


def env_folders(environ: os._Environ | dict[str, str] = os.environ) -> list[Path]:
    """The folders named in $ATTENTION_LAB_EXTRA_MODELS, in order (none when it is unset, the normal case)."""
    return [Path(f) for f in environ.get(EXTRA_MODELS_ENV, "").split(os.pathsep) if f]


def take_model_dirs(args: list[str]) -> tuple[list[str], list[str]]:
    """(every `--model-dir PATH` or `--model-dir=PATH` value, in order; the other arguments). SystemExit for the
    option without a path."""
    found, rest = [], []
    items = iter(args)
    for item in items:
        name, eq, value = item.partition("=")
        if name != MODEL_DIR_OPTION:
            rest.append(item)
            continue
        value = value if eq else next(items, "")
        if not value:
            raise SystemExit(f"attention-lab: {MODEL_DIR_OPTION} needs the path of a model folder")
        found.append(value)
    return found, rest
