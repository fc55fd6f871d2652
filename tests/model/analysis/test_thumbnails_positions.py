"""The overview's thumbnails (model.analysis.thumbnails) and the learned-vs-sinusoidal comparison
(model.analysis.positions), against hand-built arrays and plain NumPy loops."""

from __future__ import annotations

import math

import numpy as np
import pytest

from model.analysis.positions import cosine_matrix, matrix_correlation, similarity_by_distance
from model.analysis.thumbnails import block_labels, block_size, pool_heads, token_blocks


def test_block_size_is_the_smallest_that_fits_the_budget():
    assert block_size(2, 4, 16, 16) == 1  # 2 048 cells: no pooling
    assert block_size(6, 12, 64, 64) == 8  # 72 heads × 8 × 8 = 4 608 ≤ 6 000; blocks of 7 give 10 × 10 (7 200)
    for size in range(1, block_size(6, 12, 64, 64)):
        assert 72 * math.ceil(64 / size) ** 2 > 6_000
    assert block_size(1, 8, 128, 128, budget=2_000) == 9  # 8 × 15 × 15 = 1 800; blocks of 8 give 8 × 16 × 16


def test_pooled_rows_are_means_of_block_sums_and_still_sum_to_one():
    rng = np.random.default_rng(0)
    w = rng.random((2, 3, 7, 5))
    w /= w.sum(-1, keepdims=True)
    pooled = pool_heads(w, 3)  # query blocks [0,3) [3,6) [6,7); key blocks [0,3) [3,5)
    assert pooled.shape == (2, 3, 3, 2)
    for a, (q0, q1) in enumerate(token_blocks(7, 3)):
        for b, (k0, k1) in enumerate(token_blocks(5, 3)):
            expected = np.mean([w[..., i, k0:k1].sum(-1) for i in range(q0, q1)], axis=0)
            np.testing.assert_allclose(pooled[..., a, b], expected, rtol=1e-6)
    np.testing.assert_allclose(pooled.sum(-1), 1.0, rtol=1e-6)
    np.testing.assert_array_equal(pool_heads(w, 1), w.astype(np.float32))


def test_a_head_switched_off_stays_nan_and_a_previous_token_head_stays_a_diagonal_band():
    w = np.full((1, 2, 8, 8), np.nan)
    w[0, 1] = np.eye(8, k=-1)
    w[0, 1, 0, 0] = 1.0  # the first token has no previous one: it looks at itself
    pooled = pool_heads(w, 2)
    assert np.isnan(pooled[0, 0]).all()
    np.testing.assert_allclose(np.diag(pooled[0, 1]), [1.0, 0.5, 0.5, 0.5])
    np.testing.assert_allclose(np.diag(pooled[0, 1], k=-1), [0.5, 0.5, 0.5])


def test_block_labels_name_positions_and_tokens():
    tokens = ["[CLS]", "play", "##ing", "now", "[SEP]"]
    assert block_labels(tokens, 1) == tokens
    assert block_labels(tokens, 2) == ["0–1", "2–3", "4–4"]
    assert block_labels(tokens, 2, max_chars=24) == ["0–1 · [CLS] play", "2–3 · ##ing now", "4–4 · [SEP]"]
    assert block_labels(["a" * 40], 2, max_chars=10) == ["0–0 · aaaaaaaaa…"]
    with pytest.raises(ValueError):
        token_blocks(0, 2)


def test_cosine_matrix_against_a_loop():
    rng = np.random.default_rng(1)
    table = rng.normal(size=(6, 4))
    table[3] = 0.0  # a zero row has similarity 0 with everything
    got = cosine_matrix(table)
    for i in range(6):
        for j in range(6):
            a, b = table[i], table[j]
            norm = np.linalg.norm(a) * np.linalg.norm(b)
            assert got[i, j] == pytest.approx(0.0 if norm == 0 else a @ b / norm, abs=1e-6)


def test_similarity_by_distance_is_the_mean_of_each_diagonal():
    s = np.arange(16, dtype=float).reshape(4, 4)
    np.testing.assert_allclose(similarity_by_distance(s), [(0 + 5 + 10 + 15) / 4, (1 + 6 + 11) / 3, (2 + 7) / 2, 3])


def test_matrix_correlation_of_the_off_diagonal_cells():
    rng = np.random.default_rng(2)
    a = rng.normal(size=(5, 5))
    off = ~np.eye(5, dtype=bool)
    assert matrix_correlation(a, 2 * a + 1) == pytest.approx(1.0)
    assert matrix_correlation(a, -a) == pytest.approx(-1.0)
    b = rng.normal(size=(5, 5))
    assert matrix_correlation(a, b) == pytest.approx(np.corrcoef(a[off], b[off])[0, 1])
    with pytest.raises(ValueError):
        matrix_correlation(a, b[:4, :4])
