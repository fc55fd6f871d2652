"""What callers get back: immutable values that hold nothing secret (the key is only ever in RoomTicket)."""

import json
from dataclasses import dataclass, field

from services.rooms.doc import RoomDoc


@dataclass(frozen=True)
class RoomTicket:
    """What create_room gives the teacher: the code to share and the key to keep (hidden from repr)."""

    code: str
    key: str = field(repr=False)


@dataclass(frozen=True)
class Question:
    """The open question: answers are indices into `options`; `context` is the page's own data for it."""

    id: str
    kind: str
    options: tuple[str, ...]
    context: dict


@dataclass(frozen=True)
class AnswerCounts:
    """How many students chose each option of one question."""

    question_id: str
    counts: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.counts)


@dataclass(frozen=True)
class Reveal:
    """The true answer to the open question, beside the class's answers (frozen at reveal)."""

    answer: int
    counts: AnswerCounts


@dataclass(frozen=True)
class ModelInfo:
    """A model shared with a room, as listed to its students."""

    name: str
    size: int  # bytes of config.json + weights


@dataclass(frozen=True)
class SharedModel:
    """A shared model's files: config.json and safetensors weights."""

    name: str
    config_json: bytes
    weights: bytes


@dataclass(frozen=True)
class RoomSnapshot:
    """What every follower of a room sees at one version; `state` is a fresh dict the caller may keep."""

    code: str
    version: int
    state: dict
    question: Question | None
    revealed: Reveal | None
    student_count: int
    teacher_connected: bool  # the teacher called within the student presence window
    models: tuple[ModelInfo, ...]
    run: dict | None = None  # the training run the class watches (RoomStore.publish_run), a fresh dict, or None

    @property
    def question_marker(self) -> tuple:
        """(question id, revealed) of the open question, () without one: RoomChange.question, as a session saw it."""
        return () if self.question is None else (self.question.id, self.revealed is not None)


def question_of(doc: RoomDoc) -> Question | None:
    q = doc.question_dict()
    return None if q is None else Question(q["id"], q["kind"], tuple(q["options"]), q.get("context", {}))


def snapshot_of(doc: RoomDoc, teacher_connected: bool) -> RoomSnapshot:
    """The student-visible view of a room document (everything but the key hash)."""
    revealed = doc.revealed_dict()
    reveal = None
    if revealed is not None:
        counts = AnswerCounts(revealed["question_id"], tuple(int(c) for c in revealed["counts"]))
        reveal = Reveal(int(revealed["answer"]), counts)
    return RoomSnapshot(
        code=doc.code,
        version=doc.version,
        state=json.loads(doc.state),
        question=question_of(doc),
        revealed=reveal,
        student_count=doc.student_count,
        teacher_connected=teacher_connected,
        models=tuple(ModelInfo(m["name"], int(m["size"])) for m in doc.model_list()),
        run=doc.run_dict(),
    )
