"""Models shared with a room, on both backends: real safetensors files, size and count limits, room isolation."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import load, save

from services.rooms import InvalidState, ModelNotFound, ModelStorageFull, ModelTooLarge, RoomClosed, TooManyModels

from .conftest import TEST_LIMITS

SHIPPED = Path(__file__).resolve().parents[2] / "model" / "checkpoints" / "reverse"


@pytest.fixture(scope="module")
def shipped() -> tuple[bytes, bytes]:
    """A real model of the app: its config.json and model.safetensors bytes."""
    return (SHIPPED / "config.json").read_bytes(), (SHIPPED / "model.safetensors").read_bytes()


def test_a_shared_model_comes_back_byte_for_byte(store, shipped):
    config_json, weights = shipped
    ticket = store.create_room()
    info = store.share_model(ticket.code, ticket.key, " reverse (ours) ", config_json, weights)
    assert (info.name, info.size) == ("reverse (ours)", len(config_json) + len(weights))
    assert store.room_models(ticket.code) == (info,)
    assert store.snapshot(ticket.code).version == 2  # followers learn of the model
    model = store.get_room_model(ticket.code, "reverse (ours)")
    assert (model.name, model.config_json, model.weights) == ("reverse (ours)", config_json, weights)
    tensors, original = load(model.weights), load(weights)
    assert tensors.keys() == original.keys() and all(np.array_equal(tensors[k], original[k]) for k in tensors)
    assert json.loads(model.config_json) == json.loads(config_json)


def test_a_model_shared_with_a_room_is_readable_only_with_that_rooms_code(store, shipped):
    mine, other = store.create_room(), store.create_room()
    store.share_model(mine.code, mine.key, "trained", *shipped)
    assert store.room_models(other.code) == ()
    with pytest.raises(ModelNotFound) as caught:
        store.get_room_model(other.code, "trained")
    assert caught.value.params == {"code": other.code, "name": "trained"}
    assert str(caught.value) == f"Class {other.code} has no model named “trained”."


def test_sharing_under_the_same_name_replaces_and_the_count_is_bounded(store):
    ticket = store.create_room()
    small = save({"w": np.arange(6, dtype=np.float32).reshape(2, 3)})
    other = save({"w": np.ones((4,), dtype=np.float32)})
    store.share_model(ticket.code, ticket.key, "a", b"{}", small)
    store.share_model(ticket.code, ticket.key, "b", b"{}", small)
    store.share_model(ticket.code, ticket.key, "a", b'{"v": 2}', other)
    assert [(m.name, m.size) for m in store.room_models(ticket.code)] == [("a", 8 + len(other)), ("b", 2 + len(small))]
    np.testing.assert_array_equal(load(store.get_room_model(ticket.code, "a").weights)["w"], np.ones(4))
    with pytest.raises(TooManyModels) as caught:
        store.share_model(ticket.code, ticket.key, "c", b"{}", small)
    assert caught.value.params == {"code": ticket.code, "limit": TEST_LIMITS["max_models"]}
    assert [m.name for m in store.room_models(ticket.code)] == ["a", "b"]


def test_a_model_over_the_size_limit_is_refused(store):
    ticket = store.create_room()
    big = save({"w": np.zeros(TEST_LIMITS["max_model_bytes"] // 4, dtype=np.float32)})
    with pytest.raises(ModelTooLarge) as caught:
        store.share_model(ticket.code, ticket.key, "big", b"{}", big)
    assert caught.value.params == {"size_mb": (len(big) + 2) / 2**20, "limit_mb": 2.0}
    assert str(caught.value) == "The model is 2.0 MB; a class can share models of up to 2.0 MB."
    assert store.room_models(ticket.code) == () and store.version(ticket.code) == 1


@pytest.mark.parametrize(
    ("name", "config_json", "weights", "template"),
    [
        ("m", b"{}", pickle.dumps({"w": [1.0, 2.0]}), InvalidState.MODEL_WEIGHTS),  # a pickle renamed .safetensors
        ("m", b"{}", b"", InvalidState.MODEL_WEIGHTS),
        (
            "m",
            b"{}",
            (2**40).to_bytes(8, "little") + b"{}",
            InvalidState.MODEL_WEIGHTS,
        ),  # a header longer than the file
        ("m", b"{}", "truncated", InvalidState.MODEL_WEIGHTS),
        ("m", b"[1, 2]", None, InvalidState.MODEL_CONFIG),
        ("m", b"\xff\xfe not json", None, InvalidState.MODEL_CONFIG),
        ("m", b"{" * 100_000, None, InvalidState.MODEL_CONFIG),
        ("", b"{}", None, InvalidState.MODEL_NAME),
        ("two\nlines", b"{}", None, InvalidState.MODEL_NAME),
        ("n" * 65, b"{}", None, InvalidState.MODEL_NAME),
        (None, b"{}", None, InvalidState.MODEL_NAME),
    ],
)
def test_a_malformed_model_is_refused(store, name, config_json, weights, template):
    ticket = store.create_room()
    good = save({"w": np.zeros(3, dtype=np.float32)})
    if weights == "truncated":
        weights = good[:-4]
    with pytest.raises(InvalidState) as caught:
        store.share_model(ticket.code, ticket.key, name, config_json, good if weights is None else weights)
    assert caught.value.template == template
    assert store.room_models(ticket.code) == () and store.version(ticket.code) == 1


def test_the_models_of_a_closed_room_are_gone(store, shipped):
    ticket = store.create_room()
    store.share_model(ticket.code, ticket.key, "trained", *shipped)
    store.close(ticket.code, ticket.key)
    with pytest.raises(RoomClosed):
        store.get_room_model(ticket.code, "trained")
    with pytest.raises(RoomClosed):
        store.room_models(ticket.code)


def test_a_flood_of_rooms_sharing_models_meets_the_servers_allowance(make_store, clock):
    store = make_store(max_all_models_bytes=3 * 2**20)
    weights = save({"w": np.zeros(2**20 // 4 - 64, dtype=np.float32)})  # just under 1 MB with its header
    assert len(weights) < 2**20
    tickets = [store.create_room() for _ in range(3)]
    for ticket in tickets:
        store.share_model(ticket.code, ticket.key, "m", b"{}", weights)
    store.share_model(tickets[0].code, tickets[0].key, "m", b"{}", weights)  # replacing adds nothing
    flood = store.create_room()
    with pytest.raises(ModelStorageFull) as caught:
        store.share_model(flood.code, flood.key, "m", b"{}", weights)
    assert caught.value.params == {"limit_mb": 3.0}
    assert str(caught.value).startswith("The server already holds 3 MB of shared models, its limit.")
    assert store.room_models(flood.code) == ()
    store.close(tickets[1].code, tickets[1].key)  # an ended class frees its share
    store.share_model(flood.code, flood.key, "m", b"{}", weights)
    clock.advance(TEST_LIMITS["teacher_timeout"] + 1)  # so does a class whose teacher is gone
    fresh = [store.create_room() for _ in range(3)]
    for ticket in fresh:
        store.share_model(ticket.code, ticket.key, "m", b"{}", weights)
    assert [m.name for t in fresh for m in store.room_models(t.code)] == ["m", "m", "m"]
