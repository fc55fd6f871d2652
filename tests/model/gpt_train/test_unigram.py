"""The unigram baseline against its closed form."""

from __future__ import annotations

import math

import pytest
import torch

from model.corpora.unigram import cross_entropy, sample, unigram_probs


def test_add_one_probabilities():
    probs = unigram_probs([0, 0, 0, 1], vocab_size=3)  # counts 3, 1, 0; N = 4, V = 3
    assert probs.tolist() == pytest.approx([4 / 7, 2 / 7, 1 / 7])


def test_no_smoothing_is_the_frequency():
    assert unigram_probs([2, 2, 1, 0], vocab_size=4, alpha=0.0).tolist() == [0.25, 0.25, 0.5, 0.0]


def test_cross_entropy_is_the_mean_negative_log_probability():
    probs = unigram_probs([0, 0, 0, 1], vocab_size=3)
    assert cross_entropy(probs, [0, 2, 2]) == pytest.approx(-(math.log(4 / 7) + 2 * math.log(1 / 7)) / 3)


def test_uniform_text_costs_log_v():
    ids = list(range(5)) * 20
    assert cross_entropy(unigram_probs(ids, 5), ids) == pytest.approx(math.log(5))


def test_samples_follow_the_probabilities_and_the_seed():
    probs = torch.tensor([0.7, 0.2, 0.1], dtype=torch.float64)
    draws = sample(probs, 20_000, seed=1)
    assert draws == sample(probs, 20_000, seed=1) and draws != sample(probs, 20_000, seed=2)
    assert [draws.count(i) / 20_000 for i in range(3)] == pytest.approx([0.7, 0.2, 0.1], abs=0.015)


def test_temperature_sharpens_as_p_to_the_one_over_t():
    probs = torch.tensor([0.6, 0.4], dtype=torch.float64)  # at T = 0.5: 0.36 / 0.52 and 0.16 / 0.52
    draws = sample(probs, 20_000, seed=0, temperature=0.5)
    assert draws.count(0) / 20_000 == pytest.approx(0.36 / 0.52, abs=0.015)
