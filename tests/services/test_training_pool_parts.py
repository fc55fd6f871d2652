"""The pool's pure parts, without processes: the wire format, the wait estimate, snapshot thinning, settings, errors."""

from __future__ import annotations

import json
import os
import struct

import numpy as np
import pytest

from model import ModelConfig, get_task
from model.architectures import config_from_dict
from model.train import default_model_config
from services.training.errors import JobFailedError, TrainingError, WorkerCrashedError, error_from_worker
from services.training.estimate import queue_waits, seconds_left
from services.training.settings import PoolSettings, default_workers
from services.training.snapshots import SnapshotSchedule, keep_bounded
from services.training.wire import MAGIC, WireError, arrays_from_bytes, arrays_to_bytes, pack, unpack


def test_a_frame_is_magic_length_json_then_blobs():
    frame = pack("done", {"job": 7, "stopped": False}, {"config.json": b"{}", "model.safetensors": b"\x00\x01\x02"})
    (length,) = struct.unpack(">I", frame[4:8])
    assert frame[:4] == MAGIC
    header = json.loads(frame[8 : 8 + length])
    blobs = [["config.json", 2], ["model.safetensors", 3]]
    assert header == {"kind": "done", "job": 7, "stopped": False, "blobs": blobs}
    assert frame[8 + length :] == b"{}\x00\x01\x02"
    message = unpack(frame)
    assert (message.kind, message.fields) == ("done", {"job": 7, "stopped": False})
    assert message.blobs == {"config.json": b"{}", "model.safetensors": b"\x00\x01\x02"}


@pytest.mark.parametrize(
    "frame",
    [
        b"", b"ALT1", b"ALT1\x00\x00\x00", b"XXXX\x00\x00\x00\x02{}", b"\x80\x04\x95pickle",
        MAGIC + struct.pack(">I", 2) + b"[]",  # not an object
        MAGIC + struct.pack(">I", 4) + b'{"a"',  # broken JSON
        MAGIC + struct.pack(">I", 2) + b"\xff\xfe",  # not UTF-8
        MAGIC + struct.pack(">I", 12) + b'{"kind": 3}',  # kind not a string (and a short header)
        MAGIC + struct.pack(">I", 30) + b'{"kind":"x","blobs":[["a",5]]}abc',  # blob shorter than listed
        MAGIC + struct.pack(">I", 30) + b'{"kind":"x","blobs":[["a",-1]]}',  # negative length
        MAGIC + struct.pack(">I", 11) + b'{"kind":"x"}extra',  # bytes nobody listed
        MAGIC + struct.pack(">I", 2**31) + b"{}",  # a length far past the end
    ],
)  # fmt: skip
def test_malformed_frames_raise_wire_errors(frame):
    with pytest.raises(WireError):
        unpack(frame)


def test_arrays_travel_as_safetensors_unchanged():
    rng = np.random.default_rng(0)
    arrays = {"1/encoder.0.self_attn": rng.random((2, 5, 5), dtype=np.float32), "10/x": np.arange(6.0).reshape(1, 2, 3)}
    data = arrays_to_bytes(arrays)
    (length,) = struct.unpack("<Q", data[:8])  # safetensors: an 8-byte little-endian header length, then JSON
    assert set(json.loads(data[8 : 8 + length])) >= set(arrays)
    back = arrays_from_bytes(data)
    for name, array in arrays.items():
        assert back[name].dtype == array.dtype and np.array_equal(back[name], array)
    with pytest.raises(WireError):
        arrays_from_bytes(data[:-3])


@pytest.mark.parametrize(
    ("busy", "queued", "workers", "waits"),
    [
        ([10.0], [5.0, 7.0, 3.0], 1, [10.0, 15.0, 22.0]),  # one worker: each waits for all before it
        ([10.0, 4.0], [5.0, 7.0, 3.0], 2, [4.0, 9.0, 10.0]),  # two: the next free worker takes the next job
        ([], [5.0, 7.0], 2, [0.0, 0.0]),  # idle workers start jobs at once
        ([3.0], [5.0, 5.0], 2, [0.0, 3.0]),
        ([], [], 1, []),
    ],
)
def test_queue_waits(busy, queued, workers, waits):
    assert queue_waits(busy, queued, workers) == pytest.approx(waits)


def test_seconds_left_scales_steps_left_by_rate_and_the_share_recent_jobs_used():
    assert seconds_left(2000, 500, 0.04) == pytest.approx(60.0)
    assert seconds_left(2000, 500, 0.04, used_fraction=0.5) == pytest.approx(30.0)
    assert seconds_left(100, 150, 0.04) == 0.0


def test_seconds_left_of_a_run_with_a_time_budget_is_at_most_what_is_left_of_it():
    # 6000 steps at 0.02 s would be 120 s, but a 90 s budget with 30 s spent leaves 60 s; a budget never adds time
    assert seconds_left(6000, 0, 0.02, budget=90.0, seconds=30.0) == pytest.approx(60.0)
    assert seconds_left(1000, 0, 0.02, budget=90.0) == pytest.approx(20.0)
    assert seconds_left(6000, 0, 0.02, budget=90.0, seconds=95.0) == 0.0


def test_snapshot_schedule_thins_and_halves_its_rate_like_the_store():
    # Worked by hand: every step, at most 4 kept. 5 thins to [1, 3, 5] (stride 2); 8 thins [1, 3, 5, 6, 8]
    # to [1, 5, 8] (stride 4); 10 is the last step.
    schedule = SnapshotSchedule(every=1, limit=4)
    taken = []
    for step in range(1, 11):
        if schedule.due(step, total_steps=10):
            taken.append(step)
            schedule.taken(step)
    assert taken == [1, 2, 3, 4, 5, 6, 8, 10]
    assert schedule.steps == [1, 5, 8, 10] and schedule.stride == 4
    store: list[int] = []
    for step in taken:  # the serving process applies the same rule to what arrives
        store, _ = keep_bounded([*store, step], 4)
    assert store == schedule.steps


def test_settings_from_the_environment():
    assert PoolSettings.from_env({}) == PoolSettings()
    assert PoolSettings().workers == max(1, len(os.sched_getaffinity(0)) - 1)  # cores − 1, at least 1


@pytest.mark.parametrize(("cores", "workers"), [(1, 1), (2, 1), (3, 2), (8, 7)])
def test_the_default_pool_leaves_one_core_to_the_server(monkeypatch, cores, workers):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)))
    assert default_workers() == workers and PoolSettings().workers == workers
    env = {
        "ATTENTION_LAB_TRAIN_WORKERS": "3", "ATTENTION_LAB_TRAIN_QUEUE": " 5 ",
        "ATTENTION_LAB_TRAIN_MAX_STEPS": "100", "ATTENTION_LAB_TRAIN_TIME_LIMIT": "2.5",
    }  # fmt: skip
    settings = PoolSettings.from_env(env)
    assert (settings.workers, settings.max_queue, settings.max_steps, settings.time_limit) == (3, 5, 100, 2.5)


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("ATTENTION_LAB_TRAIN_WORKERS", "many", "ATTENTION_LAB_TRAIN_WORKERS must be a whole number, got 'many'."),
        ("ATTENTION_LAB_TRAIN_WORKERS", "1.5", "ATTENTION_LAB_TRAIN_WORKERS must be a whole number, got '1.5'."),
        ("ATTENTION_LAB_TRAIN_WORKERS", "0", "ATTENTION_LAB_TRAIN_WORKERS must be a whole number of at least 1"),
        ("ATTENTION_LAB_TRAIN_QUEUE", "-3", "ATTENTION_LAB_TRAIN_QUEUE must be a whole number of at least 1, got -3."),
        ("ATTENTION_LAB_TRAIN_TIME_LIMIT", "nan", "ATTENTION_LAB_TRAIN_TIME_LIMIT must be a number of seconds above 0"),
        ("ATTENTION_LAB_TRAIN_TIME_LIMIT", "inf", "ATTENTION_LAB_TRAIN_TIME_LIMIT must be a number of seconds above 0"),
    ],
)
def test_a_malformed_setting_names_its_variable(variable, value, message):
    with pytest.raises(ValueError) as error:
        PoolSettings.from_env({variable: value})
    assert str(error.value).startswith(message)


def test_errors_carry_template_and_params():
    crashed = WorkerCrashedError(-9)
    assert crashed.params == {"code": -9} and "{code}" in crashed.template
    assert str(crashed) == crashed.template.format(code=-9)
    rebuilt = error_from_worker("The input has {n} tokens.", {"n": 100})
    assert isinstance(rebuilt, TrainingError) and str(rebuilt) == "The input has 100 tokens."
    assert str(error_from_worker("{missing} here", {})) == "{missing} here"  # no params: left as written


@pytest.mark.parametrize(
    ("template", "params"), [("{0}", {"a": 1}), ("{a.b}", {"a": 1}), ("{x}", {"y": 2}), (None, {}), ("ok", "no")]
)
def test_a_malformed_error_from_a_worker_becomes_a_plain_failure(template, params):
    error = error_from_worker(template, params)
    assert isinstance(error, JobFailedError) and error.params == {"error": str(template)}


def test_model_config_from_dict_round_trips_and_refuses_unknown_families():
    task = get_task("reverse")
    config = default_model_config(task, d_model=32, n_heads=2, d_ff=64, norm="pre")
    assert config_from_dict("transformer", json.loads(json.dumps(config.to_dict()))) == config
    assert isinstance(config_from_dict("transformer", config.to_dict()), ModelConfig)
    with pytest.raises(ValueError, match="unknown architecture 'lstm'"):
        config_from_dict("lstm", config.to_dict())
    with pytest.raises(ValueError, match="unknown settings: colour"):
        config_from_dict("transformer", {**config.to_dict(), "colour": "red"})
