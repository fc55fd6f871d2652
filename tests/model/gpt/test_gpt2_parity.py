"""Our GPT is GPT-2's layout: transformers' GPT2LMHeadModel (a small random config) with its weights copied under
GPT-2's names gives the same logits and attention weights, so a later issue can load real GPT-2 weights into this code.

GPT-2's names → ours: wte, wpe → wte, wpe; h.{i}.ln_1 → decoder.{i}.self_block.norm; h.{i}.attn.c_attn (a Conv1D,
weight (d, 3d)) → decoder.{i}.self_attn.in_proj (its transpose, [W_Q; W_K; W_V]); h.{i}.attn.c_proj →
self_attn.out_proj (transposed); h.{i}.ln_2 → ffn_block.norm; h.{i}.mlp.c_fc / c_proj → ffn.linear1 / linear2
(transposed); ln_f → ln_f; lm_head is wte.
"""

from __future__ import annotations

import pytest
import torch

from model.gpt import GPT, GPTConfig

transformers = pytest.importorskip("transformers")  # requirements-dev.txt pins it; the app never imports it

CONV1D = ("attn.c_attn", "attn.c_proj", "mlp.c_fc", "mlp.c_proj")  # GPT-2 stores these (in, out): transpose
OURS = {"ln_1": "self_block.norm", "attn.c_attn": "self_attn.in_proj", "attn.c_proj": "self_attn.out_proj",
        "ln_2": "ffn_block.norm", "mlp.c_fc": "ffn.linear1", "mlp.c_proj": "ffn.linear2"}  # fmt: skip


def gpt2_state_to_ours(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """A GPT2LMHeadModel state dict under our GPT's names."""
    out = {}
    for key, value in state.items():
        key = key.removeprefix("transformer.")
        if key.startswith("lm_head.") or key.endswith(".attn.bias") or key.endswith(".attn.masked_bias"):
            continue  # the head is wte; the causal-mask buffers are not weights
        if key.startswith("h."):
            _, layer, rest = key.split(".", 2)
            module, _, kind = rest.rpartition(".")
            joint = "_" if module == "attn.c_attn" else "."  # in_proj_weight, in_proj_bias; linear1.weight, …
            name = f"{OURS[module]}{joint}{kind}"
            out[f"decoder.{layer}.{name}"] = value.T.contiguous() if module in CONV1D and kind == "weight" else value
        else:
            out[key] = value
    return out


@pytest.mark.parametrize("record", [False, True])
def test_the_gpt_equals_transformers_gpt2(record):
    torch.manual_seed(8)
    theirs_config = transformers.GPT2Config(
        vocab_size=23, n_positions=16, n_embd=32, n_layer=3, n_head=4, n_inner=None, activation_function="gelu_new",
        layer_norm_epsilon=1e-5, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
    )  # fmt: skip
    theirs_config._attn_implementation = "eager"
    theirs = transformers.GPT2LMHeadModel(theirs_config).eval()
    with torch.no_grad():  # biases and LayerNorms away from their initial 0 and 1
        for p in theirs.parameters():
            p.add_(0.05 * torch.randn_like(p))
    ours = GPT(GPTConfig(vocab_size=23, d_model=32, n_heads=4, n_layers=3, d_ff=128, max_len=16)).eval()
    ours.load_state_dict(gpt2_state_to_ours(theirs.state_dict()), strict=True)
    ids = torch.randint(0, 23, (2, 16))
    with torch.no_grad():
        expected = theirs(ids, output_attentions=True)
        if record:
            logits, trace = ours(ids, record=True)
        else:
            logits = ours(ids)
    torch.testing.assert_close(logits, expected.logits, atol=2e-5, rtol=0)
    if record:
        for i, attentions in enumerate(expected.attentions):
            torch.testing.assert_close(trace[f"decoder.{i}.self_attn.weights"], attentions, atol=2e-6, rtol=0)
