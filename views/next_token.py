"""The Next-token page's view: the prompt (every view's `input`), the tokens written after it one at a time, the seed
and the sampling controls, and the head whose view is shown. A link holds all of it, so it reopens the same text.

The written tokens travel as vocabulary ids joined by dots ("12.5.33"): ids, not characters, so a link means the
same text whatever the reader's language; `written_ids` reads them back, and the page checks them against the
model's vocabulary (its size is not known here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from model.errors import N_

from .attention import HEAD, LAYER
from .base import PageView
from .common import Common
from .controls import Flag, Number, Text, Whole, control
from .errors import ViewError, shown

MAX_WRITTEN = 256  # tokens a session may append to its prompt (a link holding more is refused)
MAX_ID_DIGITS = 5  # a vocabulary id (character-level models hold a few thousand characters)
SEPARATOR = "."
MAX_SEED = 999_999_999  # a link writes whole numbers of at most 9 digits (views.codec)
MAX_TEMPERATURE = 5.0
MAX_TOP_K = 50_000  # the control's own bound; the model's vocabulary lowers it (a fitted control)
WRITTEN_CHARS = MAX_WRITTEN * (MAX_ID_DIGITS + 1)
_IDS = re.compile(rf"[0-9]{{1,{MAX_ID_DIGITS}}}(\.[0-9]{{1,{MAX_ID_DIGITS}}})*")
LAST_LAYER = Whole(LAYER.low, LAYER.high, none_ok=True, shown_from=1)  # None: the model's last layer


@dataclass(frozen=True)
class NextTokenView(PageView):
    PAGE = "next-token"

    common: Common = field(default_factory=Common)
    written: str = control(Text(WRITTEN_CHARS), "", name="nt_written", url="tokens")  # ids appended, "12.5.33"
    seed: int = control(Whole(0, MAX_SEED), 0, name="nt_seed")  # the n-th appended token is drawn with seed + n
    temperature: float = control(Number(0.0, MAX_TEMPERATURE), 1.0, name="nt_temperature", url="t")  # 0: greedy
    top_k: int | None = control(Whole(1, MAX_TOP_K, none_ok=True), None, name="nt_top_k", fitted=True)  # None: off
    top_p: float = control(Number(0.0, 1.0), 1.0, name="nt_top_p")  # 1: no cut (0 is refused by model.sampling)
    layer: int | None = control(LAST_LAYER, None, name="nt_layer", fitted=True)  # the head view's layer
    head: int = control(HEAD, 0, name="nt_head", fitted=True)
    kv: bool = control(Flag(), False, name="nt_kv")  # the KV cache's panel is open


class WrittenError(ViewError):
    """Written token ids a link holds that cannot be read."""

    NOT_IDS = N_("“{field}” must be vocabulary ids joined by dots, like 12.5.33; got “{value}”.")
    TOO_MANY = N_("“{field}” holds {n} tokens; the page writes at most {limit} after the prompt.")
    NOT_IN_VOCABULARY = N_("“{field}” holds the id {id}, and this model's vocabulary has ids 0 to {last}.")


def written_ids(text: str, vocab_size: int | None = None, where: str = "tokens") -> tuple[int, ...]:
    """The ids a view's `written` holds ("" → none); WrittenError for text that is not ids joined by dots, more than
    MAX_WRITTEN of them, or (given `vocab_size`) an id the vocabulary does not have."""
    if not text:
        return ()
    if not _IDS.fullmatch(text):
        raise WrittenError(WrittenError.NOT_IDS, field=where, value=shown(text))
    ids = tuple(int(part) for part in text.split(SEPARATOR))
    if len(ids) > MAX_WRITTEN:
        raise WrittenError(WrittenError.TOO_MANY, field=where, n=len(ids), limit=MAX_WRITTEN)
    if vocab_size is not None and (bad := next((i for i in ids if i >= vocab_size), None)) is not None:
        raise WrittenError(WrittenError.NOT_IN_VOCABULARY, field=where, id=bad, last=vocab_size - 1)
    return ids


def written_text(ids: tuple[int, ...] | list[int]) -> str:
    """The inverse of written_ids: (12, 5, 33) → "12.5.33"."""
    return SEPARATOR.join(str(int(i)) for i in ids)
