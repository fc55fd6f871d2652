"""What the training goals measure on a trained model: seeded poems and how many are well-formed 五言绝句.

A poem is sampled after the separator that ends every poem of the corpus ("\\n"), 25 characters at temperature 0.8
(24 for the poem, 1 for the closing separator), with seeds 0..n-1; it counts when the text before the first
separator is a 五言绝句 and the separator follows it. The unigram model is asked the same, with the same seeds.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..corpora.jueju import POEM_CHARS, first_poem, is_jueju
from ..corpora.unigram import sample as unigram_sample
from .runner import LoadedGPT

SEPARATOR = "\n"
SAMPLES, TEMPERATURE = 100, 0.8


@dataclass(frozen=True)
class PoemRate:
    """How many of the samples are well-formed: strictly (Han characters only), and with the unknown mark counted as
    a character (it stands for one the capped vocabulary lacks)."""

    samples: tuple[str, ...]
    well_formed: int
    with_unknown: int

    @property
    def rate(self) -> float:
        return self.well_formed / len(self.samples)

    @property
    def rate_with_unknown(self) -> float:
        return self.with_unknown / len(self.samples)


def poem_rate(samples: list[str], unknown: str) -> PoemRate:
    """Count the samples that are a 五言绝句 closed by the separator: strictly, and with `unknown` as a character."""

    def closed(text: str) -> str | None:
        poem = first_poem(text, SEPARATOR)
        return poem if len(text) > len(poem) else None  # the separator must follow the poem

    poems = [closed(s) for s in samples]
    strict = sum(p is not None and is_jueju(p) for p in poems)
    loose = sum(p is not None and is_jueju(p, unknown=unknown) for p in poems)
    return PoemRate(tuple(samples), strict, loose)


def gpt_poems(lm: LoadedGPT, n: int = SAMPLES, temperature: float = TEMPERATURE) -> PoemRate:
    """n seeded samples of the model after the separator (seeds 0..n-1)."""
    samples = [lm.generate(SEPARATOR, n=POEM_CHARS + 1, temperature=temperature, seed=seed) for seed in range(n)]
    return poem_rate(samples, lm.chars.unk)


def unigram_poems(lm: LoadedGPT, probs: torch.Tensor, n: int = SAMPLES, temperature: float = TEMPERATURE) -> PoemRate:
    """The same n samples from the unigram model (each character drawn alone from its frequency), same seeds."""
    samples = [lm.vocab.decode(unigram_sample(probs, POEM_CHARS + 1, seed, temperature)) for seed in range(n)]
    return poem_rate(samples, lm.chars.unk)
