"""A GPT's cost as the pages pay it: a traced forward (every edit of a prompt), a plain forward, next_token, and
generation with the key/value cache against re-reading the text at every step, at the shipped gpt-en's sizes (or a
shipped checkpoint's, when given).

    python bench/gpt_forward.py [--model gpt-en] [--repeats 7] [--threads 1]

One torch thread by default, as the app server sets (app.py). Medians of interleaved repeats, with the load average
before and after, since on a shared machine single timings are noisy; compare the ratios measured in one run.
"""

from __future__ import annotations

import argparse
import os

import torch
from minilm import median_ms

from model import GPT, CharVocab, GPTConfig, LoadedGPT, load_pretrained
from model.io.pretrained import PRETRAINED
from model.sampling import SamplingSettings, chain, generator_of, sample

TEXT = "To be, or not to be, that is the question: Whether 'tis nobler in the mind to suffer the slings and arrows"


def _model(name: str | None) -> LoadedGPT:
    """A shipped GPT by name, or a random one at gpt-en's recipe sizes (d 128, 4 heads, 4 layers, context 128)."""
    if name is not None and name in PRETRAINED:
        loaded = load_pretrained(name)
        assert isinstance(loaded, LoadedGPT), f"{name} is not a GPT"
        return loaded
    vocab = CharVocab.from_text(TEXT * 3 + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz;!?-\n")
    torch.manual_seed(0)
    config = GPTConfig(vocab_size=len(vocab), d_model=128, n_heads=4, n_layers=4, d_ff=512, max_len=128)
    return LoadedGPT(GPT(config), vocab, name="random-gpt-en-sizes")


def _uncached(lm: LoadedGPT, prompt: str, n: int, settings: SamplingSettings) -> list[int]:
    """Generation without the cache: every step re-reads the last max_len tokens (the reference the cache beats)."""
    ids = lm.tokenize(prompt).ids
    generator = generator_of(settings.seed)
    with torch.inference_mode():
        for _ in range(n):
            logits = lm.model(torch.tensor([ids[-lm.max_len :]]))[0, -1]
            ids.append(sample(chain(logits, settings), generator))
    return ids[-n:]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", default=None, help="a shipped GPT (gpt-en, gpt-zh); default: random, gpt-en's sizes")
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    lm = _model(args.model)
    c = lm.config
    load_before = os.getloadavg()
    settings = SamplingSettings(temperature=0.8, top_k=10, seed=1)
    long_prompt = (TEXT * 2)[: c.max_len]
    assert lm.generate_ids("To be", 60, settings) == _uncached(lm, "To be", 60, settings)
    runs = {
        f"trace, {len(long_prompt)} tokens": lambda: lm.trace(long_prompt),
        f"forward, {len(long_prompt)} tokens": lambda: lm.last_logits(long_prompt),
        "trace, 16 tokens": lambda: lm.trace(long_prompt[:16]),
        "next_token, 16 tokens": lambda: lm.next_token(long_prompt[:16], temperature=0.8, top_k=10, top_p=0.95),
        "generate 100 (KV cache)": lambda: lm.generate_ids("To be", 100, settings),
        "generate 100 (re-read)": lambda: _uncached(lm, "To be", 100, settings),
    }
    ms = median_ms(runs, args.repeats)
    print(f"{lm.name}: d_model {c.d_model}, {c.n_heads} heads, {c.n_layers} layers, context {c.max_len}, "
          f"V {c.vocab_size}; {torch.get_num_threads()} thread(s)")  # fmt: skip
    for label, value in ms.items():
        print(f"  {label:<28} {value:8.2f} ms")
    cached, reread = ms["generate 100 (KV cache)"], ms["generate 100 (re-read)"]
    print(f"  the cache writes 100 tokens {reread / cached:.2f}× faster than re-reading")
    print(f"load average before {load_before}, after {os.getloadavg()}")


if __name__ == "__main__":
    main()
