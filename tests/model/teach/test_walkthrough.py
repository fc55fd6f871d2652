"""model.teach.walkthrough against independent NumPy / torch recomputations of the same formulas."""

import numpy as np
import pytest
import torch

from model.teach.walkthrough import (
    MAX_ABS_INPUT,
    build_mask,
    contributions,
    default_example,
    layer_norm_steps,
    random_example,
    scaling_demo,
    select_head,
    softmax_steps,
    worked_example,
)


def np_softmax(rows: np.ndarray) -> np.ndarray:
    """Row softmax with −inf entries; fully −inf rows give zeros (as the model's attention does)."""
    out = np.zeros_like(rows)
    for idx in np.ndindex(rows.shape[:-1]):
        r = rows[idx]
        if np.isfinite(r).any():
            e = np.exp(r - r[np.isfinite(r)].max())
            out[idx] = e / e.sum()
    return out


def np_layer_norm(x, gamma=1.0, beta=0.0, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(var + eps) + beta


def np_reference(X, W_Q, W_K, W_V, W_O, H, mask, temperature, scale):
    """Multi-head attention written out with NumPy loops over heads."""
    d = X.shape[1]
    dk = d // H
    heads = []
    per: dict[str, list[np.ndarray]] = {k: [] for k in ("Q", "K", "V", "scores", "scaled", "masked", "weights")}
    for h in range(H):
        cols = slice(h * dk, (h + 1) * dk)
        Q, K, V = X @ W_Q[:, cols], X @ W_K[:, cols], X @ W_V[:, cols]
        S = Q @ K.T
        scaled = S / ((np.sqrt(dk) if scale else 1.0) * temperature)
        masked = scaled if mask is None else np.where(mask, scaled, -np.inf)
        weights = np_softmax(masked)
        heads.append(weights @ V)
        for k, v in zip(per, (Q, K, V, S, scaled, masked, weights), strict=True):
            per[k].append(v)
    concat = np.concatenate(heads, axis=1)
    out = concat @ W_O
    return {k: np.stack(v) for k, v in per.items()} | {
        "heads": np.stack(heads), "concat": concat, "out": out, "resid": X + out, "norm": np_layer_norm(X + out),
    }  # fmt: skip


@pytest.mark.parametrize("d_model", [4, 6])
@pytest.mark.parametrize("mask_kind", ["none", "causal", "padding", "custom"])
@pytest.mark.parametrize(("temperature", "scale"), [(1.0, True), (0.5, True), (2.0, False)])
def test_worked_example_matches_numpy(d_model, mask_kind, temperature, scale):
    ex = random_example(d_model, seed=d_model * 7 + len(mask_kind))
    custom = np.array([[1, 0, 1, 1], [1, 1, 0, 0], [0, 0, 0, 1], [1, 1, 1, 1]], dtype=bool)
    mask = build_mask(mask_kind, 4, 4, custom=custom)
    got = worked_example(ex["X"], ex["W_Q"], ex["W_K"], ex["W_V"], ex["W_O"], 2, mask, temperature, scale)
    want = np_reference(ex["X"], ex["W_Q"], ex["W_K"], ex["W_V"], ex["W_O"], 2, mask, temperature, scale)
    for name, expected in want.items():
        np.testing.assert_allclose(got[name], expected, rtol=1e-9, atol=1e-9, err_msg=name)
    np.testing.assert_allclose(got["weights"].sum(-1), 1.0, atol=1e-12)


def test_masked_cells_are_minus_infinity_and_get_zero_weight():
    ex = default_example(4)
    mask = build_mask("causal", 4, 4)
    got = worked_example(ex["X"], ex["W_Q"], ex["W_K"], ex["W_V"], ex["W_O"], 2, mask)
    upper = ~np.tril(np.ones((4, 4), dtype=bool))
    assert np.isneginf(got["masked"][:, upper]).all()
    assert (got["weights"][:, upper] == 0).all()


def test_fully_masked_row_gives_zero_weights_not_nan():
    ex = default_example(4)
    custom = np.ones((4, 4), dtype=bool)
    custom[2] = False
    got = worked_example(ex["X"], ex["W_Q"], ex["W_K"], ex["W_V"], ex["W_O"], 2, custom)
    assert (got["weights"][:, 2] == 0).all() and np.isfinite(got["weights"]).all()
    assert (got["heads"][:, 2] == 0).all()


def test_largest_allowed_inputs_do_not_overflow():
    """|x| ≤ MAX_ABS_INPUT keeps QKᵀ finite; the stable softmax then gives finite weights."""
    big = np.full((4, 4), MAX_ABS_INPUT)
    big[1] *= -1
    got = worked_example(big, big, big, big, big, 2)
    assert np.isfinite(got["scores"]).all()
    assert np.isfinite(got["weights"]).all()
    np.testing.assert_allclose(got["weights"].sum(-1), 1.0)


def test_select_head_slices_columns():
    ex = random_example(6, seed=3)
    full = worked_example(ex["X"], ex["W_Q"], ex["W_K"], ex["W_V"], ex["W_O"], 2)
    view = select_head(full, 1)
    np.testing.assert_allclose(view["W_Q"], ex["W_Q"][:, 3:])
    np.testing.assert_allclose(view["Q"], ex["X"] @ ex["W_Q"][:, 3:])
    np.testing.assert_allclose(view["Z"], full["heads"][1])


def test_build_mask_kinds():
    assert build_mask("none", 3, 3) is None
    np.testing.assert_array_equal(build_mask("causal", 4, 4), np.tril(np.ones((4, 4), dtype=bool)))
    pad = build_mask("padding", 4, 4, n_padding=1)
    assert pad[:, :3].all() and not pad[:, 3].any()
    with pytest.raises(ValueError):
        build_mask("custom", 4, 4, custom=np.ones((3, 4)))
    with pytest.raises(ValueError):
        build_mask("diagonal", 4, 4)


def test_softmax_steps_against_numpy():
    row = np.array([0.3, -1.2, 2.5, -np.inf, 0.0])
    steps = softmax_steps(row)
    finite = row[np.isfinite(row)]
    assert steps.max == finite.max()
    np.testing.assert_allclose(steps.shifted, row - 2.5)
    np.testing.assert_allclose(steps.exps, np.exp(row - 2.5))
    assert steps.exps[3] == 0
    assert steps.total == pytest.approx(np.exp(finite - 2.5).sum())
    np.testing.assert_allclose(steps.weights, np.exp(row) / np.exp(finite).sum(), rtol=1e-12)
    assert steps.weights_sum == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(steps.weights, torch.softmax(torch.tensor(row), -1).numpy(), rtol=1e-12)


def test_softmax_steps_huge_scores_do_not_overflow():
    steps = softmax_steps([1e12, 1e12 - 1.0, -1e12])
    assert np.isfinite(steps.weights).all()
    np.testing.assert_allclose(steps.weights, [1 / (1 + np.exp(-1.0)), np.exp(-1.0) / (1 + np.exp(-1.0)), 0.0])
    assert (steps.shifted <= 0).all() and (steps.exps <= 1).all()


def test_softmax_steps_fully_masked_row():
    steps = softmax_steps([-np.inf, -np.inf])
    assert (steps.weights == 0).all() and steps.weights_sum == 0


def test_contributions_add_up_to_the_output_row():
    rng = np.random.default_rng(0)
    w = np_softmax(rng.normal(size=(1, 5)))[0]
    V = rng.normal(size=(5, 3))
    c = contributions(w, V)
    np.testing.assert_allclose(c, w[:, None] * V)
    np.testing.assert_allclose(c.sum(0), w @ V)


def test_layer_norm_steps_match_torch():
    rng = np.random.default_rng(1)
    x, gamma, beta = rng.normal(size=8), rng.normal(size=8), rng.normal(size=8)
    ln = torch.nn.LayerNorm(8, dtype=torch.float64)
    with torch.no_grad():
        ln.weight.copy_(torch.tensor(gamma))
        ln.bias.copy_(torch.tensor(beta))
    steps = layer_norm_steps(x, gamma, beta, ln.eps)
    assert steps.mean == pytest.approx(x.mean()) and steps.var == pytest.approx(x.var())
    np.testing.assert_allclose(steps.out, ln(torch.tensor(x)).detach().numpy(), rtol=1e-10, atol=1e-12)


def test_scaling_demo_shows_sqrt_dk_spread_and_saturation():
    demo = scaling_demo(d_ks=(1, 4, 16, 64, 256), n_samples=1000, seed=0)
    # q·k of independent N(0, 1) vectors has variance d_k (closed form): std within 10 % of √d_k.
    np.testing.assert_allclose(demo["dot_std"], np.sqrt(demo["d_k"]), rtol=0.1)
    raw, scaled = demo["max_weight_unscaled"], demo["max_weight_scaled"]
    assert raw[0] == pytest.approx(scaled[0])  # d_k = 1: √1 = 1, nothing changes
    assert (np.diff(raw) > 0).all() and raw[-1] > 0.9  # unscaled: saturates on one key
    assert scaled.max() - scaled.min() < 0.1 and scaled[-1] < 0.5  # scaled: stays spread out


def test_examples_are_reproducible():
    a, b, c = random_example(4, 5), random_example(4, 5), random_example(4, 6)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["W_Q"], c["W_Q"])
    d = default_example(6)
    assert d["X"].shape == (4, 6) and d["W_O"].shape == (6, 6)
