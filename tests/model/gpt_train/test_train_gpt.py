"""GPT training: windows cut as described, a loss that falls for a fixed seed, the same run for the same seed, every
step reported, stopping on request."""

from __future__ import annotations

import threading

import pytest
import torch
import torch.nn.functional as F

from model.gpt import GPT, GPTConfig
from model.gpt.train import (
    GPTStepInfo,
    GPTTrainConfig,
    consecutive_windows,
    encode,
    mean_loss,
    random_windows,
    train_gpt,
)
from model.gpt.vocab import CharVocab
from model.optimise import warmup_cosine

TEXT = "the cat sat on the mat. " * 40
VOCAB = CharVocab.from_text(TEXT)
IDS = encode(VOCAB, TEXT)
SMALL = GPTConfig(vocab_size=len(VOCAB), d_model=32, n_heads=2, n_layers=1, d_ff=64, max_len=16)
QUICK = GPTTrainConfig(steps=120, batch_size=8, lr=3e-3, warmup=10, eval_every=40, eval_windows=8)


def test_encode_reads_unknown_characters_as_the_mark():
    ids = encode(VOCAB, "cat!")
    assert VOCAB.decode(ids.tolist()) == "cat□" and ids.dtype == torch.long


def test_random_windows_targets_are_the_next_characters():
    data = torch.arange(100)
    inputs, targets = random_windows(data, 5, 7, torch.Generator().manual_seed(0))
    assert inputs.shape == targets.shape == (5, 7)
    assert torch.equal(targets, inputs + 1)  # data[i] == i, so each target is its input's successor
    assert int(inputs.min()) >= 0 and int(targets.max()) <= 99
    again = random_windows(data, 5, 7, torch.Generator().manual_seed(0))[0]
    assert torch.equal(inputs, again)


def test_consecutive_windows_cover_the_text_in_order():
    inputs, targets = consecutive_windows(torch.arange(23), 5)  # (23 - 1) // 5 = 4 windows
    assert inputs.tolist() == [list(range(i, i + 5)) for i in (0, 5, 10, 15)]
    assert targets.tolist() == [list(range(i + 1, i + 6)) for i in (0, 5, 10, 15)]


def test_too_short_a_text_is_a_clear_error():
    with pytest.raises(ValueError, match="fewer than one window of 16"):
        consecutive_windows(torch.arange(10), 16)
    with pytest.raises(ValueError, match="fewer than one window of 16"):
        random_windows(torch.arange(10), 2, 16, torch.Generator())


def test_mean_loss_is_cross_entropy_over_every_position():
    torch.manual_seed(0)
    model = GPT(SMALL).eval()
    inputs, targets = consecutive_windows(IDS, 16)
    with torch.no_grad():
        logits = model(inputs)
        expected = F.log_softmax(logits, -1).gather(-1, targets[..., None]).neg().mean()
    assert mean_loss(model, inputs, targets, batch=7) == pytest.approx(float(expected), rel=1e-5)


def test_loss_falls_and_every_step_is_reported():
    seen: list[GPTStepInfo] = []
    result = train_gpt(SMALL, IDS, IDS, QUICK, callback=seen.append)
    assert [i.step for i in seen] == list(range(1, 121))
    assert [i.step for i in seen if i.held_out_loss is not None] == [40, 80, 120]
    assert sum(result.losses[-10:]) / 10 < 0.5 * sum(result.losses[:10]) / 10
    assert result.held_out_loss < 1.0 < result.losses[0]  # the phrase repeats: far below the first step's loss
    assert not result.model.training and result.steps == 120 and not result.stopped
    meta = result.meta()
    assert meta["steps"] == 120 and meta["train_config"]["lr"] == 3e-3


def test_same_seed_same_run_other_seed_other_run():
    cfg = GPTTrainConfig(steps=15, batch_size=4, warmup=2, eval_every=15, eval_windows=2, seed=1)
    a, b = train_gpt(SMALL, IDS, IDS, cfg), train_gpt(SMALL, IDS, IDS, cfg)
    assert a.losses == b.losses and a.held_out_loss == b.held_out_loss
    c = train_gpt(SMALL, IDS, IDS, GPTTrainConfig(**{**cfg.__dict__, "seed": 2}))
    assert c.losses != a.losses


def test_stop_event_ends_training_after_the_step_that_set_it():
    stop = threading.Event()

    def on_step(info: GPTStepInfo) -> None:
        if info.step == 3:
            stop.set()

    result = train_gpt(SMALL, IDS, IDS, GPTTrainConfig(steps=500, batch_size=2), callback=on_step, should_stop=stop)
    assert result.steps == 3 and result.stopped and len(result.losses) == 3


def test_bad_settings_are_refused():
    with pytest.raises(ValueError, match="at least 1"):
        GPTTrainConfig(steps=0)
    with pytest.raises(ValueError, match="between 0 and 1"):
        GPTTrainConfig(lr=2.0)


def test_a_time_budget_ends_the_run_and_the_decay_follows_it():
    """A budget of 0.6 CPU-seconds on a 10,000-step schedule: the run ends early, and the learning rate has decayed by
    the share of the budget spent (the last step's lr is below the first post-warmup one), not by the steps done."""
    seen: list[GPTStepInfo] = []
    cfg = GPTTrainConfig(steps=10_000, batch_size=4, lr=1e-2, warmup=2, eval_every=10_000, cpu_minutes=0.01)
    result = train_gpt(SMALL, IDS, IDS, cfg, callback=seen.append)
    assert 2 < result.steps < 10_000 and not result.stopped and result.cpu_seconds >= 0.6
    by_steps = warmup_cosine(result.steps - 1, cfg.lr, cfg.warmup, cfg.steps)
    assert seen[-1].lr < 0.5 * by_steps  # far along the cosine by time, barely started by steps


def test_budget_shares():
    cfg = GPTTrainConfig(minutes=2, cpu_minutes=1)
    assert cfg.time_spent(60, 15) == 0.5 and cfg.time_spent(30, 45) == 0.75
    assert GPTTrainConfig().time_spent(1e9, 1e9) is None
    with pytest.raises(ValueError, match="positive number of minutes"):
        GPTTrainConfig(minutes=0)


def test_schedule_with_a_progress():
    assert warmup_cosine(0, 1.0, 10, 100) == pytest.approx(0.1)
    assert warmup_cosine(55, 1.0, 10, 100) == pytest.approx(0.5)  # halfway through the decay by steps
    assert warmup_cosine(20, 1.0, 10, 100, progress=0.5) == pytest.approx(0.5)  # halfway by the time budget
    assert warmup_cosine(20, 1.0, 10, 100, progress=1.5) == pytest.approx(0.0, abs=1e-12)
