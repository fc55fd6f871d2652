"""A lesson's words on screen: Markdown emphasis and `code` work; raw HTML, links and images do not.

A lesson file may come from anyone. Streamlit already refuses to run HTML in st.markdown, but a link could point
anywhere and an image would be fetched from another server; both are shown as plain text instead."""

from __future__ import annotations

INERT = set("\\<>[]!&")  # HTML tags and entities, link and image syntax


def inert_markdown(text: str) -> str:
    """`text` with every character that could start HTML, a link or an image escaped for Markdown."""
    return "".join("\\" + ch if ch in INERT else ch for ch in text)
