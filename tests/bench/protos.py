"""The element protos bench/load's client gives, typed: StreamlitSession.elements(kind) returns them as objects;
protos() checks each is the proto class of that kind, so a test can read its fields."""

from __future__ import annotations

from typing import TypeVar

from devtools.load.protocol import StreamlitSession

P = TypeVar("P")  # a protobuf message class (streamlit.proto)


def protos(session: StreamlitSession, kind: str, cls: type[P]) -> list[P]:
    """session.elements(kind) (the page's elements of this kind, top to bottom), each checked to be a `cls`."""
    found = []
    for element in session.elements(kind):
        assert isinstance(element, cls), f"a {kind} element is a {cls.__name__}, not a {type(element).__name__}"
        found.append(element)
    return found
