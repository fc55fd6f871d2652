"""model.teach.inspect: the model source's matrices equal a NumPy recomputation from X, the weights and the trace."""

from typing import TypedDict

import numpy as np
import pytest
import torch

from model import Ablation, ModelConfig, Seq2SeqTransformer, Trace, load_pretrained
from model.naming import AttentionKind
from model.teach.inspect import KINDS, attention_inputs, attention_weights, from_trace, head_view

from .test_walkthrough import np_layer_norm, np_softmax


class Tolerance(TypedDict):  # np.testing.assert_allclose's rtol and atol
    rtol: float
    atol: float


TOL: Tolerance = {"rtol": 1e-6, "atol": 1e-6}  # the model computes in float32; NumPy recomputes in float64


@pytest.fixture(scope="module")
def translate():
    return load_pretrained("translate")


def check_block(full: dict, model, kind: str, layer: int, temperature: float = 1.0, scale: bool = True):
    """Every array of `from_trace` against NumPy, from X / M / R and the module's own parameters."""
    attn = (model.encoder[layer].self_attn if kind == "encoder" else
            model.decoder[layer].self_attn if kind == "decoder" else model.decoder[layer].cross_attn)  # fmt: skip
    W = attn.in_proj_weight.detach().double().numpy()  # (3d, d), torch (out, in) layout
    b = attn.in_proj_bias.detach().double().numpy()
    d = W.shape[1]
    H = model.config.n_heads
    dk = d // H
    X, M = full["X"], full["M"]
    Q_all = X @ W[:d].T + b[:d]
    K_all = M @ W[d : 2 * d].T + b[d : 2 * d]
    V_all = M @ W[2 * d :].T + b[2 * d :]
    heads = []
    for h in range(H):
        cols = slice(h * dk, (h + 1) * dk)
        Q, K, V = Q_all[:, cols], K_all[:, cols], V_all[:, cols]
        np.testing.assert_allclose(full["Q"][h], Q, **TOL)
        np.testing.assert_allclose(full["K"][h], K, **TOL)
        np.testing.assert_allclose(full["V"][h], V, **TOL)
        S = full["Q"][h] @ full["K"][h].T
        np.testing.assert_allclose(full["scores"][h], S, **TOL)
        scaled = S / ((np.sqrt(dk) if scale else 1.0) * temperature)
        np.testing.assert_allclose(full["scaled"][h], scaled, **TOL)
        causal = np.tril(np.ones_like(S, dtype=bool)) if kind == "decoder" else np.ones_like(S, dtype=bool)
        masked = np.where(causal, scaled, -np.inf)
        np.testing.assert_allclose(full["masked"][h], masked, **TOL)
        weights = np_softmax(full["masked"][h])
        np.testing.assert_allclose(full["weights"][h], weights, **TOL)
        np.testing.assert_allclose(full["weights"][h].sum(-1), 1.0, **TOL)
        heads.append(full["weights"][h] @ full["V"][h])
        np.testing.assert_allclose(full["heads"][h], heads[-1], **TOL)
    concat = np.concatenate(heads, axis=1)
    np.testing.assert_allclose(full["concat"], concat, **TOL)
    W_O = attn.out_proj.weight.detach().double().numpy().T
    out = full["concat"] @ W_O + attn.out_proj.bias.detach().double().numpy()
    np.testing.assert_allclose(full["out"], out, **TOL)
    np.testing.assert_allclose(full["resid"], full["R"] + full["out"], **TOL)
    if model.config.norm == "post":
        norm = np_layer_norm(full["resid"], full["ln_gamma"], full["ln_beta"], float(full["ln_eps"]))
        np.testing.assert_allclose(full["norm"], norm, **TOL)


def test_the_walkthrough_opens_the_three_transformer_kinds():
    assert (
        KINDS == (AttentionKind.ENCODER, AttentionKind.DECODER, AttentionKind.CROSS) == ("encoder", "decoder", "cross")
    )


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("layer", [0, 1])
def test_model_source_matches_numpy_recomputation(translate, kind, layer):
    trace = translate.run(translate.task.example)
    check_block(from_trace(trace, translate.model, kind, layer), translate.model, kind, layer)


def test_ablations_reach_the_model_source(translate):
    ablation = Ablation(scale=False, temperature=2.0, causal=True)
    trace = translate.run(translate.task.example, ablation=ablation)
    full = from_trace(trace, translate.model, AttentionKind.DECODER, 1)
    check_block(full, translate.model, AttentionKind.DECODER, 1, temperature=2.0, scale=False)


def test_inputs_are_the_right_trace_entries(translate):
    trace = translate.run(translate.task.example)
    m = translate.model
    enc0 = attention_inputs(trace, m, AttentionKind.ENCODER, 0)
    np.testing.assert_array_equal(enc0["X"], trace.numpy("src.input"))
    enc1 = attention_inputs(trace, m, AttentionKind.ENCODER, 1)
    np.testing.assert_array_equal(enc1["X"], trace.numpy("encoder.0.ffn.norm"))
    dec1 = attention_inputs(trace, m, AttentionKind.DECODER, 1)
    np.testing.assert_array_equal(dec1["X"], trace.numpy("decoder.0.ffn.norm"))
    cross = attention_inputs(trace, m, AttentionKind.CROSS, 0)
    np.testing.assert_array_equal(cross["X"], trace.numpy("decoder.0.self_attn.norm"))
    np.testing.assert_array_equal(cross["M"], trace.numpy("encoder.1.ffn.norm"))  # the encoder's output


def test_attention_weights_are_the_modules_slices(translate):
    m = translate.model
    got = attention_weights(m, AttentionKind.CROSS, 0, head=2)
    attn = m.decoder[0].cross_attn
    d, dk = 64, 16
    x = torch.randn(3, d, dtype=torch.float64)
    # Independent check with torch's own linear layer on the stored parameters.
    want_k = torch.nn.functional.linear(
        x, attn.in_proj_weight[d : 2 * d].double(), attn.in_proj_bias[d : 2 * d].double()
    )
    np.testing.assert_allclose(x.numpy() @ got["W_K"] + got["b_K"], want_k[:, 2 * dk : 3 * dk].detach().numpy())
    assert got["W_Q"].shape == (64, 16) and got["W_O"].shape == (64, 64)


def test_head_view_is_one_head(translate):
    trace = translate.run(translate.task.example)
    view = head_view(trace, translate.model, AttentionKind.ENCODER, 0, 3)
    np.testing.assert_array_equal(view["weights"], trace.numpy("encoder.0.self_attn.weights")[3])
    np.testing.assert_array_equal(view["Z"], trace.numpy("encoder.0.self_attn.head_out")[3])


def test_pre_ln_model_source():
    """Pre-LN: X is LayerNorm(R), the residual adds to R, and the output is the residual sum."""
    torch.manual_seed(0)
    config = ModelConfig(src_vocab_size=12, tgt_vocab_size=12, d_model=16, n_heads=2, d_ff=32, max_len=16, norm="pre",
                         n_encoder_layers=2, n_decoder_layers=2)  # fmt: skip
    model = Seq2SeqTransformer(config).eval()
    src, tgt = torch.tensor([[4, 5, 6, 2]]), torch.tensor([[1, 7, 8]])
    with torch.no_grad():
        _, trace = model(src, tgt, record=True)
    assert isinstance(trace, Trace)
    for kind in KINDS:
        full = from_trace(trace, model, kind, 1)
        check_block(full, model, kind, 1)
        np.testing.assert_array_equal(full["norm"], full["resid"])
    enc = from_trace(trace, model, AttentionKind.ENCODER, 1)
    np.testing.assert_array_equal(enc["R"], trace.numpy("encoder.0.ffn.resid"))
    np.testing.assert_array_equal(enc["X"], trace.numpy("encoder.1.self_attn.norm"))
    cross = from_trace(trace, model, AttentionKind.CROSS, 0)
    np.testing.assert_array_equal(cross["M"], trace.numpy("encoder.final_norm"))
