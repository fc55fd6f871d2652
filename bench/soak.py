"""Soak: many edits and training runs in one server, then its memory, sessions and training jobs once users left.

    python bench/soak.py [--edits 500 --sessions 10 --trainings 20 --abandon 5 --train-steps 200]

Through the protocol client (devtools/load/protocol.py, no browser): `--sessions` explorers share `--edits` edits of
the Attention page (new inputs and layer/head picks), while `--trainings` training runs of `reverse` go through
the Train page, two at a time, each in a session of its own that closes when its run has finished;
`--abandon` of them close their tab a few seconds after Start instead (their jobs must end). Then every session is
gone; after Streamlit's `server.disconnectedSessionTTL` (+5 s) one more session opens and closes, so Streamlit
drops the expired sessions it was keeping for reconnection.

The work runs in --rounds equal parts one after another (500 edits and 20 runs in 2 rounds: 250 and 10 each), so
growth that repeats with each round (a leak) can be told from a one-time cost. The warm-up visits every page the
work uses and trains once (imports, the model, the pool's worker), so first-use costs are not counted as growth.
Prints the server process's RSS (and its children's: training workers) after the warm-up, after each round and after
the sessions expired; the connected-session count (Streamlit's /_stcore/metrics); and the CPU the server and its
workers used in a quiet 10 s at the end (≈ 0 when no job is left running). Goal: RSS growth ≤ 50 MB.

With --trim (needs gdb), the server is then made to call glibc's malloc_trim(0) and its RSS read once more: what
that gives back was freed memory glibc kept for reuse (services/allocator.py keeps up to 256 MB per arena on
purpose), not memory the app still holds. With --collect as well, the server first runs Python's gc.collect(): what
that frees was garbage in reference cycles that Python's own GC had not reached yet (Streamlit's collection after
every run is off: .streamlit/config.toml). --env KEY=VALUE sets the server's environment (e.g. MALLOC_ARENA_MAX=2).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from dataclasses import dataclass

import psutil

from devtools.harness import server_flags, streamlit_process
from devtools.load.pages import (
    change_focus,
    edit_input,
    open_attention,
    open_train,
    start_training,
    wait_training,
)

MB = 2**20


def memory(process: psutil.Process) -> tuple[float, float, int]:
    """(server RSS MB, children's RSS MB, number of children)."""
    children = process.children(recursive=True)
    return process.memory_info().rss / MB, sum(c.memory_info().rss for c in children) / MB, len(children)


def cpu_seconds(process: psutil.Process) -> tuple[float, float]:
    children = process.children(recursive=True)
    return sum(process.cpu_times()[:2]), sum(sum(c.cpu_times()[:2]) for c in children)


def connected_sessions(url: str) -> int:
    with urllib.request.urlopen(f"{url}/_stcore/metrics", timeout=30) as response:
        text = response.read().decode()
    found = re.search(r"^active_sessions (\S+)", text, re.M)
    if found is None:  # (None.group failed here before)
        raise RuntimeError(f"no active_sessions in {url}/_stcore/metrics")
    return int(float(found.group(1)))


def in_server(pid: int, collect: bool) -> str:
    """Through gdb, make the server call Python's gc.collect() (under the GIL; with `collect`) and then glibc's
    malloc_trim(0); gdb's last value line ($N = 1 when malloc_trim gave memory back)."""
    commands = ["call (int) malloc_trim(0)"]
    if collect:
        commands = ["call (int) PyGILState_Ensure()", 'call (int) PyRun_SimpleString("import gc; gc.collect()")',
                    "call (void) PyGILState_Release($1)", *commands]  # fmt: skip
    args = [part for command in commands for part in ("-ex", command)]
    out = subprocess.run(["gdb", "-p", str(pid), "-batch", *args], capture_output=True, text=True, timeout=120)
    lines = [line for line in out.stdout.splitlines() if line.startswith("$")]
    return lines[-1] if lines else (out.stderr.strip().splitlines() or ["gdb said nothing"])[-1]


def explore(url: str, edits: int, seed: int, failures: list) -> None:
    rng = random.Random(seed)
    try:
        session, _ = open_attention(url, timeout=300)
        for i in range(edits):  # one in four picks a layer or head, as the Explorer does
            run = change_focus(session, rng) if i % 4 == 3 else edit_input(session, rng)
            if run.exceptions:
                failures.append(run.exceptions[0])
        session.close()
    except Exception as exc:
        failures.append(f"explorer {seed}: {exc!r}")


def train(url: str, runs: int, abandon: int, steps: int, finished: list, failures: list) -> None:
    for i in range(runs):
        try:
            session, _ = open_train(url, timeout=300)
            started = time.monotonic()
            start_training(session, steps=steps)
            if i < abandon:
                time.sleep(3.0)  # a tab closed while its run trains (or waits for a worker)
            else:
                wait_training(session, started, timeout=900)
                finished.append(time.monotonic() - started)
            session.close()
        except Exception as exc:
            failures.append(f"training {i}: {exc!r}")


@dataclass
class Round:
    """What one part of the work did and the server's memory at its end."""

    seconds: float
    finished: int
    failures: list[str]
    peak: tuple[float, float, int]
    end: tuple[float, float, int]
    sessions: int
    loads: tuple[float, float]


def share(total: int, parts: int, i: int) -> int:
    """Part i of `total` cut into `parts` nearly equal parts."""
    return total // parts + (i < total % parts)


def work(url: str, server: psutil.Process, edits: int, trainings: int, abandon: int, options, seed: int) -> Round:
    """`edits` edits in --sessions explorers and `trainings` runs in two trainer threads, at once; then the RSS."""
    failures: list[str] = []
    finished: list[float] = []
    started = time.monotonic()
    sessions = options.sessions
    per_session = [edits // sessions + (i < edits % sessions) for i in range(sessions)]
    threads = [threading.Thread(target=explore, args=(url, n, seed + i, failures)) for i, n in enumerate(per_session)]
    half, abandon = trainings // 2, min(abandon, trainings)
    for runs, dropped in ((trainings - half, abandon - abandon // 2), (half, abandon // 2)):
        threads.append(threading.Thread(target=train, args=(url, runs, dropped, options.train_steps, finished,
                                                            failures)))  # fmt: skip
    for t in threads:
        t.start()
    peak, loads = memory(server), [os.getloadavg()[0]]
    while any(t.is_alive() for t in threads):
        time.sleep(2.0)
        peak = max(peak, memory(server))
        loads.append(os.getloadavg()[0])
    seconds = time.monotonic() - started
    time.sleep(3.0)
    return Round(seconds, len(finished), failures, peak, memory(server), connected_sessions(url),
                 (min(loads), max(loads)))  # fmt: skip


def warm_up(url: str, steps: int) -> None:
    """Every page the work uses, once: an edit on /attention and a short training run on /train."""
    session, _ = open_attention(url, timeout=300)
    edit_input(session, random.Random(0))
    session.close()
    session, _ = open_train(url, timeout=300)
    started = time.monotonic()
    start_training(session, steps=steps)
    wait_training(session, started, timeout=900)
    session.close()


def row(when: str, mb: tuple[float, float, int], sessions: object) -> str:
    return f"| {when} | {mb[0]:.0f} | {mb[1]:.0f} ({mb[2]}) | {sessions} |"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=500)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--trainings", type=int, default=20)
    parser.add_argument("--abandon", type=int, default=5, help="training runs whose tab closes 3 s after Start")
    parser.add_argument("--train-steps", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2, help="the work in this many equal parts, one after another")
    parser.add_argument("--ttl", type=int, default=120, help="server.disconnectedSessionTTL (Streamlit's default)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="more `streamlit run` options")
    parser.add_argument("--env", action="append", default=[], metavar="KEY=VALUE", help="the server's environment")
    parser.add_argument("--trim", action="store_true", help="at the end, the server calls malloc_trim(0) (gdb)")
    parser.add_argument("--collect", action="store_true", help="with --trim: gc.collect() first (gdb)")
    options = parser.parse_args(argv)
    if options.trim and shutil.which("gdb") is None:
        parser.error("--trim needs gdb")
    if options.rounds < 1:
        parser.error("--rounds must be at least 1")
    env = dict(item.split("=", 1) for item in options.env)

    server_options = ("--server.disconnectedSessionTTL", str(options.ttl), *server_flags(options.set))
    print(f"server options: {' '.join(server_options)}; environment: {env or '(as is)'}")
    rounds: list[Round] = []
    with streamlit_process(timeout=300, env=env, options=server_options) as (url, proc):
        server = psutil.Process(proc.pid)
        warm_up(url, steps=options.train_steps)
        time.sleep(3.0)
        before = memory(server)
        for i in range(options.rounds):
            edits, trainings, abandon = (
                share(total, options.rounds, i) for total in (options.edits, options.trainings, options.abandon)
            )
            rounds.append(work(url, server, edits, trainings, abandon, options, seed=1 + i * options.sessions))

        time.sleep(options.ttl + 5)
        probe, _ = open_attention(url)  # a session's disconnect makes Streamlit drop the expired ones
        probe.close()
        time.sleep(3.0)
        cpu0 = cpu_seconds(server)
        time.sleep(10.0)
        cpu1 = cpu_seconds(server)
        after, sessions_after = memory(server), connected_sessions(url)
        trimmed = None
        if options.trim:
            said = in_server(proc.pid, options.collect)
            time.sleep(2.0)
            trimmed = memory(server)

    failures = [f for r in rounds for f in r.failures]
    low, high = min(r.loads[0] for r in rounds), max(r.loads[1] for r in rounds)
    print(f"\nSoak: {options.edits} edits in {options.sessions} sessions at a time, {options.trainings} training runs "
          f"({options.abandon} abandoned after 3 s, the rest {options.train_steps} steps) in {options.rounds} rounds, "
          f"{sum(r.seconds for r in rounds):.0f} s of work; {sum(r.finished for r in rounds)} runs finished, "
          f"{len(failures)} failures; machine load average during the work {low:.1f}–{high:.1f}")  # fmt: skip
    for failure in failures[:10]:
        print("  failure:", failure)
    print("| when | server RSS MB | workers RSS MB (count) | connected sessions |")
    print("| --- | --- | --- | --- |")
    print(row("after the warm-up", before, 0))
    for i, r in enumerate(rounds, 1):
        print(row(f"round {i}: peak", r.peak, "–"))
        print(row(f"round {i}: its sessions closed", r.end, r.sessions))
    print(row(f"after the TTL ({options.ttl} s)", after, sessions_after))
    if trimmed is not None:
        what = "gc.collect() and malloc_trim(0)" if options.collect else "malloc_trim(0)"
        print(row(f"after {what} ({said})", trimmed, "–"))
    ends = [before[0]] + [r.end[0] for r in rounds]
    growth = ", ".join(f"round {i}: {ends[i] - ends[i - 1]:+.0f} MB" for i in range(1, len(ends)))
    quiet = f"server {(cpu1[0] - cpu0[0]) / 10:.2f} cores, workers {(cpu1[1] - cpu0[1]) / 10:.2f} cores"
    print(f"\nServer RSS growth: {after[0] - before[0]:+.0f} MB (goal ≤ 50 MB; {growth}); CPU in a quiet 10 s at "
          f"the end: {quiet}")  # fmt: skip
    if trimmed is not None:
        print(f"Server RSS growth after {what}: {trimmed[0] - before[0]:+.0f} MB")


if __name__ == "__main__":
    main()
