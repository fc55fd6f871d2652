"""MiniLM's cost as the app pays it: loading, a traced run at 16 / 64 / 256 tokens, the head atlas over the 50 shipped
sentences; and our toy Transformer's traced run at 16 and 128 tokens (the longer inputs of max_len 128).

    python bench/minilm.py [--repeats 7] [--threads 1]

One torch thread by default, as the app server sets (app.py). Medians of interleaved repeats; the load average is
printed with them, since on a shared machine single timings are noisy.
"""

from __future__ import annotations

import argparse
import functools
import os
import statistics
import time
from collections.abc import Callable

import torch

from model import LoadedModel, get_task, load_minilm
from model.analysis.atlas import atlas_texts, corpus_atlas, mean_atlas, trace_atlas
from model.architectures import build_model
from model.train import default_model_config

LENGTHS = (16, 64, 256)


def median_ms(runs: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """Each callable once to warm up, then `repeats` interleaved rounds: the median milliseconds of each."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    for run in runs.values():
        run()
    for _ in range(repeats):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(t) for name, t in times.items()}


def text_of(loaded, tokens: int) -> str:
    """A sentence of exactly `tokens` tokens, [CLS] and [SEP] included (each "word" is one piece)."""
    text = " ".join(["word"] * (tokens - 2))
    assert len(loaded.tokenize(text).ids) == tokens
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    print(f"torch threads {torch.get_num_threads()}, load average {os.getloadavg()[0]:.1f} at the start")

    start = time.perf_counter()
    minilm = load_minilm()
    print(f"load MiniLM from its package: {time.perf_counter() - start:.2f} s")

    texts = {f"{n} tokens": text_of(minilm, n) for n in LENGTHS}
    traced = median_ms({name: functools.partial(minilm.run, text) for name, text in texts.items()}, args.repeats)
    plain = median_ms({name: functools.partial(minilm.embed, text) for name, text in texts.items()}, args.repeats)
    print("MiniLM, one sentence (ms): traced run (every intermediate) | embed (no trace)")
    for name in traced:
        print(f"  {name:>10}: {traced[name]:8.1f} | {plain[name]:8.1f}")

    sentences = atlas_texts(minilm)
    atlas = median_ms(
        {
            "batched (corpus_atlas)": lambda: corpus_atlas(minilm, sentences),
            "one by one": lambda: mean_atlas([trace_atlas(minilm.run(s)) for s in sentences]),
        },
        max(1, args.repeats // 3),
    )
    print(f"head atlas over the {len(sentences)} shipped sentences (ms):")
    for name, ms in atlas.items():
        print(f"  {name:>22}: {ms:8.1f}")

    task = get_task("reverse")
    torch.manual_seed(0)
    toy = LoadedModel(build_model(default_model_config(task, n_encoder_layers=2, n_decoder_layers=2)), task)
    digits = {f"{n} tokens": " ".join(["7"] * (n - 1)) for n in (16, 128)}  # n − 1 digits + <eos>
    toy_ms = median_ms({name: functools.partial(toy.run, t, target=t) for name, t in digits.items()}, args.repeats)
    print("toy Transformer (2 + 2 layers, d_model 64, max_len 128), traced teacher-forced run (ms):")
    for name, ms in toy_ms.items():
        print(f"  {name:>10}: {ms:8.1f}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
