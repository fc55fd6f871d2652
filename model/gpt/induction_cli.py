"""`python -m model.train --task induction`: train the induction run until a head forms, then save its checkpoint.

It prints the head scores at every probe, stops as soon as some head's induction score reaches --until (0.5) on the
probe's 100 sequences, and writes the checkpoint to --out. A run that reaches --steps without a head exits with 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

import torch

from ..analysis.induction import circuit
from ..errors import LabError
from ..io.checkpoint import save_checkpoint
from .induction_train import InductionRun, train_induction
from .train import GPTStepInfo

INDUCTION_TASK = "induction"
DEFAULT = InductionRun()


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m model.train", description=__doc__.splitlines()[0])
    p.add_argument("--task", required=True, choices=[INDUCTION_TASK])
    p.add_argument("--out", help="folder to write model.safetensors + config.json into")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads (default %(default)s)")
    p.add_argument("--seed", type=int, default=DEFAULT.train.seed)
    p.add_argument("--steps", type=int, default=DEFAULT.train.steps, help="most steps (default %(default)s)")
    p.add_argument("--lr", type=float, default=DEFAULT.train.lr)
    p.add_argument("--batch-size", type=int, default=DEFAULT.train.batch_size)
    p.add_argument("--probe-every", type=int, default=DEFAULT.probe_every, help="steps between two probes")
    p.add_argument("--probe-size", type=int, default=DEFAULT.probe_size, help="sequences each probe scores")
    p.add_argument("--until", type=float, default=DEFAULT.until, help="stop at this induction score (0 = never)")
    for name in ("d_model", "n_heads", "n_layers"):
        p.add_argument("--" + name.replace("_", "-"), type=int, default=getattr(DEFAULT.model, name))
    for name in ("vocab_size", "min_segment", "max_segment", "context"):
        p.add_argument("--" + name.replace("_", "-"), type=int, default=getattr(DEFAULT.settings, name))
    return p.parse_args(argv)


def run_of(args: argparse.Namespace) -> InductionRun:
    """The default run with the command line's changes (LabError for a bad value)."""
    settings = replace(DEFAULT.settings, vocab_size=args.vocab_size, min_segment=args.min_segment,
                       max_segment=args.max_segment, context=args.context)  # fmt: skip
    model = replace(DEFAULT.model, d_model=args.d_model, n_heads=args.n_heads, n_layers=args.n_layers)
    train = replace(DEFAULT.train, seed=args.seed, steps=args.steps, lr=args.lr, batch_size=args.batch_size)
    run = InductionRun(settings, model, train, args.probe_every, args.probe_size, args.until or None)
    run.model_config  # noqa: B018  (checks the sizes now: a LabError before any training)
    return run


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    try:
        run = run_of(args)
    except LabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    def report(info: GPTStepInfo) -> None:
        if info.probe is not None:
            s, previous = info.probe, float(info.probe.previous.max())
            print(f"step {info.step:5d}  induction {s.best_induction:.3f}  previous-token {previous:.3f}  in-context "
                  f"loss {s.in_context_loss:+.3f}  loss {s.loss:.3f}  {info.seconds:6.1f} s", flush=True)  # fmt: skip

    load_before = os.getloadavg()
    result = train_induction(run, callback=report)
    meta = result.loaded.meta
    meta["command"] = "python -m model.train " + " ".join(argv)
    meta["threads"] = torch.get_num_threads()
    meta["load_average"] = [round(x, 2) for x in (*load_before, *os.getloadavg())]  # before (1, 5, 15 min), after
    fit, scores = result.fit, result.scores
    if not result.formed:
        print(f"no head's induction score reached {run.until} in {fit.steps} steps ({fit.seconds:.1f} s): the best is "
              f"{scores.best_induction:.3f}", file=sys.stderr)  # fmt: skip
        return 1
    prev_layer, prev_head, ind_layer, ind_head = circuit(scores)
    print(f"induction head formed at step {fit.steps} in {fit.seconds:.1f} s ({fit.cpu_seconds:.1f} CPU s): "
          f"layer {ind_layer + 1} head {ind_head + 1} (score {scores.best_induction:.3f}) after layer {prev_layer + 1} "
          f"head {prev_head + 1}'s previous-token head; in-context loss {scores.in_context_loss:+.3f}")  # fmt: skip
    if args.out:
        print(f"saved to {save_checkpoint(result.loaded, args.out)}")
    return 0
