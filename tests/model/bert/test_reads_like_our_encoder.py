"""What reads our encoder reads MiniLM unchanged: the walkthrough's matrices (model/teach/inspect.py), Inside a layer
(model/analysis/layers.py), head switches (model/analysis/knockout.py) and the trace exports. Checked against the
package's own tensors and NumPy arithmetic written here, not against our model's code."""

from __future__ import annotations

import functools
import io
import math
import zipfile

import numpy as np
import pytest
from safetensors.numpy import load_file

from model.analysis.knockout import attention_blocks
from model.analysis.layers import analyse_layers
from model.io.export import to_csv_zip, to_npz
from model.naming import AttentionKind, Side, Stack, attention_name, ffn_name, input_name, pos_name, sum_name
from model.teach.inspect import from_trace, head_view, kinds_of, n_layers

from ..minilm import minilm, minilm_folder

TEXT = "Heads attend to the previous word, to [SEP], or to punctuation."


@functools.cache
def hf() -> dict[str, np.ndarray]:
    """The package's tensors under Hugging Face's names, as float64 NumPy arrays."""
    return {k: v.astype(np.float64) for k, v in load_file(str(minilm_folder() / "model.safetensors")).items()}


@functools.cache
def run():
    loaded = minilm()
    return loaded, loaded.run(TEXT), loaded.tokenize(TEXT).ids


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


def test_the_embeddings_in_the_trace_are_the_package_s_rows_normalised():
    _, trace, ids = run()
    w = hf()
    S = len(ids)
    word = w["embeddings.word_embeddings.weight"][ids]  # (S, d)
    pos = w["embeddings.position_embeddings.weight"][:S]
    segment = w["embeddings.token_type_embeddings.weight"][0]
    np.testing.assert_allclose(trace.numpy(pos_name(Side.SRC), batch=None), pos, atol=1e-6)
    np.testing.assert_allclose(trace.numpy(sum_name(Side.SRC)), word + pos + segment, atol=1e-5)
    expected = layer_norm(word + pos + segment, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
    np.testing.assert_allclose(trace.numpy(input_name(Side.SRC)), expected, atol=1e-4)


def test_the_walkthrough_opens_any_head_with_the_package_s_matrices_and_the_traced_numbers():
    loaded, trace, _ = run()
    w, layer, head = hf(), 3, 7
    view = head_view(trace, loaded.model, AttentionKind.ENCODER, layer, head)
    rows = slice(head * 32, (head + 1) * 32)
    prefix = f"encoder.layer.{layer}.attention."
    for ours, theirs in (("W_Q", "query"), ("W_K", "key"), ("W_V", "value")):
        np.testing.assert_array_equal(view[ours], w[prefix + f"self.{theirs}.weight"][rows].T)  # (d, dk)
    np.testing.assert_array_equal(view["W_O"], w[prefix + "output.dense.weight"].T)
    np.testing.assert_array_equal(view["ln_gamma"], w[prefix + "output.LayerNorm.weight"])
    x = trace.numpy(ffn_name(Stack.ENCODER, layer - 1, "norm")).astype(np.float64)  # what layer 3 reads
    np.testing.assert_allclose(view["X"], x, atol=1e-6)
    q = x @ view["W_Q"] + view["b_Q"]
    k = x @ view["W_K"] + view["b_K"]
    scaled = q @ k.T / math.sqrt(32)
    weights = np.exp(scaled - scaled.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    np.testing.assert_allclose(view["Q"], q, atol=1e-4)
    np.testing.assert_allclose(view["weights"], weights, atol=1e-5)
    assert view["W_Q"].shape == (384, 32) and bool(view["mask"].all())


def test_an_encoder_only_model_offers_the_encoder_s_blocks_only():
    loaded, trace, _ = run()
    assert kinds_of(loaded.model) == (AttentionKind.ENCODER,)
    assert [n_layers(loaded.model, kind) for kind in AttentionKind if kind is not AttentionKind.RNN] == [6, 0, 0]
    with pytest.raises(ValueError, match="kind must be one of encoder"):
        from_trace(trace, loaded.model, AttentionKind.CROSS, 0)
    blocks = attention_blocks(loaded.config)
    assert [(b.kind, b.layer, b.n_heads) for b in blocks] == [(AttentionKind.ENCODER, i, 12) for i in range(6)]
    assert blocks[5].code(11) == "e6.12"


def test_inside_a_layer_reads_the_residual_stream_and_the_gelu_activations():
    loaded, trace, _ = run()
    analysis = analyse_layers(trace, Stack.ENCODER, loaded.config.norm)
    assert analysis.n_layers == 6 and analysis.stream_norms.shape == (13, len(trace.tokens(Side.SRC)))
    np.testing.assert_allclose(
        analysis.stream_norms[0], np.linalg.norm(trace.numpy(input_name(Side.SRC)), axis=-1), rtol=1e-5
    )
    w = hf()
    a = trace.numpy(attention_name(AttentionKind.ENCODER, 0, "norm")).astype(np.float64)
    hidden = gelu(a @ w["encoder.layer.0.intermediate.dense.weight"].T + w["encoder.layer.0.intermediate.dense.bias"])
    np.testing.assert_allclose(analysis.ffn_hidden[0], hidden, atol=1e-4)
    assert (analysis.ffn_hidden[0] < 0).any()  # GELU, unlike ReLU, lets small negative values through
    np.testing.assert_array_equal(analysis.ffn_active[0], (hidden > 0).sum(-1))


def test_the_exports_carry_every_tensor_and_the_word_pieces():
    _, trace, _ = run()
    arrays = np.load(io.BytesIO(to_npz(trace)))
    assert list(arrays["tokens.src"]) == trace.tokens(Side.SRC) and "tokens.tgt" not in arrays
    np.testing.assert_array_equal(arrays[sum_name(Side.SRC)], trace.numpy(sum_name(Side.SRC), batch=None))
    with zipfile.ZipFile(io.BytesIO(to_csv_zip(trace))) as archive:
        readme = archive.read("README.md").decode()
        assert f"| `{sum_name(Side.SRC)}` | (1, 18, 384) | (B, S, d) |" in readme
        assert "0:[CLS] 1:heads" in readme
        name = attention_name(AttentionKind.ENCODER, 5, "weights")
        assert f"{name}.b0.h11.csv" in archive.namelist()
