"""A GPT's trace obeys its algebra, checked in float64 with NumPy and torch.nn.functional written out by hand: causal
weights, weights @ V, the concatenation and Wᴼ, the residual sums, the LayerNorms, the tanh GELU, the tied head."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from model.gpt import GPT, GPTConfig

CONFIGS = [
    dict(d_model=16, n_heads=2, n_layers=1, d_ff=64, max_len=12),
    dict(d_model=24, n_heads=3, n_layers=3, d_ff=40, max_len=10),
    dict(d_model=8, n_heads=1, n_layers=2, d_ff=32, max_len=9),
]
V = 13


@pytest.fixture(params=range(len(CONFIGS)), scope="module")
def traced(request):
    torch.manual_seed(request.param)
    config = GPTConfig(vocab_size=V, **CONFIGS[request.param])
    model = GPT(config).double().eval()
    with torch.no_grad():  # random LayerNorm affine and biases, so the checks below see them
        for name, p in model.named_parameters():
            if name.endswith("bias") or "norm" in name or "ln_f" in name:
                p.add_(0.3 * torch.randn_like(p))
    ids = torch.randint(0, V, (2, config.max_len - 1))
    with torch.inference_mode():
        logits, trace = model(ids, record=True)
        plain = model(ids)
    return model, config, ids, logits, plain, {k: v.numpy() for k, v in trace.items()}


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().double().numpy()


def _layer_norm(x: np.ndarray, ln: torch.nn.LayerNorm) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)  # biased, as LayerNorm
    return (x - mean) / np.sqrt(var + ln.eps) * _np(ln.weight) + _np(ln.bias)


def test_causal_weights_are_zero_above_the_diagonal_and_rows_sum_to_one(traced):
    _, config, ids, _, _, t = traced
    T = ids.shape[1]
    above = np.triu(np.ones((T, T), dtype=bool), k=1)
    for i in range(config.n_layers):
        w = t[f"decoder.{i}.self_attn.weights"]  # (B, H, T, T)
        assert w.shape == (2, config.n_heads, T, T)
        assert np.all(w[..., above] == 0.0)  # exactly zero, not just small
        assert np.all(w[..., ~above] > 0.0)
        np.testing.assert_allclose(w.sum(-1), 1.0, atol=1e-12)
        masked = t[f"decoder.{i}.self_attn.masked"]
        assert np.all(np.isneginf(masked[..., above])) and np.all(np.isfinite(masked[..., ~above]))


def test_embeddings_and_positions(traced):
    model, _, ids, _, _, t = traced
    T = ids.shape[1]
    np.testing.assert_array_equal(t["tgt.embed"], _np(model.wte.weight)[ids.numpy()])
    np.testing.assert_array_equal(t["tgt.pos"], _np(model.wpe.weight)[:T])
    np.testing.assert_allclose(t["tgt.input"], t["tgt.embed"] + t["tgt.pos"][None], atol=1e-12)


def test_each_block_s_algebra(traced):
    model, config, _, _, _, t = traced
    d, H, dk = config.d_model, config.n_heads, config.d_head
    x = t["tgt.input"]
    for i, block in enumerate(model.blocks):
        a, f = f"decoder.{i}.self_attn", f"decoder.{i}.ffn"
        normed = _layer_norm(x, block.self_block.norm)
        np.testing.assert_allclose(t[f"{a}.norm"], normed, atol=1e-10)
        ref_norm = F.layer_norm(torch.from_numpy(x), (d,), block.self_block.norm.weight, block.self_block.norm.bias,
                                config.layer_norm_eps)  # fmt: skip
        np.testing.assert_allclose(t[f"{a}.norm"], _np(ref_norm), atol=1e-12)
        w, b = _np(block.self_attn.in_proj_weight), _np(block.self_attn.in_proj_bias)
        qkv = normed @ w.T + b  # (B, T, 3d)
        B, T, _ = qkv.shape
        heads = [qkv[..., j * d : (j + 1) * d].reshape(B, T, H, dk).transpose(0, 2, 1, 3) for j in range(3)]
        for part, want in zip(("q", "k", "v"), heads, strict=True):
            np.testing.assert_allclose(t[f"{a}.{part}"], want, atol=1e-10)
        q, k, v = (t[f"{a}.{part}"] for part in "qkv")
        np.testing.assert_allclose(t[f"{a}.scores"], q @ k.transpose(0, 1, 3, 2), atol=1e-10)
        np.testing.assert_allclose(t[f"{a}.scaled"], t[f"{a}.scores"] / math.sqrt(dk), atol=1e-12)
        masked = t[f"{a}.masked"]
        e = np.exp(masked - masked.max(-1, keepdims=True))
        np.testing.assert_allclose(t[f"{a}.weights"], e / e.sum(-1, keepdims=True), atol=1e-12)
        np.testing.assert_allclose(t[f"{a}.head_out"], t[f"{a}.weights"] @ v, atol=1e-12)
        concat = t[f"{a}.head_out"].transpose(0, 2, 1, 3).reshape(B, T, d)
        np.testing.assert_array_equal(t[f"{a}.concat"], concat)
        wo, bo = _np(block.self_attn.out_proj.weight), _np(block.self_attn.out_proj.bias)
        np.testing.assert_allclose(t[f"{a}.out"], concat @ wo.T + bo, atol=1e-12)
        np.testing.assert_allclose(t[f"{a}.resid"], x + t[f"{a}.out"], atol=1e-12)
        resid = t[f"{a}.resid"]
        np.testing.assert_allclose(t[f"{f}.norm"], _layer_norm(resid, block.ffn_block.norm), atol=1e-10)
        pre = t[f"{f}.norm"] @ _np(block.ffn.linear1.weight).T + _np(block.ffn.linear1.bias)
        gelu = 0.5 * pre * (1 + np.tanh(math.sqrt(2 / math.pi) * (pre + 0.044715 * pre**3)))  # GPT-2's gelu_new
        np.testing.assert_allclose(t[f"{f}.hidden"], gelu, atol=1e-12)
        out = gelu @ _np(block.ffn.linear2.weight).T + _np(block.ffn.linear2.bias)
        np.testing.assert_allclose(t[f"{f}.out"], out, atol=1e-10)
        np.testing.assert_allclose(t[f"{f}.resid"], resid + t[f"{f}.out"], atol=1e-12)
        x = t[f"{f}.resid"]


def test_final_norm_and_the_tied_head(traced):
    model, config, _, logits, plain, t = traced
    last = t[f"decoder.{config.n_layers - 1}.ffn.resid"]
    np.testing.assert_allclose(t["decoder.final_norm"], _layer_norm(last, model.ln_f), atol=1e-10)
    np.testing.assert_allclose(t["logits"], t["decoder.final_norm"] @ _np(model.wte.weight).T, atol=1e-10)
    np.testing.assert_array_equal(t["logits"], _np(logits))
    np.testing.assert_allclose(_np(plain), _np(logits), atol=1e-10)  # fused path = explicit path


def test_the_head_is_the_embedding():
    model = GPT(GPTConfig(vocab_size=V, d_model=16, n_heads=2, n_layers=1))
    assert "wte.weight" in model.state_dict() and not any("head" in k for k in model.state_dict())
    x = torch.randn(3, 16)
    torch.testing.assert_close(model.unembed(x), model.ln_f(x) @ model.wte.weight.T)
