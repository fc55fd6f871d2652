"""A page's view in this session: settled from the link, the class and the session's widgets, and kept in the URL.

The page's widgets keep each control of its view (views/) under the control's session key. `settle(page)` runs in
app.py before any widget: a link's parameters that changed since this session last wrote the URL are read into
those keys (each value the view cannot take is left out and explained on the page), and a missing key gets the
view's default. `current(cls)` reads the view back; `sync_url()` writes it into the URL (ids and numbers, never a
translated label), after the page's own widgets and at the end of a fragment that moved one.
"""

from .links import LINK_NOTES_KEY, ON_SYNC, fit, link_notes, settle, sync_url
from .session import apply_view, choose, computed_default, current, implicit

__all__ = [
    "LINK_NOTES_KEY", "ON_SYNC", "apply_view", "choose", "computed_default", "current", "fit", "implicit", "link_notes",
    "settle", "sync_url",
]  # fmt: skip
