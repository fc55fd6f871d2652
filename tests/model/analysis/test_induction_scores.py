"""Induction score, previous-token score and in-context loss on hand-built attention matrices and logits, against
closed forms (uniform causal rows: 1/(q+1); a confident copy: −log(e^m / (e^m + V − 1))) and plain loops; the
circuit's two heads on hand-built score tables; head_scores of a GPT against a loop over its own trace."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from model.analysis.induction import (
    HeadScores,
    circuit,
    copy_losses,
    head_scores,
    in_context_loss,
    induction_per_sequence,
    induction_score,
    previous_token_score,
)
from model.errors import LabError
from model.gpt import GPT, GPTConfig
from model.gpt.induction import InductionSettings, repeated_batch
from model.naming import LOGITS, AttentionKind, attention_name


def uniform_causal(T: int) -> torch.Tensor:
    """(T, T): each row spreads its attention evenly over itself and the positions before."""
    rows = torch.tril(torch.ones(T, T))
    return rows / rows.sum(-1, keepdim=True)


def induction_matrix(T: int, start: int, segment: int) -> torch.Tensor:
    """(T, T): the second copy's rows put everything on the token after the earlier occurrence, the rest uniform."""
    w = uniform_causal(T)
    for q in range(start + segment, start + 2 * segment):
        w[q] = 0.0
        w[q, q - segment + 1] = 1.0
    return w


def test_a_perfect_induction_head_scores_1():
    assert induction_score(induction_matrix(14, 2, 5), start=2, segment=5) == pytest.approx(1.0)


def test_uniform_causal_rows_score_the_mean_of_one_over_q_plus_1():
    T, start, s = 20, 3, 7
    expected = sum(1 / (q + 1) for q in range(start + s, start + 2 * s)) / s
    assert induction_score(uniform_causal(T), start, s) == pytest.approx(expected, rel=1e-6)


def test_half_the_weight_on_the_target_scores_one_half_and_heads_average():
    T, start, s = 12, 0, 6
    half = induction_matrix(T, start, s) * 0.5
    half[torch.arange(T), torch.arange(T)] += 0.5  # the other half on the query itself (rows still sum to 1)
    heads = torch.stack([induction_matrix(T, start, s), half])  # (2, T, T)
    assert induction_score(half, start, s) == pytest.approx(0.5)
    assert induction_score(heads, start, s) == pytest.approx(0.75)


def test_a_previous_token_head_is_not_an_induction_head():
    T, start, s = 16, 1, 6
    previous = torch.zeros(T, T)
    previous[0, 0] = 1.0
    previous[torch.arange(1, T), torch.arange(T - 1)] = 1.0
    assert previous_token_score(previous) == pytest.approx(1.0)
    assert induction_score(previous, start, s) == pytest.approx(0.0)


def test_previous_token_score_of_uniform_rows_is_the_mean_of_one_over_t_plus_1():
    T = 9
    expected = sum(1 / (t + 1) for t in range(1, T)) / (T - 1)
    assert previous_token_score(uniform_causal(T)) == pytest.approx(expected, rel=1e-6)
    assert previous_token_score(torch.stack([uniform_causal(T)] * 3)) == pytest.approx(expected, rel=1e-6)


def test_each_sequence_of_a_batch_is_scored_at_its_own_segment():
    T = 16
    layouts = [(0, 8), (3, 6), (5, 4)]  # (start, segment) per sequence
    weights = torch.stack([induction_matrix(T, a, s) for a, s in layouts])[:, None]  # (B, 1, T, T)
    weights = torch.cat([weights, uniform_causal(T).expand(3, 1, T, T)], dim=1)  # head 1: uniform
    start = torch.tensor([a for a, _ in layouts])
    segment = torch.tensor([s for _, s in layouts])
    got = induction_per_sequence(weights, start, segment)  # (B, 2)
    uniform = [sum(1 / (q + 1) for q in range(a + s, a + 2 * s)) / s for a, s in layouts]
    np.testing.assert_allclose(got.numpy(), np.array([[1.0, u] for u in uniform]), rtol=1e-6)


@pytest.mark.parametrize("start, segment", [(0, 9), (-1, 3), (2, 0)])
def test_a_segment_that_does_not_fit_is_refused(start, segment):
    with pytest.raises(LabError, match="fit"):
        induction_score(uniform_causal(16), start, segment)


def test_in_context_loss_of_a_confident_copy_against_its_closed_form():
    V, T, start, s, margin = 10, 14, 2, 5, 4.0
    ids = torch.randint(0, V, (T,), generator=torch.Generator().manual_seed(0))
    ids[start + s : start + 2 * s] = ids[start : start + s]
    logits = torch.zeros(T, V)  # uniform: loss ln V everywhere
    for p in range(start + s + 1, start + 2 * s):  # the second copy's tokens after its first, predicted at p − 1
        logits[p - 1, ids[p]] = margin
    confident = -math.log(math.exp(margin) / (math.exp(margin) + V - 1))
    assert in_context_loss(logits, ids, start, s) == pytest.approx(confident - math.log(V), rel=1e-5)
    assert in_context_loss(torch.zeros(T, V), ids, start, s) == pytest.approx(0.0, abs=1e-6)


def test_copy_losses_against_a_loop_over_positions():
    V, T = 7, 12
    g = torch.Generator().manual_seed(1)
    logits, ids = torch.randn(2, T, V, generator=g), torch.randint(0, V, (2, T), generator=g)
    start, segment = torch.tensor([0, 3]), torch.tensor([6, 4])
    first, second = copy_losses(logits, ids, start, segment)
    for b in range(2):
        a, s = int(start[b]), int(segment[b])
        logp = torch.log_softmax(logits[b].double(), -1).numpy()
        nll = [-logp[p - 1, int(ids[b, p])] for p in range(T)]
        assert float(first[b]) == pytest.approx(np.mean(nll[a + 1 : a + s]), rel=1e-5)
        assert float(second[b]) == pytest.approx(np.mean(nll[a + s + 1 : a + 2 * s]), rel=1e-5)


def _scores(induction: list[list[float]], previous: list[list[float]]) -> HeadScores:
    return HeadScores(np.array(induction), np.array(previous), -1.0, 2.0)


def test_the_circuit_is_the_best_induction_head_after_layer_0_and_the_best_previous_head_before_it():
    induction = [[0.9, 0.0, 0.1], [0.2, 0.1, 0.6], [0.1, 0.7, 0.0]]  # layer 0's 0.9 cannot be an induction head
    previous = [[0.1, 0.8, 0.2], [0.9, 0.1, 0.0], [0.95, 0.0, 0.0]]  # layer 2's 0.95 is not before layer 2
    scores = _scores(induction, previous)
    assert circuit(scores) == (1, 0, 2, 1)
    assert circuit(_scores([[0.0, 0.1], [0.6, 0.2]], [[0.3, 0.9], [1.0, 0.0]])) == (0, 1, 1, 0)
    assert scores.best_induction == pytest.approx(0.9) and scores.formed
    assert not _scores([[0.2]], [[0.4]]).formed


def test_a_one_layer_model_has_no_circuit():
    with pytest.raises(LabError, match="two layers"):
        circuit(_scores([[0.7, 0.2]], [[0.9, 0.1]]))


def test_head_scores_of_a_gpt_against_a_loop_over_its_trace():
    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=12, d_model=16, n_heads=2, n_layers=2, d_ff=32, max_len=20, mlp=False))
    batch = repeated_batch(InductionSettings(vocab_size=12, min_segment=3, max_segment=8, context=20), 6,
                           torch.Generator().manual_seed(2))  # fmt: skip
    model.train()
    scores = head_scores(model, batch)
    assert model.training  # restored
    with torch.no_grad():
        _, trace = model.eval()(batch.ids, record=True)
    for layer in range(2):
        w = trace[attention_name(AttentionKind.DECODER, layer, "weights")].numpy()  # (B, H, T, T)
        for head in range(2):
            per = []
            for b in range(len(batch)):
                a, s = int(batch.start[b]), int(batch.segment[b])
                per.append(np.mean([w[b, head, q, q - s + 1] for q in range(a + s, a + 2 * s)]))
            prev = np.mean([w[b, head, t, t - 1] for b in range(len(batch)) for t in range(1, 20)])
            assert scores.induction[layer, head] == pytest.approx(np.mean(per), rel=1e-5)
            assert scores.previous[layer, head] == pytest.approx(prev, rel=1e-5)
    logits, ids = trace[LOGITS], batch.ids
    gaps = [in_context_loss(logits[b], ids[b], int(batch.start[b]), int(batch.segment[b])) for b in range(len(batch))]
    assert scores.in_context_loss == pytest.approx(np.mean(gaps), rel=1e-5)
    expected_loss = torch.nn.functional.cross_entropy(logits[:, :-1].reshape(-1, 12), ids[:, 1:].reshape(-1))
    assert scores.loss == pytest.approx(float(expected_loss), rel=1e-5)


def test_the_atlas_induction_role_is_the_score_cells_on_a_clean_repeat():
    from model.analysis.induction import induction_keys, induction_targets

    tokens = list("xy") + list("abcdef") * 2 + list("z")  # no repeat but the segment's
    keys = induction_keys(tokens)
    cells = induction_targets(len(tokens), torch.tensor([2]), torch.tensor([6]))[0].bool().numpy()
    assert (keys == cells).all()
    text = list("abaab")  # a repeat in ordinary text too
    loop = [[j >= 1 and j <= i and text[j - 1] == text[i] for j in range(5)] for i in range(5)]
    assert (induction_keys(text) == np.array(loop)).all()


def test_the_induction_model_atlas_names_its_two_heads():
    from model import load_pretrained
    from model.analysis.atlas import atlas_texts, corpus_atlas

    lm = load_pretrained("induction")
    texts = atlas_texts(lm)
    assert len(texts) == 25 and all(len(t) == 32 for t in texts)
    _, prev_head, _, ind_head = circuit(
        head_scores(lm.model, repeated_batch(InductionSettings(), 100, torch.Generator().manual_seed(4)))
    )
    dominant = corpus_atlas(lm, texts).dominant()  # (2 layers, 2 heads)
    assert dominant[0, prev_head] == "previous" and dominant[1, ind_head] == "induction"
