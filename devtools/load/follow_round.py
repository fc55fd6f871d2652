"""One round of `bench/load/run.py follow` read from its samples (devtools/load/samples.py), and its row of the table.

The follows and the teacher's changes are counted from the time the last student had joined (plus `settle`), so
that the joins' page runs do not weigh on them. A round whose teacher stopped changing the view before the class had
joined (200 students at 5 a second take 40 s or more to join; the teacher's last change comes `--quiet-end` s before
the end) has no change after that time: its figures are then those of the whole round, joins included, and its row
says so, instead of "0 follows" and dashes beside Locust's own count of the same run.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import samples as sampling

JOINS = ("open student", "start class")  # a student's page opened; or, with no student, the class's start
OTHER = ("load", "final")  # written by run.py and at Locust's end, not during the round


@dataclass(frozen=True)
class FollowRound:
    """One round of `follow`: follows, joins and the teacher's changes, and how the class and the machine fared."""

    follow: sampling.Window
    opened: sampling.Window
    teacher: sampling.Window
    runs: int
    changes: int
    load: tuple[float, float]
    final: tuple[int, int]  # students on the teacher's last view at the end, of all
    client: tuple[float, float, int]  # load generator cores, worst lag ms, most ready watchers
    load_cores: float
    while_joining: bool = False  # no change of the teacher's came after the last join: the whole round is counted


def read_round(samples: list[dict], students: int, settle: float, runs: int, load_cores: float) -> FollowRound:
    """The round these samples (one Locust run's, with run.py's "load" sample) hold; `runs`: the server's model runs
    during it; `load_cores`: the load generator's cores."""
    joined = max(s["t"] for s in samples if s["name"] in JOINS) + settle
    end = max(s["t"] for s in samples if s["name"] not in OTHER)
    changed = [s["t"] for s in samples if s["name"] == "teacher next" and s["ok"]]
    while_joining = not any(joined <= t < end for t in changed) and bool(changed)
    since = min(s["t"] for s in samples if s["name"] not in OTHER) if while_joining else joined
    load = next(s for s in samples if s["name"] == "load")
    final = [s["ok"] for s in samples if s["name"] == "final"]
    return FollowRound(
        sampling.window(samples, {"follow"}, since, end, students),
        sampling.window(samples, {"open student"}, 0, end),
        sampling.window(samples, {"teacher next"}, since, end),
        runs,
        len(changed),
        (load["min"], load["max"]),
        (sum(final), len(final)),
        client_figures(samples, since, end),
        load_cores,
        while_joining,
    )


def client_figures(samples: list[dict], start: float, end: float) -> tuple[float, float, int]:
    """The load generator in a window: its cores, the worst lateness of a 0.1 s sleep (ms), the most watchers ready."""
    client = [s for s in samples if s["name"] == "client" and start <= s["t"] < end]
    if len(client) < 2:
        return float("nan"), float("nan"), 0
    cores = (client[-1]["cpu"] - client[0]["cpu"]) / (client[-1]["t"] - client[0]["t"])
    return cores, max(s["lag_ms"] for s in client), max(s["pending"] for s in client)


HEADER = ["students", "round", "follows", "p50 ms", "p90 ms", "teacher's change p90 ms", "join p90 ms",
          "on the teacher's view at the end", "server cores", "server RSS MB", "teacher's changes",
          "runs per input", "load average", "load generator cores / worst lag ms"]  # fmt: skip
WHILE_JOINING = (
    "* no change of the teacher's came after the last student had joined: that round's figures count the whole "
    "round, joins included (give --seconds more than the class needs to join: N ÷ --spawn-rate s and more, plus "
    "--quiet-end)"
)


def row_cells(students: int, index: int, r: FollowRound) -> list[str]:
    """The round's cells, in HEADER's order; its follows marked * when counted over the whole round."""
    cores, lag, _pending = r.client
    follows = f"{r.follow.count}*" if r.while_joining else str(r.follow.count)
    return [str(students), str(index), follows, fmt(r.follow.p50_ms), fmt(r.follow.p90_ms), fmt(r.teacher.p90_ms),
            fmt(r.opened.p90_ms), f"{r.final[0]} of {r.final[1]}", fmt(r.follow.server_cores, 2),
            fmt(r.follow.server_rss_mb), str(r.changes), fmt(r.runs / (r.changes + 1), 2),
            f"{r.load[0]:.1f}–{r.load[1]:.1f}", f"{fmt(cores, 2)} / {fmt(lag)}"]  # fmt: skip


def fmt(x: float | None, digits: int = 0) -> str:
    return "–" if x is None or x != x else f"{x:.{digits}f}"  # x != x: NaN
