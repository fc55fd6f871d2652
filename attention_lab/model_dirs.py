"""`attention-lab --model-dir PATH` (repeatable): the model folders a server offers every session besides the shipped
models. The command checks each folder, then writes them into $ATTENTION_LAB_EXTRA_MODELS, which every app server it
starts inherits (the one server, or each of `--servers N`, so a class on any of them finds the same models);
ui/extra_models.py lists them in the sidebar's picker by name (model.io.model_dir.model_name).

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


def checked_folders(paths: list[str]) -> list[Path]:
    """The folders, absolute (the servers run in the app's folder), once each; SystemExit listing every problem: a
    folder that cannot be opened, two models of one name, a model named like a shipped one. Prints what each holds."""
    from model import available_pretrained
    from model.errors import CheckpointError
    from model.io.model_dir import check_model_dir, model_name, snapshot_of

    problems, folders, names = [], [], {name: "a shipped model" for name in available_pretrained()}
    for path in paths:
        folder = snapshot_of(Path(path).expanduser().resolve())
        name = model_name(folder)
        try:
            what = check_model_dir(folder)
        except CheckpointError as error:
            problems.append(f"{MODEL_DIR_OPTION} {path}: {error}")
            continue
        if name in names:
            problems.append(f"{MODEL_DIR_OPTION} {path}: its model would be called {name!r}, as {names[name]} is; "
                            "give each folder its own name (rename it, or link it under another)")  # fmt: skip
            continue
        names[name] = str(folder)
        folders.append(folder)
        print(f"attention-lab: {name}: {what} ({folder})", flush=True)
    if problems:
        raise SystemExit("attention-lab: no server was started:\n  " + "\n  ".join(problems))
    return folders


def offer_model_dirs(args: list[str]) -> list[str]:
    """Take the `--model-dir` options out of `args`, check their folders and add them to $ATTENTION_LAB_EXTRA_MODELS
    (after any already there) for the servers to come; the other arguments."""
    paths, rest = take_model_dirs(args)
    if paths:
        folders = [str(f) for f in env_folders()] + [str(f) for f in checked_folders(paths)]
        os.environ[EXTRA_MODELS_ENV] = os.pathsep.join(folders)
    return rest
