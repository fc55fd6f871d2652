"""The join link students open (the app's address + ?room=CODE, never the key) and its QR code (segno)."""

from __future__ import annotations

import io
from urllib.parse import urlencode, urlsplit, urlunsplit

import segno

from ..class_role import ROOM_PARAM


def join_link(app_url: str | None, page_path: str, code: str) -> str:
    """The link to join room `code`: the app's root as the browser reached it (st.context.url, which has no query)
    with the current page's path taken off, plus ?room=CODE. Never built from the teacher's own URL, which
    carries the key. Without a browser URL (tests), a link relative to the site's root."""
    parts = urlsplit(app_url or "")
    path = parts.path.rstrip("/")
    if page_path and path.endswith("/" + page_path):
        path = path[: -len(page_path) - 1]
    query = urlencode({ROOM_PARAM: code})
    if not parts.netloc:
        return f"/?{query}"
    return urlunsplit((parts.scheme or "http", parts.netloc, path + "/", query, ""))


def qr_png(text: str, scale: int = 10) -> bytes:
    """A QR code of `text` as PNG bytes (medium error correction, a quiet zone of 2 modules)."""
    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buffer, kind="png", scale=scale, border=2)
    return buffer.getvalue()
