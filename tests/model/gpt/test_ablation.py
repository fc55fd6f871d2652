"""model/ablation.py's switches act on a GPT as on our Transformer (the knock-out pages use them)."""

from __future__ import annotations

import math

import pytest
import torch

from model import Ablation
from model.analysis.knockout import attention_blocks, parse_heads_off
from tests.toys import tiny_gpt

TEXT = "To be, or not to be"


@pytest.fixture(scope="module")
def lm():
    return tiny_gpt("en")


def test_a_head_switched_off_is_zero_and_the_rest_unchanged(lm):
    on = lm.trace(TEXT)
    off = lm.trace(TEXT, Ablation(heads_off=parse_heads_off("d2.3", lm.config)))
    assert bool((off["decoder.1.self_attn.head_out"][:, 2] == 0).all())
    torch.testing.assert_close(off["decoder.1.self_attn.head_out"][:, [0, 1, 3]],
                               on["decoder.1.self_attn.head_out"][:, [0, 1, 3]])  # fmt: skip
    torch.testing.assert_close(off["decoder.0.ffn.resid"], on["decoder.0.ffn.resid"])  # layer 0 untouched
    assert not torch.allclose(off["logits"], on["logits"])
    plain = lm.model(torch.tensor([lm.tokenize(TEXT).ids]), ablation=Ablation(heads_off=frozenset({(
        "decoder.1.self_attn", 2)})))  # fmt: skip
    torch.testing.assert_close(plain, off["logits"])


def test_the_knockout_blocks_of_a_gpt_are_its_decoder_self_attention(lm):
    blocks = attention_blocks(lm.config)
    assert [(b.name, b.n_heads) for b in blocks] == [("decoder.0.self_attn", 4), ("decoder.1.self_attn", 4)]


def test_positions_off_scale_off_temperature_and_no_causal_mask(lm):
    on = lm.trace(TEXT)
    no_pos = lm.trace(TEXT, Ablation(positional=False))
    assert bool((no_pos["tgt.pos"] == 0).all())
    torch.testing.assert_close(no_pos["tgt.input"], on["tgt.embed"])
    hot = lm.trace(TEXT, Ablation(temperature=2.0, scale=False))
    torch.testing.assert_close(hot["decoder.0.self_attn.scaled"], on["decoder.0.self_attn.scores"] / 2.0)
    torch.testing.assert_close(on["decoder.0.self_attn.scaled"], on["decoder.0.self_attn.scores"] / math.sqrt(8))
    open_ = lm.trace(TEXT, Ablation(causal=False))
    w = open_["decoder.0.self_attn.weights"]
    assert bool((torch.triu(w[0, 0], diagonal=1) > 0).any())
    torch.testing.assert_close(w.sum(-1), torch.ones_like(w.sum(-1)))
    plain = lm.model(torch.tensor([lm.tokenize(TEXT).ids]), ablation=Ablation(causal=False))
    torch.testing.assert_close(plain, open_["logits"])
