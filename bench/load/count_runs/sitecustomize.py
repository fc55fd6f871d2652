"""Counts the model runs of a measured server (bench/load/run.py follow): how often LoadedModel runs the model.

Active only when ATTENTION_LAB_COUNT_RUNS names a file and this directory and the repository root are on
PYTHONPATH (run.py sets both for the server it starts). Every call of LoadedModel.run (a trace), predict and
predict_batch is counted; each process writes its counts as JSON to FILE.PID once a second, so the server's
own file is not mixed with its training workers'. Nothing in the app changes.
"""

from __future__ import annotations

import json
import os
import threading
import time

PATH = os.environ.get("ATTENTION_LAB_COUNT_RUNS")


def _install(path: str) -> None:
    from model.runner import LoadedModel

    counts = {"run": 0, "predict": 0, "predict_batch": 0}
    lock = threading.Lock()

    def counted(name):
        original = getattr(LoadedModel, name)

        def wrapper(self, *args, **kwargs):
            with lock:
                counts[name] += 1
            return original(self, *args, **kwargs)

        wrapper.__wrapped__ = original
        return wrapper

    for name in counts:
        setattr(LoadedModel, name, counted(name))

    def write_forever() -> None:
        out = f"{path}.{os.getpid()}"
        while True:
            with lock:
                text = json.dumps(counts)
            with open(out + ".tmp", "w") as f:
                f.write(text)
            os.replace(out + ".tmp", out)
            time.sleep(1.0)

    threading.Thread(target=write_forever, name="count-model-runs", daemon=True).start()


if PATH:
    _install(PATH)
