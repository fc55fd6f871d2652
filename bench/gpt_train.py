"""The GPT training goals of issue 42, for the shipped gpt-en and gpt-zh, each beside the unigram baseline.

    python bench/gpt_train.py [--models gpt-en gpt-zh] [--fresh] [--threads 1]

gpt-en  held-out loss (nats per character) on the held-out works, recomputed now from the shipped weights, against
        the unigram baseline on the same ids; goal ≤ 1.75.
gpt-zh  100 poems sampled at temperature 0.8 with seeds 0–99 after a newline (model/gpt/train_checks.py), the share
        that are well-formed 五言绝句 (strictly; and counting the unknown mark □ as a character), against the
        unigram model's share with the same seeds; goal ≥ 90 %. Its held-out loss beside the unigram's as well.
both    the training seconds the checkpoint recorded (goal ≤ 20 minutes), its command and the load average it ran
        under; --fresh trains the recipe again here and reports that run's seconds too (minutes of CPU).

Needs the corpora (`python -m model.corpora fetch`). Prints the load average before and after; figures measured on
a shared machine vary with it.
"""

from __future__ import annotations

import argparse
import os

import torch

from model import load_pretrained
from model.corpora.unigram import cross_entropy, unigram_probs
from model.gpt import LoadedGPT
from model.gpt.train import consecutive_windows, mean_loss
from model.gpt.train_checks import gpt_poems, unigram_poems
from model.gpt.train_cli import RECIPES, recipe_data, train_recipe

GOAL_LOSS, GOAL_RATE, GOAL_SECONDS = 1.75, 0.90, 20 * 60


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _mark(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report(name: str, fresh: bool) -> None:
    recipe = RECIPES[name]
    lm = load_pretrained(name)
    assert isinstance(lm, LoadedGPT), f"{name} is not a GPT"
    _, data = recipe_data(recipe, lm.chars)  # the ids it trained on and the held-out ones, in its vocabulary
    held_ids = data.held_ids
    probs = unigram_probs(data.train_ids, len(lm.vocab))
    held = mean_loss(lm.model, *consecutive_windows(held_ids, lm.max_len))
    unigram = cross_entropy(probs, held_ids)
    meta = lm.meta
    c = lm.config
    print(f"== {name}: {c.n_layers} layers, {c.n_heads} heads, d {c.d_model}, context {c.max_len}, vocabulary "
          f"{len(lm.vocab)}, {sum(p.numel() for p in lm.model.parameters()):,} parameters")  # fmt: skip
    print(f"   corpus {meta.get('corpus')} ({meta.get('source')}), split: {meta.get('split')}")
    print(f"   held-out loss {held:.4f} nats/char; unigram {unigram:.4f} (ratio {held / unigram:.2f});"
          f" train loss (recorded) {meta.get('train_loss')}")  # fmt: skip
    if name == "gpt-en":
        print(f"   goal held-out ≤ {GOAL_LOSS}: {_mark(held <= GOAL_LOSS)}")
    else:
        ours, base = gpt_poems(lm), unigram_poems(lm, probs)
        print(f"   五言绝句 of {len(ours.samples)} seeded samples at T=0.8: {ours.rate:.0%} strictly, "
              f"{ours.rate_with_unknown:.0%} with □ counted; unigram {base.rate:.0%} / "
              f"{base.rate_with_unknown:.0%}")  # fmt: skip
        print(f"   goal ≥ {GOAL_RATE:.0%}: {_mark(ours.rate >= GOAL_RATE)} (strict)")
        for text in ours.samples[:5]:
            print("     " + text.replace("\n", "⏎"))
    seconds, cpu = meta.get("seconds", float("nan")), meta.get("cpu_seconds", float("nan"))
    print(f"   trained {meta.get('steps')} steps in {seconds} s wall, {cpu} CPU-s, on {meta.get('threads')} thread(s); "
          f"load average before/after {meta.get('load_average')}")  # fmt: skip
    print(
        f"   goal ≤ {GOAL_SECONDS} s: {_mark(seconds <= GOAL_SECONDS)} by the wall clock, "
        f"{_mark(cpu <= GOAL_SECONDS)} in CPU time (what the run costs a core of its own)"
    )
    print(f"   command: {meta.get('command')}")
    if fresh:
        print(f"   training again here (load {_load()})…", flush=True)
        again = train_recipe(recipe)
        run = again.result
        rate = f", {gpt_poems(again.loaded).rate:.0%} well-formed 五言绝句" if name == "gpt-zh" else ""
        print(f"   fresh run: {run.steps} steps in {run.seconds:.0f} s wall, {run.cpu_seconds:.0f} CPU-s, held-out "
              f"{run.held_out_loss:.4f}{rate} (load {_load()})")  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", nargs="+", default=list(RECIPES), choices=list(RECIPES))
    p.add_argument("--fresh", action="store_true", help="also train each recipe again and time it")
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    print(f"load average before: {_load()}; torch threads {args.threads}")
    for name in args.models:
        report(name, args.fresh)
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
