"""A GPT run's live progress beside its loss: held-out losses, samples written so far, head scores, the head formed.

The worker sends these in its progress messages (JSON fields, see `progress_fields`); the pool's reader thread adds
them to the job's GPTProgress; the page (and a classroom follower) reads `JobHandle.view().gpt`, a copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from model.analysis.induction import HeadScores

GPT_FIELDS = ("held_out", "samples", "scores", "formed", "probe", "circuit")  # a progress message's GPT fields


@dataclass(frozen=True)
class Sample:
    """Text the model wrote at one step, after `prompt` (the same prompt and seed every time)."""

    step: int
    prompt: str
    text: str
    expected: str = ""  # induction: the copy a formed head writes ("" for text tasks)
    right: int = 0  # induction: how many of the written tokens are the copy's, position by position


@dataclass(frozen=True)
class Formed:
    """The step and second at which some head's induction score first reached the goal."""

    step: int
    seconds: float
    score: float


@dataclass(frozen=True)
class Circuit:
    """The two heads of the induction circuit (model.analysis.induction.circuit of the latest scores) and their
    attention on the probe sequence at that step: (T, T) each."""

    step: int
    heads: tuple[int, int, int, int]  # (prev_layer, prev_head, ind_layer, ind_head), 0-based
    previous: np.ndarray  # (T, T) the previous-token head's weights
    induction: np.ndarray  # (T, T) the induction head's weights


@dataclass(frozen=True)
class GPTProgress:
    """Everything a GPT run shows besides the loss; the lists grow as the worker reports."""

    task: str
    held_out: list[tuple[int, float]] = field(default_factory=list)  # (step, held-out loss), text tasks
    samples: list[Sample] = field(default_factory=list)  # oldest first
    scores: list[tuple[int, HeadScores]] = field(default_factory=list)  # (step, every head's scores), induction
    formed: Formed | None = None
    probe: tuple[str, ...] = ()  # the probe's tokens: the axes of the attention snapshots
    circuit: Circuit | None = None  # induction: the latest circuit heads on the probe

    def copy(self) -> GPTProgress:
        return replace(self, held_out=list(self.held_out), samples=list(self.samples), scores=list(self.scores))

    def extended(self, fields: dict) -> GPTProgress:
        """This progress with a progress message's GPT fields added (a ValueError or KeyError when malformed)."""
        formed = fields.get("formed")
        return replace(
            self,
            held_out=[*self.held_out, *((int(s), float(v)) for s, v in fields.get("held_out", []))],
            samples=[*self.samples, *(sample_from_json(s) for s in fields.get("samples", []))],
            scores=[*self.scores, *((int(s["step"]), scores_from_json(s)) for s in fields.get("scores", []))],
            formed=Formed(int(formed[0]), float(formed[1]), float(formed[2])) if formed else self.formed,
            probe=tuple(str(t) for t in fields["probe"]) if "probe" in fields else self.probe,
            circuit=circuit_from_json(fields["circuit"]) if fields.get("circuit") else self.circuit,
        )  # fmt: skip


def circuit_to_json(circuit: Circuit) -> dict:
    return {"step": circuit.step, "heads": list(circuit.heads), "previous": circuit.previous.tolist(),
            "induction": circuit.induction.tolist()}  # fmt: skip


def circuit_from_json(data: dict) -> Circuit:
    previous = np.asarray(data["previous"], dtype=np.float32)
    induction = np.asarray(data["induction"], dtype=np.float32)
    heads = tuple(int(h) for h in data["heads"])
    if previous.ndim != 2 or previous.shape != induction.shape or len(heads) != 4:
        raise ValueError(f"circuit weights of shapes {previous.shape} and {induction.shape}, heads {heads}")
    return Circuit(int(data["step"]), (heads[0], heads[1], heads[2], heads[3]), previous, induction)


def sample_from_json(data: dict) -> Sample:
    return Sample(int(data["step"]), str(data["prompt"]), str(data["text"]), str(data.get("expected", "")),
                  int(data.get("right", 0)))  # fmt: skip


def scores_to_json(step: int, scores: HeadScores) -> dict:
    return {
        "step": step, "induction": scores.induction.tolist(), "previous": scores.previous.tolist(),
        "in_context_loss": scores.in_context_loss, "loss": scores.loss, "first": scores.first_copy_loss,
        "second": scores.second_copy_loss,
    }  # fmt: skip


def scores_from_json(data: dict) -> HeadScores:
    induction = np.asarray(data["induction"], dtype=np.float32)
    previous = np.asarray(data["previous"], dtype=np.float32)
    if induction.ndim != 2 or induction.shape != previous.shape:
        raise ValueError(f"head scores of shapes {induction.shape} and {previous.shape}, not (L, H) each")
    return HeadScores(
        induction, previous, float(data["in_context_loss"]), float(data["loss"]), float(data.get("first", "nan")),
        float(data.get("second", "nan")),
    )  # fmt: skip
