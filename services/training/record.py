"""A training run as a small JSON record, and back: what a class room carries of the run on the teacher's page.

The teacher's session turns its job's JobView into a record (`run_record`) and publishes it to the room
(services.rooms RoomStore.publish_run, which checks it: names, scalars and nested lists of finite numbers, a size
bound); every follower, on every server, turns it back into a JobView (`view_of_record`) and draws it as the teacher's
page draws its own run. One run, in the teacher's worker; the class only reads it.

Floats keep 4 significant digits. A record over `max_bytes` thins its curves evenly (the first and the last point
kept) until it fits, so a long run still reaches the class.
"""

from __future__ import annotations

import json
from dataclasses import fields, replace

import numpy as np

from model.analysis.induction import HeadScores

from .errors import TrainingError
from .gpt_progress import Circuit, Formed, GPTProgress, Sample
from .handle import JobView

MAX_SAMPLES = 40  # the latest samples a record keeps (a run of 6,000 steps writes 30)
MAX_TEXT = 250  # characters of a sample's prompt or text (a room keeps text of at most 256)
MAX_PROBE = 128  # tokens of the probe sequence
DEFAULT_BYTES = 60 * 1024  # under the room's max_run_bytes (64 KiB) with room to spare
MAX_CIRCUIT_TOKENS = 48  # the circuit's two heads travel when the probe is at most this long (2 × 48² weights)


def _round(value: float) -> float:
    return float(f"{float(value):.4g}")


def _pairs(points: list[tuple[int, float]]) -> list[list[float]]:
    return [[int(step), _round(value)] for step, value in points]


def _thinned(items: list, limit: int) -> list:
    """At most `limit` items, evenly spaced, the first and the last kept."""
    if len(items) <= limit:
        return items
    picks = np.unique(np.linspace(0, len(items) - 1, max(2, limit)).round().astype(int))
    return [items[i] for i in picks]


def _scores(entries: list[tuple[int, HeadScores]]) -> dict:
    return {
        "score_steps": [int(step) for step, _ in entries],
        "induction": [np.round(s.induction.astype(float), 4).tolist() for _, s in entries],
        "previous": [np.round(s.previous.astype(float), 4).tolist() for _, s in entries],
        "score_losses": [
            [_round(s.in_context_loss), _round(s.loss), _round(s.first_copy_loss), _round(s.second_copy_loss)]
            for _, s in entries
        ],
    }


def _finite(values: list[float]) -> list[float | None]:
    return [v if np.isfinite(v) else None for v in values]


def _with_circuit_step(kept: list[tuple[int, HeadScores]], gpt: GPTProgress) -> list[tuple[int, HeadScores]]:
    """The thinned scores with the circuit's own step's back in (the page titles the circuit with its scores)."""
    if gpt.circuit is None or any(step == gpt.circuit.step for step, _ in kept):
        return kept
    found = [entry for entry in gpt.scores if entry[0] == gpt.circuit.step]
    return sorted([*kept, *found], key=lambda entry: entry[0])


def _circuit(circuit: Circuit | None) -> dict:
    """The circuit's two heads on the probe (GPTProgress.circuit), when it is small enough to travel."""
    if circuit is None or circuit.previous.shape[-1] > MAX_CIRCUIT_TOKENS:
        return {}
    weights = [np.round(w.astype(float), 3).tolist() for w in (circuit.previous, circuit.induction)]
    return {"circuit_step": circuit.step, "circuit": list(circuit.heads), "circuit_weights": weights}


def _circuit_of(record: dict) -> Circuit | None:
    if "circuit" not in record:
        return None
    heads = tuple(int(i) for i in record["circuit"])
    previous, induction = (np.asarray(rows, np.float32) for rows in record["circuit_weights"])  # (T, T) each
    if len(heads) != 4 or previous.ndim != 2 or previous.shape != induction.shape:
        raise ValueError(f"a circuit of heads {heads} and weights {previous.shape}, {induction.shape}")
    return Circuit(int(record["circuit_step"]), (heads[0], heads[1], heads[2], heads[3]), previous, induction)


def run_record(run_id: str, name: str, view: JobView, max_bytes: int = DEFAULT_BYTES) -> dict:
    """The record of a run (`run_id`: a new one for each run; `name`: its model's name) as the teacher's JobView
    shows it now, the circuit's two heads included once formed, its curves thinned until its JSON is at most
    `max_bytes`."""
    limit = max(len(view.losses), len(view.gpt.scores) if view.gpt else 0, 2)
    while True:
        record = _record(run_id, name, view, limit)
        if len(json.dumps(record, separators=(",", ":"))) <= max_bytes or limit <= 2:
            return record
        limit //= 2


def _record(run_id: str, name: str, view: JobView, limit: int) -> dict:
    failure = view.failure
    record: dict = {
        "id": run_id, "name": name, "status": view.status, "reason": view.reason, "step": view.step,
        "total": view.total_steps, "seconds": round(view.seconds, 2), "position": view.position,
        "wait": None if view.wait_seconds is None else round(view.wait_seconds, 1),
        "losses": _pairs(_thinned(view.losses, limit)), "accuracies": _pairs(_thinned(view.accuracies, limit)),
        "failure": failure.template if failure else None,
        "failure_params": [[k, v] for k, v in failure.params.items() if isinstance(v, str | int | float)]
        if failure else [],
    }  # fmt: skip
    gpt = view.gpt
    if gpt is None:
        return record
    record |= {
        "task": gpt.task, "held_out": _pairs(_thinned(gpt.held_out, limit)),
        "samples": [_sample(s) for s in gpt.samples[-min(MAX_SAMPLES, limit) :]],  # fewer as the curves thin
        "formed": None if gpt.formed is None else [gpt.formed.step, round(gpt.formed.seconds, 2),
                                                   _round(gpt.formed.score)],
        "probe": list(gpt.probe[:MAX_PROBE]),
        **_scores(_with_circuit_step(_thinned(gpt.scores, limit), gpt)), **_circuit(gpt.circuit),
    }  # fmt: skip
    record["score_losses"] = [_finite(row) for row in record["score_losses"]]
    return record


def _sample(sample: Sample) -> list:
    """A sample's fields in Sample's own order (a field it gains travels too), its texts cut to MAX_TEXT (the prompt
    keeps its end, where the model continues)."""
    values = []
    for f in fields(Sample):
        value = getattr(sample, f.name)
        if isinstance(value, str):
            value = value[-MAX_TEXT:] if f.name == "prompt" else value[:MAX_TEXT]
        values.append(value)
    return values


def _sample_of(values: list) -> Sample:
    kinds = [type(getattr(Sample(0, "", ""), f.name)) for f in fields(Sample)]  # each field's type, from its default
    if len(values) != len(kinds):
        raise ValueError(f"a sample of {len(values)} fields, not {len(kinds)}")
    return Sample(*(kind(value) for kind, value in zip(kinds, values, strict=True)))


def _head_scores(induction: list, previous: list, losses: list) -> HeadScores:
    nan = float("nan")
    icl, loss, first, second = (nan if v is None else float(v) for v in losses)
    return HeadScores(np.asarray(induction, np.float32), np.asarray(previous, np.float32), icl, loss, first, second)


def view_of_record(record: dict) -> JobView:
    """The JobView a record holds (a follower's copy of the teacher's run); KeyError, TypeError or ValueError when
    it is not a run record."""
    failure = None
    if record.get("failure"):
        failure = TrainingError(str(record["failure"]), **dict(record.get("failure_params", [])))
    view = JobView(
        str(record["status"]), str(record.get("reason", "")), str(failure) if failure else "", int(record["step"]),
        int(record["total"]), float(record["seconds"]), [(int(s), float(v)) for s, v in record["losses"]],
        [(int(s), float(v)) for s, v in record.get("accuracies", [])], 0,
        record.get("position"), record.get("wait"), failure,
    )  # fmt: skip
    if "task" not in record:
        return view
    formed = record.get("formed")
    gpt = GPTProgress(
        str(record["task"]),
        held_out=[(int(s), float(v)) for s, v in record.get("held_out", [])],
        samples=[_sample_of(values) for values in record.get("samples", [])],
        scores=[(int(step), _head_scores(i, p, losses)) for step, i, p, losses in
                zip(record["score_steps"], record["induction"], record["previous"], record["score_losses"],
                    strict=True)],
        formed=None if formed is None else Formed(int(formed[0]), float(formed[1]), float(formed[2])),
        probe=tuple(str(t) for t in record.get("probe", [])), circuit=_circuit_of(record),
    )  # fmt: skip
    return replace(view, gpt=gpt)
