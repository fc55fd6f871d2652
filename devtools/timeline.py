"""A timeline of a server's class: when the room's version moved, and when each session's script runs started and
ended (full runs and fragment runs), with each run's CPU time, the time it waited for a CPU (Linux: the thread's
run-queue delay, /proc/thread-self/schedstat) and the messages it sent, written as JSON lines to
FILE.PID once a second ($ATTENTION_LAB_TIMELINE). With $ATTENTION_LAB_CPROFILE set, every run is also profiled with
cProfile, summed into FILE.PID.pstats (cProfile slows the runs several times: read its shares, not its times).

Installed by `python -m devtools.count_runs` before Streamlit starts (bench/load/run.py follow --profile): it wraps
RoomDocs.put, ui.classroom.fanout.replay (a student sent another student's run), and through
ui.streamlit_private.instrument each script run, each message a run sends and each script_finished that leaves for its
browser; nothing in the app changes.
`python -m devtools.timeline FILE.PID` prints what docs/capacity.md quotes: the students' runs (each student's first,
its join, left out) and the teacher's, in CPU time, wall time and messages.
"""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import threading
import time

from services.rooms.mirror import RoomDocs
from ui.classroom import fanout
from ui.streamlit_private import instrument

TIMELINE_ENV = "ATTENTION_LAB_TIMELINE"
CPROFILE_ENV = "ATTENTION_LAB_CPROFILE"  # set: every script run is also profiled with cProfile (slower)


def _run_queue_ms() -> float:
    """The ms this thread has so far spent runnable but waiting for a CPU (the kernel's schedstat), 0 where the
    kernel does not say: a run whose wall time far exceeds its CPU time waited here, or for the GIL."""
    try:
        with open("/proc/thread-self/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e6
    except (OSError, IndexError, ValueError):
        return 0.0


def install(path: str) -> None:
    """Record room versions and script runs in this process into path.PID from now on."""
    events: list[dict] = []
    lock = threading.Lock()

    def note(**event) -> None:
        with lock:
            events.append({"t": time.time(), **event})

    original_put = RoomDocs.put
    sent = threading.local()  # the messages this script thread's run has sent so far

    def enqueued() -> None:
        sent.count = getattr(sent, "count", 0) + 1

    def put(self, doc):
        kept = original_put(self, doc)
        if kept:
            note(event="room", code=doc.code, version=doc.version, rev=doc.rev)
        return kept

    profiles: list[cProfile.Profile] = []

    def run_script(run, session_id: str, fragment: bool):
        started, cpu, queued = time.time(), time.thread_time(), _run_queue_ms()
        sent.count = 0
        profile = cProfile.Profile() if os.environ.get(CPROFILE_ENV) else None
        try:
            return run() if profile is None else profile.runcall(run)
        finally:
            if profile is not None:
                with lock:
                    profiles.append(profile)
            note(event="run", session=session_id[:8], fragment=fragment, started=started,
                 cpu_ms=(time.thread_time() - cpu) * 1000, runq_ms=_run_queue_ms() - queued,
                 messages=sent.count)  # fmt: skip

    original_replay = fanout.replay

    def replay(session, key):
        replayed = original_replay(session, key)
        if replayed:
            note(event="replay", session=session.id[:8])
        return replayed

    RoomDocs.put = put  # type: ignore[method-assign]
    instrument.wrap_script_runs(run_script)
    instrument.on_message_enqueued(enqueued)
    instrument.on_script_finished_sent(lambda session_id: note(event="finished sent", session=session_id[:8]))
    fanout.replay = replay

    profiled = f"{path}.{os.getpid()}.pstats"  # every script run's cProfile, summed ($ATTENTION_LAB_CPROFILE set)

    def write_forever() -> None:
        with open(f"{path}.{os.getpid()}", "a") as out:
            while True:
                time.sleep(1.0)
                with lock:
                    batch = events[:]
                    del events[:]
                out.writelines(json.dumps(e) + "\n" for e in batch)
                out.flush()
                with lock:
                    done = profiles[:]
                    del profiles[:]
                if done:
                    stats = pstats.Stats(*done)
                    if os.path.exists(profiled):
                        stats.add(profiled)
                    stats.dump_stats(profiled)

    threading.Thread(target=write_forever, name="timeline", daemon=True).start()


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def summarize(path: str) -> str:
    """The students' full runs and fragment runs (a follower's page fragment, ui/classroom/page_fragment.py), and the
    teacher's full runs, in a timeline file (the teacher is the session during whose runs the room's version moved:
    its publish; a student's first full run, the page's opening, is left out)."""
    with open(path) as f:
        events = list(map(json.loads, f))
    all_runs = [e for e in events if e["event"] == "run"]
    runs = [e for e in all_runs if not e["fragment"]]
    moves = [e["t"] for e in events if e["event"] == "room"]
    publishing: dict[str, int] = {}
    for run in runs:
        publishing[run["session"]] = publishing.get(run["session"], 0) + any(
            run["started"] <= t <= run["t"] for t in moves
        )
    by_session: dict[str, list[dict]] = {}
    for run in sorted(runs, key=lambda r: r["started"]):
        by_session.setdefault(run["session"], []).append(run)
    teacher = max(publishing, key=publishing.__getitem__)
    lines = []
    for who, chosen in (
        ("students (app runs)", [r for s, rs in by_session.items() if s != teacher and len(rs) > 1 for r in rs[1:]]),
        ("students (fragment runs)", [r for r in all_runs if r["fragment"] and r["session"] != teacher]),
        ("teacher", by_session[teacher]),
    ):
        if not chosen:
            continue
        cpu = [r["cpu_ms"] for r in chosen]
        wall = [(r["t"] - r["started"]) * 1000 for r in chosen]
        sent = [r.get("messages", 0) for r in chosen]
        queued = [r.get("runq_ms", 0.0) for r in chosen]
        lines.append(
            f"{who}: {len(chosen)} runs; CPU p50 {_quantile(cpu, 0.5):.1f} ms, p90 {_quantile(cpu, 0.9):.1f} ms; "
            f"wall p50 {_quantile(wall, 0.5):.1f} ms, p90 {_quantile(wall, 0.9):.1f} ms; waiting for a CPU p50 "
            f"{_quantile(queued, 0.5):.1f} ms, p90 {_quantile(queued, 0.9):.1f} ms; "
            f"messages p50 {_quantile(sent, 0.5):g}"
        )
    replays = [e for e in events if e["event"] == "replay"]
    if replays:
        lines.append(f"students sent another student's run (ui/classroom/fanout.py): {len(replays)}")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    print(summarize(sys.argv[1]))
