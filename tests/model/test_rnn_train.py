"""Training the RNN family: the same train() and callback API, teacher forcing, and the command line."""

from __future__ import annotations

import threading

import pytest
import torch

from model import RNNConfig, RNNSeq2Seq, get_task, load_checkpoint, rnn_of
from model.train import StepInfo, TrainConfig, default_model_config, main, train

SMALL = dict(d_embed=16, d_hidden=32, max_len=16)


def test_callback_sees_every_step_and_the_rnn_learns():
    task = get_task("translate")
    seen: list[StepInfo] = []
    cfg = TrainConfig(steps=300, until=None, eval_every=100, eval_size=100)
    result = train(task, default_model_config(task, "rnn"), cfg, callback=seen.append, name="r")
    assert [i.step for i in seen] == list(range(1, 301))
    assert [i.step for i in seen if i.accuracy is not None] == [100, 200, 300]
    assert all(isinstance(i.model, RNNSeq2Seq) for i in seen)
    assert sum(result.losses[-20:]) / 20 < 0.2 * sum(result.losses[:20]) / 20
    assert (
        isinstance(result.loaded.model, RNNSeq2Seq) and result.loaded.name == "r" and not result.loaded.model.training
    )
    assert result.loaded.accuracy(200, seed=99) > 0.5  # well above chance (≈ 0) after 300 steps


@pytest.mark.parametrize("forcing", [1.0, 0.5])
def test_same_seed_same_run(forcing):
    task = get_task("reverse")
    cfg = TrainConfig(steps=15, until=None, eval_every=15, eval_size=20, seed=3, teacher_forcing=forcing)
    config = default_model_config(task, "rnn", cell="lstm", **SMALL)
    a, b = train(task, config, cfg), train(task, config, cfg)
    assert a.losses == b.losses
    other = train(task, config, TrainConfig(**{**cfg.__dict__, "seed": 4}))
    assert other.losses != a.losses


def test_teacher_forcing_below_one_changes_training():
    task = get_task("reverse")
    config = default_model_config(task, "rnn", **SMALL)
    runs = [
        train(task, config, TrainConfig(steps=30, until=None, eval_every=30, eval_size=20, teacher_forcing=r))
        for r in (1.0, 0.0)
    ]
    assert runs[0].losses != runs[1].losses


def test_teacher_forcing_zero_feeds_the_models_own_predictions():
    """With ratio 0 the true tokens after <bos> are never read: the decoder runs on its own argmax."""
    torch.manual_seed(1)
    model = RNNSeq2Seq(RNNConfig(src_vocab_size=14, tgt_vocab_size=14)).eval()
    src = torch.randint(4, 14, (3, 6))
    tgt_a, tgt_b = torch.randint(4, 14, (3, 5)), torch.randint(4, 14, (3, 5))
    tgt_a[:, 0] = tgt_b[:, 0] = 1  # <bos>
    with torch.no_grad():
        free = model(src, tgt_a, teacher_forcing=0.0)
        torch.testing.assert_close(model(src, tgt_b, teacher_forcing=0.0), free, atol=0, rtol=0)
        own = torch.cat([tgt_a[:, :1], free[:, :-1].argmax(-1)], dim=1)  # <bos> + what it predicted
        torch.testing.assert_close(model(src, own), free, atol=1e-6, rtol=0)
        assert not torch.allclose(model(src, tgt_a), free)


def test_teacher_forcing_needs_a_recurrent_decoder():
    task = get_task("copy")
    with pytest.raises(ValueError, match="needs a recurrent decoder"):
        train(task, default_model_config(task, d_model=16, n_heads=2), TrainConfig(steps=5, teacher_forcing=0.5))
    with pytest.raises(ValueError, match="teacher-forcing"):
        TrainConfig(teacher_forcing=1.5)
    with pytest.raises(ValueError, match="unknown architecture"):
        default_model_config(task, "lstm")


def test_stop_event_ends_rnn_training():
    task = get_task("reverse")
    stop = threading.Event()

    def on_step(info):
        if info.step == 4:
            stop.set()

    result = train(task, default_model_config(task, "rnn", **SMALL), TrainConfig(steps=5000), on_step, stop)
    assert result.stopped and result.steps == 4


def test_command_line_trains_and_saves_an_rnn(tmp_path, capsys):
    out = tmp_path / "ck"
    argv = ["--task", "sort", "--arch", "rnn", "--cell", "lstm", "--score", "dot", "--bidirectional",
            "--d-embed", "8", "--d-hidden", "12", "--teacher-forcing", "0.75", "--steps", "20",
            "--eval-every", "10", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    assert "held-out exact match" in capsys.readouterr().out
    loaded = load_checkpoint(out)
    c = rnn_of(loaded).config
    assert (c.arch, c.cell, c.score, c.bidirectional, c.d_embed, c.d_hidden) == ("rnn", "lstm", "dot", True, 8, 12)
    assert loaded.meta["train_config"]["teacher_forcing"] == 0.75 and loaded.meta["steps"] == 20
    assert loaded.meta["command"] == "python -m model.train " + " ".join(argv)


def test_command_line_rejects_bad_rnn_settings(capsys):
    assert main(["--task", "sort", "--arch", "rnn", "--d-hidden", "0"]) == 2
    assert "d_hidden must be a whole number" in capsys.readouterr().err
    assert main(["--task", "sort", "--teacher-forcing", "0.5"]) == 2  # a Transformer
    assert "needs a recurrent decoder" in capsys.readouterr().err


def test_help_lists_every_option(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    rnn = ("--arch", "--cell", "--score", "--bidirectional", "--d-embed", "--d-hidden", "--teacher-forcing")
    common = ("--layers", "--d-model", "--heads", "--steps", "--until", "--seed", "--threads", "--dropout")
    for option in rnn + common:
        assert option in text, option
