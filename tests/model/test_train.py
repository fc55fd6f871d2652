"""The training loop: deterministic for a seed, reports every step, stops on request, and learns."""

from __future__ import annotations

import math
import threading

import pytest

from model import get_task, load_checkpoint
from model.io.checkpoint import task_model
from model.train import StepInfo, TrainConfig, default_model_config, lr_at, main, train
from tests.toys import TransformerSizes, transformer_config

SMALL = TransformerSizes(d_model=32, n_heads=2, d_ff=64, max_len=16)


def test_same_seed_same_run():
    task = get_task("copy")
    cfg = TrainConfig(steps=30, until=None, eval_every=30, eval_size=20, seed=3)
    a = train(task, default_model_config(task, **SMALL), cfg)
    b = train(task, default_model_config(task, **SMALL), cfg)
    assert a.losses == b.losses
    c = train(task, default_model_config(task, **SMALL), TrainConfig(**{**cfg.__dict__, "seed": 4}))
    assert c.losses != a.losses


def test_callback_sees_every_step_and_loss_falls():
    task = get_task("translate")
    seen: list[StepInfo] = []
    cfg = TrainConfig(steps=150, until=None, eval_every=50, eval_size=50)
    result = train(task, default_model_config(task, **SMALL), cfg, callback=seen.append)
    assert [i.step for i in seen] == list(range(1, 151))
    assert [i.step for i in seen if i.accuracy is not None] == [50, 100, 150]
    assert sum(result.losses[-20:]) / 20 < 0.5 * sum(result.losses[:20]) / 20
    assert result.steps == 150 and not result.stopped


def test_stop_event_ends_training_at_the_step_it_was_set():
    """Stopping is checked between steps: no step runs after the one that set the event (counted, not timed)."""
    task = get_task("reverse")
    stop = threading.Event()
    seen: list[int] = []

    def on_step(info):
        seen.append(info.step)
        if info.step == 5:
            stop.set()

    result = train(
        task, default_model_config(task, **SMALL), TrainConfig(steps=5000), callback=on_step, should_stop=stop
    )
    assert result.stopped and result.steps == 5 and max(seen) == 5


def test_until_stops_at_the_target_accuracy():
    task = get_task("translate")
    cfg = TrainConfig(steps=3000, until=0.9, eval_every=50, eval_size=200)
    result = train(task, default_model_config(task), cfg)
    assert result.accuracy >= 0.9 and result.steps < 3000
    assert result.loaded.accuracy(200, seed=99) >= 0.8  # it really learned, on fresh data


def test_learning_rate_schedule():
    cfg = TrainConfig(steps=1100, warmup=100, lr=1e-3)
    assert lr_at(0, cfg) == pytest.approx(1e-5)
    assert lr_at(99, cfg) == pytest.approx(1e-3)
    assert lr_at(600, cfg) == pytest.approx(1e-3 * 0.5 * (1 + math.cos(math.pi * 0.5)))
    assert lr_at(1100, cfg) == pytest.approx(0.0, abs=1e-12)


def test_command_line_writes_a_loadable_checkpoint(tmp_path, capsys):
    out = tmp_path / "ck"
    code = main(["--task", "sort", "--steps", "20", "--eval-every", "10", "--d-model", "16", "--heads", "2",
                 "--out", str(out)])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "held-out exact match" in printed and " s\n" in printed
    loaded = task_model(load_checkpoint(out))
    assert transformer_config(loaded).d_model == 16 and loaded.meta["steps"] == 20
    assert loaded.meta["command"].startswith("python -m model.train --task sort")


def test_command_line_rejects_bad_settings(capsys):
    assert main(["--task", "sort", "--d-model", "30", "--heads", "4"]) == 2
    assert "divisible" in capsys.readouterr().err
