"""Choosing the next token from a language model's logits: temperature, top-k, top-p (nucleus), greedy, a seed.

Pure functions on one 1-D logits tensor (V,), so the pages show exactly the numbers the model sampled from:

    logits ─ ÷ T ─▶ scaled ─ softmax ─▶ probs ─ top-k, then top-p ─▶ kept ─ renormalise ─▶ renormalised ─▶ a token

T = 0 is greedy: the limit T → 0 of softmax(l / T), all the probability on the largest logit (shared evenly when
several tie). Top-k keeps the k most likely tokens; top-p then keeps, of what top-k left (renormalised), the smallest
set of most likely tokens whose probability reaches p (always at least one). A seed makes a sample reproducible: the
same seed, the same settings and the same logits give the same token, on any machine (inverse-CDF sampling of one
uniform number from torch's seeded generator).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from .errors import N_, InputError

MAX_TEMPERATURE = 100.0  # above it every distribution is flat to the eye: refused as a mistake
MAX_SEED = 2**63 - 1  # what torch.Generator.manual_seed takes
TOP_P_TOLERANCE = 1e-9  # a cumulative sum this close to p counts as reaching it (float rounding)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True)
class SamplingSettings:
    """How the next token is chosen; InputError with a clear message for a setting that cannot be used."""

    temperature: float = 1.0  # 0 = greedy
    top_k: int | None = None  # None: no cut
    top_p: float | None = None  # None (or 1): no cut
    seed: int | None = None  # None: a fresh random sample each time

    def __post_init__(self) -> None:
        t = self.temperature
        if not _number(t) or not math.isfinite(t) or t < 0:
            raise InputError(
                N_("The temperature must be a number of at least 0 (0 picks the most likely token); got {value}."),
                value=repr(t),
            )
        if t > MAX_TEMPERATURE:
            raise InputError(
                N_("The temperature {value} is too large: at most {limit} (above it every token looks alike)."),
                value=t, limit=MAX_TEMPERATURE,
            )  # fmt: skip
        k = self.top_k
        if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
            raise InputError(N_("top-k must be a whole number of at least 1 (or off); got {value}."), value=repr(k))
        p = self.top_p
        if p is not None and (not _number(p) or not math.isfinite(p) or not 0 < p <= 1):
            raise InputError(N_("top-p must be a number above 0 and at most 1; got {value}."), value=repr(p))
        s = self.seed
        if s is not None and (isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= MAX_SEED):
            raise InputError(N_("The seed must be a whole number from 0 to {limit}; got {value}."), limit=MAX_SEED,
                             value=repr(s))  # fmt: skip

    @property
    def greedy(self) -> bool:
        """Temperature 0: always the most likely token."""
        return self.temperature == 0

    def check_vocabulary(self, size: int) -> None:
        """InputError when top-k asks for more tokens than the vocabulary has."""
        if self.top_k is not None and self.top_k > size:
            raise InputError(
                N_("top-k is {k}, but this model's vocabulary has only {size} tokens."), k=self.top_k, size=size
            )


GREEDY = SamplingSettings(temperature=0.0)
UNCHANGED = SamplingSettings()  # temperature 1, no cut: the model's own distribution


@dataclass(frozen=True)
class Chain:
    """Every stage between the logits and the choice, each (V,) float64 (kept: bool)."""

    logits: torch.Tensor  # the model's scores
    scaled: torch.Tensor  # logits / T (the logits themselves at T = 0)
    probs: torch.Tensor  # softmax(scaled); at T = 0 its limit, one-hot on the largest logit
    kept: torch.Tensor  # bool: survived top-k, then top-p
    renormalised: torch.Tensor  # probs of the kept tokens divided by their sum; 0 elsewhere; sums to 1
    settings: SamplingSettings

    @property
    def order(self) -> torch.Tensor:
        """Token ids, most likely first (ties: the smaller id first), (V,) long."""
        return _ranking(self.logits)


def _ranking(scores: torch.Tensor) -> torch.Tensor:
    """Ids sorted by score, largest first, ties by id: (V,) long."""
    return torch.sort(scores, descending=True, stable=True).indices


def _check_logits(logits: torch.Tensor) -> torch.Tensor:
    if logits.dim() != 1 or logits.numel() == 0:
        raise ValueError(f"logits must be one non-empty row (V,), got shape {tuple(logits.shape)}.")
    values = logits.detach().to(torch.float64)
    if not bool(torch.isfinite(values).all()):
        raise ValueError("logits must be finite.")
    return values


def temperature_probs(logits: torch.Tensor, temperature: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(scaled, probs) = (logits / T, softmax(logits / T)); T = 0: (logits, the one-hot limit, ties shared)."""
    if temperature == 0:
        top = logits == logits.max()
        return logits, top.to(logits.dtype) / top.sum()
    scaled = logits / temperature
    return scaled, torch.softmax(scaled, dim=-1)


def top_k_mask(scores: torch.Tensor, k: int | None) -> torch.Tensor:
    """(V,) bool, True at the k largest scores (probabilities or logits rank alike; ties: the smaller id). None or
    k ≥ V: all True."""
    if k is None or k >= scores.numel():
        return torch.ones_like(scores, dtype=torch.bool)
    threshold = torch.topk(scores, k).values[-1]  # the k-th largest score (no full sort of the vocabulary)
    keep = scores > threshold
    tied = torch.nonzero(scores == threshold)[:, 0]  # ids at the threshold, smallest first
    keep[tied[: k - int(keep.sum())]] = True
    return keep


def top_p_mask(probs: torch.Tensor, p: float | None) -> torch.Tensor:
    """(V,) bool, True on the smallest set of most likely tokens whose probability reaches p: going down the ranking,
    a token is kept while the probability before it is still short of p, so the first is always kept. None or 1:
    every token with probability above 0."""
    if p is None or p >= 1:
        return probs > 0
    order = _ranking(probs)
    sorted_probs = probs[order]
    before = torch.cumsum(sorted_probs, dim=0) - sorted_probs  # (V,) probability of the tokens ahead of each
    keep_sorted = before < p - TOP_P_TOLERANCE
    keep_sorted[0] = True
    keep = torch.zeros_like(probs, dtype=torch.bool)
    keep[order[keep_sorted]] = True
    return keep & (probs > 0)  # a token top-k removed (probability 0) never comes back


def renormalise(probs: torch.Tensor, kept: torch.Tensor) -> torch.Tensor:
    """The kept tokens' probabilities divided by their sum (0 elsewhere): a distribution again."""
    masked = torch.where(kept, probs, torch.zeros_like(probs))
    return masked / masked.sum()


def chain(logits: torch.Tensor, settings: SamplingSettings = UNCHANGED) -> Chain:
    """Every stage from the logits (V,) to the distribution a token is drawn from, computed in float64."""
    values = _check_logits(logits)
    settings.check_vocabulary(values.numel())
    scaled, probs = temperature_probs(values, settings.temperature)
    after_k = top_k_mask(scaled, settings.top_k) & (probs > 0)
    after_p = top_p_mask(renormalise(probs, after_k), settings.top_p)
    kept = after_k & after_p
    return Chain(values, scaled, probs, kept, renormalise(probs, kept), settings)


def greedy(c: Chain) -> int:
    """The most likely token (ties: the smaller id)."""
    return int(_ranking(c.renormalised)[0])


def generator_of(seed_or_generator: int | torch.Generator | None) -> torch.Generator:
    """A torch generator: the one given, one seeded with the seed, or (None) one seeded at random."""
    if isinstance(seed_or_generator, torch.Generator):
        return seed_or_generator
    generator = torch.Generator()
    if seed_or_generator is None:
        generator.seed()
    else:
        SamplingSettings(seed=seed_or_generator)  # the same checks and message as a seed from a link
        generator.manual_seed(seed_or_generator)
    return generator


def draw(probs: torch.Tensor, u: float) -> int:
    """The token at u ∈ [0, 1) of the cumulative distribution: the first id whose cumulative sum exceeds u (a token of
    probability 0 is never drawn)."""
    cumulative = torch.cumsum(probs, dim=0)  # (V,)
    index = int(torch.searchsorted(cumulative, torch.tensor([u], dtype=cumulative.dtype), right=True)[0])
    if index >= probs.numel() or probs[index] == 0:  # u past a total rounded just below 1: the last possible token
        index = int(torch.nonzero(probs > 0)[-1, 0])
    return index


def sample(c: Chain, seed_or_generator: int | torch.Generator | None = None) -> int:
    """One token drawn from the renormalised distribution (greedy at T = 0); a seed (or a seeded generator, for a
    sequence of draws) makes it reproducible."""
    if c.settings.greedy:
        return greedy(c)
    u = float(torch.rand((), generator=generator_of(seed_or_generator), dtype=torch.float64))
    return draw(c.renormalised, u)
