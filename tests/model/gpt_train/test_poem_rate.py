"""How the goal counts sampled poems: a 五言绝句 closed by the newline, strictly or with □ as a character."""

from __future__ import annotations

import torch

from model.gpt import GPT, CharVocab, GPTConfig, LoadedGPT
from model.gpt.train_checks import gpt_poems, poem_rate, unigram_poems

GOOD = "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"
MARKED = "白日依山尽，黄河入海流。欲穷千里目，更上一□楼。"


def test_hand_counted_samples():
    samples = [
        GOOD + "\n",  # well-formed
        GOOD + "\n春眠",  # well-formed: what follows the newline is the next poem's start
        GOOD,  # no newline after it: the poem did not end
        MARKED + "\n",  # well-formed only with □ counted
        "白日依山尽，黄河入海流。\n",  # two lines
        "\n" + GOOD,  # a newline first: an empty poem
    ]
    rate = poem_rate(samples, "□")
    assert (rate.well_formed, rate.with_unknown) == (2, 3)
    assert rate.rate == 2 / 6 and rate.rate_with_unknown == 3 / 6


def test_the_model_and_the_unigram_are_asked_with_seeds_0_to_n():
    vocab = CharVocab.from_text(GOOD + "\n")
    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=len(vocab), d_model=16, n_heads=2, n_layers=1, d_ff=32, max_len=32))
    lm = LoadedGPT(model, vocab)
    a, b = gpt_poems(lm, n=3), gpt_poems(lm, n=3)
    assert a == b and len(a.samples) == 3 and all(len(s) == 25 for s in a.samples)
    assert a.samples[0] == lm.generate("\n", n=25, temperature=0.8, seed=0)
    probs = torch.full((len(vocab),), 1 / len(vocab), dtype=torch.float64)
    u = unigram_poems(lm, probs, n=4)
    assert len(u.samples) == 4 and len(set(u.samples)) == 4 and u == unigram_poems(lm, probs, n=4)
