"""RoomStore: the one interface to class rooms. It checks every argument and the teacher key, then calls its
backend's storage primitives (the underscored abstract methods), which apply each change atomically.

Reads (snapshot, version, wait_for_change, watch, room_models) come from this process's RoomDocs in both backends.
"""

import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Literal

from services.rooms.codes import (
    check_student_id,
    hash_key,
    key_matches,
    new_code,
    new_key,
    new_student_id,
    normalize_code,
)
from services.rooms.doc import RoomDoc, Stage
from services.rooms.errors import (
    AnswersClosed,
    InvalidState,
    LessonNotFound,
    ModelNotFound,
    RoomClosed,
    RoomError,
    RoomNotFound,
    StaleQuestion,
    WrongKey,
)
from services.rooms.limits import RoomLimits
from services.rooms.mirror import RoomDocs, Watcher
from services.rooms.schema import (
    check_choice,
    check_int,
    check_lesson,
    check_model_files,
    check_model_name,
    check_name,
    question_json,
    refuse_key,
    run_json,
    state_json,
)
from services.rooms.snapshot import AnswerCounts, ModelInfo, RoomSnapshot, RoomTicket, SharedModel, snapshot_of

Presence = Literal["join", "touch", "leave"]
_CODE_ATTEMPTS = 8  # fresh codes tried before giving up; a collision among 10⁹ codes is already rare


class RoomStore(ABC):
    """Class rooms: the teacher (holding the key) publishes; students read, and answer the open question.

    Thread-safe: every Streamlit session of a server calls one store. `clock` gives wall-clock seconds
    (injectable so tests can move time); presence and expiry are judged by it.
    """

    def __init__(self, limits: RoomLimits | None = None, clock: Callable[[], float] = time.time) -> None:
        self.limits = limits or RoomLimits()
        self._clock = clock
        self._docs = RoomDocs()

    # ---- teacher ------------------------------------------------------------------------------------------

    def create_room(self) -> RoomTicket:
        """A new live room with an empty state; TooManyRooms at the limit of live rooms."""
        for _ in range(_CODE_ATTEMPTS):
            code, key = new_code(), new_key()
            if self._create(code, hash_key(key)) is not None:
                return RoomTicket(code, key)
        raise RoomError()

    def teacher_heartbeat(self, code: str, key: str) -> RoomSnapshot:
        """Keep the room alive and return what it shows (a teacher who reconnects continues from here)."""
        return self._snapshot(self._update(self._teacher(code, key), {}, bump=False))

    def publish(self, code: str, key: str, state: dict) -> int:
        """Replace the room's state (a page's view: see schema.state_json); returns the version. The same state again
        counts as a heartbeat and leaves the version alone, so a rerun does not wake every follower. A new view
        closes a revealed question (and its answers): the class has moved on from it."""
        doc = self._teacher(code, key)
        text = refuse_key(state_json(state, self.limits), key)
        changed = text != doc.state
        fields = {"state": text} if changed else {}
        moved_on = changed and bool(doc.revealed)
        if moved_on:
            fields |= {"question": "", "revealed": ""}
        return self._update(doc, fields, bump=changed, clear_answers=moved_on).version

    def ask(self, code: str, key: str, question: dict) -> int:
        """Open a question {id, kind, options[, context]}, clearing earlier answers and reveal; returns the
        version. Asking the open, unrevealed question again changes nothing."""
        doc = self._teacher(code, key)
        text = refuse_key(question_json(question, self.limits), key)
        if text == doc.question and not doc.revealed:
            return self._update(doc, {}, bump=False).version
        return self._update(doc, {"question": text, "revealed": ""}, bump=True, clear_answers=True).version

    def clear_question(self, code: str, key: str) -> int:
        """Close the open question (and its reveal); returns the version."""
        doc = self._teacher(code, key)
        if not doc.question:
            return self._update(doc, {}, bump=False).version
        return self._update(doc, {"question": "", "revealed": ""}, bump=True, clear_answers=True).version

    def reveal(self, code: str, key: str, answer: int, question_id: str | None = None) -> int:
        """Show the true answer (an option index) beside the class's counts, and close answers; returns the
        version. With question_id, StaleQuestion if another question is open by now."""
        doc = self._teacher(code, key)
        question = doc.question_dict()
        if question is None:
            raise InvalidState(InvalidState.NO_QUESTION)
        if question_id is not None and question_id != question["id"]:
            raise StaleQuestion()
        n_options = len(question["options"])
        return self._reveal(doc, question["id"], n_options, check_choice(answer, n_options)).version

    def answer_counts(self, code: str, key: str) -> AnswerCounts | None:
        """The live distribution of answers to the open question (teacher only); None with no question."""
        doc = self._teacher(code, key)
        question = doc.question_dict()
        if question is None:
            return None
        revealed = self._snapshot(doc).revealed
        if revealed is not None:
            return revealed.counts
        counts = self._answer_counts(doc, question["id"], len(question["options"]))
        return AnswerCounts(question["id"], counts)

    def publish_run(self, code: str, key: str, run: dict | None) -> int:
        """Show the class the training run on the teacher's page (a small record with its curves so far, checked by
        schema.run_json), or take it down with None; returns the version. The same record again counts as a
        heartbeat; a new one wakes every follower, on every server, as a new view does."""
        doc = self._teacher(code, key)
        text = "" if run is None else refuse_key(run_json(run, self.limits), key)
        if text == doc.run:
            return self._update(doc, {}, bump=False).version
        return self._update(doc, {"run": text}, bump=True).version

    def share_model(self, code: str, key: str, name: str, config_json: bytes, weights: bytes) -> ModelInfo:
        """Let this room's students load a model (config.json + safetensors bytes, checked and size-limited).
        Sharing under an existing name replaces that model; TooManyModels past limits.max_models."""
        doc = self._teacher(code, key)
        name = check_model_name(name)
        config_json, weights = check_model_files(config_json, weights, self.limits)
        self._share_model(doc, name, config_json, weights)
        return ModelInfo(name, len(config_json) + len(weights))

    def share_lesson(self, code: str, key: str, lesson_id: str, data: bytes) -> None:
        """Keep a lesson (its JSON file's bytes) with this room, so its students on every server can open it; the
        room keeps its limits.max_lessons latest, dropping the oldest. LessonTooLarge past limits.max_lesson_bytes.
        Followers are not woken: the view that names the lesson comes next (publish)."""
        doc = self._teacher(code, key)
        self._share_lesson(doc, *check_lesson(lesson_id, data, self.limits))

    def close(self, code: str, key: str) -> None:
        """End the class now: students are told it has ended; answers and shared models are dropped.
        Closing an ended room does nothing."""
        doc = self._teacher(code, key, live=False)
        if doc.stage(self._clock(), self.limits) is Stage.LIVE:
            self._close(doc)

    # ---- students -----------------------------------------------------------------------------------------

    def join(self, code: str) -> str:
        """Enter a room as a student; returns the student's private id. RoomFull at limits.max_students."""
        doc = self._live(code)
        student_id = new_student_id()
        self._presence(doc, student_id, "join")
        return student_id

    def student_heartbeat(self, code: str, student_id: str) -> None:
        """Count the student as connected for another limits.student_window seconds (re-admits a lapsed one)."""
        doc = self._live(code)
        self._presence(doc, check_student_id(doc.code, student_id), "touch")

    def leave(self, code: str, student_id: str) -> None:
        """Stop counting the student at once; leaving a room that has ended is not an error."""
        try:
            doc = self._live(code)
            self._presence(doc, check_student_id(doc.code, student_id), "leave")
        except (RoomNotFound, RoomClosed):
            pass

    def answer(self, code: str, student_id: str, question_id: str, choice: int) -> None:
        """Record (or change) this student's answer to the open question: an option index. StaleQuestion if
        question_id is not the open question; AnswersClosed once the answer is revealed."""
        doc = self._live(code)
        student_id = check_student_id(doc.code, student_id)
        question = doc.question_dict()
        if question is None or question_id != question["id"] or doc.revealed:  # this copy may lag: ask storage
            doc = self._doc(doc.code, fresh=True).require_live(self._clock(), self.limits)
            question = doc.question_dict()
        if question is None or question_id != question["id"]:
            raise StaleQuestion()
        if doc.revealed:
            raise AnswersClosed()
        self._answer(doc, student_id, question["id"], check_choice(choice, len(question["options"])))

    def my_answer(self, code: str, student_id: str, question_id: str) -> int | None:
        """This student's answer to the question `question_id` while it is open (before and after its reveal), or
        None: no answer, or another question (or none) is open. It stays theirs until the question is closed."""
        doc = self._live(code)
        student_id = check_student_id(doc.code, student_id)
        question = doc.question_dict()
        if question is None or question["id"] != question_id:
            return None
        return self._my_answer(doc, student_id, question_id)

    # ---- everyone (reads are local) -------------------------------------------------------------------------

    def snapshot(self, code: str) -> RoomSnapshot:
        """What the room shows now: state, open question, reveal, student count, shared models (never the key)."""
        return self._snapshot(self._live(code))

    def version(self, code: str) -> int:
        """The room's version, from this process's memory: cheap enough to call on every rerun."""
        return self._live(code).version

    def wait_for_change(self, code: str, after_version: int, timeout: float = 30.0) -> RoomSnapshot | None:
        """Block until the version passes after_version and return the new snapshot, or None after `timeout`
        seconds (capped at limits.max_wait). RoomClosed if the room ends meanwhile."""
        doc = self._live(code)
        after_version = check_int("after_version", after_version, -1, 2**63)
        if doc.version <= after_version:
            timeout = float(timeout)
            timeout = 0.0 if math.isnan(timeout) else min(max(timeout, 0.0), self.limits.max_wait)
            changed = self._docs.wait(doc.code, after_version, timeout)
            if changed is None:
                raise RoomNotFound(code=normalize_code(code))
            doc = changed
            doc.require_live(self._clock(), self.limits)
            if doc.version <= after_version:
                return None
        return self._snapshot(doc)

    def watch(self, code: str, key: str, watcher: Watcher) -> None:
        """Call watcher(RoomChange) from now on each time the room's version moves, it ends or vanishes (see
        mirror.RoomDocs.watch: in the thread that stored the change; it must not block). One watcher per key."""
        self._docs.watch(self._live(code).code, key, watcher)

    def unwatch(self, code: str, key: str) -> None:
        self._docs.unwatch(normalize_code(code), key)

    def room_models(self, code: str) -> tuple[ModelInfo, ...]:
        """The models shared with this room, in sharing order."""
        return self.snapshot(code).models

    def get_room_model(self, code: str, name: str) -> SharedModel:
        """A model shared with this room (and only this room); ModelNotFound otherwise."""
        doc = self._live(code)
        name = check_model_name(name)
        model = self._get_model(doc, name) if any(m["name"] == name for m in doc.model_list()) else None
        if model is None:
            raise ModelNotFound(code=doc.code, name=name)
        return model

    def get_room_lesson(self, code: str, lesson_id: str) -> bytes:
        """The JSON bytes of a lesson kept with this room (and only this room); LessonNotFound otherwise."""
        doc = self._live(code)
        lesson_id = check_name("lesson", lesson_id, 128)
        data = self._get_lesson(doc, lesson_id)
        if data is None:
            raise LessonNotFound(code=doc.code, lesson=lesson_id)
        return data

    def shutdown(self) -> None:  # noqa: B027 (a default that backends without resources keep)
        """Release connections and threads (the in-process store holds none)."""

    # ---- shared checks ---------------------------------------------------------------------------------------

    def _doc(self, code: object, fresh: bool = False) -> RoomDoc:
        """The room's document from this process's copy; with fresh=True (teacher calls) from shared storage."""
        code = normalize_code(code)
        doc = (self._load(code) or self._docs.get(code)) if fresh else (self._docs.get(code) or self._load(code))
        if doc is None:
            raise RoomNotFound(code=code)
        return doc

    def _live(self, code: object) -> RoomDoc:
        return self._doc(code).require_live(self._clock(), self.limits)

    def _teacher(self, code: object, key: object, live: bool = True) -> RoomDoc:
        doc = self._doc(code, fresh=True)  # the teacher may have just moved to this server
        if not key_matches(key, doc.key_hash):
            raise WrongKey(code=doc.code)
        return doc.require_live(self._clock(), self.limits) if live else doc

    def _snapshot(self, doc: RoomDoc) -> RoomSnapshot:
        return snapshot_of(doc, self._clock() - doc.teacher_seen <= self.limits.student_window)

    # ---- storage primitives: each re-checks the room atomically, stores the new RoomDoc in self._docs ------

    @abstractmethod
    def _load(self, code: str) -> RoomDoc | None:
        """The room's document from shared storage, kept in self._docs (None if there is none)."""

    @abstractmethod
    def _create(self, code: str, key_hash: str) -> RoomDoc | None:
        """A new room; None if the code is taken; TooManyRooms at the limit."""

    @abstractmethod
    def _update(self, doc: RoomDoc, fields: dict[str, str], bump: bool, clear_answers: bool = False) -> RoomDoc:
        """Set document fields, touch the teacher, recount students; bump the version if asked."""

    @abstractmethod
    def _reveal(self, doc: RoomDoc, question_id: str, n_options: int, answer: int) -> RoomDoc:
        """Freeze the answer counts of question_id beside the true answer; StaleQuestion if it is not open."""

    @abstractmethod
    def _answer_counts(self, doc: RoomDoc, question_id: str, n_options: int) -> tuple[int, ...]:
        """Answers per option to the open question."""

    @abstractmethod
    def _my_answer(self, doc: RoomDoc, student_id: str, question_id: str) -> int | None:
        """The student's recorded answer to question_id, if it is the open question and they answered it."""

    @abstractmethod
    def _share_model(self, doc: RoomDoc, name: str, config_json: bytes, weights: bytes) -> RoomDoc:
        """Store the model's bytes under this room and list it; TooManyModels at the limit."""

    @abstractmethod
    def _get_model(self, doc: RoomDoc, name: str) -> SharedModel | None:
        """A model shared with this room."""

    @abstractmethod
    def _share_lesson(self, doc: RoomDoc, lesson_id: str, data: bytes) -> None:
        """Keep the lesson's bytes under this room, the newest last; drop the oldest past limits.max_lessons."""

    @abstractmethod
    def _get_lesson(self, doc: RoomDoc, lesson_id: str) -> bytes | None:
        """A lesson kept with this room."""

    @abstractmethod
    def _close(self, doc: RoomDoc) -> None:
        """Mark the room ended and drop its students, answers and models."""

    @abstractmethod
    def _presence(self, doc: RoomDoc, student_id: str, action: Presence) -> None:
        """Join, touch or leave; RoomFull when admitting a student past the limit."""

    @abstractmethod
    def _answer(self, doc: RoomDoc, student_id: str, question_id: str, choice: int) -> None:
        """Record the answer (admitting the student like a heartbeat); StaleQuestion / AnswersClosed if the
        question moved on meanwhile."""
