"""A stop flag shared by the pool and one worker process: 8 bytes of a temporary file, mapped by both.

The pool writes the id of the job to stop; the worker reads it before every optimiser step (a memory
read, no system call). The worker receives the file as an inherited file descriptor.
"""

from __future__ import annotations

import mmap
import os
import struct
import tempfile

_ID = struct.Struct("<q")


class StopFlag:
    """The id of the job a worker must stop (0: none)."""

    def __init__(self, fd: int):
        self._fd = fd
        self._map = mmap.mmap(fd, _ID.size)

    @classmethod
    def create(cls) -> StopFlag:
        """A new flag backed by an unlinked temporary file (for the pool's side)."""
        fd, path = tempfile.mkstemp(prefix="attention-lab-stop-")
        os.unlink(path)
        os.ftruncate(fd, _ID.size)
        return cls(fd)

    def fileno(self) -> int:
        return self._fd

    @property
    def value(self) -> int:
        return _ID.unpack_from(self._map)[0]

    @value.setter
    def value(self, job_id: int) -> None:
        _ID.pack_into(self._map, 0, job_id)

    def close(self) -> None:
        if not self._map.closed:
            self._map.close()
            os.close(self._fd)
