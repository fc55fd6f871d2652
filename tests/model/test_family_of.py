"""model.transformer_of / rnn_of: a part of a page that opens one family's blocks gets that family's model, and a
model of the other family is refused by name (pages ask first, so reaching it is a bug, never a wrong drawing)."""

from __future__ import annotations

import pytest

from model import RNNSeq2Seq, Seq2SeqTransformer, load_pretrained, rnn_of, transformer_of


def test_each_family_is_given_as_itself():
    transformer, rnn = load_pretrained("reverse"), load_pretrained("reverse-rnn")
    assert isinstance(transformer_of(transformer), Seq2SeqTransformer)
    assert transformer_of(transformer) is transformer.model
    assert isinstance(rnn_of(rnn), RNNSeq2Seq) and rnn_of(rnn) is rnn.model


def test_the_other_family_is_refused_with_the_models_name():
    with pytest.raises(TypeError, match="reverse-rnn is a rnn model, not a Transformer"):
        transformer_of(load_pretrained("reverse-rnn"))
    with pytest.raises(TypeError, match="reverse is a transformer model, not an RNN"):
        rnn_of(load_pretrained("reverse"))
