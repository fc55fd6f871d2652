"""Our GPT is GPT-2's layout: transformers' GPT2LMHeadModel (a small random config) with its weights copied under
GPT-2's names gives the same logits and attention weights, so a later issue can load real GPT-2 weights into this code.

The names are mapped by model/gpt/gpt2.py, the table model.load_folder uses (Conv1D weights transposed, lm_head
tied to wte); tests/model/folder/ opens whole folders.
"""

from __future__ import annotations

import pytest
import torch

from model.gpt import GPT, GPTConfig
from model.gpt.gpt2 import gpt2_state_to_ours

transformers = pytest.importorskip("transformers")  # requirements-dev.txt pins it; the app never imports it


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
