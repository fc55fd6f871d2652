"""What textbooks claim about RNNs and Transformers, measured on this machine at equal parameter count.

    nice -n 10 python bench/rnn_vs_transformer.py [--threads 1] [--seeds 0 1] [--quick]

Prints tables and writes bench/results/rnn_vs_transformer.json (the page draws it). Models: the
training command's default Transformer (1+1 layers, d_model 64, 4 heads, d_ff 128, sinusoidal,
post-LN) and a GRU with Bahdanau (additive) attention, d_embed 32, d_hidden picked so that both have
(nearly) the same number of parameters; also the same GRU without attention (score none).

1. Time per training step (batch 32, source and target of L tokens, forward + backward + AdamW) and
   inference at batch 1: one teacher-forced forward pass, and greedy generation of L tokens through
   each model's `decode_next` (the Transformer re-reads its prefix at every step: no key/value cache;
   the RNN takes one cell step). Medians of interleaved repeats; random weights and tokens.
2. Steps (and seconds) to ≥ 99 % held-out exact match on `reverse` and `translate` (batch 32, lr 2e-3,
   warmup 100, cosine over at most --max-steps, evaluated every 50 steps on 500 held-out pairs), then
   the accuracy on 1000 fresh pairs, for each of --seeds.
3. Length generalisation: the `reverse` models of (2) (first seed), trained on 1–12 digits, tested on 200 fresh
   inputs of each length 1–24.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Hashable, Mapping
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TypeVar

import torch
import torch.nn.functional as F

from model import LoadedModel, get_task
from model.analysis.rnn import accuracy_by_length
from model.architectures import build_model
from model.tasks import BOS_ID, PAD_ID
from model.train import TrainConfig, default_model_config, train

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "rnn_vs_transformer.json"
FAMILIES = ("transformer", "rnn")  # timed side by side; "rnn-noattn" joins the accuracy sections
TIMING_LENGTHS = [8, 16, 32, 64, 128, 256]
TEST_LENGTHS = list(range(1, 25))
BATCH = 32


def n_params(model: torch.nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def configs(task, max_len: int) -> dict:
    """The Transformer of `model.train`'s defaults and the GRU whose d_hidden matches its size best."""
    transformer = default_model_config(task, max_len=max_len)
    target = n_params(build_model(transformer))
    hidden = min(range(16, 257), key=lambda h: abs(n_params(build_model(rnn_config(task, max_len, h))) - target))
    return {
        "transformer": transformer,
        "rnn": rnn_config(task, max_len, hidden),
        "rnn-noattn": rnn_config(task, max_len, hidden, score="none"),
    }


def rnn_config(task, max_len: int, hidden: int, score: str = "additive"):
    return default_model_config(task, "rnn", cell="gru", score=score, d_embed=32, d_hidden=hidden, max_len=max_len)


Case = TypeVar("Case", bound=Hashable)


def interleaved_medians(cases: Mapping[Case, Callable[[], object]], repeats: int) -> dict[Case, float]:
    """Median ms of each zero-argument function, run in turn `repeats` times after one warm-up each,
    so a busy moment on the machine hits every case alike."""
    times: dict[Case, list[float]] = {key: [] for key in cases}
    for fn in cases.values():
        fn()
    for _ in range(repeats):
        for key, fn in cases.items():
            t0 = time.perf_counter()
            fn()
            times[key].append((time.perf_counter() - t0) * 1e3)
    return {key: statistics.median(values) for key, values in times.items()}


def train_step(model, optimizer, src: torch.Tensor, tgt: torch.Tensor) -> None:
    model.train()
    logits = model(src, tgt)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt.reshape(-1), ignore_index=PAD_ID)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()


@torch.inference_mode()
def infer(model, src: torch.Tensor, tgt: torch.Tensor, n: int | None) -> None:
    """One teacher-forced forward pass (n None), or greedy generation of n tokens."""
    model.eval()
    if n is None:
        model(src, tgt)
    else:
        generate(model, src, n)


def timing(models: dict, vocab: int, lengths: list[int], repeats: int) -> dict[str, dict[str, list[float]]]:
    """ms per training step, per forward pass and per greedy generation of L tokens, by length."""
    kinds = ("train_step_ms", "forward_ms", "generate_ms")
    out: dict[str, dict[str, list[float]]] = {kind: {f: [] for f in FAMILIES} for kind in kinds}
    optimizers = {f: torch.optim.AdamW(models[f].parameters(), lr=1e-4) for f in FAMILIES}
    for L in lengths:
        g = torch.Generator().manual_seed(L)
        src, tgt = torch.randint(4, vocab, (BATCH, L), generator=g), torch.randint(4, vocab, (BATCH, L), generator=g)
        cases = {}
        for f, m in models.items():
            cases["train_step_ms", f] = partial(train_step, m, optimizers[f], src, tgt)
            cases["forward_ms", f] = partial(infer, m, src[:1], tgt[:1], None)
            cases["generate_ms", f] = partial(infer, m, src[:1], tgt[:1], L)
        for (kind, family), ms in interleaved_medians(cases, repeats).items():
            out[kind][family].append(ms)
        print(f"{L:>5} " + " ".join(f"{out[k][f][-1]:>11.1f}" for k in kinds for f in FAMILIES), flush=True)
    return out


def generate(model, src: torch.Tensor, n: int) -> torch.Tensor:
    """n greedy tokens, never stopping early (no <eos> check): the cost of generating n tokens."""
    memory, src_mask = model.encode(src)
    tgt, cache = torch.full((src.shape[0], 1), BOS_ID, dtype=torch.long), None
    for _ in range(n):
        logits, cache = model.decode_next(tgt, memory, src_mask, cache)
        tgt = torch.cat([tgt, logits.argmax(-1)[:, None]], dim=1)
    return tgt


def to_99(task_name: str, config, max_steps: int, seed: int = 0) -> tuple[dict, LoadedModel]:
    task = get_task(task_name)
    cfg = TrainConfig(steps=max_steps, until=0.99, eval_every=50, eval_size=500, seed=seed)
    result = train(task, config, cfg)
    fresh = result.loaded.accuracy(1000, seed=777)
    row = {
        "seed": seed, "steps": result.steps, "seconds": round(result.seconds, 1), "held_out": result.accuracy,
        "reached": result.accuracy >= 0.99, "fresh_1000": fresh,
    }  # fmt: skip
    return row, result.loaded


def steps_to_99(seeds: list[int], max_steps: int) -> tuple[dict, dict]:
    """{task: {family: {"runs": [row per seed], "median_steps"}}} and the reverse models of the first seed."""
    out: dict[str, dict[str, dict[str, object]]] = {}
    reverse_models: dict[str, LoadedModel] = {}
    for task_name in ("reverse", "translate"):
        out[task_name] = {}
        for family, config in configs(get_task(task_name), max_len=64).items():
            runs = []
            for seed in seeds:
                row, loaded = to_99(task_name, config, max_steps, seed)
                runs.append(row)
                if task_name == "reverse" and seed == seeds[0]:
                    reverse_models[family] = loaded
                print(
                    f"{task_name:>9} {family:>11} seed {seed}: {row['steps']:>5} steps {row['seconds']:>6.1f} s  "
                    f"held-out {row['held_out']:.3f}  fresh 1000 {row['fresh_1000']:.3f}"
                    + ("" if row["reached"] else "  (not reached)"),
                    flush=True,
                )
            out[task_name][family] = {"runs": runs, "median_steps": statistics.median(r["steps"] for r in runs)}
    return out, reverse_models


def machine() -> dict:
    cpu = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")), platform.processor() or "unknown",
    ) if Path("/proc/cpuinfo").exists() else platform.processor()  # fmt: skip
    return {
        "cpu": cpu, "cores": os.cpu_count(), "torch_threads": torch.get_num_threads(), "torch": torch.__version__,
        "python": platform.python_version(), "platform": platform.platform(),
        "load_average_at_start": list(os.getloadavg()),
    }  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--repeats", type=int, default=7, help="timed runs per case (medians)")
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1], help="training seeds for steps to 99 %%")
    p.add_argument("--max-steps", type=int, default=4000, help="training budget per run")
    p.add_argument("--quick", action="store_true", help="a fast smoke run (short lengths, few steps); not saved")
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    started = time.perf_counter()
    facts = machine()
    lengths = TIMING_LENGTHS[:3] if args.quick else TIMING_LENGTHS
    max_steps = 100 if args.quick else args.max_steps

    reverse = get_task("reverse")
    torch.manual_seed(0)
    timed_configs = configs(reverse, max_len=max(lengths) + 1)
    models = {f: build_model(timed_configs[f]) for f in FAMILIES}
    params = {f: n_params(build_model(c)) for f, c in timed_configs.items()}
    print(f"{facts['cpu']}, {facts['cores']} cores, torch {facts['torch']}, {args.threads} thread(s)")
    print("parameters: " + ", ".join(f"{f} {n:,}" for f, n in params.items()))
    print(f"d_hidden of the GRU: {timed_configs['rnn'].d_hidden}")
    print("\n1. ms per training step (batch 32), per forward and per greedy generation of L tokens (batch 1)")
    kinds = ("train", "forward", "generate")
    print(f"{'L':>5} " + " ".join(f"{k + ' ' + f[:5]:>11}" for k in kinds for f in FAMILIES))
    times = timing(models, len(reverse.src_vocab), lengths, args.repeats)

    print(f"\n2. steps to ≥ 99 % held-out exact match (≤ {max_steps} steps), seeds {args.seeds}")
    to99, reverse_models = steps_to_99(args.seeds, max_steps)

    test_lengths = TEST_LENGTHS[::6] if args.quick else TEST_LENGTHS
    print("\n3. exact match by input length on reverse (trained on 1–12 digits), 200 inputs per length")
    by_length = {f: accuracy_by_length(m, test_lengths, per_length=200, seed=31) for f, m in reverse_models.items()}
    print(f"{'length':>6} " + " ".join(f"{f:>11}" for f in by_length))
    for n in test_lengths:
        print(f"{n:>6} " + " ".join(f"{by_length[f][n]:>11.3f}" for f in by_length))

    seconds = time.perf_counter() - started
    print(f"\ntotal {seconds / 60:.1f} min")
    if args.quick:
        return
    results = {
        "command": " ".join(["nice -n 10 python bench/rnn_vs_transformer.py", *sys.argv[1:]]),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(seconds, 1),
        "machine": facts | {"load_average_at_end": list(os.getloadavg())},
        "models": {
            f: {"arch": c.arch, "config": c.to_dict(), "parameters": params[f]} for f, c in timed_configs.items()
        },
        "timing": {"lengths": lengths, "batch_train": BATCH, "batch_inference": 1, **times},
        "steps_to_99": {"max_steps": max_steps, "eval_every": 50, "eval_size": 500, "seeds": args.seeds, **to99},
        "by_length": {
            "task": "reverse",
            "trained_lengths": [1, 12],
            "per_length": 200,
            "lengths": test_lengths,
            "accuracy": {f: [acc[n] for n in test_lengths] for f, acc in by_length.items()},
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


if __name__ == "__main__":
    main()
