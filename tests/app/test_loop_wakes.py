"""ui/streamlit_private/loop_wakes.py on a real asyncio loop in its own thread: threads that queue callbacks as script
threads do never lose one (every callback runs, a lone one after a burst too), most self-pipe writes are skipped, and
the loop's own use of the pipe (signal handlers) still works."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from ui.streamlit_private.loop_wakes import coalesce_wakes

WAIT = 30.0  # s: a lost wake would hang the loop in select() forever; this only bounds the test


@contextmanager
def running_loop(coalesced: bool = True) -> Iterator[asyncio.AbstractEventLoop]:
    loop = asyncio.new_event_loop()
    if coalesced:
        assert coalesce_wakes(loop) is not None
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(WAIT)
        loop.close()


def test_every_callback_queued_from_many_threads_runs_and_most_writes_are_skipped():
    calls, threads, per_thread = [], 8, 2000
    done = threading.Event()
    total = threads * per_thread

    def record(i: int) -> None:
        calls.append(i)
        if len(calls) == total:
            done.set()

    with running_loop() as loop:

        def queue(t: int) -> None:
            for i in range(per_thread):
                loop.call_soon_threadsafe(record, t * per_thread + i)

        workers = [threading.Thread(target=queue, args=(t,)) for t in range(threads)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(WAIT)
        assert done.wait(WAIT), f"{len(calls)} of {total} callbacks ran"
        wakes = coalesce_wakes(loop)
        assert sorted(calls) == list(range(total))
        assert wakes is not None and wakes.written + wakes.skipped == total and wakes.skipped > 0


def test_a_lone_callback_after_a_burst_still_wakes_an_idle_loop():
    with running_loop() as loop:
        for _round in range(200):  # bursts, each followed by the loop going back to sleep in select()
            burst = threading.Event()
            for _ in range(20):
                loop.call_soon_threadsafe(lambda: None)
            loop.call_soon_threadsafe(burst.set)
            assert burst.wait(WAIT)
            lone = threading.Event()
            threading.Timer(0.001, loop.call_soon_threadsafe, args=(lone.set,)).start()
            assert lone.wait(WAIT), "a wake was lost"


SIGNAL_SCRIPT = """
import asyncio, os, signal, sys
from ui.streamlit_private.loop_wakes import coalesce_wakes
loop = asyncio.new_event_loop()
assert coalesce_wakes(loop) is not None
loop.add_signal_handler(signal.SIGUSR1, loop.stop)
loop.call_later(0.05, os.kill, os.getpid(), signal.SIGUSR1)
loop.call_later({wait}, sys.exit, 3)
loop.run_forever()
print("handled")
"""


@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="POSIX signals")
def test_the_loops_signal_handlers_still_run():
    """In a process of its own (a signal handler needs the main thread and a loop of its own): SIGUSR1 reaches the
    loop through the self-pipe it shares with the wakes, and its handler stops the loop."""
    script = SIGNAL_SCRIPT.format(wait=WAIT)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=2 * WAIT)
    assert done.returncode == 0 and done.stdout.strip() == "handled", done


def test_a_loop_is_patched_once_and_other_loops_are_left_alone():
    loop = asyncio.new_event_loop()
    try:
        first = coalesce_wakes(loop)
        assert first is not None and coalesce_wakes(loop) is first
    finally:
        loop.close()

    class NotSelector(asyncio.AbstractEventLoop):
        pass

    # typeshed marks AbstractEventLoop's methods abstract; Python makes it, and coalesce_wakes calls none of them
    assert coalesce_wakes(NotSelector()) is None  # type: ignore[abstract]
