"""AppTest's elements of one kind, typed: at.get(kind) gives its tree's nodes (`Element | Block`); a kind of element
(a download button, a chart) is never a block, which elements() checks once so a test can read the element's fields."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block, Element


def elements(node: AppTest | Block, kind: str) -> list[Element]:
    """Every element of this kind under node (the page, or a block of it), in page order: at.get(kind), checked."""
    found = []
    for element in node.get(kind):
        assert isinstance(element, Element), f"a {kind} is an element, not a block: {element!r}"
        found.append(element)
    return found
