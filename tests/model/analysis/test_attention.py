"""model.analysis.attention against plain NumPy recomputations written out independently here."""

import numpy as np
import pytest

from model import sinusoidal_table
from model.analysis.attention import (
    attention_layers,
    attention_rollout,
    attention_tokens,
    head_entropy,
    head_mean,
    head_peak,
    position_similarity,
    row_entropy,
    sharpest_head,
)
from tests.toys import toy, transformer_config


def random_weights(shape, seed=0):
    """Rows that sum to 1, with some exact zeros (like masked keys)."""
    rng = np.random.default_rng(seed)
    w = rng.random(shape) * (rng.random(shape) > 0.3)
    w[..., 0] += 1e-3  # no all-zero row
    return (w / w.sum(-1, keepdims=True)).astype(np.float32)


def test_row_entropy_matches_numpy_and_closed_forms():
    w = random_weights((3, 5, 7))
    expected = np.zeros((3, 5))
    for idx in np.ndindex(3, 5):
        p = w[idx].astype(np.float64)
        p = p[p > 0]
        expected[idx] = -(p * np.log(p)).sum()
    np.testing.assert_allclose(row_entropy(w), expected, rtol=1e-5, atol=1e-6)
    assert row_entropy(np.eye(4))[0] == pytest.approx(0.0)
    assert row_entropy(np.full((1, 6), 1 / 6))[0] == pytest.approx(np.log(6))


def test_head_entropy_peak_and_mean_shapes_and_values():
    w = random_weights((2, 4, 5, 6), seed=1)  # (L, H, Lq, Lk)
    ent, peak, mean = head_entropy(w), head_peak(w), head_mean(w)
    assert ent.shape == peak.shape == (2, 4) and mean.shape == (2, 5, 6)
    for layer in range(2):
        for head in range(4):
            rows = w[layer, head].astype(np.float64)
            with np.errstate(divide="ignore", invalid="ignore"):
                terms = np.where(rows > 0, -rows * np.log(rows), 0.0)
            assert ent[layer, head] == pytest.approx(terms.sum(1).mean(), rel=1e-5)
            assert peak[layer, head] == pytest.approx(rows.max(1).mean(), rel=1e-6)
    np.testing.assert_allclose(mean, w.astype(np.float64).sum(1) / 4, rtol=1e-6)
    np.testing.assert_allclose(mean.sum(-1), 1.0, rtol=1e-5)


def test_rollout_matches_a_loop_over_layers():
    w = random_weights((3, 2, 5, 5), seed=2)
    expected = np.eye(5)
    for layer in range(3):
        a = 0.5 * np.eye(5) + 0.5 * w[layer].astype(np.float64).mean(0)
        a = a / a.sum(1, keepdims=True)
        expected = a @ expected
    got = attention_rollout(w)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got.sum(1), 1.0, rtol=1e-5)


def test_rollout_of_identity_attention_is_identity_and_rejects_cross_shapes():
    eye = np.broadcast_to(np.eye(4), (2, 3, 4, 4))
    np.testing.assert_allclose(attention_rollout(eye), np.eye(4), atol=1e-7)
    with pytest.raises(ValueError, match="self-attention"):
        attention_rollout(np.ones((1, 1, 3, 4)) / 4)


def test_position_similarity_is_the_gram_matrix():
    table = sinusoidal_table(12, 16).numpy()
    sim = position_similarity(table)
    expected = np.array([[float(np.dot(table[i], table[j])) for j in range(12)] for i in range(12)])
    np.testing.assert_allclose(sim, expected, rtol=1e-5, atol=1e-5)
    # every sinusoidal row has d/2 (sin, cos) pairs, so PE[i]·PE[i] = d/2
    np.testing.assert_allclose(np.diag(sim), 8.0, rtol=1e-5)


def test_attention_layers_and_tokens_follow_the_trace():
    loaded = toy("translate")
    trace = loaded.run("the big dog sees a cat")
    for kind, name, q_side, k_side in (
        ("encoder", "encoder.{}.self_attn.weights", "src", "src"),
        ("decoder", "decoder.{}.self_attn.weights", "tgt", "tgt"),
        ("cross", "decoder.{}.cross_attn.weights", "tgt", "src"),
    ):
        stacked = attention_layers(trace, kind)
        assert stacked.dtype == np.float32
        assert stacked.shape[:2] == (2, transformer_config(loaded).n_heads)
        for layer in range(2):
            np.testing.assert_array_equal(stacked[layer], trace[name.format(layer)][0].numpy())
        assert attention_tokens(trace, kind) == (trace.tokens(q_side), trace.tokens(k_side))


def test_sharpest_head_is_the_lowest_mean_row_entropy_skipping_heads_switched_off():
    w = random_weights((2, 3, 4, 5), seed=3)
    w[1, 2] = np.eye(4, 5)  # one-hot rows: entropy 0, the sharpest
    w[0, 1] = np.full((4, 5), 0.2)  # uniform: the bluntest
    assert sharpest_head(w) == (1, 2)
    p = w.astype(np.float64)
    entropy = -np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0).sum(-1).mean(-1)  # (L, H)
    assert sharpest_head(w, layer=0) == (0, int(entropy[0].argmin()))
    w[1, 2] = np.nan  # switched off (model.analysis.knockout): passed over
    entropy[1, 2] = np.inf
    assert sharpest_head(w) == tuple(int(i) for i in np.unravel_index(entropy.argmin(), entropy.shape))
    assert sharpest_head(np.full((2, 2, 3, 3), np.nan), layer=1) == (1, 0)  # every head off


def test_sharpest_head_is_found_once_per_weights_and_layer():
    from model.analysis import attention as analysis

    analysis._SHARPEST.clear()
    w = random_weights((3, 4, 5, 5), seed=11)
    for _ in range(3):  # a class's followers, one after another
        assert sharpest_head(w) == sharpest_head.__wrapped__(w)
        assert sharpest_head(w, 2) == sharpest_head.__wrapped__(w, 2)
    assert len(analysis._SHARPEST) == 2
    w[0, 0] = np.eye(5)  # new weights (the teacher's new input): found anew, not the kept answer
    assert sharpest_head(w) == (0, 0) and len(analysis._SHARPEST) == 3
