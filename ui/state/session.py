"""A view to and from the session's widget keys (each control's `key`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, MutableMapping
from typing import Any, TypeAlias, TypeVar

import streamlit as st

from views import PageView, ViewError, build, fields, values
from views.validate import check_value

from ..streamlit_private import SessionStateProxy

V = TypeVar("V", bound=PageView)
# Where a view's keys are held: st.session_state (keyed by str or int, so no Mapping[str, Any]) or a plain mapping
# (a room's state, a test's dict).
Keys: TypeAlias = Mapping[str, Any] | SessionStateProxy
MutableKeys: TypeAlias = MutableMapping[str, Any] | SessionStateProxy


def _plain(value: object) -> object:
    """NumPy scalars as Python ones; anything else unchanged."""
    item = getattr(value, "item", None)
    return item() if callable(item) and not isinstance(value, str | bytes) else value


_UNSET = object()
IMPLICIT_KEY = "_view_implicit"  # {session key: the value a page computed as that control's default (None)}


def implicit(key: str, value: object) -> None:
    """The page computed `value` as the default of the control kept under `key` (the model's example input, its
    width, its last layer): while the key holds it, the view holds None there, so the link leaves it out and a
    class or slide gets the same default computed anew."""
    st.session_state.setdefault(IMPLICIT_KEY, {})[key] = value


def choose(key: str, value: object) -> None:
    """Set the control kept under `key` to `value` as a choice (a button's, say), not as a default the page computed:
    the view, the link and a class then carry it even where it equals the computed one. Call it before the widget."""
    st.session_state[key] = value
    st.session_state.get(IMPLICIT_KEY, {}).pop(key, None)


def computed_default(key: str, compute) -> object:
    """The value of the control kept under `key` whose view default is None (computed by the page): when the session
    holds none of its own (unset, None, or the value computed for it before, now perhaps for another kind or
    model), it gets compute() and that is recorded as computed (`implicit`). Call it before the control's widget.
    Returns the key's value."""
    session = st.session_state
    computed = session.get(IMPLICIT_KEY, {})
    if session.get(key) is None or (key in computed and session[key] == computed[key]):
        session[key] = compute()
        implicit(key, session[key])
    return session[key]


def read(cls: type[V], session: Keys) -> V:
    """The view the session's keys hold: each value the control can take, its default where it cannot or is unset
    (or holds the default the page computed for it: `implicit`)."""
    settings = {}
    computed = session.get(IMPLICIT_KEY, {})
    for f in fields(cls):
        value = session.get(f.control.key, _UNSET)  # one look per key: st.session_state's are not cheap
        if value is _UNSET:
            continue
        if f.default is None and f.control.key in computed and value == computed[f.control.key]:
            continue
        try:
            settings[f.name] = check_value(f.control.key, f.control.spec, _plain(value))
        except ViewError:
            continue
    return build(cls, settings)


def write(view: PageView, session: MutableKeys, names: set[str] | None = None) -> list[str]:
    """Put `view`'s values (those named in `names`, else all) into the session's keys, before any widget is drawn;
    None (a default computed by the page) removes the key. Returns the keys that changed."""
    changed = []
    settings = values(view)
    for f in fields(type(view)):
        if names is not None and f.name not in names:
            continue
        value, key = settings[f.name], f.control.key
        held = session.get(key, _UNSET)
        if value is None:
            if held is not _UNSET:
                del session[key]
                changed.append(key)
        elif held is _UNSET or held != value:
            session[key] = value
            changed.append(key)
    return changed


def defaults(cls: type[PageView], session: MutableKeys, last: Mapping[str, Any] | None = None) -> None:
    """Give each unset key the value `last` holds for its control (the page as this session last showed it: a
    widget's key is dropped while another page is open), else the control's default (a widget then needs no
    default of its own); None stays unset."""
    last = last or {}
    for f in fields(cls):
        value = last.get(f.name, f.default)
        if f.control.key not in session and value is not None:
            session[f.control.key] = value


def reassert(cls: type[PageView], session: MutableKeys, skip: Collection[str] = ()) -> None:
    """Set every key of the view to the value it holds, through the Session State API: a widget drawn under
    another id than on the last run (the same control on another page) then starts from it, not from its own
    default."""
    for f in fields(cls):
        if f.control.key in session and f.control.key not in skip:
            session[f.control.key] = session[f.control.key]


def current(cls: type[V]) -> V:
    """The view this session shows now."""
    return read(cls, st.session_state)


def apply_view(view: PageView, names: set[str] | None = None) -> list[str]:
    """Show `view` in this session (a class's, a slide's): its values into the widget keys."""
    return write(view, st.session_state, names)
