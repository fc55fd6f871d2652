"""The checkpoints shipped in the repository, made by `python -m model.train` (commands in README)."""

from __future__ import annotations

from pathlib import Path

from ..runner import LoadedModel
from .checkpoint import load_checkpoint

CHECKPOINT_DIR = Path(__file__).parent.parent / "checkpoints"  # model/checkpoints/, beside this package
PRETRAINED: tuple[str, ...] = (
    "reverse",
    "sort",
    "translate",
    "copy",
    "translate-zh",
    "reverse-rnn",
    "translate-rnn",
    "translate-rnn-noattn",
    "reverse-rnn-noattn",
)
# The family of each shipped model (config.json says so too), so a picker can filter without loading.
PRETRAINED_ARCH: dict[str, str] = {name: "rnn" if "-rnn" in name else "transformer" for name in PRETRAINED}


def load_pretrained(name: str) -> LoadedModel:
    """A shipped checkpoint by name (one of PRETRAINED)."""
    if name not in PRETRAINED:
        raise ValueError(f"no shipped model named {name!r}; choose one of: {', '.join(PRETRAINED)}.")
    return load_checkpoint(CHECKPOINT_DIR / name, name=name)
