"""Numbers the RNN lessons draw: one decoder step opened up, accuracy against input length, and
gradients through time for the plain RNN, the GRU and the LSTM. Pure PyTorch/NumPy, no plotting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

import numpy as np
import torch
import torch.nn.functional as F

from ..errors import N_, LabError, one_of
from ..naming import LOGITS, RNN_ATTN, RNN_DEC_S, RNN_DEC_S_PREV, RNN_ENC_FINAL, part_name
from ..rnn.cells import CELL_TYPES, RecurrentCell, make_cell
from ..rnn.encoder import run_cell
from ..runner import LoadedModel
from ..trace import Trace


class DecoderStep(TypedDict):
    """One decoder step's numbers (decoder_step); scores, masked and weights are None for a model without attention."""

    s_prev: np.ndarray  # (d_dec,)
    scores: np.ndarray | None  # (S,)
    masked: np.ndarray | None  # (S,)
    weights: np.ndarray | None  # (S,)
    context: np.ndarray  # (d_enc,)
    s: np.ndarray  # (d_dec,)
    logits: np.ndarray  # (V,)
    probabilities: np.ndarray  # (V,)
    output_id: int


def decoder_step(trace: Trace, t: int, batch: int = 0) -> DecoderStep:
    """Everything decoder step t (0-based) of an RNN trace computed, as float64 arrays:

    s_prev (d_dec,) the state the scores read; scores, masked, weights (S,); context (d_enc,) = c_t;
    s (d_dec,) the new state; logits and probabilities (V,); output_id, the argmax token id.
    Without attention (score 'none') scores / masked / weights are None and context is the final
    encoder state, the same at every step.
    """
    steps = trace[RNN_DEC_S].shape[1]
    if not 0 <= t < steps:
        raise LabError(N_("step must be in 0..{last}, got {t}."), last=steps - 1, t=t)

    def row(name: str) -> np.ndarray:
        return trace.numpy(name, batch)[t].astype(np.float64)

    def attention(part: str) -> np.ndarray | None:
        """A row of rnn.attn.<part>, or None for a model without attention."""
        name = part_name(RNN_ATTN, part)
        return row(name) if name in trace else None

    logits, context = row(LOGITS), attention("context")
    out: DecoderStep = {
        "s_prev": row(RNN_DEC_S_PREV),
        "scores": attention("scores"),
        "masked": attention("masked"),
        "weights": attention("weights"),
        "context": trace.numpy(RNN_ENC_FINAL, batch).astype(np.float64) if context is None else context,
        "s": row(RNN_DEC_S),
        "logits": logits,
        "probabilities": torch.softmax(torch.from_numpy(logits), -1).numpy(),
        "output_id": int(np.argmax(logits)),
    }
    return out


def accuracy_by_length(
    loaded: LoadedModel, lengths: list[int], per_length: int = 200, seed: int = 4242
) -> dict[int, float]:
    """Exact match on `per_length` fresh inputs of each source length (in words). Lengths the model
    cannot take (over max_words) or the task cannot make are left out of the result."""
    out = {}
    for length in lengths:
        if length > loaded.max_words:
            continue
        try:
            pairs = loaded.task.sample_of_length(per_length, length, seed=seed + length)
        except ValueError:
            continue
        predictions = loaded.predict_batch([s for s, _ in pairs])
        out[length] = loaded.task.accuracy(predictions, [t for _, t in pairs])
    return out


@dataclass(frozen=True)
class GradientProfile:
    """‖∂loss/∂x_t‖ of one cell, indexed by distance from the output (0 = the last input)."""

    cell: str
    norm: np.ndarray  # (length,) mean over the batch of ‖∂loss/∂x_t‖ at distance length − 1 − t
    relative: np.ndarray  # (length,) norm / norm[0]

    @property
    def distance(self) -> np.ndarray:
        return np.arange(len(self.norm))


@dataclass
class GradientSetup:
    """The fixed experiment behind gradient_through_time: a fresh cell, a read-out, inputs and labels."""

    cell: RecurrentCell  # float64
    readout: torch.nn.Linear  # last state → class logits, float64
    inputs: torch.Tensor  # (batch, length, d_input) float64, N(0, 1)
    labels: torch.Tensor  # (batch,) random classes


MAX_GRADIENT_LENGTH = 512  # the longest sequence gradient_setup reads
GRADIENT_HIDDEN, GRADIENT_BATCH = 64, 128  # its cells' width and its sequences, by default (the RNN page says them)


def gradient_setup(
    cell: str,
    length: int = 40,
    keep_bias: float = 0.0,
    d_input: int = 16,
    d_hidden: int = GRADIENT_HIDDEN,
    batch: int = GRADIENT_BATCH,
    n_classes: int = 8,
    seed: int = 0,
) -> GradientSetup:
    """A freshly initialised cell (torch's U(−1/√H, 1/√H), seeded) and `batch` sequences of `length`
    N(0, 1) vectors with random labels, all float64. `keep_bias` is added to the bias of the gate that
    keeps the old state (GRU update gate z, LSTM forget gate f); the plain RNN has no such gate."""
    if cell not in CELL_TYPES:
        raise one_of("cell", CELL_TYPES, cell)
    if not 1 <= length <= MAX_GRADIENT_LENGTH:
        raise LabError(N_("length must be from 1 to {limit}, got {length}."), length=length, limit=MAX_GRADIENT_LENGTH)
    generator = torch.Generator().manual_seed(seed)
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        rnn = make_cell(cell, d_input, d_hidden).double()
        readout = torch.nn.Linear(d_hidden, n_classes).double()
    with torch.no_grad():
        if cell in ("gru", "lstm"):  # torch's gate order: GRU (r, z, n), LSTM (i, f, g, o): z and f are second
            rnn.bias_hh[d_hidden : 2 * d_hidden] += keep_bias
    inputs = torch.randn(batch, length, d_input, dtype=torch.float64, generator=generator)
    labels = torch.randint(0, n_classes, (batch,), generator=generator)
    return GradientSetup(rnn, readout, inputs, labels)


def gradient_through_time(cell: str, length: int = 40, keep_bias: float = 0.0, **setup) -> GradientProfile:
    """How much the loss at the end of a sequence still feels each earlier input, for one cell kind.

    On `gradient_setup(cell, length, keep_bias, ...)` (nothing is trained): the cell reads each
    sequence, a linear read-out of its last state gives class logits, the loss is the mean
    cross-entropy, and the result is the batch mean of ‖∂loss/∂x_t‖ by distance from the end.
    A plain RNN multiplies the gradient by tanh' · W_hh at every step, so it fades fast; a gate that
    keeps the state (keep_bias > 0) gives it a path that fades slowly.
    """
    s = gradient_setup(cell, length, keep_bias, **setup)
    x = s.inputs.clone().requires_grad_(True)
    last = run_cell(s.cell, s.cell.project_inputs(x), None).final[0]  # (B, H)
    (grad,) = torch.autograd.grad(F.cross_entropy(s.readout(last), s.labels), x)  # ∂loss/∂x (B, length, d_input)
    norm = grad.norm(dim=-1).mean(0).flip(0).numpy()  # (length,), distance 0 first
    return GradientProfile(cell, norm, norm / norm[0])
