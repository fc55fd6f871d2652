"""Our attention and layers match torch's own modules with the same weights, traced or not."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from model.transformer.layers import DecoderLayer, EncoderLayer, MultiHeadAttention

D, H, FF = 32, 4, 48
TOL = 1e-5


def _padding(batch: int, length: int, lengths: list[int]) -> torch.Tensor:
    """(B, L) bool, True at padding (torch's key_padding_mask convention)."""
    return torch.arange(length)[None, :] >= torch.tensor(lengths)[:, None]


def _keep(pad: torch.Tensor) -> torch.Tensor:
    """torch padding mask → our (B, 1, 1, L) 'may attend' mask."""
    return ~pad[:, None, None, :]


def _copy(ours: nn.Module, theirs: nn.Module, names: dict[str, str]) -> None:
    state = {}
    for key, value in theirs.state_dict().items():
        prefix = next(p for p in sorted(names, key=len, reverse=True) if key.startswith(p))
        state[names[prefix] + key[len(prefix) :]] = value
    ours.load_state_dict(state, strict=True)


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("cross", [False, True])
def test_multihead_attention_matches_torch(record, cross):
    torch.manual_seed(1)
    ref = nn.MultiheadAttention(D, H, batch_first=True).eval()
    ours = MultiHeadAttention(D, H).eval()
    ours.load_state_dict(ref.state_dict())
    x = torch.randn(3, 5, D)
    memory = torch.randn(3, 7, D) if cross else None
    kv = memory if memory is not None else x
    pad = _padding(3, kv.shape[1], [kv.shape[1], 4, 2])
    expected, expected_weights = ref(x, kv, kv, key_padding_mask=pad, average_attn_weights=False)
    trace: dict[str, torch.Tensor] | None = {} if record else None
    got = ours(x, memory, _keep(pad), trace, "a")
    torch.testing.assert_close(got, expected, atol=TOL, rtol=0)
    if record:
        assert trace is not None
        torch.testing.assert_close(trace["a.weights"], expected_weights, atol=TOL, rtol=0)


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("norm", ["post", "pre"])
def test_encoder_layer_matches_torch(norm, record):
    torch.manual_seed(2)
    ref = nn.TransformerEncoderLayer(D, H, FF, dropout=0.0, batch_first=True, norm_first=norm == "pre").eval()
    ours = EncoderLayer(D, H, FF, norm=norm).eval()
    _copy(
        ours,
        ref,
        {"self_attn.": "self_attn.", "linear1.": "ffn.linear1.", "linear2.": "ffn.linear2.",
         "norm1.": "attn_block.norm.", "norm2.": "ffn_block.norm."},
    )  # fmt: skip
    x = torch.randn(3, 6, D)
    pad = _padding(3, 6, [6, 3, 5])
    expected = ref(x, src_key_padding_mask=pad)  # grad enabled: torch's slow (reference) path
    got = ours(x, _keep(pad), {} if record else None)
    torch.testing.assert_close(got, expected, atol=TOL, rtol=0)


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("norm", ["post", "pre"])
def test_decoder_layer_matches_torch(norm, record):
    torch.manual_seed(3)
    ref = nn.TransformerDecoderLayer(D, H, FF, dropout=0.0, batch_first=True, norm_first=norm == "pre").eval()
    ours = DecoderLayer(D, H, FF, norm=norm).eval()
    _copy(
        ours,
        ref,
        {"self_attn.": "self_attn.", "multihead_attn.": "cross_attn.", "linear1.": "ffn.linear1.",
         "linear2.": "ffn.linear2.", "norm1.": "self_block.norm.", "norm2.": "cross_block.norm.",
         "norm3.": "ffn_block.norm."},
    )  # fmt: skip
    y, memory = torch.randn(3, 5, D), torch.randn(3, 7, D)
    tgt_pad, mem_pad = _padding(3, 5, [5, 4, 2]), _padding(3, 7, [7, 3, 6])
    causal = torch.ones(5, 5, dtype=torch.bool).triu(1)  # torch convention: True = may NOT attend
    expected = ref(y, memory, tgt_mask=causal, tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=mem_pad)
    self_mask = torch.ones(5, 5, dtype=torch.bool).tril() & _keep(tgt_pad)
    got = ours(y, memory, self_mask, _keep(mem_pad), {} if record else None)
    torch.testing.assert_close(got, expected, atol=TOL, rtol=0)
