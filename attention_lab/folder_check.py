"""The launcher's check of `--model-dir` folders before any server starts (attention_lab/model_dirs.py says why a bad
folder stops the command). It reads the folders with model/, so it sits in the launcher's layer, above the app: the
rest of attention_lab (paths, the option's name, the environment variable) sits below everything."""

from __future__ import annotations

import os
from pathlib import Path

from model import available_pretrained
from model.errors import CheckpointError
from model.io.model_dir import check_model_dir, model_name, snapshot_of

from .model_dirs import EXTRA_MODELS_ENV, MODEL_DIR_OPTION, env_folders, take_model_dirs


def checked_folders(paths: list[str]) -> list[Path]:
    """The folders, absolute (the servers run in the app's folder), once each; SystemExit listing every problem: a
    folder that cannot be opened, two models of one name, a model named like a shipped one. Prints what each holds."""
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
