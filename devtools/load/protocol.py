"""A Streamlit session without a browser: the websocket protocol the browser speaks, with Streamlit's own protobufs.

What the browser does, and so this client (Streamlit 1.67's frontend, read from its bundle):
- open `/_stcore/stream` with the subprotocols `streamlit` and an XSRF token (`PLACEHOLDER_AUTH_TOKEN` when the
  page has no cookie), then send a first `rerun_script` BackMsg with the URL's path (`page_name`) and query string
  and an empty `page_script_hash`; the server answers with ForwardMsgs: `new_session` (the session id), deltas
  (elements at a `delta_path`), `page_info_changed` (the query string it wrote), `auto_rerun`, `script_finished`;
- keep every widget's value, taken from its element when first drawn (or when the server sets it), and send them
  all with each rerun, a widget's change with the fragment id it was drawn in (so a widget inside an `st.fragment`
  reruns only that fragment);
- on `auto_rerun` (a fragment with `run_every`), send a fragment rerun on a timer until a full run starts or the
  server sends `stop_auto_rerun`; this is how a following student hears of the teacher's moves;
- cache large elements by hash and list the cached hashes in each rerun, so the server sends unchanged ones as
  `ref_hash` references; a hash not used for `max_cached_message_age` runs is dropped.

Blocking calls use `threading`, so the same code runs as threads in a test and as greenlets under Locust (which
monkey-patches threading and sockets with gevent).
"""

from __future__ import annotations

import contextlib
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

import websocket

from ui.streamlit_private.wire import BackMsg, Block, Element, ForwardMsg, Markdown, WidgetState

from .widgets import TRIGGER_KINDS, UserValue, Widget, initial_state, shown_value, user_state, widget_of

SUBPROTOCOLS = ["streamlit", "PLACEHOLDER_AUTH_TOKEN"]  # what the browser sends without an XSRF cookie
FINISHED = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


class ProtocolError(RuntimeError):
    """The server answered in a way the browser would show as an error (or not at all in time)."""


@dataclass
class Run:
    """One script run as the client saw it: when its `new_session` came, when it finished, and how."""

    run_id: str
    fragment_ids: tuple[str, ...]
    started: float  # time.monotonic() at its new_session
    finished: float | None = None
    status: int | None = None
    exceptions: list[str] = field(default_factory=list)  # st.exception elements drawn (a traceback on the page)
    bytes: int = 0  # ForwardMsg bytes received for it
    requested: float | None = None  # time.monotonic() when this client sent the rerun that started it

    @property
    def ok(self) -> bool:
        return self.status in FINISHED

    @property
    def latency(self) -> float:
        """Seconds from the request (or, for a run this client did not ask for, its start) to script_finished."""
        if self.finished is None:  # None - float failed here before
            raise TypeError(f"run {self.run_id} has not finished: it has no latency yet")
        return self.finished - (self.requested if self.requested is not None else self.started)


@dataclass
class Drawn:
    """An element or block at a delta path, with the run and fragment that drew it."""

    element: Element | Block
    run_id: str
    fragment_id: str
    widget_id: str = ""


class StreamlitSession:
    """One browser tab's session. `open()` connects and runs the page; `rerun()` sends widget values and waits
    until the run they started has finished; `markdown()` and `value()` read what the page shows."""

    def __init__(self, base_url: str, path: str = "", query: str = "", *, locale: str = "en-US", timeout=60.0):
        parts = urlsplit(base_url)
        self.base_url = base_url.rstrip("/")
        self.ws_url = f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}{parts.path.rstrip('/')}"
        self.page_name, self.query, self.locale, self.timeout = path.strip("/"), query.lstrip("?"), locale, timeout
        self.page_script_hash = ""
        self.session_id = ""
        self.widgets: dict[str, Widget] = {}  # id → widget as last drawn
        self.states: dict[str, WidgetState] = {}  # id → value the browser would send
        self.drawn: dict[tuple[int, ...], Drawn] = {}
        self.runs: list[Run] = []
        self.run_listeners: list[Callable[[Run], None]] = []  # called on the reader thread as each run finishes
        self._cache: dict[str, tuple[ForwardMsg, int, str]] = {}  # hash → (message, run count when used, fragment)
        self._run_count, self._max_age = 0, 2
        self._timers: dict[str, tuple[float, threading.Event]] = {}  # fragment id → (interval, stop flag)
        self.timers_on = True  # False: the timers stay set but send nothing (a test sends the fragments' reruns itself)
        self._cond = threading.Condition()
        self._send_lock = threading.Lock()
        self._ws: websocket.WebSocket | None = None
        self._reader: threading.Thread | None = None
        self._closed = False
        self.error: BaseException | None = None

    # ---- connection ----
    def open(self) -> Run:
        """Connect as the browser does (health and host-config first), run the page, and wait for it."""
        for route in ("_stcore/health", "_stcore/host-config"):
            with urllib.request.urlopen(f"{self.base_url}/{route}", timeout=self.timeout) as response:
                response.read()
        self._ws = websocket.create_connection(
            f"{self.ws_url}/_stcore/stream", subprotocols=SUBPROTOCOLS, timeout=None, enable_multithread=True
        )
        self._reader = threading.Thread(target=self._read_loop, name="st-session-reader", daemon=True)
        self._reader.start()
        return self._request(self._client_state(page_name=self.page_name))

    def close(self) -> None:
        """Close the websocket as a closed tab does; fragment timers stop."""
        self._closed = True
        self._stop_timers()
        if self._ws is not None:
            with contextlib.suppress(OSError, websocket.WebSocketException):
                self._ws.close()
        with self._cond:
            self._cond.notify_all()

    def __enter__(self) -> StreamlitSession:
        self.open()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- what the user does ----
    def rerun(self, values: dict[str, UserValue] | None = None, click: str | None = None) -> Run:
        """Set widgets (by key: a label, text, number, flag; an int picks a choice widget's option) and/or click a
        button (by key), send one rerun as the browser would, and wait for the run it starts to finish.

        The rerun is a fragment rerun when the changed widgets (or the button) were drawn inside a fragment."""
        values = values or {}
        changed = [self.widget(key) for key in values]
        for widget, value in zip(changed, values.values(), strict=True):  # widget.key is the value's key
            self.states[widget.id] = user_state(widget, value)
            self._bind_to_url(widget)
        triggers = []
        if click is not None:
            button = self.widget(click)
            if button.kind not in TRIGGER_KINDS:
                raise ValueError(f"{click} is a {button.kind}, not a button")
            triggers.append(user_state(button, True))
            changed.append(button)
        fragments = {w.fragment_id for w in changed}
        fragment = fragments.pop() if len(fragments) == 1 else ""
        return self._request(self._client_state(fragment_id=fragment, extra=triggers))

    def tick(self, fragment: str, states: dict[str, WidgetState] | None = None) -> Run:
        """One timed rerun of `fragment` (run_every), as its timer sends it, and its run; carrying `states` (a copy of
        `states` from earlier: a browser that has not drawn the latest run yet), else this session's values."""
        msg = self._client_state(fragment_id=fragment, auto=True)
        if states is not None:
            del msg.rerun_script.widget_states.widgets[:]
            msg.rerun_script.widget_states.widgets.extend(states[i] for i in self.widgets if i in states)
        return self._request(msg)

    def timed_fragments(self) -> dict[str, float]:
        """{fragment id: seconds between its reruns} of the run_every fragments this session reruns on a timer."""
        return {fragment: interval for fragment, (interval, _) in self._timers.items()}

    def go_to(self, path: str) -> Run:
        """Open another page of the app in this session, as a click in its navigation does, and wait for its run."""
        self.page_name, self.page_script_hash = path.strip("/"), ""
        return self._request(self._client_state(page_name=self.page_name))

    def widget(self, key: str) -> Widget:
        """The widget drawn with this user key in the latest run (KeyError when the page has none)."""
        for widget in self.widgets.values():
            if widget.key == key:
                return widget
        raise KeyError(f"no widget with key {key!r} on the page; keys: {sorted(filter(None, self.widget_keys()))}")

    def widget_keys(self) -> list[str | None]:
        return [w.key for w in self.widgets.values()]

    def value(self, key: str) -> object:
        """The value this session holds for a widget (what it would send)."""
        return shown_value(self.states.get(self.widget(key).id))

    def _markdown(self) -> list[Markdown]:
        """The markdown elements on the page, top to bottom (st.latex sends one of the LaTeX type)."""
        with self._cond:
            drawn = sorted(self.drawn.items())
        elements = [d.element for _, d in drawn]
        return [e.markdown for e in elements if isinstance(e, Element) and _kind(e) == "markdown"]

    def markdown(self) -> list[str]:
        """The bodies of the markdown elements on the page, top to bottom."""
        return [md.body for md in self._markdown()]

    def formulas(self) -> list[str]:
        """The LaTeX of the formulas on the page, top to bottom (there is no "latex" element to ask `elements` for)."""
        return [md.body for md in self._markdown() if md.element_type == Markdown.Type.LATEX]

    def elements(self, kind: str) -> list[object]:
        """The element protos of one kind (e.g. "plotly_chart") on the page, top to bottom."""
        with self._cond:
            drawn = sorted(self.drawn.items())
        return [getattr(d.element, kind) for _, d in drawn if _kind(d.element) == kind]

    def wait_for_run(self, predicate: Callable[[Run], bool], after: float, timeout: float | None = None) -> Run:
        """The first finished run that started at or after `after` (time.monotonic) and satisfies predicate."""
        deadline = time.monotonic() + (timeout or self.timeout)
        with self._cond:
            while True:
                for run in self.runs:
                    if run.finished is not None and run.started >= after and predicate(run):
                        return run
                self._raise_if_dead()
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ProtocolError(f"no matching run finished within {timeout or self.timeout} s")
                self._cond.wait(left)

    # ---- the wire ----
    def _client_state(self, *, page_name: str = "", fragment_id: str = "", extra=(), auto: bool = False) -> BackMsg:
        msg = BackMsg()
        state = msg.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_script_hash
        state.page_name = page_name if not self.page_script_hash else ""
        state.fragment_id = fragment_id
        state.is_auto_rerun = auto
        with self._cond:
            state.widget_states.widgets.extend(self.states[i] for i in self.widgets if i in self.states)
            state.cached_message_hashes.extend(self._cache)
        state.widget_states.widgets.extend(extra)
        info = state.context_info
        info.timezone, info.timezone_offset, info.locale = "UTC", 0, self.locale
        info.url, info.is_embedded, info.color_scheme = self._url(), False, "light"
        return msg

    def _url(self) -> str:
        return f"{self.base_url}/{self.page_name}" + (f"?{self.query}" if self.query else "")

    def _request(self, msg: BackMsg) -> Run:
        """Send a rerun and wait for the run it started (full or of its fragment) to finish successfully."""
        fragment = msg.rerun_script.fragment_id
        sent = time.monotonic()
        self._send(msg)
        run = self.wait_for_run(lambda r: r.status is not None and r.fragment_ids == ((fragment,) if fragment else ()),
                                after=sent)  # fmt: skip
        run.requested = sent
        if not run.ok:
            raise ProtocolError(f"run {run.run_id} ended with status {run.status}")
        return run

    def _send(self, msg: BackMsg) -> None:
        if self._ws is None or self._closed:
            raise ProtocolError("the session is closed")
        data = msg.SerializeToString()
        with self._send_lock:
            self._ws.send(data, opcode=websocket.ABNF.OPCODE_BINARY)

    def _raise_if_dead(self) -> None:
        if self.error is not None:
            raise ProtocolError(f"the connection failed: {self.error!r}") from self.error
        if self._closed:
            raise ProtocolError("the session is closed")

    def _read_loop(self) -> None:
        try:
            ws = self._ws
            if ws is None:  # open() connects before it starts this thread
                raise ProtocolError("the session is not connected")
            while not self._closed:
                data = ws.recv()
                if not data:
                    break
                msg = ForwardMsg()
                msg.ParseFromString(data)
                with self._cond:
                    finished = self._handle(msg, len(data))
                    self._cond.notify_all()
                if finished is not None:
                    for listener in list(self.run_listeners):
                        listener(finished)
        except Exception as exc:  # the server went away, or a message this client cannot read
            if not self._closed:
                self.error = exc
        finally:
            self._stop_timers()
            with self._cond:
                self._cond.notify_all()

    # ---- ForwardMsgs (under self._cond) ----
    def _handle(self, msg: ForwardMsg, size: int) -> Run | None:
        if msg.WhichOneof("type") == "ref_hash":
            msg = self._from_cache(msg)
        elif msg.metadata.cacheable:
            self._cache[msg.hash] = (msg, self._run_count, msg.delta.fragment_id)
        kind = msg.WhichOneof("type")
        run = self.runs[-1] if self.runs else None
        if run is not None:
            run.bytes += size
        if kind == "new_session":
            self._new_session(msg)
        elif kind == "delta":
            self._delta(msg, run)
        elif kind == "navigation":  # st.navigation: the page this run draws (new_session names app.py)
            self.page_script_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "auto_rerun":
            self._start_timer(msg.auto_rerun.fragment_id, msg.auto_rerun.interval)
        elif kind == "stop_auto_rerun":
            for fragment in msg.stop_auto_rerun.fragment_ids:
                self._stop_timer(fragment)
        elif kind == "script_finished" and run is not None:
            return self._finished(msg, run)
        return None

    def _from_cache(self, ref: ForwardMsg) -> ForwardMsg:
        cached = self._cache.get(ref.ref_hash)
        if cached is None:
            raise ProtocolError(f"the server referred to a message this client never cached: {ref.ref_hash}")
        msg = ForwardMsg()
        msg.CopyFrom(cached[0])
        msg.metadata.CopyFrom(ref.metadata)  # the reference carries where the element goes now
        self._cache[ref.ref_hash] = (cached[0], self._run_count, msg.delta.fragment_id)
        return msg

    def _new_session(self, msg: ForwardMsg) -> None:
        session = msg.new_session
        if session.initialize.session_id:
            self.session_id = session.initialize.session_id
        self.page_script_hash = session.page_script_hash
        self._max_age = session.config.max_cached_message_age or self._max_age
        fragments = tuple(msg.metadata.run.fragment_ids)
        if not fragments:
            self._stop_timers()  # the browser drops every auto-rerun timer when a full run starts
        self.runs.append(Run(msg.metadata.run.script_run_id, fragments, time.monotonic()))
        del self.runs[:-50]

    def _delta(self, msg: ForwardMsg, run: Run | None) -> None:
        delta, path = msg.delta, tuple(msg.metadata.delta_path)
        run_id = run.run_id if run else ""
        if delta.WhichOneof("type") == "new_element":
            element = delta.new_element
            widget = widget_of(element)
            self.drawn[path] = Drawn(element, run_id, delta.fragment_id, widget.id if widget else "")
            if element.WhichOneof("type") == "exception" and run is not None:
                run.exceptions.append(f"{element.exception.type}: {element.exception.message}")
            if widget is not None:
                widget.fragment_id = delta.fragment_id
                self.widgets[widget.id] = widget
                state = initial_state(widget)
                if state is not None and (widget.id not in self.states or getattr(widget.proto, "set_value", False)):
                    self.states[widget.id] = state
        elif delta.WhichOneof("type") == "add_block":
            self.drawn[path] = Drawn(delta.add_block, run_id, delta.fragment_id)

    def _finished(self, msg: ForwardMsg, run: Run) -> Run:
        run.status, run.finished = msg.script_finished, time.monotonic()
        if msg.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            return run
        fragments = set(run.fragment_ids)
        for path, drawn in list(self.drawn.items()):  # what this run did not draw again is gone (clearStaleNodes)
            if drawn.run_id != run.run_id and (not fragments or drawn.fragment_id in fragments):
                del self.drawn[path]
        live = {d.widget_id for d in self.drawn.values()}
        for wid in [w for w in self.widgets if w not in live]:
            del self.widgets[wid]
            self.states.pop(wid, None)
        self._run_count += 1
        for key, (_, used, fragment) in list(self._cache.items()):
            if (not fragments or fragment in fragments) and self._run_count - used > self._max_age:
                del self._cache[key]
        return run

    # ---- fragment timers (run_every) ----
    def _start_timer(self, fragment: str, interval: float) -> None:
        current = self._timers.get(fragment)
        if current is not None and current[0] == interval:
            return
        self._stop_timer(fragment)
        stop = threading.Event()
        self._timers[fragment] = (interval, stop)
        threading.Thread(target=self._tick, args=(fragment, interval, stop), daemon=True, name="st-run-every").start()

    def _tick(self, fragment: str, interval: float, stop: threading.Event) -> None:
        while not stop.wait(interval):
            if not self.timers_on:
                continue
            try:
                self._send(self._client_state(fragment_id=fragment, auto=True))
            except (ProtocolError, OSError, websocket.WebSocketException):
                return

    def _stop_timer(self, fragment: str) -> None:
        timer = self._timers.pop(fragment, None)
        if timer is not None:
            timer[1].set()

    def _stop_timers(self) -> None:
        for fragment in list(self._timers):
            self._stop_timer(fragment)

    def _bind_to_url(self, widget: Widget) -> None:
        """A widget bound to the URL (bind="query-params") writes its value there, as the browser does."""
        param = getattr(widget.proto, "query_param_key", "")
        value = shown_value(self.states.get(widget.id))
        if not param or not isinstance(value, str):
            return
        params = [(k, v) for k, v in parse_qsl(self.query, keep_blank_values=True) if k != param]
        self.query = urlencode([*params, (param, value)])


def _kind(element: Element | Block) -> str | None:
    return element.WhichOneof("type")
