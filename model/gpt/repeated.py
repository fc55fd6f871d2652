"""A random repeated sequence in any GPT's own vocabulary (the Attention page's button), and where a repeat lies.

The sequence is the induction task's (model/gpt/induction.py's repeated_sequence: filler · segment · segment ·
filler, the segment's length varied), its ids given to distinct tokens drawn from the model's vocabulary, so it reads
on the induction checkpoint, on gpt-en and gpt-zh, and on a GPT trained in the browser. On a segment of s tokens
repeated, an induction head's query in the second copy attends to the token after the one it repeats: s − 1 keys
back, a stripe s − 1 below the diagonal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from ..errors import N_, LabError
from .induction import DEFAULT_SETTINGS, InductionSettings, repeated_sequence
from .vocab import UNKNOWN_MARK

MIN_TOKENS = 3  # distinct drawable tokens a vocabulary needs for a random sequence
MIN_REPEAT = 4  # the shortest repeat `find_repeat` reports: shorter ones happen by chance in ordinary text


@dataclass(frozen=True)
class Repeat:
    """tokens[start : start + segment] == tokens[start + segment : start + 2 · segment]."""

    start: int
    segment: int

    @property
    def second(self) -> range:
        """The second copy's positions: the queries an induction head reads back from."""
        return range(self.start + self.segment, self.start + 2 * self.segment)

    def target(self, query: int) -> int:
        """The key an induction head attends to from `query` of the second copy: the token after the earlier one."""
        return query - self.segment + 1


def drawable(token: str) -> bool:
    """A token a random sequence may use: visible (no blank, no control character) and not the unknown mark."""
    return bool(token.strip()) and token.isprintable() and token != UNKNOWN_MARK


def settings_for(context: int, tokens: int, base: InductionSettings = DEFAULT_SETTINGS) -> InductionSettings:
    """The task's settings fitted to a model: at most `context` tokens (its max_len) and `tokens` to draw from."""
    length = min(base.context, context)
    longest = min(base.max_segment, length // 2)
    if tokens < MIN_TOKENS or longest < 2:
        raise LabError(
            N_("A repeated sequence needs a model that reads at least 4 tokens and has at least {n} visible tokens "
               "to draw; this one reads {context} and has {tokens}."),
            n=MIN_TOKENS, context=context, tokens=tokens,
        )  # fmt: skip
    return InductionSettings(
        vocab_size=min(base.vocab_size, tokens + 1), min_segment=min(base.min_segment, longest),
        max_segment=longest, context=length,
    )  # fmt: skip


def repeated_tokens(vocabulary: Sequence[str], context: int, generator: torch.Generator | None = None) -> list[str]:
    """A random sequence of the induction task as tokens of `vocabulary` (a model's, by id), at most `context` long:
    repeated_sequence's ids each given one distinct drawable token, chosen at random. Without a generator, a fresh
    random one."""
    tokens = list(dict.fromkeys(t for t in vocabulary if drawable(t)))  # each string once, in vocabulary order
    settings = settings_for(context, len(tokens))
    if generator is None:
        generator = torch.Generator()
        generator.seed()  # a nondeterministic seed: a new sequence each call
    chosen = torch.randperm(len(tokens), generator=generator)[: settings.drawn].tolist()  # task id → vocabulary
    return [tokens[chosen[i]] for i in repeated_sequence(settings, generator)]


def find_repeat(tokens: Sequence[str], shortest: int = MIN_REPEAT) -> Repeat | None:
    """The longest segment immediately repeated in `tokens` (the earliest of those), at least `shortest` long;
    None when there is none. What a page says about a sequence it is given, wherever the sequence came from."""
    index: dict[str, int] = {}
    ids = np.array([index.setdefault(t, len(index)) for t in tokens], dtype=np.int64)  # (T,)
    n = len(ids)
    for segment in range(n // 2, shortest - 1, -1):
        same = ids[: n - segment] == ids[segment:]  # (T − s,): token i equals token i + s
        counted = np.concatenate([[0], np.cumsum(same)])  # (T − s + 1,)
        whole = np.flatnonzero(counted[segment:] - counted[:-segment] == segment)  # starts of s matches in a row
        if whole.size:  # counted[segment:] ends where a segment and its copy still fit
            return Repeat(int(whole[0]), segment)
    return None
