"""RoomDocs: room documents in this process's memory, each with a Condition its followers wait on.

The in-process store keeps its rooms here; the Redis store keeps here its copy of every room it has
seen, fed by pub/sub. Either way reads are local, and a follower blocks until the version moves.
"""

import threading
from collections.abc import Callable

from services.rooms.doc import RoomDoc


class RoomDocs:
    """Thread-safe code → RoomDoc; put() keeps the newest rev and wakes followers when the version moves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._docs: dict[str, RoomDoc] = {}
        self._changed: dict[str, threading.Condition] = {}  # one per room, all on self._lock

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
            if old is None or old.version != doc.version or old.closed != doc.closed:
                self._wake(doc.code)
            return True

    def drop(self, code: str) -> None:
        """Forget a room (gone, or deleted behind our back); its followers wake and find it missing."""
        with self._lock:
            if self._docs.pop(code, None) is not None:
                self._wake(code)
                self._changed.pop(code, None)

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
