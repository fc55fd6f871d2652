"""Models every session of this server that can name them shares read-only, besides the shipped ones: those a
teacher shared with a class room. Only such models' traces may be cached process-wide (ui/trace_cache.py); a
model trained or uploaded in one session is never marked, so its traces stay in that session.
"""

from __future__ import annotations

import weakref

from model import LoadedModel
from model.gpt import LoadedGPT

_SHARED: weakref.WeakSet = weakref.WeakSet()  # the nn.Module objects (hashed by identity)


def mark_shared(loaded: LoadedModel | LoadedGPT) -> LoadedModel | LoadedGPT:
    """Record that `loaded` is shared by every session that can name it (returns it, for chaining)."""
    _SHARED.add(loaded.model)
    return loaded


def is_marked_shared(loaded: LoadedModel) -> bool:
    return loaded.model in _SHARED
