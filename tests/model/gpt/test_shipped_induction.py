"""The shipped induction checkpoint (model/checkpoints/induction, made by `python -m model.train --task induction`):
small, attention-only, documented, and its layer-2 head still scores what the run recorded when it stopped; on a
repeated sequence given as token strings, that head's attention from the second copy lands on the token after each
earlier occurrence."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model import LoadedGPT, load_pretrained
from model.analysis.induction import INDUCTION_THRESHOLD, circuit, induction_score
from model.gpt.induction import induction_vocab
from model.gpt.induction_train import InductionRun, induction_probe
from model.io.pretrained import CHECKPOINT_DIR, PRETRAINED_ARCH
from model.naming import AttentionKind, attention_name


@pytest.fixture(scope="module")
def lm() -> LoadedGPT:
    loaded = load_pretrained("induction")
    assert isinstance(loaded, LoadedGPT)
    return loaded


def test_it_is_small_attention_only_and_documented(lm):
    assert (CHECKPOINT_DIR / "induction" / "model.safetensors").stat().st_size < 100 * 1024
    assert PRETRAINED_ARCH["induction"] == "gpt" and lm.name == "induction" and lm.task.name == "induction"
    assert not lm.config.mlp and not lm.config.tied and lm.config.n_layers == 2
    assert lm.vocabulary == induction_vocab()
    meta = lm.meta
    assert meta["command"].startswith("python -m model.train --task induction") and meta["formed"]
    assert meta["steps"] < InductionRun().train.steps and len(meta["load_average"]) == 6


def test_its_scores_are_the_ones_recorded_when_it_stopped(lm):
    scores = induction_probe(InductionRun()).measure(lm.model)
    assert scores.best_induction >= INDUCTION_THRESHOLD
    assert round(scores.best_induction, 4) == pytest.approx(lm.meta["induction_score"], abs=2e-4)
    prev_layer, prev_head, ind_layer, ind_head = circuit(scores)
    assert lm.meta["circuit"] == {
        "previous_token_head": [prev_layer, prev_head],
        "induction_head": [ind_layer, ind_head],
    }


def test_the_head_copies_on_sequences_written_as_token_strings(lm):
    _, _, ind_layer, ind_head = circuit(induction_probe(InductionRun()).measure(lm.model))
    rng = np.random.default_rng(0)
    letters = lm.vocabulary[:-1]  # □ was never trained on
    scores = []
    for s in (6, 9, 12, 16):
        segment = list(rng.choice(letters, size=s, replace=False))
        filler = list(rng.choice(letters, size=32 - 2 * s))
        start = len(filler) // 2
        tokens = filler[:start] + segment + segment + filler[start:]
        trace = lm.trace(tokens)
        assert trace.tokens("tgt") == tokens
        weights = trace[attention_name(AttentionKind.DECODER, ind_layer, "weights")][0, ind_head]  # (T, T)
        scores.append(induction_score(weights, start=start, segment=s))
    assert np.mean(scores) >= INDUCTION_THRESHOLD
    with torch.inference_mode():
        text = lm.trace("".join(tokens))[attention_name(AttentionKind.DECODER, ind_layer, "weights")]
    torch.testing.assert_close(text[0, ind_head], weights, rtol=0, atol=0)  # the same sequence typed as text
