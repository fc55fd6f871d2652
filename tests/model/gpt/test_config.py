"""GPTConfig: the GPT-2 layout's fixed choices read like ModelConfig's, a checked JSON round trip."""

from __future__ import annotations

import pytest

from model.errors import LabError
from model.gpt import GPTConfig


def test_what_the_layout_fixes():
    c = GPTConfig(vocab_size=50, d_model=48, n_heads=4, n_layers=3)
    assert (c.arch, c.positional, c.norm, c.activation) == ("gpt", "learned", "pre", "gelu_tanh")
    assert (c.n_decoder_layers, c.n_encoder_layers, c.d_head, c.tgt_vocab_size) == (3, 0, 12, 50)
    assert (c.layer_norm_eps, c.dropout) == (1e-5, 0.0)
    assert GPTConfig.from_dict(c.to_dict()) == c


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"), ({"d_model": 8}, "missing: vocab_size"), ({"vocab_size": 5, "colour": 1}, "unknown"),
        ({"vocab_size": 0}, "vocab_size"), ({"vocab_size": 5, "d_model": 10, "n_heads": 3}, "divisible"),
        ({"vocab_size": 5, "max_len": 10**6}, "max_len"), ({"vocab_size": 5, "layer_norm_eps": 0}, "layer_norm_eps"),
        ({"vocab_size": 5, "dropout": 1.5}, "dropout"), ({"vocab_size": 5, "n_layers": True}, "n_layers"),
    ],
)  # fmt: skip
def test_bad_configs_say_what_is_wrong(data, message):
    with pytest.raises(LabError, match=message):
        GPTConfig.from_dict(data)
