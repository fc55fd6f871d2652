"""The induction run forms an induction head: a seeded run of the recipe stops once a layer-2 head's score reaches
0.5 on the probe's 100 sequences, and the in-context loss has fallen; the CLI saves what it trained. To stay short the
run here is the recipe on a smaller task (segments of 4–12 tokens in 24: about 600 steps, where the shipped task's 32
take about 800 of costlier steps). Nothing here is timed (bench/induction.py measures the seconds)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model import load_checkpoint
from model.analysis.induction import INDUCTION_THRESHOLD, circuit, head_scores
from model.gpt import LoadedGPT
from model.gpt.induction import InductionSettings, repeated_batch
from model.gpt.induction_cli import main
from model.gpt.induction_train import InductionRun, induction_probe, train_induction

RUN = InductionRun(settings=InductionSettings(min_segment=4, max_segment=12, context=24))  # seed 0


@pytest.fixture(scope="module")
def result():
    torch.set_num_threads(1)
    return train_induction(RUN)


def test_a_seeded_run_forms_an_induction_head(result):
    scores = result.scores
    assert result.formed and scores.best_induction >= INDUCTION_THRESHOLD
    assert result.fit.steps < RUN.train.steps  # it stopped at the score, not at the end
    first = result.history[0][1]
    assert first.best_induction < 0.2  # no head at the start: the rise is the run's
    assert scores.in_context_loss < first.in_context_loss - 1.0  # the second copy became far easier than the first
    assert scores.second_copy_loss < scores.first_copy_loss - 1.0


def test_the_circuit_is_a_previous_token_head_then_an_induction_head(result):
    prev_layer, prev_head, ind_layer, ind_head = circuit(result.scores)
    assert (prev_layer, ind_layer) == (0, 1)
    assert result.scores.induction[1, ind_head] >= INDUCTION_THRESHOLD
    assert result.scores.previous[0, prev_head] > 2 * result.scores.previous[1].max()  # layer 1 looks one back


def test_the_last_probe_is_the_models_scores_on_the_probe_sequences(result):
    again = induction_probe(RUN).measure(result.loaded.model)
    np.testing.assert_allclose(again.induction, result.scores.induction, rtol=1e-6)
    fresh = head_scores(result.loaded.model, repeated_batch(RUN.settings, 200, torch.Generator().manual_seed(7)))
    assert fresh.best_induction > 0.4  # the head works on sequences it was never probed on


def test_the_cli_stops_at_the_score_and_saves_a_checkpoint(tmp_path, capsys):
    out = tmp_path / "induction"
    assert main(["--task", "induction", "--until", "0.06", "--out", str(out)]) == 0  # a low bar: a short run
    loaded = load_checkpoint(out)
    assert isinstance(loaded, LoadedGPT) and loaded.task.name == "induction" and not loaded.config.mlp
    assert loaded.meta["formed"] and loaded.meta["induction_score"] >= 0.06
    assert loaded.meta["steps"] == loaded.meta["curve"][-1][0] and "induction head formed" in capsys.readouterr().out


def test_the_cli_says_when_no_head_formed(tmp_path, capsys):
    assert main(["--task", "induction", "--steps", "60", "--out", str(tmp_path / "none")]) == 1
    assert "no head's induction score reached 0.5 in 60 steps" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()


def test_the_cli_refuses_bad_settings(capsys):
    assert main(["--task", "induction", "--max-segment", "40"]) == 2
    assert "context" in capsys.readouterr().err
