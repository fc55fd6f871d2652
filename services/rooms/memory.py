"""MemoryRoomStore: rooms in this server process (the default, one server). One lock makes every change atomic;
followers wait on RoomDocs' per-room Condition, which each committed change with a new version notifies."""

import threading
from dataclasses import dataclass, field, replace
from typing import Any

from services.rooms.doc import RoomDoc, Stage
from services.rooms.errors import (
    AnswersClosed,
    ModelStorageFull,
    RoomFull,
    RoomNotFound,
    StaleQuestion,
    TooManyModels,
    TooManyRooms,
)
from services.rooms.limits import MB
from services.rooms.schema import canonical_json
from services.rooms.snapshot import SharedModel
from services.rooms.store import Presence, RoomStore

_SWEEP_EVERY = 10.0  # s of clock between sweeps for ended and gone rooms


@dataclass
class _Private:
    """What a room holds beside its document: never shown to followers as such."""

    students: dict[str, float] = field(default_factory=dict)  # id → clock time of last call
    answers: dict[str, int] = field(default_factory=dict)  # id → option index, for the open question
    models: dict[str, SharedModel] = field(default_factory=dict)
    lessons: dict[str, bytes] = field(default_factory=dict)  # id → JSON bytes, the latest shared last


class MemoryRoomStore(RoomStore):
    """The in-process backend; see RoomStore for the contract."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._lock = threading.Lock()  # taken before RoomDocs' own lock, never after
        self._private: dict[str, _Private] = {}
        self._last_sweep = float("-inf")

    def _load(self, code: str) -> RoomDoc | None:
        return None  # RoomDocs is the store itself

    def _create(self, code: str, key_hash: str) -> RoomDoc | None:
        with self._lock:
            now = self._clock()
            self._sweep(now, force=True)
            if len(self._private) >= self.limits.max_rooms:  # after a sweep, exactly the live rooms
                raise TooManyRooms(limit=self.limits.max_rooms)
            if self._docs.get(code) is not None:
                return None
            self._private[code] = _Private()
            doc = RoomDoc.new(code, key_hash, now)
            self._docs.put(doc)
            return doc

    def _update(self, doc: RoomDoc, fields: dict[str, str], bump: bool, clear_answers: bool = False) -> RoomDoc:
        with self._lock:
            now = self._clock()
            current, private = self._current(doc.code, now)
            if clear_answers:
                private.answers.clear()
            self._prune(private, now)
            version = current.version + 1 if bump else current.version
            return self._commit(current, private, teacher_seen=now, version=version, **fields)

    def _reveal(self, doc: RoomDoc, question_id: str, n_options: int, answer: int) -> RoomDoc:
        with self._lock:
            now = self._clock()
            current, private = self._current(doc.code, now, question_id)
            counts = self._count(private, n_options)
            revealed = canonical_json({"question_id": question_id, "answer": answer, "counts": counts})
            return self._commit(current, private, teacher_seen=now, version=current.version + 1, revealed=revealed)

    def _answer_counts(self, doc: RoomDoc, question_id: str, n_options: int) -> tuple[int, ...]:
        with self._lock:
            current, private = self._current(doc.code, self._clock())
            question = current.question_dict()
            if question is None or question["id"] != question_id:
                return (0,) * n_options
            return tuple(self._count(private, n_options))

    def _my_answer(self, doc: RoomDoc, student_id: str, question_id: str) -> int | None:
        with self._lock:
            try:
                _, private = self._current(doc.code, self._clock(), question_id)
            except StaleQuestion:
                return None
            return private.answers.get(student_id)

    def _share_model(self, doc: RoomDoc, name: str, config_json: bytes, weights: bytes) -> RoomDoc:
        with self._lock:
            now = self._clock()
            current, private = self._current(doc.code, now)
            listing = current.model_list()
            others = [m for m in listing if m["name"] != name]
            if len(others) >= self.limits.max_models:
                raise TooManyModels(code=doc.code, limit=self.limits.max_models)
            entry = {"name": name, "size": len(config_json) + len(weights)}
            held = sum(len(m.config_json) + len(m.weights) for p in self._private.values() for m in p.models.values())
            replaced_size = sum(m["size"] for m in listing if m["name"] == name)
            if held - replaced_size + entry["size"] > self.limits.max_all_models_bytes:
                raise ModelStorageFull(limit_mb=self.limits.max_all_models_bytes / MB)
            replaced = len(others) < len(listing)
            listing = [entry if m["name"] == name else m for m in listing] if replaced else [*listing, entry]
            private.models[name] = SharedModel(name, config_json, weights)
            version = current.version + 1
            return self._commit(current, private, teacher_seen=now, version=version, models=canonical_json(listing))

    def _get_model(self, doc: RoomDoc, name: str) -> SharedModel | None:
        with self._lock:
            private = self._private.get(doc.code)
            return None if private is None else private.models.get(name)

    def _share_lesson(self, doc: RoomDoc, lesson_id: str, data: bytes) -> None:
        with self._lock:
            now = self._clock()
            current, private = self._current(doc.code, now)
            private.lessons.pop(lesson_id, None)
            private.lessons[lesson_id] = data
            while len(private.lessons) > self.limits.max_lessons:
                private.lessons.pop(next(iter(private.lessons)))
            self._commit(current, private, teacher_seen=now, version=current.version)

    def _get_lesson(self, doc: RoomDoc, lesson_id: str) -> bytes | None:
        with self._lock:
            private = self._private.get(doc.code)
            return None if private is None else private.lessons.get(lesson_id)

    def _close(self, doc: RoomDoc) -> None:
        with self._lock:
            current = self._docs.get(doc.code)
            if current is None or current.closed:
                return
            private = self._private.pop(doc.code, _Private())
            private.students.clear()
            ended = dict(closed=True, state="{}", question="", revealed="", models="[]", run="")
            self._commit(current, private, version=current.version + 1, teacher_seen=self._clock(), **ended)

    def _presence(self, doc: RoomDoc, student_id: str, action: Presence) -> None:
        with self._lock:
            now = self._clock()
            current, private = self._current(doc.code, now)
            self._prune(private, now)
            if action == "leave":
                private.students.pop(student_id, None)
            else:
                self._admit(current, private, student_id, now)
            if len(private.students) != current.student_count:
                self._commit(current, private)

    def _answer(self, doc: RoomDoc, student_id: str, question_id: str, choice: int) -> None:
        with self._lock:
            now = self._clock()
            current, private = self._current(doc.code, now, question_id)
            if current.revealed:
                raise AnswersClosed()
            self._prune(private, now)
            self._admit(current, private, student_id, now)
            private.answers[student_id] = choice
            if len(private.students) != current.student_count:
                self._commit(current, private)

    # ---- helpers, called with self._lock held ----------------------------------------------------------------

    def _current(self, code: str, now: float, question_id: str | None = None) -> tuple[RoomDoc, _Private]:
        """The room's document (re-checked live, and StaleQuestion unless question_id is open) and private data."""
        self._sweep(now)
        doc = self._docs.get(code)
        if doc is None:
            raise RoomNotFound(code=code)
        doc.require_live(now, self.limits)
        if code not in self._private:  # cannot happen while live; kept so a bug is a clear error, not a KeyError
            raise RoomNotFound(code=code)
        if question_id is not None and (doc.question_dict() or {}).get("id") != question_id:
            raise StaleQuestion()
        return doc, self._private[code]

    def _commit(self, doc: RoomDoc, private: _Private, **changes: Any) -> RoomDoc:
        """Store the changed document with the current student count and the next rev (`changes`: RoomDoc fields, each
        of its field's type)."""
        new = replace(doc, rev=doc.rev + 1, student_count=len(private.students), **changes)
        self._docs.put(new)
        return new

    def _prune(self, private: _Private, now: float) -> None:
        since = now - self.limits.student_window
        for student_id in [s for s, seen in private.students.items() if seen < since]:
            del private.students[student_id]

    def _admit(self, doc: RoomDoc, private: _Private, student_id: str, now: float) -> None:
        if student_id not in private.students and len(private.students) >= self.limits.max_students:
            raise RoomFull(code=doc.code, limit=self.limits.max_students)
        private.students[student_id] = now

    @staticmethod
    def _count(private: _Private, n_options: int) -> list[int]:
        counts = [0] * n_options
        for choice in private.answers.values():
            counts[choice] += 1
        return counts

    def _sweep(self, now: float, force: bool = False) -> None:
        """Free the students, answers and models of ended rooms; forget gone ones (at most every _SWEEP_EVERY s)."""
        if not force and now - self._last_sweep < _SWEEP_EVERY:
            return
        self._last_sweep = now
        for code in self._docs.drop_where(lambda doc: doc.stage(now, self.limits) is Stage.GONE):
            self._private.pop(code, None)
        for code in list(self._private):
            doc = self._docs.get(code)
            if doc is None or doc.stage(now, self.limits) is not Stage.LIVE:
                del self._private[code]
