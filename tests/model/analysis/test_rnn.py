"""The RNN lessons' numbers: attention maps for any family, one decoder step, accuracy by length,
gradients through time (checked against torch.nn's own recurrent modules)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import torch.nn.functional as F
from torch import nn

from model import load_pretrained
from model.analysis.attention import attention_maps
from model.analysis.rnn import accuracy_by_length, decoder_step, gradient_setup, gradient_through_time
from tests.toys import toy

SENTENCE = "the big red dog sees a small cat"


@pytest.fixture(scope="module")
def translate_rnn():
    return load_pretrained("translate-rnn")


def test_attention_maps_give_heads_for_every_family(translate_rnn):
    trace = translate_rnn.run(SENTENCE)
    maps = attention_maps(trace)
    assert list(maps) == ["rnn.attn"]
    np.testing.assert_array_equal(maps["rnn.attn"][0], trace.numpy("rnn.attn.weights"))  # one head: (1, T, S)
    transformer = load_pretrained("translate").run(SENTENCE)
    tmaps = attention_maps(transformer)
    assert set(tmaps) == {n.removesuffix(".weights") for n in transformer.names() if n.endswith(".weights")}
    np.testing.assert_array_equal(tmaps["decoder.1.cross_attn"], transformer.numpy("decoder.1.cross_attn.weights"))
    assert tmaps["decoder.1.cross_attn"].shape == (4, 9, 9)
    assert attention_maps(load_pretrained("translate-rnn-noattn").run(SENTENCE)) == {}


def test_decoder_step_reads_the_trace(translate_rnn):
    trace = translate_rnn.run(SENTENCE)
    vocab = translate_rnn.task.tgt_vocab
    predicted = [vocab.stoi[w] for w in trace.prediction.split()]
    for t, want_id in enumerate(predicted):
        step = decoder_step(trace, t)
        assert step["output_id"] == want_id  # the greedy output, step by step
        np.testing.assert_allclose(step["context"], step["weights"] @ trace.numpy("rnn.enc.h"), atol=1e-6)
        np.testing.assert_allclose(step["probabilities"].sum(), 1.0, atol=1e-9)
        np.testing.assert_array_equal(step["s"], trace.numpy("rnn.dec.s")[t])
        if t:
            np.testing.assert_array_equal(step["s_prev"], decoder_step(trace, t - 1)["s"])
    with pytest.raises(ValueError, match=r"step must be in 0\.\.8"):
        decoder_step(trace, 9)


def test_decoder_step_without_attention_has_a_fixed_context():
    trace = load_pretrained("translate-rnn-noattn").run(SENTENCE)
    first, last = decoder_step(trace, 0), decoder_step(trace, 5)
    assert first["weights"] is None and first["scores"] is None
    np.testing.assert_array_equal(first["context"], trace.numpy("rnn.enc.final"))
    np.testing.assert_array_equal(first["context"], last["context"])


def test_accuracy_by_length_counts_exact_matches():
    loaded = toy("reverse-rnn")
    result = accuracy_by_length(loaded, [3, 12, 20, 70], per_length=30, seed=7)
    assert list(result) == [3, 12, 20]  # 70 is over the model's limit (63 words): left out
    for length, accuracy in result.items():
        pairs = loaded.task.sample_of_length(30, length, seed=7 + length)
        assert all(len(s.split()) == length for s, _ in pairs)
        right = sum(loaded.predict(s) == " ".join(reversed(s.split())) for s, _ in pairs)
        assert accuracy == right / 30
    assert result[3] == result[12] == 1.0
    translate = accuracy_by_length(toy("translate-rnn"), [3, 5, 9], per_length=20)
    assert list(translate) == [5, 9]  # the task never makes 3-word sentences


REFERENCES: dict[str, Callable[..., nn.RNNBase]] = {
    "rnn": lambda d, h: nn.RNN(d, h, batch_first=True),
    "gru": nn.GRU,
    "lstm": nn.LSTM,
}


@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
@pytest.mark.parametrize("keep_bias", [0.0, 2.0])
def test_gradient_through_time_matches_torch_autograd_on_torch_modules(cell, keep_bias):
    setup = gradient_setup(cell, length=12, keep_bias=keep_bias, batch=16, d_hidden=8, d_input=5)
    ref = REFERENCES[cell](5, 8).double() if cell == "rnn" else REFERENCES[cell](5, 8, batch_first=True).double()
    ref.load_state_dict({f"{k}_l0": v for k, v in setup.cell.state_dict().items()})
    x = setup.inputs.clone().requires_grad_(True)
    out, _ = ref(x)
    F.cross_entropy(setup.readout(out[:, -1]), setup.labels).backward()
    assert x.grad is not None
    want = x.grad.norm(dim=-1).mean(0).flip(0).numpy()
    profile = gradient_through_time(cell, length=12, keep_bias=keep_bias, batch=16, d_hidden=8, d_input=5)
    np.testing.assert_allclose(profile.norm, want, rtol=1e-10)
    np.testing.assert_allclose(profile.relative, want / want[0], rtol=1e-10)
    assert list(profile.distance) == list(range(12))


def test_gates_that_keep_the_state_keep_the_gradient():
    plain = gradient_through_time("rnn", length=40, keep_bias=3.0)  # no gate: keep_bias changes nothing
    assert np.array_equal(plain.norm, gradient_through_time("rnn", length=40).norm)
    gru = gradient_through_time("gru", length=40, keep_bias=3.0)
    assert plain.relative[30] < 1e-6 and gru.relative[30] > 1e-2  # measured: ~9e-9 and ~0.25


def test_gradient_setup_refuses_bad_settings():
    with pytest.raises(ValueError, match="cell must be one of"):
        gradient_setup("transformer")
    with pytest.raises(ValueError, match="length must be from 1 to 512"):
        gradient_setup("gru", length=0)
