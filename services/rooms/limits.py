"""The bounds and timings of class rooms, in one dataclass; deployments may set a few by environment."""

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MB = 2**20

# Environment variable → RoomLimits field, for deployments (docs/deploy.md lists them).
ENV_SETTINGS = {
    "ATTENTION_LAB_ROOM_MAX_ROOMS": "max_rooms",
    "ATTENTION_LAB_ROOM_MAX_STUDENTS": "max_students",
    "ATTENTION_LAB_ROOM_TEACHER_TIMEOUT": "teacher_timeout",
}


@dataclass(frozen=True)
class RoomLimits:
    """Every bound a room store enforces; the defaults fit a class of 300 on one link."""

    max_rooms: int = 200  # live rooms per store (per Redis, for the Redis backend)
    max_students: int = 500  # connected students per room
    teacher_timeout: float = 300.0  # s without a teacher call before the room ends
    student_window: float = 30.0  # s since a student's last call during which they count as connected
    ended_memory: float = 600.0  # s an ended room still answers "has ended" (then "no such class")
    max_input_chars: int = 2000  # the app's own input box limit (ui/inputs.py)
    max_text_chars: int = 256  # a question's context text
    max_extra: int = 32  # entries in a question's "context"
    max_state_bytes: int = 64 * 1024  # the state as compact ASCII JSON
    max_options: int = 256  # options of one question (a token per option fits any input)
    max_option_chars: int = 64
    max_models: int = 4  # models shared with one room
    max_model_bytes: int = 8 * MB  # config.json + weights of one shared model; ours are under 2 MB
    max_all_models_bytes: int = 256 * MB  # all rooms' shared models together, so a flood of rooms cannot fill RAM
    max_lessons: int = 4  # lessons kept with one room (uploaded or built by its teacher); the oldest go first
    max_lesson_bytes: int = 256 * 1024  # one lesson's JSON file: a lesson file's own limit (services.lessons.LIMITS)
    max_run_bytes: int = 64 * 1024  # the training run a class watches, as compact ASCII JSON (curves included)
    max_wait: float = 60.0  # longest wait_for_change timeout honoured

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"RoomLimits.{field.name} must be positive and finite, got {value!r}")

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> "RoomLimits":
        """Defaults, overridden by the ATTENTION_LAB_ROOM_* settings present in env (a deployment error if bad)."""
        overrides: dict[str, Any] = {}  # field name → its value, of that field's type (int or float)
        for variable, name in ENV_SETTINGS.items():
            raw = env.get(variable, "").strip()
            if not raw:
                continue
            kind = type(getattr(cls, name))
            try:
                overrides[name] = kind(raw)
            except ValueError:
                expected = "a whole number" if kind is int else "a number of seconds"
                raise ValueError(f"{variable}={raw!r}: expected {expected}") from None
        return cls(**overrides)
