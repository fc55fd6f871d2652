"""The shipped GPTs load and write with no corpus on the machine, and their metadata says how they were made."""

from __future__ import annotations

import pytest

from model import load_pretrained
from model.corpora.cache import ENV_VAR
from model.gpt import LoadedGPT
from model.gpt.train_cli import RECIPES


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_loads_and_writes_without_corpora(name, tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "nothing-fetched"))
    lm = load_pretrained(name)
    assert isinstance(lm, LoadedGPT) and lm.name == name
    text = lm.generate(lm.task.example, n=20, temperature=0.8, seed=1)
    assert len(text) == 20 and text == lm.generate(lm.task.example, n=20, temperature=0.8, seed=1)


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_metadata_records_the_run(name):
    lm = load_pretrained(name)
    assert isinstance(lm, LoadedGPT)
    meta, recipe = lm.meta, RECIPES[name]
    assert meta["command"].startswith(f"python -m model.train --task {name}")
    assert meta["corpus"] == recipe.corpus and meta["split"] and meta["steps"] > 0 and meta["seconds"] > 0
    assert 0 < meta["held_out_loss"] < meta["unigram_held_out_loss"]  # better than each character's frequency
    assert lm.vocabulary[-1] == "□" and (recipe.vocab_cap is None or len(lm.vocabulary) <= recipe.vocab_cap)
