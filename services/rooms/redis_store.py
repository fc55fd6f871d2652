"""RedisRoomStore: rooms shared by several servers through one Redis (ATTENTION_LAB_REDIS_URL).

Writes run as Lua scripts (redis_lua.py), so each check-and-change is atomic across servers, and each
script publishes the room's new hash on the room's channel. One listener thread per store (per server
process) pattern-subscribes to every room channel and keeps this process's copy of each room it has seen
in RoomDocs, whose Condition wakes the followers waiting here: reads never ask Redis. On (re)subscribing
it reloads every copy, since messages sent while it was away are lost. Keys carry a TTL that teacher calls
refresh, so a room's data expires with the room.
"""

import json
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import redis
from redis.typing import EncodableT

from services.rooms.codes import normalize_code
from services.rooms.doc import RoomDoc, Stage
from services.rooms.errors import (
    AnswersClosed,
    ModelStorageFull,
    RoomClosed,
    RoomFull,
    RoomNotFound,
    RoomUnavailable,
    StaleQuestion,
    TooManyModels,
    TooManyRooms,
)
from services.rooms.limits import MB
from services.rooms.redis_lua import SCRIPTS, script_source
from services.rooms.snapshot import SharedModel
from services.rooms.store import Presence, RoomStore

_LISTEN_POLL = 1.0  # s the listener blocks per read, so it notices shutdown
_RETRY_PAUSE = 0.5  # s between reconnection attempts while Redis is away
_SWEEP_EVERY = 10.0  # s between sweeps of gone rooms from this process's copies
_SOCKET_TIMEOUT = 5.0


@contextmanager
def _reachable() -> Iterator[None]:
    """Turn a lost or refused connection into RoomUnavailable (nothing was changed)."""
    try:
        yield
    except (redis.ConnectionError, redis.TimeoutError) as error:
        raise RoomUnavailable() from error


class RedisRoomStore(RoomStore):
    """The Redis backend; see RoomStore for the contract. Call shutdown() to stop its listener thread."""

    def __init__(self, url: str, *args, prefix: str = "attlab:", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._prefix = prefix
        self._channel_prefix = f"{prefix}room:"
        self._redis = redis.Redis.from_url(
            url, socket_timeout=_SOCKET_TIMEOUT, socket_connect_timeout=_SOCKET_TIMEOUT, socket_keepalive=True
        )
        self._scripts = {name: self._redis.register_script(script_source(name)) for name in SCRIPTS}
        self._stopping = threading.Event()
        self._pubsub = self._redis.pubsub()
        with _reachable():
            self._pubsub.psubscribe(f"{self._channel_prefix}*")  # before any read, so no change is missed
        self._listener = threading.Thread(target=self._listen, name=f"rooms-redis-{prefix}", daemon=True)
        self._listener.start()

    def shutdown(self) -> None:
        self._stopping.set()
        with suppress(redis.ConnectionError, redis.TimeoutError):  # wake the listener now, not at its next poll
            self._redis.publish(f"{self._channel_prefix}~shutdown", b"")  # (every store ignores this message)
        self._listener.join(timeout=_LISTEN_POLL + _SOCKET_TIMEOUT)
        self._pubsub.close()
        self._redis.close()

    # ---- storage primitives ----------------------------------------------------------------------------------

    def _load(self, code: str) -> RoomDoc | None:
        with _reachable():
            fields = self._redis.hgetall(self._keys(code)[0])
        if not fields:
            self._docs.drop(code)  # expired or deleted in Redis: this copy must not outlive it
            return None
        self._docs.put(RoomDoc.from_fields(code, fields))
        return self._docs.get(code)

    def _create(self, code: str, key_hash: str) -> RoomDoc | None:
        return self._run("create", code, key_hash, self.limits.max_rooms)

    def _update(self, doc: RoomDoc, fields: dict[str, str], bump: bool, clear_answers: bool = False) -> RoomDoc:
        pairs = [item for field in fields.items() for item in field]
        return self._run_change("update", doc.code, int(bump), int(clear_answers), *pairs)

    def _reveal(self, doc: RoomDoc, question_id: str, n_options: int, answer: int) -> RoomDoc:
        return self._run_change("reveal", doc.code, question_id, answer, n_options)

    def _answer_counts(self, doc: RoomDoc, question_id: str, n_options: int) -> tuple[int, ...]:
        with _reachable():
            choices = self._redis.hvals(self._keys(doc.code)[2])
        counts = [0] * n_options
        for choice in map(int, choices):
            if 0 <= choice < n_options:
                counts[choice] += 1
        return tuple(counts)

    def _my_answer(self, doc: RoomDoc, student_id: str, question_id: str) -> int | None:
        reply = self._call("my_answer", doc.code, student_id, question_id)
        status = reply[0].decode()
        if status == "none":
            return None
        if status != "ok":
            raise self._error(status, doc.code)
        return int(reply[1])

    def _share_model(self, doc: RoomDoc, name: str, config_json: bytes, weights: bytes) -> RoomDoc:
        size = len(config_json) + len(weights)
        limits = self.limits
        return self._run_change(
            "share_model", doc.code, name, config_json, weights, size, limits.max_models, limits.max_all_models_bytes
        )

    def _get_model(self, doc: RoomDoc, name: str) -> SharedModel | None:
        with _reachable():
            config_json, weights = self._redis.hmget(self._keys(doc.code)[3], f"c:{name}", f"w:{name}")
        if isinstance(config_json, bytes) and isinstance(weights, bytes):  # bytes, or None when not stored
            return SharedModel(name, config_json, weights)
        return None

    def _share_lesson(self, doc: RoomDoc, lesson_id: str, data: bytes) -> None:
        self._run_change("share_lesson", doc.code, lesson_id, data, self.limits.max_lessons)

    def _get_lesson(self, doc: RoomDoc, lesson_id: str) -> bytes | None:
        with _reachable():
            data = self._redis.hget(self._keys(doc.code)[3], f"l:{lesson_id}")
        return data if isinstance(data, bytes) else None

    def _close(self, doc: RoomDoc) -> None:
        self._run("close", doc.code, math.ceil(self.limits.ended_memory))

    def _presence(self, doc: RoomDoc, student_id: str, action: Presence) -> None:
        self._run("presence", doc.code, student_id, action)

    def _answer(self, doc: RoomDoc, student_id: str, question_id: str, choice: int) -> None:
        self._run("answer", doc.code, student_id, question_id, choice)

    # ---- running scripts ---------------------------------------------------------------------------------------

    def _keys(self, code: str) -> list[str]:
        """Room hash, students, answers, models, rooms index, model bytes; {code} puts a room's keys in one slot."""
        room = f"{self._prefix}room:{{{code}}}"
        per_room = [room, f"{room}:students", f"{room}:answers", f"{room}:models"]
        return [*per_room, f"{self._prefix}rooms", f"{self._prefix}model_bytes"]

    def _call(self, script: str, code: str, *args: EncodableT) -> list:
        """Run a script with the common arguments (see redis_lua); its raw reply."""
        limits = self.limits
        ttl = math.ceil(limits.teacher_timeout + limits.ended_memory)
        common: list[EncodableT] = [self._channel_prefix + code, code, repr(self._clock()), limits.teacher_timeout]
        common += [limits.student_window, ttl, limits.max_students]
        with _reachable():
            return self._scripts[script](keys=self._keys(code), args=[*common, *args])

    def _run(self, script: str, code: str, *args: EncodableT) -> RoomDoc | None:
        """Run a script; keep the room hash it answers (read-your-writes before the message comes back) and return
        the newest copy held; None when it changed nothing ("same") or the code is taken ("collision")."""
        reply = self._call(script, code, *args)
        status = reply[0].decode()
        if status == "ok":
            doc = RoomDoc.from_fields(code, dict(zip(reply[1::2], reply[2::2], strict=True)))
            self._docs.put(doc)
            return self._docs.get(code) or doc  # a message may have brought a newer rev meanwhile, or dropped it
        if status in ("same", "collision"):
            return None
        if status == "not_found":
            self._docs.drop(code)
        raise self._error(status, code)

    def _run_change(self, script: str, code: str, *args: EncodableT) -> RoomDoc:
        """_run for a teacher's change: its script ends in teacher_done(), so it answers the room or an error."""
        doc = self._run(script, code, *args)
        if doc is None:
            raise RuntimeError(f"the {script!r} script answered no room")
        return doc

    def _error(self, status: str, code: str) -> Exception:
        limits = self.limits
        errors = {
            "not_found": lambda: RoomNotFound(code=code),
            "closed": lambda: RoomClosed(code=code),
            "full": lambda: RoomFull(code=code, limit=limits.max_students),
            "too_many": lambda: TooManyRooms(limit=limits.max_rooms),
            "too_many_models": lambda: TooManyModels(code=code, limit=limits.max_models),
            "models_full": lambda: ModelStorageFull(limit_mb=limits.max_all_models_bytes / MB),
            "stale": StaleQuestion,
            "revealed": AnswersClosed,
        }
        return errors[status]()

    # ---- the listener thread -----------------------------------------------------------------------------------

    def _listen(self) -> None:
        """Apply every room message to this process's copies until shutdown; survive Redis going away."""
        last_sweep = 0.0
        while not self._stopping.is_set():
            try:
                message = self._pubsub.get_message(timeout=_LISTEN_POLL)
                if message is not None:
                    self._on_message(message)
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                self._stopping.wait(_RETRY_PAUSE)  # redis-py reconnects and re-subscribes on the next read
                continue
            now = self._clock()
            if now - last_sweep >= _SWEEP_EVERY:
                last_sweep = now
                self._forget_gone(now)

    def _forget_gone(self, now: float) -> None:
        self._docs.drop_where(lambda doc: doc.stage(now, self.limits) is Stage.GONE)

    def _on_message(self, message: dict) -> None:
        if message["type"] == "psubscribe":  # (re)subscribed: what came meanwhile is lost, so reload
            self._reload()
        elif message["type"] == "pmessage":
            try:
                code = normalize_code(message["channel"].decode()[len(self._channel_prefix) :])
                doc = RoomDoc.from_fields(code, json.loads(message["data"]))
            except (RoomNotFound, ValueError, KeyError, TypeError, AttributeError):
                return  # not a message of ours: ignore it rather than stop following
            self._docs.put(doc)

    def _reload(self) -> None:
        codes = self._docs.codes()
        if not codes:
            return
        pipe = self._redis.pipeline(transaction=False)
        for code in codes:
            pipe.hgetall(self._keys(code)[0])
        for code, fields in zip(codes, pipe.execute(), strict=True):
            if fields:
                self._docs.put(RoomDoc.from_fields(code, fields))
            else:
                self._docs.drop(code)
