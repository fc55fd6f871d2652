"""The follow bench's table on recorded rounds (devtools/load/follow_round.py), against figures counted here from the
raw samples with NumPy.

data/follow-while-joining.jsonl is the raw samples of a real round, kept by `bench/load/run.py follow --page attention
--students 20 --repeats 1 --seconds 30 --spawn-rate 1 --keep DIR` (2026-12-01): the teacher's last change (at ~10 s)
came before the last of 20 students had joined (~20 s), as at 200 students and 5 a second in 60 s. Locust counted
10 follows; the table used to print 0 and dashes for them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from devtools.load.follow_round import read_round, row_cells

RECORDED = Path(__file__).parent / "data" / "follow-while-joining.jsonl"
SETTLE = 5.0  # run.py follow's default --settle


def recorded() -> list[dict]:
    return [json.loads(line) for line in RECORDED.read_text().splitlines()]


def nearest_rank(values: Sequence[float], q: int) -> float:
    return float(np.percentile(values, q, method="inverted_cdf"))


def test_a_round_whose_teacher_stopped_before_the_class_had_joined_counts_its_follows():
    samples = recorded()
    follows = [s["ms"] for s in samples if s["name"] == "follow" and s["ok"]]
    changes = [s["ms"] for s in samples if s["name"] == "teacher next" and s["ok"]]
    assert len(follows) == 10 and len(changes) == 2  # the run as recorded
    last_join = max(s["t"] for s in samples if s["name"] == "open student")
    assert max(s["t"] for s in samples if s["name"] == "teacher next") < last_join  # the case in point
    r = read_round(samples, 20, SETTLE, runs=2, load_cores=0.0)
    assert r.while_joining
    assert r.follow.count == 10 and r.follow.failures == 0
    assert r.follow.p50_ms == nearest_rank(follows, 50) and r.follow.p90_ms == nearest_rank(follows, 90)
    assert r.teacher.p90_ms == nearest_rank(changes, 90)
    assert r.final == (20, 20) and r.changes == 2
    cells = row_cells(20, 1, r)
    assert cells[2:5] == ["10*", f"{nearest_rank(follows, 50):.0f}", f"{nearest_rank(follows, 90):.0f}"]
    assert "–" not in cells[2:6]


def sample(t: float, name: str, ms: float = 0.0, ok: bool = True) -> dict:
    """A record as bench/load/locustfile.py's record_ms writes it."""
    return {"t": t, "users": 4, "name": name, "ms": ms, "ok": ok}


def test_a_round_whose_class_joined_first_counts_only_what_came_after_the_joins():
    samples = [
        sample(100.0, "open teacher", 80),
        sample(100.1, "start class", 70),
        *[sample(101.0 + i, "open student", 60) for i in range(3)],  # the last joins at 103 s
        sample(104.0, "teacher next", 90),  # before 103 + 5 s: left out, and its follows
        *[sample(104.2, "follow", 500) for _ in range(3)],
        sample(110.0, "teacher next", 120),
        sample(110.3, "follow", 200),
        sample(110.4, "follow", 300),
        sample(110.5, "follow", 0, ok=False),
        sample(120.0, "teacher next", 140),
        *[sample(120.2 + i / 10, "follow", 100 + 10 * i) for i in range(3)],
        *[
            {"t": t, "users": 4, "name": "client", "lag_ms": 3.0, "pending": 1, "active": 9, "cpu": t / 100}
            for t in (108.0, 124.0, 126.0)
        ],  # the load generator's own, once a second to the end (three kept)
        sample(130.0, "final", ok=True),
        {"name": "load", "t": float("inf"), "min": 0.5, "max": 1.5},
    ]
    r = read_round(samples, 3, SETTLE, runs=4, load_cores=0.0)
    assert not r.while_joining
    counted = [200, 300, 100, 110, 120]
    assert r.follow.count == 6 and r.follow.failures == 1
    assert r.follow.p50_ms == nearest_rank(counted, 50) and r.follow.p90_ms == nearest_rank(counted, 90)
    assert r.teacher.count == 2 and r.teacher.p90_ms == nearest_rank([120, 140], 90)
    assert r.changes == 3 and r.load == (0.5, 1.5) and r.final == (1, 1)
    assert r.client == (pytest.approx(0.01), 3.0, 1)  # (1.24 − 1.08) / (124 − 108) cores; 126 s is the end
    assert row_cells(3, 1, r)[2] == "6"
