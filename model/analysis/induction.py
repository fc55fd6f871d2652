"""Induction heads, measured: the induction and previous-token scores of each head, and the in-context loss.

On a sequence whose segment x₀ … x_{s−1} starts at `start` and is repeated once (model/gpt/induction.py):

    induction score      mean over the second copy's positions q = start + s + j (j = 0 … s−1) of the attention
                         from q to start + j + 1, the token after x_j's earlier occurrence
    previous-token score mean over positions t = 1 … T−1 of the attention from t to t − 1
    in-context loss      loss on the second copy − loss on the first: each copy's tokens after its first one
                         (positions c + 1 … c + s − 1, each predicted one position earlier); near 0 before an
                         induction head forms, strongly negative after

An induction head copies by two steps (Olsson et al., 2022): a previous-token head in an earlier layer writes "the
token before me" into each position, and the induction head's query matches it. `circuit` names the two heads.
The functions on weights and logits are pure (hand-built matrices test them); head_scores runs a GPT once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from ..errors import N_, LabError
from ..gpt.induction import RepeatedBatch
from ..gpt.model import GPT
from ..naming import LOGITS, AttentionKind, attention_name

INDUCTION_THRESHOLD = 0.5  # an induction score at least this: the head has formed (the training goal's bar)


def induction_keys(tokens: Sequence[str]) -> np.ndarray:
    """(L, L) bool: True at (i, j) when key j is the token after an earlier occurrence of token i (tokens[j − 1] ==
    tokens[i], j ≤ i): the head atlas's "induction" role on any text. On a repeated segment with no other repeat
    these are exactly the induction score's cells."""
    t = np.array(tokens, dtype=object)
    n = len(t)
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]  # (L, 1), (1, L)
    before = np.concatenate([[None], t[:-1]]) if n else t  # (L,): the token before each key
    return (j >= 1) & (j <= i) & (before[None, :] == t[:, None])


def _as_rows(value: int | torch.Tensor, batch: int) -> torch.Tensor:
    return torch.as_tensor(value, dtype=torch.long).reshape(-1).expand(batch)  # (B,)


def induction_targets(length: int, start: torch.Tensor, segment: torch.Tensor) -> torch.Tensor:
    """(B, T, T) float: 1 at (q, q − s + 1) for each query q of sequence b's second copy, 0 elsewhere."""
    position = torch.arange(length)  # (T,)
    q, k = position[:, None], position[None, :]  # (T, 1), (1, T)
    s, first = segment[:, None, None], start[:, None, None]  # (B, 1, 1)
    second = (q >= first + s) & (q < first + 2 * s)  # (B, T, 1)
    return (second & (k == q - s + 1)).float()  # (B, T, T)


def induction_per_sequence(
    weights: torch.Tensor,  # (B, ..., T, T) attention rows (a head, or heads)
    start: int | torch.Tensor,  # (B,) or one int for every sequence
    segment: int | torch.Tensor,  # (B,) or one int
) -> torch.Tensor:
    """(B, ...): each sequence's induction score, per head."""
    B, T = weights.shape[0], weights.shape[-1]
    start, segment = _as_rows(start, B), _as_rows(segment, B)
    if bool((segment < 1).any()) or bool((start < 0).any()) or bool((start + 2 * segment > T).any()):
        raise LabError(N_("the segment and its copy must fit in the sequence of {n} tokens."), n=T)
    target = induction_targets(T, start, segment)  # (B, T, T)
    target = target.reshape(B, *([1] * (weights.dim() - 3)), T, T)  # (B, 1…, T, T)
    per = (weights.float() * target).sum((-2, -1))  # (B, ...)
    return per / segment.reshape(B, *([1] * (per.dim() - 1))).float()


def induction_score(weights: torch.Tensor, start: int, segment: int) -> float:
    """The mean attention from each position of the second copy to the token after its earlier occurrence, over
    the leading axes of weights (..., T, T) too (heads, a batch of this one layout)."""
    rows = weights.reshape(-1, *weights.shape[-2:])  # (N, T, T)
    return float(induction_per_sequence(rows, start, segment).mean())


def previous_per_head(weights: torch.Tensor) -> torch.Tensor:
    """(...,): the mean attention of positions 1 … T−1 to the one before, for weights (..., T, T)."""
    if weights.shape[-1] < 2:
        raise LabError(N_("a previous-token score needs at least 2 tokens."))
    return weights.float().diagonal(offset=-1, dim1=-2, dim2=-1).mean(-1)  # (...,)


def previous_token_score(weights: torch.Tensor) -> float:
    """The mean attention to position t − 1 over t = 1 … T−1 (and over the leading axes of weights (..., T, T))."""
    return float(previous_per_head(weights).mean())


def copy_losses(
    logits: torch.Tensor,  # (B, T, V)
    ids: torch.Tensor,  # (B, T)
    start: int | torch.Tensor,
    segment: int | torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """(first (B,), second (B,)): each sequence's mean next-token loss on its first and its second copy (the copy's
    tokens after its first one, which only the sequence before could predict)."""
    B, T = ids.shape
    start, segment = _as_rows(start, B), _as_rows(segment, B)
    if bool((segment < 2).any()) or bool((start < 0).any()) or bool((start + 2 * segment > T).any()):
        raise LabError(N_("the segment (at least 2 tokens) and its copy must fit in the sequence of {n} tokens."), n=T)
    loss = F.cross_entropy(logits[:, :-1].float().transpose(1, 2), ids[:, 1:], reduction="none")  # (B, T−1)
    target = torch.arange(1, T)[None, :]  # (1, T−1): the position each loss predicts

    def mean_over(first: torch.Tensor) -> torch.Tensor:  # first (B,): where the copy begins
        inside = (target > first[:, None]) & (target < (first + segment)[:, None])  # (B, T−1)
        return (loss * inside).sum(1) / inside.sum(1)

    return mean_over(start), mean_over(start + segment)


def in_context_loss(logits: torch.Tensor, ids: torch.Tensor, start: int, segment: int) -> float:
    """The loss on the second copy minus the loss on the first (nats per token), for one sequence: logits (T, V),
    ids (T,)."""
    first, second = copy_losses(logits[None], ids[None], start, segment)
    return float(second[0] - first[0])


@dataclass(frozen=True)
class HeadScores:
    """Every head's scores on a batch of repeated sequences (layer l, head h at [l, h]), and the model's losses."""

    induction: np.ndarray  # (L, H)
    previous: np.ndarray  # (L, H)
    in_context_loss: float  # mean over the batch: second copy − first copy, nats per token
    loss: float  # mean next-token loss over every position of the batch
    first_copy_loss: float = float("nan")  # the two terms of in_context_loss
    second_copy_loss: float = float("nan")

    @property
    def best_induction(self) -> float:
        """The highest induction score of any head (the training run stops when it reaches INDUCTION_THRESHOLD)."""
        return float(self.induction.max())

    @property
    def formed(self) -> bool:
        """True once some head's induction score reaches INDUCTION_THRESHOLD."""
        return self.best_induction >= INDUCTION_THRESHOLD


@torch.no_grad()
def head_scores(model: GPT, batch: RepeatedBatch) -> HeadScores:
    """Run the GPT once over the batch (eval mode, traced) and score every head: cheap enough to call during
    training every few dozen steps (the model's train/eval mode is restored)."""
    was_training = model.training
    model.eval()
    try:
        logits, trace = model(batch.ids, record=True)  # (B, T, V)
    finally:
        model.train(was_training)
    induction, previous = [], []
    for layer in range(model.config.n_layers):
        weights = trace[attention_name(AttentionKind.DECODER, layer, "weights")]  # (B, H, T, T)
        induction.append(induction_per_sequence(weights, batch.start, batch.segment).mean(0))  # (H,)
        previous.append(previous_per_head(weights).mean(0))  # (H,)
    first, second = copy_losses(trace[LOGITS], batch.ids, batch.start, batch.segment)  # (B,) each
    loss = F.cross_entropy(logits[:, :-1].flatten(0, 1), batch.ids[:, 1:].flatten())
    return HeadScores(
        torch.stack(induction).numpy(), torch.stack(previous).numpy(), float((second - first).mean()), float(loss),
        float(first.mean()), float(second.mean()),
    )  # fmt: skip


def circuit(scores: HeadScores) -> tuple[int, int, int, int]:
    """(prev_layer, prev_head, ind_layer, ind_head): the head with the highest induction score in any layer after the
    first, and the head with the highest previous-token score in the layers before it. LabError with one layer."""
    layers = scores.induction.shape[0]
    if layers < 2:
        raise LabError(N_("an induction circuit needs two layers (a previous-token head, then an induction head); "
                          "this model has {n}."), n=layers)  # fmt: skip
    later = scores.induction[1:]  # (L − 1, H)
    after_first, ind_head = (int(i) for i in np.unravel_index(int(np.argmax(later)), later.shape))
    ind_layer = after_first + 1
    earlier = scores.previous[:ind_layer]  # (ind_layer, H)
    prev_layer, prev_head = (int(i) for i in np.unravel_index(int(np.argmax(earlier)), earlier.shape))
    return prev_layer, prev_head, ind_layer, ind_head
