"""RoomDoc: one room's record as both backends hold it (the Redis hash, field for field), and its life stage.

Stages: live (teacher heard from within teacher_timeout, not closed) → ended (closed, or the teacher
gone; students are told the class has ended) → gone (ended_memory later; "no such class").
"""

import json
from dataclasses import dataclass
from enum import Enum

from services.rooms.errors import RoomClosed, RoomNotFound
from services.rooms.limits import RoomLimits


class Stage(Enum):
    LIVE = "live"
    ENDED = "ended"
    GONE = "gone"


@dataclass(frozen=True)
class RoomDoc:
    """Everything about a room except students, answers and model bytes; JSON fields are canonical strings."""

    code: str
    key_hash: str  # SHA-256 of the teacher key; never leaves the store
    version: int  # moves when followers must redraw: state, question, reveal, models, close
    rev: int  # moves on every change (also teacher heartbeats and student counts); orders Redis messages
    teacher_seen: float  # clock time of the teacher's last call (of the close, once closed)
    closed: bool
    state: str  # canonical JSON object
    question: str  # canonical JSON object, or "" with no question
    revealed: str  # JSON {"question_id", "answer", "counts"}, or ""
    student_count: int
    models: str  # JSON list of {"name", "size"}, in sharing order
    run: str = ""  # canonical JSON of the training run the class watches (schema.run_json), or "" with none

    def stage(self, now: float, limits: RoomLimits) -> Stage:
        """Where the room is in its life at clock time `now`."""
        away = now - self.teacher_seen
        if self.closed:
            return Stage.ENDED if away <= limits.ended_memory else Stage.GONE
        if away <= limits.teacher_timeout:
            return Stage.LIVE
        return Stage.ENDED if away <= limits.teacher_timeout + limits.ended_memory else Stage.GONE

    def require_live(self, now: float, limits: RoomLimits) -> "RoomDoc":
        """Self if live, else RoomClosed (ended) or RoomNotFound (gone)."""
        stage = self.stage(now, limits)
        if stage is Stage.ENDED:
            raise RoomClosed(code=self.code)
        if stage is Stage.GONE:
            raise RoomNotFound(code=self.code)
        return self

    def question_dict(self) -> dict | None:
        return json.loads(self.question) if self.question else None

    def revealed_dict(self) -> dict | None:
        return json.loads(self.revealed) if self.revealed else None

    def run_dict(self) -> dict | None:
        return json.loads(self.run) if self.run else None

    def model_list(self) -> list[dict]:
        listing = json.loads(self.models) if self.models else []
        return listing if isinstance(listing, list) else []  # Lua's cjson writes an empty list as {}

    @classmethod
    def new(cls, code: str, key_hash: str, now: float) -> "RoomDoc":
        """A fresh live room at version 1 with an empty state."""
        return cls(code, key_hash, 1, 1, now, False, "{}", "", "", 0, "[]")

    def to_fields(self) -> dict[str, str]:
        """The Redis hash fields (all strings)."""
        return {
            "key_hash": self.key_hash,
            "version": str(self.version),
            "rev": str(self.rev),
            "teacher_seen": repr(self.teacher_seen),
            "closed": "1" if self.closed else "0",
            "state": self.state,
            "question": self.question,
            "revealed": self.revealed,
            "student_count": str(self.student_count),
            "models": self.models,
            "run": self.run,
        }

    @classmethod
    def from_fields(cls, code: str, fields: dict) -> "RoomDoc":
        """Parse a Redis hash (bytes or str keys and values) or a pub/sub message's decoded JSON."""
        text = {_text(k): _text(v) for k, v in fields.items()}
        return cls(
            code=code,
            key_hash=text["key_hash"],
            version=int(text["version"]),
            rev=int(text["rev"]),
            teacher_seen=float(text["teacher_seen"]),
            closed=text["closed"] == "1",
            state=text["state"],
            question=text.get("question", ""),
            revealed=text.get("revealed", ""),
            student_count=int(text.get("student_count", "0")),
            models=text.get("models", "[]"),
            run=text.get("run", ""),
        )


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
