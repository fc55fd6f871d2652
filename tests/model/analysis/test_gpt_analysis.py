"""The analysis and teaching code on a decoder-only GPT (a small random one of tests.toys): Inside a layer's stream
(no cross-attention, the final LayerNorm) against norms taken here, the learned position rows against wpe, the
walkthrough's block against the block's own torch modules, the atlas's fixed texts in the model's language and its
previous-line role present on poems."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model.analysis.atlas import ROLES, atlas_texts, corpus_atlas
from model.analysis.layers import analyse_layers
from model.analysis.positions import learned_positions
from model.naming import AttentionKind
from model.teach.inspect import from_trace, kinds_of, n_layers
from tests.toys import tiny_gpt

POEM = "床前明月光，疑是地上霜。举头"


@pytest.fixture(scope="module")
def lm():
    return tiny_gpt("zh", n_layers=3)


def test_inside_a_layer_reads_a_gpt_as_a_pre_ln_decoder_without_cross_attention(lm):
    trace = lm.trace(POEM)
    a = analyse_layers(trace, "decoder", "pre")
    assert a.sublayers == [f"decoder.{i}.{s}" for i in range(3) for s in ("self_attn", "ffn")]
    assert a.n_layers == 3 and a.stream_norms.shape == (7, len(POEM))
    with torch.inference_mode():
        _, ref = lm.model(torch.tensor([lm.vocab.encode(POEM)[0]]), record=True)
    np.testing.assert_allclose(a.stream_norms[0], ref["tgt.input"][0].norm(dim=-1).numpy(), rtol=1e-6)
    np.testing.assert_allclose(a.stream_norms[-1], ref["decoder.2.ffn.resid"][0].norm(dim=-1).numpy(), rtol=1e-6)
    assert a.final_norms is not None
    np.testing.assert_allclose(a.final_norms, ref["decoder.final_norm"][0].norm(dim=-1).numpy(), rtol=1e-6)
    first, last, final = a.growth()
    assert first == pytest.approx(float(ref["tgt.input"][0].norm(dim=-1).mean()), rel=1e-6)
    assert last == pytest.approx(float(ref["decoder.2.ffn.resid"][0].norm(dim=-1).mean()), rel=1e-6)
    assert final == pytest.approx(float(ref["decoder.final_norm"][0].norm(dim=-1).mean()), rel=1e-6)


def test_the_learned_positions_are_the_wpe_rows(lm):
    rows = learned_positions(lm.model, 20)
    np.testing.assert_array_equal(rows, lm.model.wpe.weight[:20].detach().numpy())
    with pytest.raises(ValueError):
        learned_positions(lm.model, lm.max_len + 1)


def test_the_walkthrough_opens_a_gpt_block_with_its_own_modules(lm):
    model = lm.model
    assert kinds_of(model) == (AttentionKind.DECODER,)
    assert n_layers(model, AttentionKind.DECODER) == 3
    assert n_layers(model, AttentionKind.ENCODER) == n_layers(model, AttentionKind.CROSS) == 0
    trace = lm.trace(POEM)
    arrays = from_trace(trace, model, AttentionKind.DECODER, 1)
    block = model.decoder[1]
    with torch.inference_mode():
        x = block.self_block.norm(torch.from_numpy(arrays["R"]).float())  # pre-LN: X = LayerNorm(R)
        qkv = torch.nn.functional.linear(x, block.self_attn.in_proj_weight, block.self_attn.in_proj_bias)
    d = model.config.d_model
    np.testing.assert_allclose(arrays["X"], x.numpy(), atol=1e-5)
    q = qkv[:, :d].reshape(len(POEM), 4, -1).transpose(0, 1).numpy()  # (H, T, dk)
    np.testing.assert_allclose(arrays["Q"], q, atol=1e-5)
    np.testing.assert_array_equal(arrays["mask"], np.tril(np.ones((len(POEM), len(POEM)), dtype=bool)))
    np.testing.assert_allclose(arrays["R"], trace.numpy("decoder.0.ffn.resid"), atol=0)
    with pytest.raises(ValueError):
        from_trace(trace, model, AttentionKind.CROSS, 0)


def test_the_atlas_averages_a_gpt_over_texts_in_its_language(lm):
    texts = atlas_texts(lm)
    assert len(texts) == 25 and all("，" in t and "。" in t for t in texts)
    assert len(atlas_texts(tiny_gpt("en"))) == 25 and "To be, or not to be" in atlas_texts(tiny_gpt("en"))[0]
    atlas = corpus_atlas(lm, texts[:3])
    assert atlas.n_inputs == 3 and atlas.blocks == tuple(f"decoder.{i}.self_attn" for i in range(3))
    line = atlas.scores[:, :, ROLES.index("previous_line")]  # (3 layers, 4 heads)
    assert np.isfinite(line).all() and ((line >= 0) & (line <= 1)).all()
    assert np.isnan(atlas.scores[:, :, ROLES.index("mirror")]).all()  # self-attention has no mirror
