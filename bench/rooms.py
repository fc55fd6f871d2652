"""Follow latency of the room store alone (no Streamlit): teacher publish → every follower woken with it.

    python bench/rooms.py [--publishes 50] [--followers 1 30 300]

Each follower is a thread blocked in wait_for_change, as a student's session would be. Cases:
  memory   one MemoryRoomStore: teacher and followers in one process
  redis    teacher on RedisRoomStore A, followers on RedisRoomStore B (two "servers"), one real
           redis-server started here on a free loopback port and stopped at the end
Latency of one publish: from just before publish() on A to the last follower returning from its wait.
Also: the p50 of one student call (answer) and one teacher call (publish) on each backend.
Prints p50 / p90 in ms. Figures vary on a shared machine; compare within one run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

from devtools.redis_server import redis_server
from services.rooms import MemoryRoomStore, RoomLimits, RoomStore
from services.rooms.redis_store import RedisRoomStore

LIMITS = RoomLimits(max_students=1000)


def follow_latency(teacher: RoomStore, follower: RoomStore, n_followers: int, publishes: int) -> list[float]:
    """Seconds from each publish on `teacher` to the last of n_followers on `follower` having the new version."""
    ticket = teacher.create_room()
    version = teacher.publish(ticket.code, ticket.key, {"page": "step-by-step", "input": "0"})
    while follower.version(ticket.code) < version:  # B's copy catches up with the room before we start
        time.sleep(0.001)
    latencies = []
    for step in range(1, publishes + 1):
        ready = threading.Barrier(n_followers + 1)
        done: list[float] = []
        args = (follower, ticket.code, version, ready, done)
        threads = [threading.Thread(target=_follow, args=args) for _ in range(n_followers)]
        for thread in threads:
            thread.start()
        ready.wait()
        time.sleep(0.005)  # let every follower reach its wait
        start = time.perf_counter()
        version = teacher.publish(ticket.code, ticket.key, {"page": "step-by-step", "input": str(step)})
        for thread in threads:
            thread.join()
        assert len(done) == n_followers, f"{n_followers - len(done)} followers timed out"
        latencies.append(max(done) - start)
    teacher.close(ticket.code, ticket.key)
    return latencies


def _follow(store: RoomStore, code: str, after: int, ready: threading.Barrier, done: list[float]) -> None:
    """One follower: wait for the version to pass `after`, then note the time (list.append is atomic)."""
    ready.wait()
    if store.wait_for_change(code, after, 30) is not None:
        done.append(time.perf_counter())


def call_latency(store: RoomStore, calls: int = 300) -> tuple[float, float]:
    """p50 seconds of one student answer and one teacher publish."""
    ticket = store.create_room()
    store.ask(ticket.code, ticket.key, {"id": "q", "kind": "k", "options": ["a", "b"]})
    student = store.join(ticket.code)
    answers, publishes = [], []
    for i in range(calls):
        start = time.perf_counter()
        store.answer(ticket.code, student, "q", i % 2)
        answers.append(time.perf_counter() - start)
        start = time.perf_counter()
        store.publish(ticket.code, ticket.key, {"page": "step-by-step", "input": str(i)})
        publishes.append(time.perf_counter() - start)
    store.close(ticket.code, ticket.key)
    return statistics.median(answers), statistics.median(publishes)


def show(label: str, seconds: list[float]) -> None:
    q = statistics.quantiles(seconds, n=10)
    print(f"{label:<28} p50 {statistics.median(seconds) * 1e3:7.2f} ms   p90 {q[8] * 1e3:7.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--publishes", type=int, default=50)
    parser.add_argument("--followers", type=int, nargs="+", default=[1, 30, 300])
    args = parser.parse_args()
    memory = MemoryRoomStore(limits=LIMITS)
    with tempfile.TemporaryDirectory() as workdir, redis_server(Path(workdir)) as server:
        a = RedisRoomStore(server.url, limits=LIMITS, prefix="bench:")
        b = RedisRoomStore(server.url, limits=LIMITS, prefix="bench:")
        try:
            for n in args.followers:
                show(f"memory, {n} followers", follow_latency(memory, memory, n, args.publishes))
                show(f"redis A→B, {n} followers", follow_latency(a, b, n, args.publishes))
            for name, store in (("memory", memory), ("redis", a)):
                answer, publish = call_latency(store)
                print(f"{name:<7} one answer p50 {answer * 1e3:.3f} ms   one publish p50 {publish * 1e3:.3f} ms")
        finally:
            a.shutdown()
            b.shutdown()


if __name__ == "__main__":
    main()
