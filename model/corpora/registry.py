"""The corpora by name, and the one fetch step the setup commands run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..errors import one_of
from . import shakespeare, tang
from .corpus import Corpus

CORPORA = {shakespeare.NAME: shakespeare, tang.NAME: tang}  # name → module with PIN, fetch(root) and load(root)


def load_corpus(name: str, root: Path | None = None) -> Corpus:
    """A fetched corpus with its split; CorpusMissing names the fetch command when it is not on this machine."""
    if name not in CORPORA:
        raise one_of("corpus", CORPORA, name)
    return CORPORA[name].load(root)


def fetch_all(root: Path | None = None, report: Callable[[str], None] = print) -> list[Path]:
    """Fetch every corpus not yet cached (a cached one costs a file read); report one line per corpus."""
    folders = []
    for name, module in CORPORA.items():
        folders.append(module.fetch(root))
        report(f"{name} ({module.PIN}): {folders[-1]}")
    return folders
