"""The checkpoints shipped in the repository, made by `python -m model.train` (commands in README)."""

from __future__ import annotations

from pathlib import Path

from .checkpoint import load_checkpoint
from .runner import LoadedModel

CHECKPOINT_DIR = Path(__file__).parent / "checkpoints"
PRETRAINED: tuple[str, ...] = ("reverse", "sort", "translate", "copy", "translate-zh")


def load_pretrained(name: str) -> LoadedModel:
    """A shipped checkpoint by name (one of PRETRAINED)."""
    if name not in PRETRAINED:
        raise ValueError(f"no shipped model named {name!r}; choose one of: {', '.join(PRETRAINED)}.")
    return load_checkpoint(CHECKPOINT_DIR / name, name=name)
