"""The RNN's traced intermediates obey the formulas, recomputed with NumPy from the parameters."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model import RNNConfig, RNNSeq2Seq

from ..batches import SRC_LENGTHS, padded_batch

CONFIGS = [
    dict(cell="gru", score="additive", bidirectional=False, d_embed=8, d_hidden=6),
    dict(cell="lstm", score="additive", bidirectional=True, d_embed=5, d_hidden=4),
    dict(cell="gru", score="dot", bidirectional=True, d_embed=7, d_hidden=5),
    dict(cell="rnn", score="dot", bidirectional=False, d_embed=4, d_hidden=9),
    dict(cell="lstm", score="general", bidirectional=False, d_embed=6, d_hidden=7),
    dict(cell="rnn", score="general", bidirectional=True, d_embed=3, d_hidden=4),
]


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().double().numpy()


@pytest.fixture(params=range(len(CONFIGS)), ids=[f"{c['cell']}-{c['score']}" for c in CONFIGS], scope="module")
def traced(request):
    torch.manual_seed(request.param)
    config = RNNConfig(src_vocab_size=13, tgt_vocab_size=11, max_len=20, **CONFIGS[request.param])
    model = RNNSeq2Seq(config).eval()
    src, tgt = padded_batch(config, request.param)
    with torch.inference_mode():
        logits, trace = model(src, tgt, record=True)
        plain = model(src, tgt)
    return model, config, src, tgt, logits, plain, {k: _np(v) for k, v in trace.items()}


def test_names_and_shapes(traced):
    _, c, src, tgt, _, _, tr = traced
    (B, S), T = src.shape, tgt.shape[1]
    expect = {
        "src.embed": (B, S, c.d_embed), "tgt.embed": (B, T, c.d_embed),
        "rnn.enc.h": (B, S, c.d_enc), "rnn.enc.final": (B, c.d_enc),
        "rnn.dec.s_prev": (B, T, c.d_dec), "rnn.dec.s": (B, T, c.d_dec),
        "rnn.attn.scores": (B, T, S), "rnn.attn.masked": (B, T, S), "rnn.attn.weights": (B, T, S),
        "rnn.attn.context": (B, T, c.d_enc), "logits": (B, T, c.tgt_vocab_size),
    }  # fmt: skip
    gates = {"rnn": (), "gru": ("reset", "update"), "lstm": ("input", "forget", "output")}[c.cell]
    for g in gates:
        expect[f"rnn.enc.gates.{g}"], expect[f"rnn.dec.gates.{g}"] = (B, S, c.d_enc), (B, T, c.d_dec)
    if c.cell == "lstm":
        expect["rnn.enc.c"], expect["rnn.dec.c"] = (B, S, c.d_enc), (B, T, c.d_dec)
    assert {k: v.shape for k, v in tr.items()} == expect


def test_weights_are_the_softmax_of_the_scores_over_real_tokens(traced):
    _, _, src, _, _, _, tr = traced
    keep = (src != 0).numpy()[:, None, :]  # (B, 1, S)
    scores = np.where(keep, tr["rnn.attn.scores"], -np.inf)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    np.testing.assert_allclose(tr["rnn.attn.weights"], e / e.sum(-1, keepdims=True), atol=1e-6)
    np.testing.assert_allclose(tr["rnn.attn.weights"].sum(-1), 1.0, atol=1e-6)
    assert (tr["rnn.attn.weights"][np.broadcast_to(~keep, tr["rnn.attn.weights"].shape)] == 0.0).all()
    assert np.isneginf(tr["rnn.attn.masked"][np.broadcast_to(~keep, tr["rnn.attn.masked"].shape)]).all()


def test_context_is_weights_times_encoder_states(traced):
    *_, tr = traced
    np.testing.assert_allclose(tr["rnn.attn.context"], tr["rnn.attn.weights"] @ tr["rnn.enc.h"], atol=1e-6)


def test_scores_recomputed_from_the_parameters(traced):
    model, c, *_, tr = traced
    s, h = tr["rnn.dec.s_prev"], tr["rnn.enc.h"]  # (B, T, d_dec), (B, S, d_enc)
    if c.score == "additive":
        W, U, v = _np(model.score.W), _np(model.score.U), _np(model.score.v)
        want = np.tanh((s @ W.T)[:, :, None, :] + (h @ U.T)[:, None, :, :]) @ v  # vᵀ tanh(W s + U h)
    elif c.score == "general":
        want = s @ _np(model.score.W) @ h.transpose(0, 2, 1)  # sᵀ W h
    else:
        want = s @ h.transpose(0, 2, 1)  # sᵀ h
    np.testing.assert_allclose(tr["rnn.attn.scores"], want, atol=1e-5)


def test_decoder_states_chain_and_logits_read_state_and_context(traced):
    model, *_, logits, plain, tr = traced
    bridge_w, bridge_b = _np(model.bridge.weight), _np(model.bridge.bias)
    np.testing.assert_allclose(
        tr["rnn.dec.s_prev"][:, 0], np.tanh(tr["rnn.enc.final"] @ bridge_w.T + bridge_b), atol=1e-6
    )
    np.testing.assert_allclose(tr["rnn.dec.s_prev"][:, 1:], tr["rnn.dec.s"][:, :-1], atol=0)
    features = np.concatenate([tr["rnn.dec.s"], tr["rnn.attn.context"]], axis=-1)
    want = features @ _np(model.generator.weight).T + _np(model.generator.bias)
    np.testing.assert_allclose(tr["logits"], want, atol=1e-5)
    assert torch.equal(logits, plain)  # recording changes nothing


def test_encoder_final_state_and_padding(traced):
    _, c, *_, tr = traced
    h, final = tr["rnn.enc.h"], tr["rnn.enc.final"]
    H = c.d_hidden
    for i, n in enumerate(SRC_LENGTHS):
        assert (h[i, n:] == 0).all()  # padded steps output zeros
        np.testing.assert_array_equal(final[i, :H], h[i, n - 1, :H])  # forward: after the last real token
        if c.bidirectional:
            np.testing.assert_array_equal(final[i, H:], h[i, 0, H:])  # backward: after the first


def test_padding_does_not_change_a_sequence(traced):
    model, _, src, tgt, logits, *_ = traced
    with torch.inference_mode():
        alone = model(src[2:3, : SRC_LENGTHS[2]], tgt[2:3])  # the shortest source without its padding
    torch.testing.assert_close(alone[0], logits[2], atol=1e-5, rtol=0)


def test_stepwise_decoding_matches_the_teacher_forced_pass(traced):
    model, _, src, tgt, logits, *_ = traced
    with torch.inference_mode():
        memory, keep = model.encode(src)
        cache = None
        for t in range(tgt.shape[1]):
            step, cache = model.decode_next(tgt[:, : t + 1], memory, keep, cache)
            torch.testing.assert_close(step, logits[:, t], atol=1e-6, rtol=0)
        step, _ = model.decode_next(tgt, memory, keep)  # no cache: the whole prefix is fed
        torch.testing.assert_close(step, logits[:, -1], atol=1e-6, rtol=0)


@pytest.mark.parametrize("cell", ["rnn", "gru", "lstm"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_without_attention_the_decoder_reads_only_the_final_state(cell, bidirectional):
    torch.manual_seed(5)
    c = RNNConfig(src_vocab_size=13, tgt_vocab_size=11, cell=cell, score="none", bidirectional=bidirectional)
    model = RNNSeq2Seq(c).eval()
    src, tgt = padded_batch(c, 3)
    with torch.inference_mode():
        logits, trace = model(src, tgt, record=True)
        assert not trace.names("rnn.attn") and "rnn.dec.s" in trace
        memory, keep = model.encode(src)
        memory.states = torch.randn_like(memory.states) * 5  # every encoder state replaced, the final one kept
        torch.testing.assert_close(model.decode(tgt, memory, keep), logits, atol=0, rtol=0)
        memory.final = memory.final + 0.5  # a different final state: different output
        assert not torch.allclose(model.decode(tgt, memory, keep), logits, atol=1e-3)


def test_with_attention_earlier_encoder_states_matter():
    """The counterpart of the test above: attention reads every state, not only the final one."""
    torch.manual_seed(6)
    model = RNNSeq2Seq(RNNConfig(src_vocab_size=13, tgt_vocab_size=11)).eval()
    src, tgt = padded_batch(model.config, 4)
    with torch.inference_mode():
        memory, keep = model.encode(src)
        before = model.decode(tgt, memory, keep)
        memory.states = memory.states.clone()
        memory.states[:, 0] += 1.0  # change only the first encoder state
        assert not torch.allclose(model.decode(tgt, memory, keep), before, atol=1e-4)
