"""The unigram baseline: each token's frequency in the training ids (add-one smoothed), ignoring all context.

A GPT's held-out loss means something only beside this: the cross-entropy of predicting every token from its
overall frequency alone, on the same held-out ids and vocabulary.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch


def unigram_probs(train_ids: Sequence[int] | torch.Tensor, vocab_size: int, alpha: float = 1.0) -> torch.Tensor:
    """(V,) float64: (count(t) + alpha) / (N + alpha·V), so a token never seen in training still has a probability."""
    ids = torch.as_tensor(train_ids, dtype=torch.long)
    counts = torch.bincount(ids, minlength=vocab_size).to(torch.float64)
    return (counts + alpha) / (counts.sum() + alpha * vocab_size)


def cross_entropy(probs: torch.Tensor, ids: Sequence[int] | torch.Tensor) -> float:
    """Mean −log p(token) over `ids`, in nats per token."""
    ids = torch.as_tensor(ids, dtype=torch.long)
    return float(-probs.log()[ids].mean())


def sample(probs: torch.Tensor, n: int, seed: int, temperature: float = 1.0) -> list[int]:
    """n ids drawn independently from `probs` sharpened by a temperature (p^(1/T), renormalised), from `seed`."""
    scaled = probs ** (1.0 / temperature)
    generator = torch.Generator().manual_seed(seed)
    return torch.multinomial(scaled / scaled.sum(), n, replacement=True, generator=generator).tolist()
