"""Recurrent cells written out: plain tanh RNN, GRU and LSTM, one time step at a time.

Parameters use torch's layout (weight_ih (G·H, I), weight_hh (G·H, H), bias_ih, bias_hh, gates
stacked in torch's order) and torch's initialisation U(−1/√H, 1/√H), so weights copy straight from
nn.RNN / nn.GRU / nn.LSTM (the parity tests do). With x W_ih + b_ih computed for all steps at once:

    rnn:  h' = tanh(W_ih x + b_ih + W_hh h + b_hh)
    gru:  r = σ(·), z = σ(·), n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)), h' = (1 − z) ⊙ n + z ⊙ h
    lstm: i, f, g, o = σ, σ, tanh, σ (·);  c' = f ⊙ c + i ⊙ g,  h' = o ⊙ tanh(c')

A state is a tuple: (h,) for rnn and gru, (h, c) for lstm.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

State = tuple[torch.Tensor, ...]


class RecurrentCell(nn.Module):
    """One step of a recurrent cell; subclasses say how the gates combine."""

    n_gates: int = 1
    gate_names: tuple[str, ...] = ()  # gates the trace records, e.g. ("reset", "update")
    state_size: int = 1  # tensors in a state: 1, or 2 for (h, c)

    def __init__(self, d_input: int, d_hidden: int):
        super().__init__()
        self.d_input, self.d_hidden = d_input, d_hidden
        G = self.n_gates * d_hidden
        self.weight_ih = nn.Parameter(torch.empty(G, d_input))
        self.weight_hh = nn.Parameter(torch.empty(G, d_hidden))
        self.bias_ih = nn.Parameter(torch.empty(G))
        self.bias_hh = nn.Parameter(torch.empty(G))
        bound = 1.0 / math.sqrt(d_hidden)
        for p in self.parameters():
            nn.init.uniform_(p, -bound, bound)

    def project_inputs(self, x: torch.Tensor) -> torch.Tensor:
        """W_ih x + b_ih for any number of steps at once: (..., I) → (..., G·H)."""
        return F.linear(x, self.weight_ih, self.bias_ih)

    def initial_state(self, batch: int, h: torch.Tensor | None = None) -> State:
        """Zeros, or the given h with a zero cell state for the LSTM."""
        h = torch.zeros(batch, self.d_hidden, dtype=self.weight_hh.dtype) if h is None else h
        return (h,) + tuple(torch.zeros_like(h) for _ in range(self.state_size - 1))

    def step(self, xw: torch.Tensor, state: State) -> tuple[State, dict[str, torch.Tensor]]:
        """xw (B, G·H) = project_inputs(x_t), state → new state and the gates {name: (B, H)}."""
        raise NotImplementedError


class TanhCell(RecurrentCell):
    """The plain (Elman) RNN: no gates, so gradients pass through tanh' · W_hh at every step."""

    def step(self, xw, state):
        (h,) = state
        return (torch.tanh(xw + F.linear(h, self.weight_hh, self.bias_hh)),), {}


class GRUCell(RecurrentCell):
    """Gated recurrent unit (Cho et al., 2014): z decides how much of h to keep, r how much feeds n."""

    n_gates, gate_names = 3, ("reset", "update")

    def step(self, xw, state):
        (h,) = state
        x_r, x_z, x_n = xw.chunk(3, dim=-1)  # (B, H) each
        h_r, h_z, h_n = F.linear(h, self.weight_hh, self.bias_hh).chunk(3, dim=-1)
        r, z = torch.sigmoid(x_r + h_r), torch.sigmoid(x_z + h_z)
        n = torch.tanh(x_n + r * h_n)
        return ((1 - z) * n + z * h,), {"reset": r, "update": z}


class LSTMCell(RecurrentCell):
    """Long short-term memory (Hochreiter & Schmidhuber, 1997; forget gate of Gers et al., 2000)."""

    n_gates, gate_names, state_size = 4, ("input", "forget", "output"), 2

    def step(self, xw, state):
        h, c = state
        gates = xw + F.linear(h, self.weight_hh, self.bias_hh)
        i, f, g, o = gates.chunk(4, dim=-1)  # (B, H) each
        i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
        c = f * c + i * g
        return (o * torch.tanh(c), c), {"input": i, "forget": f, "output": o}


CELL_TYPES: dict[str, type[RecurrentCell]] = {"rnn": TanhCell, "gru": GRUCell, "lstm": LSTMCell}


def make_cell(kind: str, d_input: int, d_hidden: int) -> RecurrentCell:
    return CELL_TYPES[kind](d_input, d_hidden)


def keep_where(keep: torch.Tensor | None, new: State, old: State) -> State:
    """The new state where keep (B,) is True, the old one elsewhere (padding leaves the state alone)."""
    if keep is None:
        return new
    k = keep[:, None]
    return tuple(torch.where(k, n, o) for n, o in zip(new, old, strict=True))
