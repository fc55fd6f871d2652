"""`python -m devtools.count_runs run app.py …`: `python -m streamlit run app.py …` that also counts how often the
server runs the model (bench/load/run.py follow: the server's model runs per input a class saw).

Every call of LoadedModel.run (a trace), predict and predict_batch, and of LoadedGPT.trace (what its run and the
Next token page call) in this process is counted, and the counts are
written as JSON to FILE.PID once a second, FILE being $ATTENTION_LAB_COUNT_RUNS (the PID keeps the server's file
apart from any other counted process). The training workers the server starts are not counted. Nothing in the app
changes: the counter wraps the class's methods before Streamlit starts.
"""

from __future__ import annotations

import functools
import json
import os
import threading
import time

from devtools.timeline import TIMELINE_ENV
from devtools.timeline import install as install_timeline
from model import LoadedModel
from model.gpt import LoadedGPT
from ui.streamlit_private.instrument import streamlit_cli

COUNTS_ENV = "ATTENTION_LAB_COUNT_RUNS"


def install(path: str) -> None:
    """Count LoadedModel's and LoadedGPT's runs in this process into path.PID from now on."""
    counted_methods = {"run": LoadedModel, "predict": LoadedModel, "predict_batch": LoadedModel, "trace": LoadedGPT}
    counts = dict.fromkeys(counted_methods, 0)
    lock = threading.Lock()

    def counted(cls, name):
        original = getattr(cls, name)

        def wrapper(self, *args, **kwargs):
            with lock:
                counts[name] += 1
            return original(self, *args, **kwargs)

        functools.update_wrapper(wrapper, original, assigned=(), updated=())  # only wrapper.__wrapped__ = original
        return wrapper

    for name, cls in counted_methods.items():
        setattr(cls, name, counted(cls, name))

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


if __name__ == "__main__":
    install(os.environ[COUNTS_ENV])
    if os.environ.get(TIMELINE_ENV):
        install_timeline(os.environ[TIMELINE_ENV])
    streamlit_cli()  # as `python -m streamlit`: reads `run app.py …` from sys.argv
