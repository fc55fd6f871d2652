"""The numbers bench/rnn_vs_transformer.py measured (bench/results/rnn_vs_transformer.json), read and checked for
the page that draws them, and the places where the Transformer did not win. Reading only: nothing is re-measured.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from attention_lab.paths import APP_ROOT
from model.errors import N_, LabError

RESULTS = APP_ROOT / "bench" / "results" / "rnn_vs_transformer.json"
FAMILIES = ("transformer", "rnn", "rnn-noattn")  # the JSON's names: Transformer, RNN + attention, RNN without
TIMED = FAMILIES[:2]  # the timing section has no "rnn-noattn"
TASKS = ("reverse", "translate")
MAX_BYTES = 1_000_000


@dataclass(frozen=True)
class StepsTo99:
    """One family on one task: optimiser steps to ≥ 99 % held-out exact match, per seed."""

    steps: list[int]  # per seed; max_steps when not reached
    reached: list[bool]
    seconds: list[float]
    fresh: list[float]  # exact match on 1000 fresh pairs afterwards
    median: float


@dataclass(frozen=True)
class RnnBench:
    """bench/results/rnn_vs_transformer.json, as the page uses it."""

    command: str
    date: str
    machine: dict
    parameters: dict[str, int]  # family → parameter count
    d_hidden: int  # the GRU's width, chosen so that it matches the Transformer's size
    lengths: list[int]  # timing lengths L
    train_ms: dict[str, list[float]]  # family → ms per training step at each L (batch 32)
    forward_ms: dict[str, list[float]]  # family → ms per teacher-forced forward pass (batch 1)
    generate_ms: dict[str, list[float]]  # family → ms per greedy generation of L tokens (batch 1)
    batch_train: int
    max_steps: int
    seeds: list[int]
    steps: dict[str, dict[str, StepsTo99]]  # task → family → steps to 99 %
    by_length_task: str
    trained_lengths: tuple[int, int]  # shortest and longest training input (in tokens)
    per_length: int
    test_lengths: list[int]
    accuracy: dict[str, list[float]]  # family → exact match at each test length


@dataclass(frozen=True)
class Comparison:
    """Who came out ahead where, in the measured numbers (a list is empty when that never happened)."""

    train_ratio: list[float]  # RNN ms / Transformer ms per training step, at each timing length
    forward_ratio: list[float]  # the same for one teacher-forced forward pass
    rnn_generates_faster: list[int]  # lengths L at which generating L tokens took the RNN less time
    rnn_fewer_steps: list[str]  # tasks on which RNN + attention reached 99 % in fewer steps (medians)
    rnn_longer_inputs: list[int]  # test lengths past training where RNN + attention had the higher exact match


def _bad(reason: str) -> LabError:
    return LabError(N_("The benchmark results cannot be read: {reason}"), reason=reason)


def _numbers(values, n: int | None, what: str) -> list[float]:
    if not isinstance(values, list) or (n is not None and len(values) != n):
        raise _bad(f"{what} should be a list of {n} numbers")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in values):
        raise _bad(f"{what} holds something other than finite numbers")
    return [float(v) for v in values]


def _steps(run_lists: dict, task: str) -> dict[str, StepsTo99]:
    out = {}
    for family in FAMILIES:
        runs = run_lists[task][family]["runs"]
        out[family] = StepsTo99(
            steps=[int(r["steps"]) for r in runs], reached=[bool(r["reached"]) for r in runs],
            seconds=[float(r["seconds"]) for r in runs], fresh=[float(r["fresh_1000"]) for r in runs],
            median=float(run_lists[task][family]["median_steps"]),
        )  # fmt: skip
    return out


def parse_rnn_bench(data: dict) -> RnnBench:
    """The results from their JSON dict; LabError naming what is missing or malformed."""
    try:
        timing, to99, by_length = data["timing"], data["steps_to_99"], data["by_length"]
        lengths = [int(v) for v in _numbers(timing["lengths"], None, "timing.lengths")]
        test_lengths = [int(v) for v in _numbers(by_length["lengths"], None, "by_length.lengths")]
        per_family = {
            kind: {f: _numbers(timing[kind][f], len(lengths), f"timing.{kind}.{f}") for f in TIMED}
            for kind in ("train_step_ms", "forward_ms", "generate_ms")
        }
        low, high = (int(v) for v in by_length["trained_lengths"])
        return RnnBench(
            command=str(data["command"]), date=str(data["date"]), machine=dict(data["machine"]),
            parameters={f: int(data["models"][f]["parameters"]) for f in FAMILIES},
            d_hidden=int(data["models"]["rnn"]["config"]["d_hidden"]),
            lengths=lengths, train_ms=per_family["train_step_ms"], forward_ms=per_family["forward_ms"],
            generate_ms=per_family["generate_ms"], batch_train=int(timing["batch_train"]),
            max_steps=int(to99["max_steps"]), seeds=[int(s) for s in to99["seeds"]],
            steps={task: _steps(to99, task) for task in TASKS},
            by_length_task=str(by_length["task"]), trained_lengths=(low, high), per_length=int(by_length["per_length"]),
            test_lengths=test_lengths,
            accuracy={
                f: _numbers(by_length["accuracy"][f], len(test_lengths), f"by_length.accuracy.{f}") for f in FAMILIES
            },
        )  # fmt: skip
    except LabError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise _bad(f"{type(exc).__name__}: {exc}") from None


def load_rnn_bench(path: Path = RESULTS) -> RnnBench:
    """Read and check the JSON the benchmark wrote; LabError when it is missing, too large or malformed."""
    try:
        raw = Path(path).read_bytes()[: MAX_BYTES + 1]
    except OSError as exc:
        raise LabError(N_("No benchmark results at {path} ({error})."), path=str(path), error=exc.strerror) from None
    if len(raw) > MAX_BYTES:
        raise _bad(f"the file is larger than {MAX_BYTES:,} bytes")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise _bad(f"not valid JSON ({exc})") from None
    if not isinstance(data, dict):
        raise _bad("the file does not hold a JSON object")
    return parse_rnn_bench(data)


def compare(bench: RnnBench) -> Comparison:
    """Ratios and the places where the measured numbers favour the RNN with attention over the Transformer."""

    def ratios(ms: dict[str, list[float]]) -> list[float]:
        return [r / t for t, r in zip(ms["transformer"], ms["rnn"], strict=True)]

    generate = [n for n, t, r in zip(bench.lengths, *(bench.generate_ms[f] for f in TIMED), strict=True) if r < t]
    fewer = [task for task in TASKS if bench.steps[task]["rnn"].median < bench.steps[task]["transformer"].median]
    _, trained_max = bench.trained_lengths
    accuracy = bench.accuracy
    longer = [
        n
        for n, t, r in zip(bench.test_lengths, accuracy["transformer"], accuracy["rnn"], strict=True)
        if n > trained_max and r > t
    ]
    return Comparison(ratios(bench.train_ms), ratios(bench.forward_ms), generate, fewer, longer)
