"""Inside-a-layer numbers against NumPy recomputations from the trace tensors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model import LoadedModel, ModelConfig, Seq2SeqTransformer, get_task, load_pretrained
from model.analysis.layers import analyse_layers, sublayer_names
from model.train import default_model_config


def pre_ln_model() -> LoadedModel:
    torch.manual_seed(0)
    task = get_task("sort")
    config = default_model_config(task, norm="pre", n_encoder_layers=2, n_decoder_layers=1)
    assert isinstance(config, ModelConfig)
    return LoadedModel(Seq2SeqTransformer(config), task)


CASES = [
    pytest.param(lambda: load_pretrained("translate"), "the big red dog sees a small cat", id="post-LN"),
    pytest.param(pre_ln_model, "5 3 9 1", id="pre-LN"),
]


def np_(trace, name):
    return trace[name][0].detach().numpy().astype(np.float64)


@pytest.mark.parametrize(("make", "text"), CASES)
@pytest.mark.parametrize("stack", ["encoder", "decoder"])
def test_numbers_match_numpy(make, text, stack):
    loaded = make()
    trace = loaded.run(text)
    norm = loaded.config.norm
    a = analyse_layers(trace, stack, norm)
    n_layers = loaded.config.n_encoder_layers if stack == "encoder" else loaded.config.n_decoder_layers
    kinds = ["self_attn", "ffn"] if stack == "encoder" else ["self_attn", "cross_attn", "ffn"]
    assert a.sublayers == [f"{stack}.{i}.{k}" for i in range(n_layers) for k in kinds]
    stream = [np_(trace, "src.input" if stack == "encoder" else "tgt.input")]
    for name in a.sublayers:
        stream.append(np_(trace, f"{name}.{'resid' if norm == 'pre' else 'norm'}"))
    want_norms = np.stack([np.sqrt((x**2).sum(-1)) for x in stream])
    np.testing.assert_allclose(a.stream_norms, want_norms, rtol=1e-5)
    updates = np.stack([np.sqrt((np_(trace, f"{n}.out") ** 2).sum(-1)) for n in a.sublayers])
    np.testing.assert_allclose(a.update_norms, updates, rtol=1e-5)
    np.testing.assert_allclose(a.update_ratios, updates / want_norms[:-1], rtol=1e-5)
    for k, name in enumerate(a.sublayers):
        ln_in = stream[k] if norm == "pre" else np_(trace, f"{name}.resid")
        ln_out = np_(trace, f"{name}.norm")
        np.testing.assert_allclose(a.ln_in_mean[k], ln_in.mean(-1), atol=1e-5)
        np.testing.assert_allclose(a.ln_in_std[k], ln_in.std(-1), rtol=1e-4)
        np.testing.assert_allclose(a.ln_out_mean[k], ln_out.mean(-1), atol=1e-5)
        np.testing.assert_allclose(a.ln_out_std[k], ln_out.std(-1), rtol=1e-4)
        if norm == "post":  # the stream really is the LayerNorm of the residual sum
            module = dict(loaded.model.named_modules())
            block = {"self_attn": "attn_block" if stack == "encoder" else "self_block",
                     "cross_attn": "cross_block", "ffn": "ffn_block"}[name.split(".")[2]]  # fmt: skip
            ln = module[f"{stack}.{name.split('.')[1]}.{block}.norm"]
            with torch.inference_mode():
                got = ln(trace[f"{name}.resid"][0]).numpy()
            np.testing.assert_allclose(got, ln_out, atol=1e-5)
    for i in range(n_layers):
        hidden = np_(trace, f"{stack}.{i}.ffn.hidden")
        np.testing.assert_array_equal(a.ffn_hidden[i], hidden.astype(np.float32))
        np.testing.assert_array_equal(a.ffn_active[i], (hidden > 0).sum(-1))
        assert (hidden >= 0).all()


def test_unknown_stack_or_norm_is_a_clear_error():
    trace = load_pretrained("copy").run("1 2")
    with pytest.raises(ValueError, match="stack must be"):
        sublayer_names(trace, "middle")
    with pytest.raises(ValueError, match="norm must be"):
        analyse_layers(trace, "encoder", "sandwich")
