"""Every named intermediate obeys the paper's algebra, checked with NumPy on random configurations."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
import torch

from model import ModelConfig, Seq2SeqTransformer

from ..batches import padded_batch

CONFIGS = [
    dict(d_model=16, n_heads=2, n_encoder_layers=1, n_decoder_layers=1, norm="post", positional="sinusoidal"),
    dict(d_model=24, n_heads=3, n_encoder_layers=2, n_decoder_layers=3, norm="pre", positional="learned"),
    dict(d_model=32, n_heads=4, n_encoder_layers=3, n_decoder_layers=2, norm="post", positional="none"),
    dict(d_model=8, n_heads=1, n_encoder_layers=2, n_decoder_layers=1, norm="pre", positional="sinusoidal"),
]


@pytest.fixture(params=range(len(CONFIGS)), scope="module")
def traced(request):
    torch.manual_seed(request.param)
    config = ModelConfig(src_vocab_size=13, tgt_vocab_size=11, d_ff=40, max_len=20, **CONFIGS[request.param])
    model = Seq2SeqTransformer(config).eval()
    src, tgt = padded_batch(config, request.param)
    with torch.inference_mode():
        logits, trace = model(src, tgt, record=True)
        plain = model(src, tgt)
    return model, config, src, tgt, logits, plain, {k: v.numpy().astype(np.float64) for k, v in trace.items()}


def _attention_names(config):
    enc = [f"encoder.{i}.self_attn" for i in range(config.n_encoder_layers)]
    dec = [f"decoder.{i}.{kind}" for i, kind in product(range(config.n_decoder_layers), ("self_attn", "cross_attn"))]
    return enc + dec


def _allowed(name, src, tgt):
    """(B, Lq, Lk) bool: where each query may attend, built independently of the model."""
    src_keep, tgt_keep = (src != 0).numpy(), (tgt != 0).numpy()
    B, S, T = src.shape[0], src.shape[1], tgt.shape[1]
    if name.startswith("encoder"):
        return np.broadcast_to(src_keep[:, None, :], (B, S, S))
    if name.endswith("cross_attn"):
        return np.broadcast_to(src_keep[:, None, :], (B, T, S))
    causal = np.tril(np.ones((T, T), dtype=bool))
    return causal[None] & tgt_keep[:, None, :]


def test_recording_does_not_change_the_output(traced):
    _, _, _, _, logits, plain, _ = traced
    torch.testing.assert_close(logits, plain, atol=1e-5, rtol=0)


def test_trace_has_every_design_name(traced):
    _, config, _, _, _, _, tr = traced
    expected = {"src.embed", "src.pos", "src.input", "tgt.embed", "tgt.pos", "tgt.input", "logits"}
    for name in _attention_names(config):
        expected |= {f"{name}.{p}" for p in ("q", "k", "v", "scores", "scaled", "masked", "weights", "head_out")}
        expected |= {f"{name}.{p}" for p in ("out", "resid", "norm")}
    for stack, n in (("encoder", config.n_encoder_layers), ("decoder", config.n_decoder_layers)):
        expected |= {f"{stack}.{i}.ffn.{p}" for i in range(n) for p in ("hidden", "out", "resid", "norm")}
    assert expected <= set(tr)


def test_attention_algebra(traced):
    model, config, src, tgt, _, _, tr = traced
    dk = config.d_model // config.n_heads
    for name in _attention_names(config):
        q, k, v = tr[f"{name}.q"], tr[f"{name}.k"], tr[f"{name}.v"]
        scores = q @ np.swapaxes(k, -1, -2)
        np.testing.assert_allclose(tr[f"{name}.scores"], scores, atol=1e-4)
        np.testing.assert_allclose(tr[f"{name}.scaled"], scores / math.sqrt(dk), atol=1e-4)
        allowed = _allowed(name, src, tgt)[:, None]  # (B, 1, Lq, Lk)
        masked = tr[f"{name}.masked"]
        assert np.all(np.isneginf(masked[np.broadcast_to(~allowed, masked.shape)]))
        shifted = np.where(allowed, masked - np.max(masked, axis=-1, keepdims=True), -np.inf)
        softmax = np.exp(shifted) / np.exp(shifted).sum(-1, keepdims=True)
        weights = tr[f"{name}.weights"]
        np.testing.assert_allclose(weights, softmax, atol=1e-6)
        np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-6)
        assert np.all(weights[np.broadcast_to(~allowed, weights.shape)] == 0.0)  # exactly zero
        head_out = tr[f"{name}.head_out"]
        np.testing.assert_allclose(head_out, weights @ v, atol=1e-5)
        module = model.get_submodule(name)
        B, Hh, L, _ = head_out.shape
        concat = head_out.transpose(0, 2, 1, 3).reshape(B, L, Hh * dk)
        w_o = module.out_proj.weight.detach().double().numpy()
        b_o = module.out_proj.bias.detach().double().numpy()
        np.testing.assert_allclose(tr[f"{name}.out"], concat @ w_o.T + b_o, atol=1e-5)


def test_projections_are_the_input_times_the_weights(traced):
    model, config, _, _, _, _, tr = traced
    name = "encoder.0.self_attn"
    x = tr["src.input"] if config.norm == "post" else _layer_norm(tr["src.input"], model.encoder[0].attn_block.norm)
    w = model.get_submodule(name).in_proj_weight.detach().double().numpy()
    b = model.get_submodule(name).in_proj_bias.detach().double().numpy()
    d, H = config.d_model, config.n_heads
    for i, part in enumerate("qkv"):
        proj = x @ w[i * d : (i + 1) * d].T + b[i * d : (i + 1) * d]  # (B, S, d)
        heads = proj.reshape(*proj.shape[:2], H, d // H).transpose(0, 2, 1, 3)
        np.testing.assert_allclose(tr[f"{name}.{part}"], heads, atol=1e-5)


def _layer_norm(x, norm):
    w, b = norm.weight.detach().double().numpy(), norm.bias.detach().double().numpy()
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + norm.eps) * w + b


def test_residual_and_layer_norm(traced):
    model, config, _, _, _, _, tr = traced
    x = tr["src.input"]
    for i in range(config.n_encoder_layers):
        layer = model.encoder[i]
        for block, sub, norm in (("self_attn", "out", layer.attn_block.norm), ("ffn", "out", layer.ffn_block.norm)):
            name = f"encoder.{i}.{block}"
            np.testing.assert_allclose(tr[f"{name}.resid"], x + tr[f"{name}.{sub}"], atol=1e-5)
            if config.norm == "post":
                np.testing.assert_allclose(tr[f"{name}.norm"], _layer_norm(tr[f"{name}.resid"], norm), atol=1e-4)
                x = tr[f"{name}.norm"]
            else:
                np.testing.assert_allclose(tr[f"{name}.norm"], _layer_norm(x, norm), atol=1e-4)
                x = tr[f"{name}.resid"]


def test_ffn_is_relu_then_linear(traced):
    model, _, _, _, _, _, tr = traced
    ffn = model.encoder[0].ffn
    hidden = tr["encoder.0.ffn.hidden"]
    assert hidden.min() >= 0.0
    w2, b2 = ffn.linear2.weight.detach().double().numpy(), ffn.linear2.bias.detach().double().numpy()
    np.testing.assert_allclose(tr["encoder.0.ffn.out"], hidden @ w2.T + b2, atol=1e-5)


def test_positional_encoding_closed_form(traced):
    _, config, src, _, _, _, tr = traced
    S, d = src.shape[1], config.d_model
    if config.positional == "sinusoidal":
        pos, i = np.arange(S)[:, None], np.arange(d // 2)[None, :]
        angle = pos / np.power(10000.0, 2 * i / d)
        expected = np.zeros((S, d))
        expected[:, 0::2], expected[:, 1::2] = np.sin(angle), np.cos(angle)
        np.testing.assert_allclose(tr["src.pos"], expected, atol=1e-6)
    elif config.positional == "none":
        assert np.all(tr["src.pos"] == 0)
    np.testing.assert_allclose(tr["src.input"], tr["src.embed"] + tr["src.pos"][None], atol=1e-6)
