"""The induction task: a random segment of tokens repeated once, at a length that varies from sequence to sequence.

    ids  = filler · x₀ x₁ … x_{s−1} · x₀ x₁ … x_{s−1} · filler        (B, T), T = settings.context
           ↑ start                  ↑ start + s       ↑ start + 2s

The second copy can be predicted only by looking back: at position start + s + j the next token is the one after
x_j's earlier occurrence, start + j + 1. A head that attends there is an induction head (Olsson et al., 2022). The
segment's length s is drawn from min_segment..max_segment and its start from 0..T − 2s for every sequence: with one
fixed length a head could find the copy by position alone, a false, positional "transition".

The vocabulary is vocab_size single characters, so a sequence is also text ("kqz3kqz3"): the first vocab_size − 1 of
TOKEN_CHARACTERS are drawn, and the last token is the unknown mark □ (what a typed character outside them reads as),
never drawn.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..config_base import require_whole
from ..errors import N_, LabError
from .vocab import UNKNOWN_MARK

TOKEN_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # drawn in this order


@dataclass(frozen=True)
class InductionSettings:
    """The task's sizes: the vocabulary (□ included), the segment's length range and the sequence length."""

    vocab_size: int = 32  # tokens of the model's vocabulary: vocab_size − 1 characters drawn, then □
    min_segment: int = 6
    max_segment: int = 16
    context: int = 32  # T: every sequence's length (the model's max_len), at least 2 · max_segment

    def __post_init__(self) -> None:
        require_whole("vocab_size", self.vocab_size, 3, len(TOKEN_CHARACTERS) + 1)
        require_whole("min_segment", self.min_segment, 2, 512)
        require_whole("max_segment", self.max_segment, self.min_segment, 512)
        if isinstance(self.context, bool) or not isinstance(self.context, int) or self.context < 2 * self.max_segment:
            raise LabError(
                N_("context must be a whole number of at least 2 × max_segment = {n} (the segment and its copy), "
                   "got {value}."),
                n=2 * self.max_segment, value=repr(self.context),
            )  # fmt: skip

    @property
    def drawn(self) -> int:
        """How many tokens the sequences are drawn from: ids 0..drawn − 1 (the last id, □, is never drawn)."""
        return self.vocab_size - 1


DEFAULT_SETTINGS = InductionSettings()


def induction_vocab(settings: InductionSettings = DEFAULT_SETTINGS) -> list[str]:
    """The vocabulary by id: vocab_size single characters, the drawn ones then □ (CharVocab(induction_vocab()))."""
    return list(TOKEN_CHARACTERS[: settings.drawn]) + [UNKNOWN_MARK]


@dataclass(frozen=True)
class RepeatedBatch:
    """Sequences with a segment repeated once: sequence b's first copy is ids[b, start[b] : start[b] + segment[b]],
    its second copy the next segment[b] tokens."""

    ids: torch.Tensor  # (B, T) long
    segment: torch.Tensor  # (B,) long: the segment's length s
    start: torch.Tensor  # (B,) long: where the first copy begins

    def __len__(self) -> int:
        return self.ids.shape[0]


def repeated_batch(settings: InductionSettings, batch: int, generator: torch.Generator) -> RepeatedBatch:
    """`batch` random sequences of settings.context tokens, each holding a random segment repeated once (its length
    and start drawn per sequence, the rest random filler). Deterministic for the generator's state."""
    require_whole("batch", batch, 1, 100_000)
    T = settings.context
    ids = torch.randint(0, settings.drawn, (batch, T), generator=generator)  # (B, T): segment and filler alike
    segment = torch.randint(settings.min_segment, settings.max_segment + 1, (batch,), generator=generator)  # (B,)
    room = T - 2 * segment + 1  # (B,) starts that fit both copies
    start = (torch.rand(batch, generator=generator) * room).long().clamp(max=room - 1)  # (B,) uniform in 0..room − 1
    position = torch.arange(T)  # (T,)
    second = (position >= (start + segment)[:, None]) & (position < (start + 2 * segment)[:, None])  # (B, T)
    source = (position - segment[:, None]).clamp(min=0)  # (B, T): the first copy's position of each second-copy one
    ids = torch.where(second, ids.gather(1, source), ids)  # (B, T): the second copy repeats the first
    return RepeatedBatch(ids, segment, start)


def repeated_texts(n: int, seed: int = 0, settings: InductionSettings = DEFAULT_SETTINGS) -> tuple[str, ...]:
    """n sequences of the task as text (one character per token), always the same for a seed: fixed inputs."""
    vocab = induction_vocab(settings)
    ids = repeated_batch(settings, n, torch.Generator().manual_seed(seed)).ids  # (n, T)
    return tuple("".join(vocab[i] for i in row) for row in ids.tolist())


def repeated_sequence(
    settings: InductionSettings = DEFAULT_SETTINGS, generator: torch.Generator | None = None
) -> list[int]:
    """One sequence of the task as token ids (for a page's button: induction_vocab()[i] is each token's string);
    without a generator, a fresh random one."""
    if generator is None:
        generator = torch.Generator()
        generator.seed()  # a nondeterministic seed: a new sequence each call
    return repeated_batch(settings, 1, generator).ids[0].tolist()
