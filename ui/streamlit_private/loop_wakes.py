"""One wake of the server's event loop for a burst of messages, instead of one per message (asyncio's private
`_write_to_self`, patched on Streamlit's server loop by server.coalesce_server_wakes_once).

Every message a script thread sends reaches the event loop through `call_soon_threadsafe`, which writes a byte to
the loop's self-pipe. That write is a system call that lets go of the GIL; the event loop thread, already woken by
the previous byte, takes it, and the script thread waits to get it back: once per message (a following student's
/attention run sends ~30, and py-spy put 12 % of the run's wall time on that write, docs/capacity.md §11). While a
byte is in the pipe and the loop has not yet read it, the loop is bound to wake and run every callback queued so
far, so another byte tells it nothing: this skips it. The flag clears when the loop reads the pipe, before it runs
what was queued, so a callback queued after that read writes its own byte again: no wake is ever lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

COALESCED = "_attention_lab_coalesced_wakes"  # set on a loop once it is patched


class _Wakes:
    """The loop's pipe writer and reader callback, wrapped around one flag: a byte is in the pipe, unread."""

    def __init__(self, write: Callable[[], None], process: Callable[[Any], None]) -> None:
        self._write, self._process = write, process
        self.pending = False
        self.written = self.skipped = 0

    def write(self) -> None:
        if self.pending:  # the loop will wake for the byte already there, and run every callback queued so far
            self.skipped += 1
            return
        self.pending = True
        self.written += 1
        self._write()

    def process(self, data: Any) -> None:
        self.pending = False  # what is queued after this point needs a byte of its own
        self._process(data)


def coalesce_wakes(loop: asyncio.AbstractEventLoop) -> _Wakes | None:
    """Make `loop` skip redundant self-pipe writes (once: a loop already patched keeps its flag); None for a loop
    that is not asyncio's selector loop, whose internals this relies on (uvloop, say)."""
    if not isinstance(loop, asyncio.selector_events.BaseSelectorEventLoop):
        return None
    wakes = getattr(loop, COALESCED, None)
    if wakes is None:
        wakes = _Wakes(loop._write_to_self, loop._process_self_data)  # type: ignore[attr-defined]
        loop._write_to_self = wakes.write  # type: ignore[attr-defined]
        loop._process_self_data = wakes.process  # type: ignore[attr-defined]
        setattr(loop, COALESCED, wakes)
    return wakes
