"""Seconds to ≥ 99 % held-out exact match for `reverse` and `translate` on this machine.

    python bench/train.py [--seeds 0 1 2] [--tasks reverse translate] [--layers 1]

The configuration is the training command's default (1 encoder + 1 decoder layer, d_model 64,
4 heads, batch 32, lr 2e-3, warmup 100, cosine over 2000 steps, evaluation every 100 steps);
the stop rule is judged on 1000 held-out pairs, and the accuracy is then re-measured on 1000 fresh ones.
"""

from __future__ import annotations

import argparse
import statistics

import torch

from model import get_task
from model.train import TrainConfig, default_model_config, train

GOALS = {"reverse": 30.0, "translate": 10.0}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tasks", nargs="+", default=["reverse", "translate"])
    p.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2])
    p.add_argument("--layers", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--eval-size", type=int, default=1000, help="held-out pairs the stop rule is judged on")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    print(f"{args.layers}+{args.layers} layers, d_model 64, 4 heads, batch 32, lr 2e-3, {args.threads} threads")
    for name in args.tasks:
        task = get_task(name)
        seconds = []
        for seed in args.seeds:
            cfg = TrainConfig(steps=3000, until=0.99, seed=seed, eval_size=args.eval_size)
            config = default_model_config(task, n_encoder_layers=args.layers, n_decoder_layers=args.layers)
            result = train(task, config, cfg)
            fresh = result.loaded.accuracy(1000, seed=777)
            seconds.append(result.seconds)
            print(
                f"{name:>9} seed {seed}: {result.seconds:6.1f} s, {result.steps:4d} steps, "
                f"held-out {result.accuracy:.3f}, fresh 1000 {fresh:.3f}"
            )
        goal = GOALS.get(name)
        print(
            f"{name:>9} median {statistics.median(seconds):.1f} s (min {min(seconds):.1f}, max {max(seconds):.1f})"
            + (f"; goal ≤ {goal:.0f} s" if goal else "")
        )


if __name__ == "__main__":
    main()
