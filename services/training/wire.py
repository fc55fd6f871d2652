"""Messages between the serving process and a worker: bytes only, never a pickle.

A frame is MAGIC, the header's length (4 bytes, big-endian), a JSON header, then the blobs the header
lists in order: `{"kind": ..., <fields>, "blobs": [[name, length], ...]}` + blob bytes. Arrays travel as
safetensors (numpy) blobs; a trained model as its config.json and model.safetensors bytes.
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field

import numpy as np
from safetensors.numpy import load as load_arrays
from safetensors.numpy import save as save_arrays

MAGIC = b"ALT1"  # Attention Lab training, format 1
MAX_MESSAGE_BYTES = 80 * 2**20  # a checkpoint may be 64 MB (model.io.checkpoint); our models are < 2 MB
_LENGTH = struct.Struct(">I")


class WireError(ValueError):
    """A frame that is not one of ours: wrong magic, bad lengths, bad JSON."""


@dataclass(frozen=True)
class Message:
    kind: str
    fields: dict
    blobs: dict[str, bytes] = field(default_factory=dict)


def pack(kind: str, fields: dict | None = None, blobs: dict[str, bytes] | None = None) -> bytes:
    """One frame: header {"kind", **fields, "blobs"} then the blobs' bytes."""
    blobs = blobs or {}
    header = {"kind": kind, **(fields or {}), "blobs": [[name, len(data)] for name, data in blobs.items()]}
    head = json.dumps(header, separators=(",", ":")).encode()
    return b"".join([MAGIC, _LENGTH.pack(len(head)), head, *blobs.values()])


def unpack(frame: bytes) -> Message:
    """The message in a frame; WireError when anything does not add up."""
    if len(frame) < len(MAGIC) + _LENGTH.size or not frame.startswith(MAGIC):
        raise WireError("not a training-pool frame")
    start = len(MAGIC) + _LENGTH.size
    (head_length,) = _LENGTH.unpack_from(frame, len(MAGIC))
    try:
        header = json.loads(frame[start : start + head_length].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WireError(f"bad header: {exc}") from None
    if not isinstance(header, dict) or not isinstance(header.get("kind"), str):
        raise WireError("the header is not an object with a kind")
    listed = header.pop("blobs", [])
    if not isinstance(listed, list) or not all(_is_blob_entry(e) for e in listed):
        raise WireError("bad blob list")
    blobs, offset = {}, start + head_length
    for name, length in listed:
        blobs[name] = frame[offset : offset + length]
        offset += length
    if offset != len(frame):
        raise WireError(f"the blobs take {offset} bytes but the frame has {len(frame)}")
    return Message(header.pop("kind"), header, blobs)


def _is_blob_entry(entry: object) -> bool:
    return (
        isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str)
        and isinstance(entry[1], int) and not isinstance(entry[1], bool) and entry[1] >= 0
    )  # fmt: skip


def arrays_to_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """safetensors bytes of named arrays."""
    return save_arrays({name: np.ascontiguousarray(a) for name, a in arrays.items()})


def arrays_from_bytes(data: bytes) -> dict[str, np.ndarray]:
    """Named arrays from safetensors bytes; WireError when they are damaged."""
    try:
        return load_arrays(data)
    except Exception as exc:  # safetensors raises its own error types for damaged data
        raise WireError(f"damaged arrays: {exc}") from None
