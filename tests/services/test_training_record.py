"""A run as the class room carries it: an induction run's JobView (loss, head scores, the formed step, samples, the
probe, and once formed the circuit's two heads) goes through a record a room accepts (services.rooms' own check, the
room's size bound) and back to the same view within 4 significant digits; a long run thins evenly, first and last
points kept; a failed run's message survives; a toy model's run (no GPT part) too."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from model.analysis.induction import HeadScores
from services.rooms import RoomLimits
from services.rooms.schema import run_json
from services.training import JobView, TooManyStepsError
from services.training.gpt_progress import Circuit, Formed, GPTProgress, Sample
from services.training.record import run_record, view_of_record


def induction_view(steps: int = 1200, every: int = 50) -> JobView:
    rng = np.random.default_rng(0)
    losses = [(s, 3.47 - 2.5 * s / steps + 0.01 * float(rng.standard_normal())) for s in range(1, steps + 1)]
    scores = [
        (s, HeadScores(rng.random((2, 4)).astype(np.float32), rng.random((2, 4)).astype(np.float32),
                       -2.0 * s / steps, 2.9, 3.4, 3.4 - 2.0 * s / steps))
        for s in range(every, steps + 1, every)
    ]  # fmt: skip
    gpt = GPTProgress(
        "induction", samples=[Sample(200 * k, "abcabc", "abcabcab" * 3, "abcab", right=k % 9) for k in range(1, 45)],
        scores=scores, formed=Formed(750, 11.25, 0.5213), probe=tuple("kqzf3bmhkqzf3bmh"),
    )  # fmt: skip
    return JobView("running", "", "", steps, 20000, 17.5, losses, [], 0, gpt=gpt)


def roundtrip(record: dict) -> JobView:
    """Through the room's own check and JSON, as a follower on another server reads it."""
    return view_of_record(json.loads(run_json(record, RoomLimits())))


def test_an_induction_run_comes_back_as_the_teacher_saw_it():
    view = induction_view()
    back = roundtrip(run_record("run-1", "my-induction", view))
    assert (back.status, back.step, back.total_steps, back.seconds) == ("running", 1200, 20000, 17.5)
    assert [s for s, _ in back.losses] == [s for s, _ in view.losses]  # every step of a short run
    np.testing.assert_allclose([v for _, v in back.losses], [v for _, v in view.losses], rtol=5e-4)
    assert back.gpt is not None and view.gpt is not None
    assert back.gpt.task == "induction" and back.gpt.probe == view.gpt.probe
    assert back.gpt.formed == Formed(750, 11.25, 0.5213)
    assert [s.step for s in back.gpt.samples] == [200 * k for k in range(5, 45)]  # the latest 40
    assert back.gpt.samples == view.gpt.samples[4:]
    assert [s for s, _ in back.gpt.scores] == [s for s, _ in view.gpt.scores]
    for (_, mine), (_, theirs) in zip(back.gpt.scores, view.gpt.scores, strict=True):
        assert mine.induction.shape == (2, 4)
        np.testing.assert_allclose(mine.induction, theirs.induction, atol=5e-5)
        np.testing.assert_allclose(mine.previous, theirs.previous, atol=5e-5)
        assert mine.in_context_loss == pytest.approx(theirs.in_context_loss, rel=5e-4, abs=1e-6)
        assert mine.second_copy_loss == pytest.approx(theirs.second_copy_loss, rel=5e-4)


def test_a_long_run_thins_evenly_to_fit_the_room():
    view = induction_view(steps=20000, every=50)
    record = run_record("run-2", "my-induction", view)
    text = run_json(record, RoomLimits())  # accepted by the room
    assert len(text) <= 60 * 1024
    back = view_of_record(json.loads(text))
    steps = [s for s, _ in back.losses]
    assert steps[0] == 1 and steps[-1] == 20000 and 100 < len(steps) < 20000
    gaps = np.diff(steps)
    assert gaps.max() - gaps.min() <= 1  # evenly spaced
    assert back.gpt is not None and [s for s, _ in back.gpt.scores][-1] == 20000


def test_a_failed_run_keeps_its_message_and_a_toy_run_has_no_gpt_part():
    failure = TooManyStepsError(30000, 20000)
    view = JobView("failed", "", str(failure), 0, 30000, 0.0, [], [], 0, failure=failure)
    back = roundtrip(run_record("run-3", "my-reverse", view))
    assert back.failure is not None and back.gpt is None
    assert (back.failure.template, back.failure.params) == (failure.template, failure.params)
    assert back.error == "A run may take at most 20000 steps; you asked for 30000."
    toy = JobView("done", "", "", 300, 300, 4.0, [(1, 2.5), (300, 0.1)], [(300, 0.98)], 3)
    back = roundtrip(run_record("run-4", "my-reverse", toy))
    assert (back.losses, back.accuracies, back.gpt) == ([(1, 2.5), (300, 0.1)], [(300, 0.98)], None)


def test_once_formed_the_circuits_two_heads_travel_with_the_scores_of_their_step():
    view = induction_view(steps=20000)
    assert view.gpt is not None
    rng = np.random.default_rng(1)
    found = Circuit(
        1250, (0, 3, 1, 2), rng.random((16, 16)).astype(np.float32), rng.random((16, 16)).astype(np.float32)
    )
    gpt = replace(view.gpt, circuit=found)
    view = replace(view, gpt=gpt)
    back = roundtrip(run_record("run-5", "my-induction", view))
    assert back.gpt is not None and back.gpt.circuit is not None
    assert (back.gpt.circuit.step, back.gpt.circuit.heads) == (1250, (0, 3, 1, 2))
    np.testing.assert_allclose(back.gpt.circuit.previous, found.previous, atol=5e-4)
    np.testing.assert_allclose(back.gpt.circuit.induction, found.induction, atol=5e-4)
    steps = [step for step, _ in back.gpt.scores]
    assert 1250 in steps and steps == sorted(steps) and len(steps) < 400  # thinned, its own step kept
    assert "circuit" not in run_record("run-6", "my-induction", replace(view, gpt=replace(gpt, circuit=None)))


def test_a_record_of_long_samples_still_fits_the_room():
    view = induction_view(steps=20000)
    assert view.gpt is not None
    wordy = [Sample(200 * k, "p" * 250, "t" * 250, "e" * 250, right=1) for k in range(40)]
    record = run_record("run-7", "my-gpt", replace(view, gpt=replace(view.gpt, samples=wordy)), max_bytes=20_000)
    assert len(run_json(record, RoomLimits())) <= 20_000 and 0 < len(record["samples"]) < 40
    assert record["samples"][-1][0] == 200 * 39  # the newest kept
