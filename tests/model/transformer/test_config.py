"""ModelConfig refuses settings that cannot build a model, with a message a student understands."""

from __future__ import annotations

import pytest

from model import ModelConfig


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (dict(d_model=30, n_heads=4), "divisible by n_heads"),
        (dict(positional="rotary"), "positional must be one of"),
        (dict(norm="middle"), "'post' or 'pre'"),
        (dict(dropout=1.5), "dropout"),
        (dict(d_model=0), "at least 1"),
        (dict(n_encoder_layers=0), "from 1 to 12"),
        (dict(d_model=6, n_heads=2, positional="sinusoidal"), None),  # valid: even width
        (dict(d_model=9, n_heads=3, positional="sinusoidal"), "must be even"),
        (dict(max_len=2.5), "whole number"),
    ],
)
def test_validation(changes, message):
    if message is None:
        ModelConfig(src_vocab_size=10, tgt_vocab_size=10, **changes)
        return
    with pytest.raises(ValueError, match=message):
        ModelConfig(src_vocab_size=10, tgt_vocab_size=10, **changes)


def test_round_trip_and_head_width():
    c = ModelConfig(src_vocab_size=10, tgt_vocab_size=12, d_model=32, n_heads=4)
    assert c.d_head == 8
    assert ModelConfig.from_dict(c.to_dict()) == c
