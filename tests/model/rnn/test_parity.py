"""Our hand-written recurrent encoder matches torch.nn.RNN / GRU / LSTM with copied weights."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from model import RNNConfig, RNNSeq2Seq
from model.rnn.cells import RecurrentCell
from model.rnn.encoder import RecurrentEncoder

D_IN, H, TOL = 7, 5, 1e-5
REFERENCES: dict[str, Callable[..., nn.RNNBase]] = {
    "rnn": lambda **kw: nn.RNN(nonlinearity="tanh", **kw),
    "gru": nn.GRU,
    "lstm": nn.LSTM,
}


def _pair(kind: str, bidirectional: bool):
    torch.manual_seed(11)
    ref = REFERENCES[kind](input_size=D_IN, hidden_size=H, batch_first=True, bidirectional=bidirectional)
    ours = RecurrentEncoder(kind, D_IN, H, bidirectional)
    state = {}
    for key, value in ref.state_dict().items():  # weight_ih_l0(_reverse) → cells.0(1).weight_ih
        name, _, rest = key.rpartition("_l0")
        state[f"cells.{1 if rest == '_reverse' else 0}.{name}"] = value
    ours.load_state_dict(state, strict=True)
    return ref, ours


@pytest.mark.parametrize("kind", ["rnn", "gru", "lstm"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_encoder_matches_torch(kind, bidirectional):
    ref, ours = _pair(kind, bidirectional)
    x = torch.randn(4, 9, D_IN)
    with torch.no_grad():
        want, h_n = ref(x)
        got = ours(x, None)
    h_n = h_n[0] if kind == "lstm" else h_n  # (directions, B, H)
    torch.testing.assert_close(got.states, want, atol=TOL, rtol=0)
    torch.testing.assert_close(got.final, torch.cat(list(h_n), dim=-1), atol=TOL, rtol=0)


@pytest.mark.parametrize("kind", ["gru", "lstm"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_padded_batch_matches_torch_packed_sequences(kind, bidirectional):
    ref, ours = _pair(kind, bidirectional)
    lengths = [9, 3, 6, 1]
    x = torch.randn(4, 9, D_IN)
    keep = torch.arange(9)[None, :] < torch.tensor(lengths)[:, None]  # (B, S)
    with torch.no_grad():
        packed, h_n = ref(pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False))
        want, _ = pad_packed_sequence(packed, batch_first=True, total_length=9)
        got = ours(x, keep)
    h_n = h_n[0] if kind == "lstm" else h_n
    torch.testing.assert_close(got.states, want, atol=TOL, rtol=0)
    torch.testing.assert_close(got.final, torch.cat(list(h_n), dim=-1), atol=TOL, rtol=0)


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


@pytest.mark.parametrize("kind", ["gru", "lstm"])
def test_traced_gates_follow_the_cell_equations(kind):
    """The update gate z (GRU) and the forget gate f (LSTM), recomputed in NumPy from x_t and h_{t-1}."""
    torch.manual_seed(2)
    model = RNNSeq2Seq(RNNConfig(src_vocab_size=12, tgt_vocab_size=12, cell=kind, d_embed=6, d_hidden=5)).eval()
    src = torch.randint(4, 12, (2, 8))
    with torch.inference_mode():
        _, trace = model(src, src, record=True)
    cell = model.encoder.cells[0]
    assert isinstance(cell, RecurrentCell)
    w_ih, w_hh, b_ih, b_hh = (
        p.detach().double().numpy() for p in (cell.weight_ih, cell.weight_hh, cell.bias_ih, cell.bias_hh)
    )
    x = trace["src.embed"].double().numpy()
    h = trace["rnn.enc.h"].double().numpy()
    h_prev = np.concatenate([np.zeros_like(h[:, :1]), h[:, :-1]], axis=1)
    block = slice(5, 10)  # the second gate block: GRU (r, z, n) → z, LSTM (i, f, g, o) → f
    want = _sigmoid(x @ w_ih[block].T + b_ih[block] + h_prev @ w_hh[block].T + b_hh[block])
    name = "update" if kind == "gru" else "forget"
    np.testing.assert_allclose(trace[f"rnn.enc.gates.{name}"].double().numpy(), want, atol=1e-6)
