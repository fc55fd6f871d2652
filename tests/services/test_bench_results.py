"""services.bench_results reads the benchmark's JSON as it is (checked against the file read here with json) and
refuses a missing, malformed or hostile file with a LabError."""

from __future__ import annotations

import json

import pytest

from model.errors import LabError
from services.bench_results import RESULTS, compare, load_rnn_bench


def test_the_shipped_results_read_as_written():
    raw = json.loads(RESULTS.read_text())
    bench = load_rnn_bench()
    assert bench.command == raw["command"] == "nice -n 10 python bench/rnn_vs_transformer.py"
    assert bench.lengths == raw["timing"]["lengths"]
    for family in ("transformer", "rnn"):
        assert bench.train_ms[family] == raw["timing"]["train_step_ms"][family]
        assert bench.generate_ms[family] == raw["timing"]["generate_ms"][family]
    assert bench.accuracy["rnn-noattn"] == raw["by_length"]["accuracy"]["rnn-noattn"]
    assert bench.trained_lengths == (1, 12) and bench.d_hidden == 75
    noattn = bench.steps["reverse"]["rnn-noattn"]
    assert noattn.reached == [r["reached"] for r in raw["steps_to_99"]["reverse"]["rnn-noattn"]["runs"]]


def test_compare_finds_where_each_family_won():
    raw = json.loads(RESULTS.read_text())
    t = raw["timing"]
    found = compare(load_rnn_bench())
    train, gen = t["train_step_ms"], t["generate_ms"]
    assert found.train_ratio == [r / x for x, r in zip(train["transformer"], train["rnn"], strict=True)]
    faster = [n for n, x, r in zip(t["lengths"], gen["transformer"], gen["rnn"], strict=True) if r < x]
    assert found.rnn_generates_faster == faster
    steps = raw["steps_to_99"]
    assert found.rnn_fewer_steps == [
        task for task in ("reverse", "translate")
        if steps[task]["rnn"]["median_steps"] < steps[task]["transformer"]["median_steps"]
    ]  # fmt: skip
    acc = raw["by_length"]["accuracy"]
    assert found.rnn_longer_inputs == [
        n
        for n, x, r in zip(raw["by_length"]["lengths"], acc["transformer"], acc["rnn"], strict=True)
        if n > 12 and r > x
    ]
    assert found.rnn_longer_inputs == [13, 14, 15]  # this run's numbers: 0.87 vs 0.01 at 13 digits, …


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "does not hold a JSON object"),
        (b'{"timing": {}}', "cannot be read"),
        (b"\xff\xfe\x00", "not valid JSON"),
    ],
)
def test_a_malformed_file_is_a_clear_error(tmp_path, content, words):
    path = tmp_path / "results.json"
    path.write_bytes(content)
    with pytest.raises(LabError, match=words) as caught:
        load_rnn_bench(path)
    assert caught.value.template == "The benchmark results cannot be read: {reason}"


def test_wrong_numbers_and_a_missing_file_are_clear_errors(tmp_path):
    raw = json.loads(RESULTS.read_text())
    raw["timing"]["train_step_ms"]["rnn"] = raw["timing"]["train_step_ms"]["rnn"][:-1]
    path = tmp_path / "short.json"
    path.write_text(json.dumps(raw))
    with pytest.raises(LabError, match=r"timing.train_step_ms.rnn should be a list of 6 numbers"):
        load_rnn_bench(path)
    raw["timing"]["train_step_ms"]["rnn"] = ["fast"] * 6
    path.write_text(json.dumps(raw))
    with pytest.raises(LabError, match="other than finite numbers"):
        load_rnn_bench(path)
    with pytest.raises(LabError, match="No benchmark results at"):
        load_rnn_bench(tmp_path / "absent.json")
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * 1_000_001)
    with pytest.raises(LabError, match="larger than"):
        load_rnn_bench(huge)
