"""The Attention page's view: which kind, layer, head and query it shows, summaries, heads switched off. By default
it opens on the view that teaches most: cross-attention (the decoder reading the source), at its sharpest head."""

from __future__ import annotations

from dataclasses import dataclass, field

from model.errors import N_
from model.naming import TRANSFORMER_KINDS, AttentionKind

from .base import PageView
from .common import MAX_INPUT_CHARS, Common
from .controls import Choice, Flag, Text, Whole, control

MAX_LAYERS = MAX_HEADS = 16  # the Train page builds at most 6 + 6 layers and 16 heads
MAX_TOKENS = 256  # the longest input of any model: MiniLM's 256 word pieces (the toy models read 64 or 128)
SECOND_SENTENCE = "Kids played soccer at the park once classes were over."  # MiniLM's similarity: the default pair
MAX_OFF_CHARS = 10_000  # held as typed; model.knockout refuses a code over its own limit with its own message


def parse_kind(text: str) -> str | None:
    """The id of the kind `text` names in any spelling the app has written ("encoder self" in older lesson files
    and rooms: model.naming's AttentionKind.parse), or None."""
    try:
        return AttentionKind.parse(text).value
    except ValueError:
        return None


KIND_LABELS = {
    AttentionKind.ENCODER: N_("Encoder self-attention"),
    AttentionKind.DECODER: N_("Decoder masked self-attention"),
    AttentionKind.CROSS: N_("Cross-attention"),
}
ATLAS_LABELS = {"corpus": N_("50 fixed inputs"), "input": N_("this input")}  # what the head atlas averages over
MAX_ATLAS_ROWS = 3 * MAX_LAYERS  # the atlas's rows: every block of every kind
SUMMARY_LABELS = {
    "entropy": N_("Entropy per head"),
    "peak": N_("Largest weight per head"),
    "mean": N_("Mean over heads"),
    "rollout": N_("Attention rollout (encoder)"),
}
KIND = Choice(tuple(k.value for k in TRANSFORMER_KINDS), KIND_LABELS, aliases=parse_kind)  # older files: "encoder self"
LAYER = Whole(0, MAX_LAYERS - 1, shown_from=1)
HEAD = Whole(0, MAX_HEADS - 1, shown_from=1)
SHARPEST_LAYER = Whole(LAYER.low, LAYER.high, none_ok=True, shown_from=1)  # None: the page computes it
SHARPEST_HEAD = Whole(HEAD.low, HEAD.high, none_ok=True, shown_from=1)


@dataclass(frozen=True)
class AttentionView(PageView):
    PAGE = "attention"

    common: Common = field(default_factory=Common)
    target: str = control(Text(MAX_INPUT_CHARS), "")
    # Opens on cross-attention's sharpest head (None: the lowest mean row entropy, model.analysis.attention.
    # sharpest_head, computed by the page for the kind shown; a link or a class naming a layer or head wins)
    kind: str = control(KIND, AttentionKind.CROSS.value)
    layer: int | None = control(SHARPEST_LAYER, None, fitted=True)
    head: int | None = control(SHARPEST_HEAD, None, fitted=True)  # the sharpest head of the layer shown
    token: int | None = control(
        Whole(0, MAX_TOKENS - 1, none_ok=True), None, fitted=True
    )  # the one query the head view keeps
    summaries: bool = control(Flag(), False)
    more: str = control(Choice(tuple(SUMMARY_LABELS), SUMMARY_LABELS), "entropy")  # the summary shown
    heads_off: str = control(Text(MAX_OFF_CHARS), "", name="heads_off_code", url="off")  # model.knockout's code
    second: str = control(Text(MAX_INPUT_CHARS), SECOND_SENTENCE, key="second_sentence")  # MiniLM: compared to input
    atlas: bool = control(Flag(), False)  # the head atlas is open (a lesson slide: the atlas instead of one head)
    atlas_over: str = control(Choice(tuple(ATLAS_LABELS), ATLAS_LABELS), "corpus")  # what the atlas averages over
    atlas_row: int = control(
        Whole(0, MAX_ATLAS_ROWS - 1, shown_from=1), 0, fitted=True
    )  # its picker: block (kind · layer)
    atlas_head: int = control(HEAD, 0, fitted=True)  # and head; picking opens that head above
