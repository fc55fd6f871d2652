"""Soak: many edits and training runs in one server, then its memory, sessions and training jobs once users left.

    python bench/soak.py [--edits 500 --sessions 10 --trainings 20 --abandon 5 --train-steps 200]

Through the protocol client (bench/load/protocol.py, no browser): `--sessions` explorers share `--edits` edits of
the Attention page (new inputs and layer/head picks), while `--trainings` training runs of `reverse` go through
the Train page, two at a time, each in a session of its own that closes when its run has finished;
`--abandon` of them close their tab a few seconds after Start instead (their jobs must end). Then every session is
gone; after Streamlit's `server.disconnectedSessionTTL` (+5 s) one more session opens and closes, so Streamlit
drops the expired sessions it was keeping for reconnection.

Prints the server process's RSS (and its children's: training workers) after a warm-up, after the work and after
the sessions expired; the connected-session count (Streamlit's /_stcore/metrics); and the CPU the server and its
workers used in a quiet 10 s at the end (≈ 0 when no job is left running). Goal: RSS growth ≤ 50 MB.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import threading
import time
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load.pages import (  # noqa: E402
    change_focus,
    edit_input,
    open_attention,
    open_train,
    start_training,
    wait_training,
)
from bench.load.run import server_flags  # noqa: E402
from tests.browser.harness import streamlit_process  # noqa: E402

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
    return int(float(re.search(r"^active_sessions (\S+)", text, re.M).group(1)))


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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=500)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--trainings", type=int, default=20)
    parser.add_argument("--abandon", type=int, default=5)
    parser.add_argument("--train-steps", type=int, default=200)
    parser.add_argument("--ttl", type=int, default=120, help="server.disconnectedSessionTTL (Streamlit's default)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="more `streamlit run` options")
    options = parser.parse_args(argv)

    server_options = ("--server.disconnectedSessionTTL", str(options.ttl), *server_flags(options.set))
    print(f"server options: {' '.join(server_options)}")
    with streamlit_process(timeout=300, options=server_options) as (url, proc):
        server = psutil.Process(proc.pid)
        session, _ = open_attention(url, timeout=300)  # warm-up: imports, the model, one edit
        edit_input(session, random.Random(0))
        session.close()
        time.sleep(3.0)
        before = memory(server)

        failures: list[str] = []
        finished: list[float] = []
        started = time.monotonic()
        per_session = [options.edits // options.sessions + (i < options.edits % options.sessions)
                       for i in range(options.sessions)]  # fmt: skip
        threads = [threading.Thread(target=explore, args=(url, n, i + 1, failures)) for i, n in enumerate(per_session)]
        half = options.trainings // 2
        for runs, abandon in ((options.trainings - half, options.abandon - options.abandon // 2),
                              (half, options.abandon // 2)):  # fmt: skip
            threads.append(threading.Thread(target=train, args=(url, runs, abandon, options.train_steps, finished,
                                                                failures)))  # fmt: skip
        for t in threads:
            t.start()
        peak = memory(server)
        while any(t.is_alive() for t in threads):
            time.sleep(2.0)
            peak = max(peak, memory(server))
        work_seconds = time.monotonic() - started
        time.sleep(3.0)
        after_work, sessions_after_work = memory(server), connected_sessions(url)

        time.sleep(options.ttl + 5)
        probe, _ = open_attention(url)  # a session's disconnect makes Streamlit drop the expired ones
        probe.close()
        time.sleep(3.0)
        cpu0 = cpu_seconds(server)
        time.sleep(10.0)
        cpu1 = cpu_seconds(server)
        after, sessions_after = memory(server), connected_sessions(url)

    print(f"\nSoak: {options.edits} edits in {options.sessions} sessions, {options.trainings} training runs "
          f"({options.abandon} abandoned after 3 s, the rest {options.train_steps} steps) in {work_seconds:.0f} s; "
          f"{len(finished)} runs finished, {len(failures)} failures")  # fmt: skip
    for failure in failures[:10]:
        print("  failure:", failure)
    print("| when | server RSS MB | workers RSS MB (count) | connected sessions |")
    print("| --- | --- | --- | --- |")
    print(f"| after warm-up | {before[0]:.0f} | {before[1]:.0f} ({before[2]}) | 0 |")
    print(f"| peak during the work | {peak[0]:.0f} | {peak[1]:.0f} ({peak[2]}) | – |")
    print(f"| all sessions closed | {after_work[0]:.0f} | {after_work[1]:.0f} ({after_work[2]}) | "
          f"{sessions_after_work} |")  # fmt: skip
    print(f"| after the TTL ({options.ttl} s) | {after[0]:.0f} | {after[1]:.0f} ({after[2]}) | {sessions_after} |")
    print(f"\nServer RSS growth: {after[0] - before[0]:+.0f} MB (goal ≤ 50 MB); CPU in a quiet 10 s at the end: "
          f"server {(cpu1[0] - cpu0[0]) / 10:.2f} cores, workers {(cpu1[1] - cpu0[1]) / 10:.2f} cores")  # fmt: skip


if __name__ == "__main__":
    main()
