"""A timeline of a server's class: when the room's version moved, and when each session's script runs started and
ended (full runs and fragment runs), written as JSON lines to FILE.PID once a second ($ATTENTION_LAB_TIMELINE).

Installed by `python -m devtools.count_runs` before Streamlit starts (bench/load/run.py follow --timeline): it wraps
RoomDocs.put and ScriptRunner._run_script; nothing in the app changes. docs/capacity.md reads these timelines.
"""

from __future__ import annotations

import json
import os
import threading
import time

from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

from services.rooms.mirror import RoomDocs

TIMELINE_ENV = "ATTENTION_LAB_TIMELINE"


def install(path: str) -> None:
    """Record room versions and script runs in this process into path.PID from now on."""
    events: list[dict] = []
    lock = threading.Lock()

    def note(**event) -> None:
        with lock:
            events.append({"t": time.time(), **event})

    original_put, original_run = RoomDocs.put, ScriptRunner._run_script

    def put(self, doc):
        kept = original_put(self, doc)
        if kept:
            note(event="room", version=doc.version, rev=doc.rev)
        return kept

    def run_script(self, rerun_data):
        fragment = bool(rerun_data.fragment_id or rerun_data.fragment_id_queue)
        started, cpu = time.time(), time.thread_time()
        try:
            return original_run(self, rerun_data)
        finally:
            note(event="run", session=self._session_id[:8], fragment=fragment, started=started,
                 cpu_ms=(time.thread_time() - cpu) * 1000)  # fmt: skip

    RoomDocs.put, ScriptRunner._run_script = put, run_script

    def write_forever() -> None:
        with open(f"{path}.{os.getpid()}", "a") as out:
            while True:
                time.sleep(1.0)
                with lock:
                    batch = events[:]
                    del events[:]
                out.writelines(json.dumps(e) + "\n" for e in batch)
                out.flush()

    threading.Thread(target=write_forever, name="timeline", daemon=True).start()
