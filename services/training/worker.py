"""The worker process: take job descriptions (JSON) from the pool, train, stream progress back as bytes.

    python -m services.training.worker --conn FD --stop FD [--threads 1] [--nice 5]

Started by the pool (services/training/workers.py), never by hand: FD are the inherited file
descriptors of its end of the pool's pipe and of its stop flag. It speaks only services.training.wire
frames and reads the stop flag (the id of the job to stop) before every optimiser step. It ends when
told to quit or when the pool goes away.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from multiprocessing.connection import Connection

import numpy as np
import torch
import torch._dynamo  # the first optimiser imports it (seconds): paid here, before the worker says it is ready

from model import get_task
from model.analysis.probe import probe_attention
from model.architectures import Seq2SeqModel, config_from_dict
from model.errors import LabError
from model.io.checkpoint import checkpoint_bytes
from model.train import StepInfo, TrainConfig, TrainResult, train

from ..allocator import keep_freed_memory
from .errors import JobFailedError
from .gpt_worker import train_gpt_job
from .snapshots import SnapshotSchedule
from .stopflag import StopFlag
from .wire import WireError, arrays_to_bytes, pack, unpack

SEND_INTERVAL = 0.2  # seconds between progress messages (at most ~5 a second)


def serve(conn: Connection, stop_flag: StopFlag, torch_threads: int = 1, nice: int = 5) -> None:
    """Serve jobs from `conn` until a quit message or until the pool's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server is the pool's to handle
    torch.set_num_threads(torch_threads)
    keep_freed_memory()  # as the app server does: see services/allocator.py
    if nice:
        with contextlib.suppress(OSError):  # not allowed here: run at the same priority
            os.nice(nice)
    try:
        conn.send_bytes(pack("ready", {"pid": os.getpid()}))
        while True:
            try:
                message = unpack(conn.recv_bytes())
            except WireError:
                continue
            if message.kind == "quit":
                return
            if message.kind == "job":
                run_job(conn, message.fields, stop_flag)
    except (EOFError, OSError):  # the pool went away
        return


class Reporter:
    """Collects steps, losses, accuracies and snapshots, and sends them in batches of at most SEND_INTERVAL."""

    def __init__(self, conn: Connection, spec: dict, stop_flag: StopFlag):
        self.conn, self.job, self.stop_flag = conn, spec["job"], stop_flag
        self.task = get_task(spec["task"])
        self.probe = tuple(spec["probe"])
        self.schedule = SnapshotSchedule(spec["snapshot_every"], spec["max_snapshots"])
        self.steps: list[int] = []
        self.losses: list[float] = []
        self.accuracies: list[tuple[int, float]] = []
        self.snapshots: dict[int, dict[str, np.ndarray]] = {}
        self.seconds, self.last_sent, self.last_accuracy_step = 0.0, 0.0, 0
        self.stopping = False

    def should_stop(self) -> bool:
        """Checked by train() before every step; acknowledges a stop at once so the pool need not end us."""
        if self.stop_flag.value != self.job:
            return False
        if not self.stopping:
            self.stopping = True
            self.conn.send_bytes(pack("stopping", {"job": self.job}))
        return True

    def on_step(self, info: StepInfo) -> None:
        self.steps.append(info.step)
        self.losses.append(info.loss)
        self.seconds = info.seconds
        if info.accuracy is not None:
            self.add_accuracy(info.step, info.accuracy)
        if info.model is not None and self.schedule.due(info.step, info.total_steps):  # train() always passes it
            self.add_snapshot(info.step, info.model)
        if time.monotonic() - self.last_sent >= SEND_INTERVAL:
            self.flush()

    def add_accuracy(self, step: int, accuracy: float) -> None:
        self.accuracies.append((step, accuracy))
        self.last_accuracy_step = step

    def add_snapshot(self, step: int, model: Seq2SeqModel) -> None:
        self.snapshots[step] = probe_attention(model, self.task, *self.probe)
        self.schedule.taken(step)

    def finish(self, result: TrainResult) -> None:
        """The last snapshot and accuracy of a run that ended between them, then everything not yet sent."""
        if result.steps and self.schedule.last != result.steps:
            self.add_snapshot(result.steps, result.loaded.model)
        if result.steps and self.last_accuracy_step != result.steps:
            self.add_accuracy(result.steps, result.accuracy)
        self.seconds = result.seconds
        self.flush()

    def flush(self) -> None:
        if not (self.steps or self.accuracies or self.snapshots):
            return
        arrays = {f"{step}/{name}": w for step, weights in self.snapshots.items() for name, w in weights.items()}
        fields = {
            "job": self.job, "steps": self.steps, "losses": self.losses, "accuracies": self.accuracies,
            "seconds": self.seconds, "snapshots": sorted(self.snapshots),
        }  # fmt: skip
        self.conn.send_bytes(pack("progress", fields, {"snapshots": arrays_to_bytes(arrays)} if arrays else None))
        self.steps, self.losses, self.accuracies, self.snapshots = [], [], [], {}
        self.last_sent = time.monotonic()


def run_job(conn: Connection, spec: dict, stop_flag: StopFlag) -> None:
    """Train one job and send its model, or send why it failed. Pipe errors propagate: the pool is gone."""
    job = spec["job"]
    conn.send_bytes(pack("started", {"job": job, "pid": os.getpid()}))
    try:
        if spec.get("gpt"):  # a GPT on text or on the induction task
            fields, (config_json, weights) = train_gpt_job(conn, spec, stop_flag)
        else:
            fields, (config_json, weights) = train_toy_job(conn, spec, stop_flag)
    except (EOFError, OSError):
        raise
    except Exception as exc:  # reported to the student; the worker lives on for the next job
        failure = exc if isinstance(exc, LabError) else JobFailedError(f"{type(exc).__name__}: {exc}")
        fields = {"job": job, "template": failure.template, "params": _jsonable(failure.params)}
        conn.send_bytes(pack("failed", fields))
        return
    fields = {"job": job, **fields}
    conn.send_bytes(pack("done", fields, {"config.json": config_json, "model.safetensors": weights}))


def train_toy_job(conn: Connection, spec: dict, stop_flag: StopFlag) -> tuple[dict, tuple[bytes, bytes]]:
    """Train a Transformer or an RNN on a toy task, streaming progress; (the done message's fields, its checkpoint)."""
    reporter = Reporter(conn, spec, stop_flag)
    model_config = config_from_dict(spec["architecture"], spec["model"])
    result = train(
        reporter.task, model_config, TrainConfig(**spec["train"]),
        callback=reporter.on_step, should_stop=reporter.should_stop, name=spec["name"],
    )  # fmt: skip
    reporter.finish(result)
    fields = {"steps": result.steps, "seconds": result.seconds, "accuracy": result.accuracy, "stopped": result.stopped}
    return fields, checkpoint_bytes(result.loaded)


def _jsonable(params: dict) -> dict:
    return {k: v if isinstance(v, (int, float, str, bool)) or v is None else str(v) for k, v in params.items()}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m services.training.worker", description=__doc__.splitlines()[0])
    p.add_argument("--conn", type=int, required=True, help="inherited file descriptor of the pool's pipe")
    p.add_argument("--stop", type=int, required=True, help="inherited file descriptor of the stop flag")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--nice", type=int, default=5)
    args = p.parse_args(argv)
    serve(Connection(args.conn), StopFlag(args.stop), args.threads, args.nice)
    return 0


if __name__ == "__main__":
    sys.exit(main())
