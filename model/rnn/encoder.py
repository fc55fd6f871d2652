"""The recurrent encoder: a cell run over the source, forwards and (optionally) backwards.

Sources are right-padded. A padded step leaves the state unchanged and outputs zeros, so the
forward direction ends on the last real token and the backward direction starts there, exactly
as torch's packed sequences do. Each h_i is [forward h_i ; backward h_i] when bidirectional.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch
from torch import nn

from .cells import RecurrentCell, State, keep_where, make_cell


@dataclass
class EncoderStates:
    """What the decoder reads: every encoder state and the final one (the classic fixed vector)."""

    states: torch.Tensor  # (B, S, d_enc), zeros at padding
    final: torch.Tensor  # (B, d_enc): forward state after the last real token ⧺ backward state after the first
    gates: dict[str, torch.Tensor] = field(default_factory=dict)  # name → (B, S, d_enc), recorded runs only
    cells: torch.Tensor | None = None  # (B, S, d_enc) LSTM cell states c_i, recorded runs only


@dataclass
class CellRun:
    """One direction of a cell over a sequence."""

    outputs: torch.Tensor  # (B, L, H)
    final: State
    gates: dict[str, torch.Tensor]  # name → (B, L, H), when recorded
    cells: torch.Tensor | None  # (B, L, H) LSTM c, when recorded


def run_cell(
    cell: RecurrentCell,
    xw: torch.Tensor,
    keep: torch.Tensor | None,
    reverse: bool = False,
    record: bool = False,
    state: State | None = None,
) -> CellRun:
    """Step `cell` over xw (B, L, G·H) = cell.project_inputs(x); keep (B, L) False at padding (None: no padding)."""
    B, L = xw.shape[:2]
    state = cell.initial_state(B) if state is None else state
    outputs: list[torch.Tensor] = []  # (B, H) per step, in the order the steps ran
    gates: dict[str, list[torch.Tensor]] = {name: [] for name in cell.gate_names} if record else {}
    cells: list[torch.Tensor] = []
    for t in reversed(range(L)) if reverse else range(L):
        k = None if keep is None else keep[:, t]
        new, step_gates = cell.step(xw[:, t], state)
        state = keep_where(k, new, state)
        mask = 1.0 if k is None else k[:, None].to(xw.dtype)  # zeros at padding
        outputs.append(new[0] * mask)
        if record:
            for name in gates:
                gates[name].append(step_gates[name] * mask)
            if len(new) > 1:
                cells.append(new[1] * mask)

    def along_time(steps: list[torch.Tensor]) -> torch.Tensor:
        """(B, L, H): the steps stacked by position, whichever way they ran."""
        return torch.stack(steps[::-1] if reverse else steps, dim=1)

    stacked = {name: along_time(values) for name, values in gates.items()}
    c = along_time(cells) if record and cell.state_size > 1 else None
    return CellRun(along_time(outputs), state, stacked, c)


class RecurrentEncoder(nn.Module):
    """A cell over the embedded source, one per direction: (B, S, d_embed) → EncoderStates."""

    def __init__(self, kind: str, d_input: int, d_hidden: int, bidirectional: bool):
        super().__init__()
        self.cells = nn.ModuleList(make_cell(kind, d_input, d_hidden) for _ in range(2 if bidirectional else 1))

    def forward(self, x: torch.Tensor, keep: torch.Tensor | None, record: bool = False) -> EncoderStates:
        runs = []
        for direction, cell in enumerate(self.cells):
            assert isinstance(cell, RecurrentCell)  # nn.ModuleList types its items as any nn.Module
            runs.append(run_cell(cell, cell.project_inputs(x), keep, reverse=direction == 1, record=record))
        if len(runs) == 1:
            run = runs[0]
            return EncoderStates(run.outputs, run.final[0], run.gates, run.cells)
        fwd, bwd = runs
        return EncoderStates(
            torch.cat([fwd.outputs, bwd.outputs], dim=-1),  # (B, S, 2H)
            torch.cat([fwd.final[0], bwd.final[0]], dim=-1),  # (B, 2H)
            {name: torch.cat([fwd.gates[name], bwd.gates[name]], dim=-1) for name in fwd.gates},
            None if fwd.cells is None or bwd.cells is None else torch.cat([fwd.cells, bwd.cells], dim=-1),
        )
