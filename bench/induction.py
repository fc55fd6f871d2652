"""The CLI goal of issue 43: `python -m model.train --task induction` forms an induction head in ≤ 30 s, over 5 seeds.

    python bench/induction.py [--seeds 5] [--threads 1]

Each seed runs the command itself (a fresh process, as a user runs it) with --seed s and --out a temporary folder:
it stops once some head's induction score reaches 0.5 on the probe's 100 sequences and saves the checkpoint. For each
run: the wall-clock seconds from start to exit (imports and saving included), the training's own seconds and CPU
seconds and its steps (from the checkpoint's record), and the load average before and after. Then the spread (min,
median, max) over the seeds. A run that never forms the head (exit status 1) is a failure, never an outlier: the
goal is met only when every seed forms one within 30 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_SECONDS = 30.0


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_seed(seed: int, threads: int) -> dict:
    """One run of the command: its wall-clock seconds, exit status and the checkpoint's record of the training."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "induction"
        command = [sys.executable, "-m", "model.train", "--task", "induction", "--seed", str(seed),
                   "--threads", str(threads), "--out", str(out)]  # fmt: skip
        load_before = _load()
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - start
        row = {"seed": seed, "wall": wall, "status": done.returncode, "load": f"{load_before} → {_load()}"}
        if done.returncode == 0:
            meta = json.loads((out / "config.json").read_text(encoding="utf-8"))["training"]
            row |= {k: meta[k] for k in ("steps", "seconds", "cpu_seconds", "induction_score", "in_context_loss")}
        else:
            row["error"] = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return row


def _spread(values: list[float]) -> str:
    return f"min {min(values):.1f} · median {statistics.median(values):.1f} · max {max(values):.1f}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=5)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args()
    print(f"load average before (1, 5, 15 min): {_load()}  ·  {args.seeds} seeds, {args.threads} thread(s)")
    rows = []
    for seed in range(args.seeds):
        row = run_seed(seed, args.threads)
        rows.append(row)
        if row["status"] == 0:
            print(f"seed {seed}: formed at step {row['steps']:5d}  {row['wall']:5.1f} s wall (training "
                  f"{row['seconds']:.1f} s, {row['cpu_seconds']:.1f} CPU s)  score {row['induction_score']:.3f}  "
                  f"in-context loss {row['in_context_loss']:+.3f}  load {row['load']}", flush=True)  # fmt: skip
        else:
            print(f"seed {seed}: FAILED (exit {row['status']}) after {row['wall']:.1f} s: {row['error']}  "
                  f"load {row['load']}", flush=True)  # fmt: skip
    formed = [r for r in rows if r["status"] == 0]
    failures = len(rows) - len(formed)
    if formed:
        print(f"wall seconds (start to exit): {_spread([r['wall'] for r in formed])}")
        print(f"training seconds: {_spread([r['seconds'] for r in formed])}")
        print(f"training CPU seconds: {_spread([r['cpu_seconds'] for r in formed])}")
        print(f"steps to score ≥ 0.5: {_spread([float(r['steps']) for r in formed])}")
    met = failures == 0 and all(r["wall"] <= GOAL_SECONDS for r in formed)
    print(f"goal (every seed forms a head, ≤ {GOAL_SECONDS:.0f} s from start to exit): {'met' if met else 'NOT met'}"
          f"  ·  {failures} failure(s) of {len(rows)}  ·  load average after: {_load()}")  # fmt: skip
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
