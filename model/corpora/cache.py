"""Where fetched corpora live: ~/.cache/attention-lab/corpora, or $ATTENTION_LAB_CORPORA; never in the repository.

A corpus folder counts as present only once its manifest.json is written, which the fetch step does last, after
moving the unpacked files into place, so an interrupted fetch leaves nothing that looks complete.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..errors import N_, LabError

ENV_VAR = "ATTENTION_LAB_CORPORA"
MANIFEST = "manifest.json"
FETCH_COMMAND = "python -m model.corpora fetch"


class CorpusMissing(LabError):
    """A corpus has not been fetched on this machine; the message names the command that fetches it."""


def cache_root() -> Path:
    """The folder that holds every fetched corpus (not created here)."""
    override = os.environ.get(ENV_VAR)
    return Path(override).expanduser() if override else Path.home() / ".cache" / "attention-lab" / "corpora"


def manifest(folder: Path) -> dict | None:
    """The manifest of a complete corpus folder, or None when the folder is missing or was never completed."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def require(folder: Path, corpus: str, pin: str) -> dict:
    """The manifest of `folder`; CorpusMissing (with the fetch command) when it is absent or of another version."""
    found = manifest(folder)
    if found is None or found.get("pin") != pin:
        raise CorpusMissing(
            N_("The {corpus} corpus ({pin}) is not on this machine (looked in {folder}). Fetch it with: {command}"),
            corpus=corpus, pin=pin, folder=str(folder), command=FETCH_COMMAND,
        )  # fmt: skip
    return found


def fetch_archive(
    folder: Path,
    pin: str,
    archive: Path | None,
    download: Callable[[Path], Path],
    extract: Callable[[Path, Path], dict],
) -> Path:
    """Make `folder` from the pinned archive: `archive` when one is at hand, else `download(tmp)`'s (a temporary
    folder, removed after); `extract(archive, dest)` unpacks it and returns the manifest's fields."""

    def fill(tmp: Path) -> dict:
        if archive is not None:
            return extract(archive, tmp)
        with tempfile.TemporaryDirectory() as where:
            return extract(download(Path(where)), tmp)

    return build(folder, pin, fill)


def build(folder: Path, pin: str, fill: Callable[[Path], dict]) -> Path:
    """Make `folder` by `fill(tmp)` in a sibling temporary folder (fill returns the manifest's other fields), then
    move it into place and write its manifest last. A complete folder of the same pin is kept as it is."""
    if (found := manifest(folder)) is not None and found.get("pin") == pin:
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}."))
    tmp.chmod(0o755)  # mkdtemp's 0700 would keep the corpus from other users of a shared cache
    try:
        info = fill(tmp)
        shutil.rmtree(folder, ignore_errors=True)
        tmp.replace(folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    text = json.dumps({"pin": pin} | info, indent=2, ensure_ascii=False)
    (folder / MANIFEST).write_text(text + "\n", encoding="utf-8")
    return folder
