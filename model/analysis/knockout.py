"""Heads switched off (Ablation.heads_off): which heads a model has, their language-neutral link code, and
the attention weights of a run with heads off, the switched-off heads left out.

Link code (`?off=` on the Attention page): comma-separated heads, each a letter for the attention kind
(AttentionKind.code) and then layer.head, 1-based as on screen. e = encoder self-attention, d = decoder masked
self-attention, c = cross-attention, r = the RNN's attention (one block, one head: r1.1). `e1.3` is the Ablation pair
("encoder.0.self_attn", 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import N_, InputError
from ..naming import FAMILY_KINDS, TRANSFORMER_KINDS, AttentionKind, Stack, attention_name

MAX_CODE_CHARS = 2000  # a link's off= longer than this is refused unread
MAX_WORD_CHARS = 40  # the longest list of heads a file name spells out
_LETTERS = "".join(kind.code for kind in AttentionKind)  # "edcr"
_ITEM = re.compile(f"([{_LETTERS}])" + r"(\d{1,6})\.(\d{1,6})")  # e1.3: the kind's letter, layer, head

HeadsOff = frozenset[tuple[str, int]]


@dataclass(frozen=True)
class Block:
    """One attention block whose heads can be switched off."""

    name: str  # trace prefix and Ablation name: "decoder.1.cross_attn", "rnn.attn"
    kind: AttentionKind
    layer: int  # 0-based
    n_heads: int

    def code(self, head: int) -> str:
        """'c2.4' for head 3 (0-based) of cross-attention layer 1 (0-based)."""
        return f"{self.kind.code}{self.layer + 1}.{head + 1}"


def attention_blocks(config) -> list[Block]:
    """Every attention block of a model (any family) in display order; [] for an RNN without attention."""
    if config.arch == "rnn":
        return [Block(attention_name(AttentionKind.RNN), AttentionKind.RNN, 0, 1)] if config.attention else []
    return [
        Block(attention_name(kind, layer), kind, layer, config.n_heads)
        for kind in FAMILY_KINDS.get(config.arch, TRANSFORMER_KINDS)  # a GPT: decoder self-attention only
        for layer in range(config.n_encoder_layers if kind.stack is Stack.ENCODER else config.n_decoder_layers)
    ]


def parse_heads_off(text: str | None, config) -> HeadsOff:
    """A link's `off=` value → Ablation.heads_off for this model; InputError (message for the reader) when it is
    malformed or names a head the model does not have. Empty or None: no head off."""
    text = (text or "").strip()
    if not text:
        return frozenset()
    if len(text) > MAX_CODE_CHARS:
        raise InputError(
            N_("The link's `off=` is {n} characters long, more than the {limit} it may have."),
            n=len(text), limit=MAX_CODE_CHARS,
        )  # fmt: skip
    blocks = {(b.kind, b.layer): b for b in attention_blocks(config)}
    if not blocks:
        raise InputError(N_("This model has no attention, so it has no head to switch off."))
    heads = set()
    for item in text.split(","):
        if not item.strip():
            raise InputError(N_("The link's `off=` has an empty entry between commas: write heads as in e1.3,c2.1."))
        match = _ITEM.fullmatch(item.strip().lower())
        if match is None:
            raise InputError(
                N_(
                    "“{item}” in the link's `off=` is not a head: write a letter (e encoder, d decoder, "
                    "c cross-attention, r RNN), the layer and the head, as in e1.3."
                ),
                item=item.strip()[:40],
            )
        letter, layer, head = match.group(1), int(match.group(2)) - 1, int(match.group(3)) - 1
        kind = AttentionKind.from_code(letter)
        block = blocks.get((kind, layer))
        if block is None or not 0 <= head < block.n_heads:
            first, last = next(iter(blocks.values())), list(blocks.values())[-1]
            raise InputError(
                N_("“{item}” in the link's `off=` names no head of this model: its heads run from {first} to {last}."),
                item=item.strip(), first=first.code(0), last=last.code(last.n_heads - 1),
            )  # fmt: skip
        heads.add((block.name, head))
    return frozenset(heads)


def format_heads_off(heads_off: HeadsOff, config) -> str:
    """Ablation.heads_off → the link code, in display order ("e1.3,c2.1"); pairs the model lacks are dropped."""
    return ",".join(
        block.code(head) for block in attention_blocks(config) for head in range(block.n_heads)
        if (block.name, head) in heads_off
    )  # fmt: skip


def every_head(config) -> HeadsOff:
    """Every head of the model: switching these off leaves no attention at all."""
    return frozenset((block.name, head) for block in attention_blocks(config) for head in range(block.n_heads))


def file_word(heads_off: HeadsOff, config) -> str:
    """The heads off as one word of a download's file name: "off-e1.3-c2.1"; "off-all" when every head is off;
    "off-7-heads" when the list would push the layer and head out of the name (model.io.export.MAX_STEM)."""
    if not heads_off:
        return ""
    if heads_off >= every_head(config):
        return "off-all"
    code = format_heads_off(heads_off, config)
    return f"off-{code}" if len(code) <= MAX_WORD_CHARS else f"off-{len(heads_off)}-heads"


def heads_off_of_kind(heads_off: HeadsOff, kind: AttentionKind | str, n_layers: int) -> set[tuple[int, int]]:
    """The (layer, head) pairs of one kind that are off, both 0-based."""
    names = {attention_name(kind, layer): layer for layer in range(n_layers)}
    return {(names[name], head) for name, head in heads_off if name in names}


def blank_heads_off(weights, kind: AttentionKind | str, heads_off: HeadsOff) -> np.ndarray:
    """Weights (L, H, Lq, Lk) of one kind with each switched-off head's matrix set to NaN: such a head's
    weights are computed but its output is zeroed, so it attends to nothing that counts."""
    w = np.array(weights, dtype=np.float32)  # a copy
    for layer, head in heads_off_of_kind(heads_off, kind, w.shape[0]):
        w[layer, head] = np.nan
    return w


def weight_change(weights_off, weights_on) -> np.ndarray:
    """With heads off − every head on, cell by cell (both (…, Lq, Lk) over the same tokens): float32."""
    off, on = np.asarray(weights_off, dtype=np.float64), np.asarray(weights_on, dtype=np.float64)
    if off.shape != on.shape:
        raise ValueError(f"the two runs must read the same tokens, got shapes {off.shape} and {on.shape}.")
    return (off - on).astype(np.float32)
