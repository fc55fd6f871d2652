"""RoomDocs: room documents in this process's memory, each with a Condition its followers wait on, and watchers.

The in-process store keeps its rooms here; the Redis store keeps here its copy of every room it has
seen, fed by pub/sub. Either way reads are local: a follower blocks until the version moves (wait), or
is called back when it moves (watch: a server wakes each follower's session then, instead of each one
polling on a timer). A watcher is called in the thread that stored the change (the teacher's, or the Redis
listener), outside the lock, so it must only hand the news on (schedule a rerun), never block.
"""

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from services.rooms.doc import RoomDoc

_LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class RoomChange:
    """What a watcher is told when a room moved: its version, whether it ended or vanished, its open question."""

    code: str
    version: int
    ended: bool  # closed, or gone from this process (the watcher's next read says which)
    question: tuple  # (question id, revealed) of the open question, () without one


Watcher = Callable[[RoomChange], bool]  # returns False to stop watching (its session has gone)


def _change(code: str, doc: RoomDoc | None) -> RoomChange:
    if doc is None:
        return RoomChange(code, -1, True, ())
    question = doc.question_dict()
    marker = () if question is None else (question.get("id"), bool(doc.revealed))
    return RoomChange(code, doc.version, doc.closed, marker)


class RoomDocs:
    """Thread-safe code → RoomDoc; put() keeps the newest rev and wakes followers when the version moves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._docs: dict[str, RoomDoc] = {}
        self._changed: dict[str, threading.Condition] = {}  # one per room, all on self._lock
        self._watchers: dict[str, dict[str, Watcher]] = {}  # code → watcher key (a session) → watcher

    def get(self, code: str) -> RoomDoc | None:
        with self._lock:
            return self._docs.get(code)

    def codes(self) -> list[str]:
        with self._lock:
            return list(self._docs)

    def __len__(self) -> int:
        with self._lock:
            return len(self._docs)

    def put(self, doc: RoomDoc) -> bool:
        """Keep `doc` unless an equal or newer rev is held; returns whether it was kept."""
        with self._lock:
            old = self._docs.get(doc.code)
            if old is not None and doc.rev <= old.rev:
                return False
            self._docs[doc.code] = doc
            moved = old is None or old.version != doc.version or old.closed != doc.closed
            if moved:
                self._wake(doc.code)
        if moved:
            self._tell(doc.code, doc)
        return True

    def drop(self, code: str) -> None:
        """Forget a room (gone, or deleted behind our back); its followers wake and find it missing."""
        with self._lock:
            dropped = self._docs.pop(code, None) is not None
            if dropped:
                self._wake(code)
                self._changed.pop(code, None)
        if dropped:
            self._tell(code, None)
            with self._lock:
                self._watchers.pop(code, None)

    def watch(self, code: str, key: str, watcher: Watcher) -> None:
        """Call watcher(change) each time the room's version moves, it closes or vanishes, until it returns False or
        unwatch(code, key); one watcher per key (a session watching again replaces its watcher)."""
        with self._lock:
            self._watchers.setdefault(code, {})[key] = watcher

    def unwatch(self, code: str, key: str) -> None:
        with self._lock:
            watchers = self._watchers.get(code, {})
            watchers.pop(key, None)
            if not watchers:
                self._watchers.pop(code, None)

    def watching(self, code: str) -> int:
        """How many watchers a room has (for tests and the bench)."""
        with self._lock:
            return len(self._watchers.get(code, {}))

    def _tell(self, code: str, doc: RoomDoc | None) -> None:
        """Hand the change to every watcher of the room (outside the lock); forget those that say they have gone."""
        with self._lock:
            watchers = list(self._watchers.get(code, {}).items())
        if not watchers:
            return
        change = _change(code, doc)
        gone = []
        for key, watcher in watchers:
            try:
                keep = watcher(change)
            except Exception:  # one broken watcher must not keep the news from the others
                _LOG.exception("room watcher %s failed", key)
                keep = False
            if keep is False:
                gone.append((key, watcher))
        with self._lock:
            current = self._watchers.get(code, {})
            for key, watcher in gone:
                if current.get(key) is watcher:  # not replaced meanwhile
                    del current[key]

    def drop_where(self, gone: Callable[[RoomDoc], bool]) -> list[str]:
        """Forget every room for which gone(doc) holds; returns their codes."""
        with self._lock:
            codes = [code for code, doc in self._docs.items() if gone(doc)]
        for code in codes:
            self.drop(code)
        return codes

    def wait(self, code: str, after_version: int, timeout: float) -> RoomDoc | None:
        """Block until the room's version passes `after_version`, it closes or vanishes, or `timeout` s pass."""
        with self._lock:
            changed = self._changed.setdefault(code, threading.Condition(self._lock))

            def moved() -> bool:
                doc = self._docs.get(code)
                return doc is None or doc.version > after_version or doc.closed

            changed.wait_for(moved, timeout)
            doc = self._docs.get(code)
            if doc is None:
                self._changed.pop(code, None)
            return doc

    def _wake(self, code: str) -> None:
        changed = self._changed.get(code)
        if changed is not None:
            changed.notify_all()
