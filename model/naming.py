"""One name for every intermediate: the attention kinds, and every dotted name a trace holds, with its shape.

This is the only module that spells trace names. The forward passes write through the builders below and
everything that reads a trace (analysis, exports, figures, pages, lessons, rooms) asks through them, so no name
is ever spelled two ways. The table is the contract between the model and everything else (shared/DESIGN.md's
trace table, completed with every name the code writes; tests/model/test_naming.py runs real forward passes
of every family against it).

Axes: B batch (1 in the app), S source length, T decoder-input length (<bos> + the output), H heads,
dk = d_model / H, d a width (the Transformer's d_model; the RNN's d_embed for an embedding, its state width
d_enc = d_dec otherwise), d_ff the feed-forward width, V the output vocabulary. In the table L is S on the
source side (`src`, `encoder`) and T on the target side (`tgt`, `decoder`); Lq and Lk are an attention's query
and key lengths: S and S (encoder), T and T (decoder), T and S (cross). {side} is src | tgt, {stack}
encoder | decoder, {i} a layer from 0, {attn} self_attn | cross_attn (cross_attn in the decoder only), {gate}
a gate of the RNN's cell: reset, update (GRU) or input, forget, output (LSTM; the plain RNN has none).
The family column says which model families write a name (FAMILIES): transformer (our encoder–decoder), rnn,
bert (the encoder-only MiniLM: the `src` side and the encoder's names only, d = d_model, positions learned), and gpt
(the decoder-only GPT: the `tgt` side, the decoder's causal self_attn and ffn (pre-LN), decoder.final_norm and the
logits of the LM head tied to the embedding, d = d_model, positions learned, V its vocabulary; GPT_KINDS).

| name | shape | family | meaning |
|---|---|---|---|
| `{side}.embed` | B, L, d | transformer/rnn/bert/gpt | token embedding (× √d_model when a ModelConfig scales it) |
| `{side}.pos` | L, d | transformer/bert/gpt | positions added (zeros when off; bert/gpt: learned rows); no batch axis |
| `{side}.type` | B, L, d | bert | token-type (segment) embedding added: the type-0 row for one sentence |
| `{side}.sum` | B, L, d | bert | embed + pos + type, before the embedding LayerNorm |
| `{side}.input` | B, L, d | transformer/bert/gpt | the stack's input: embedding + position (bert: LayerNorm of sum) |
| `{stack}.{i}.{attn}.q` | B, H, Lq, dk | transformer/bert/gpt | per-head queries |
| `{stack}.{i}.{attn}.k` | B, H, Lk, dk | transformer/bert/gpt | per-head keys |
| `{stack}.{i}.{attn}.v` | B, H, Lk, dk | transformer/bert/gpt | per-head values |
| `{stack}.{i}.{attn}.scores` | B, H, Lq, Lk | transformer/bert/gpt | Q Kᵀ, raw |
| `{stack}.{i}.{attn}.scaled` | B, H, Lq, Lk | transformer/bert/gpt | ÷ √dk (and ÷ temperature when set) |
| `{stack}.{i}.{attn}.masked` | B, H, Lq, Lk | transformer/bert/gpt | scaled, −inf where masked (padding, causal) |
| `{stack}.{i}.{attn}.weights` | B, H, Lq, Lk | transformer/bert/gpt | softmax of masked; rows sum to 1 |
| `{stack}.{i}.{attn}.head_out` | B, H, Lq, dk | transformer/bert/gpt | weights @ V (zeros for a head switched off) |
| `{stack}.{i}.{attn}.concat` | B, Lq, d | transformer/bert/gpt | the heads' outputs side by side |
| `{stack}.{i}.{attn}.out` | B, Lq, d | transformer/bert/gpt | concat @ Wᴼ |
| `{stack}.{i}.{attn}.resid` | B, Lq, d | transformer/bert/gpt | residual sum |
| `{stack}.{i}.{attn}.norm` | B, Lq, d | transformer/bert/gpt | LayerNorm of resid (post-LN), of the input (pre-LN) |
| `{stack}.{i}.ffn.hidden` | B, L, d_ff | transformer/bert/gpt | ReLU(x W₁ + b₁) (bert: erf GELU; gpt: tanh GELU) |
| `{stack}.{i}.ffn.out` | B, L, d | transformer/bert/gpt | hidden W₂ + b₂ |
| `{stack}.{i}.ffn.resid` | B, L, d | transformer/bert/gpt | residual sum |
| `{stack}.{i}.ffn.norm` | B, L, d | transformer/bert/gpt | LayerNorm of resid (post-LN), of the input (pre-LN) |
| `{stack}.final_norm` | B, L, d | transformer/gpt | the LayerNorm that ends a pre-LN stack (pre-LN only; gpt: ln_f) |
| `rnn.enc.h` | B, S, d | rnn | encoder states h_i (both directions side by side when bidirectional) |
| `rnn.enc.final` | B, d | rnn | h_fin: forward state at the last real token ⧺ backward state at the first |
| `rnn.enc.c` | B, S, d | rnn | the encoder's LSTM cell states (LSTM only) |
| `rnn.enc.gates.{gate}` | B, S, d | rnn | the encoder cell's gates |
| `rnn.dec.s_prev` | B, T, d | rnn | s_{t−1}, the decoder state the scores read |
| `rnn.attn.scores` | B, T, S | rnn | e_t,i = score(s_{t−1}, h_i) |
| `rnn.attn.masked` | B, T, S | rnn | scores ÷ temperature, −inf at padding |
| `rnn.attn.weights` | B, T, S | rnn | a_t = softmax(masked); rows sum to 1 |
| `rnn.attn.context` | B, T, d | rnn | c_t = weights @ rnn.enc.h (zeros when the attention is switched off) |
| `rnn.dec.s` | B, T, d | rnn | s_t, the decoder state after step t |
| `rnn.dec.c` | B, T, d | rnn | the decoder's LSTM cell states (LSTM only) |
| `rnn.dec.gates.{gate}` | B, T, d | rnn | the decoder cell's gates |
| `logits` | B, T, V | transformer/rnn/gpt | scores of the next token after each decoder position (gpt: tied head) |

An RNN with score `none` writes no `rnn.attn.*`; the bert family writes no `tgt.*`, `decoder.*` or `logits`; the gpt
family no `src.*`, `encoder.*` or `cross_attn`. With a KVCache a GPT step's trace holds the new positions' rows only:
k and v cover all T positions so far, scores … weights are (B, H, T_new, T), every other name has T_new positions.
An attention block is named by its prefix (`attention_name(kind, layer)`: "decoder.1.cross_attn", "rnn.attn");
Ablation.heads_off and the pages use it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property


class Side(StrEnum):
    """Which sequence: the source, or the decoder's input (<bos> + the output)."""

    SRC = "src"
    TGT = "tgt"

    @property
    def axis(self) -> str:
        """The axis symbol of its length: S or T."""
        return "S" if self is Side.SRC else "T"


SELF_ATTN, CROSS_ATTN, FFN = "self_attn", "cross_attn", "ffn"  # the sublayers of a Transformer layer
FAMILIES = ("transformer", "rnn", "bert", "gpt")  # the model families a trace may come from (config.arch)


class Stack(StrEnum):
    """A Transformer's encoder or decoder stack."""

    ENCODER = "encoder"
    DECODER = "decoder"

    @property
    def side(self) -> Side:
        """The sequence the stack runs over."""
        return Side.SRC if self is Stack.ENCODER else Side.TGT

    @property
    def sublayers(self) -> tuple[str, ...]:
        """Its layers' sublayers in forward order."""
        return (SELF_ATTN, FFN) if self is Stack.ENCODER else (SELF_ATTN, CROSS_ATTN, FFN)


_LEGACY_KINDS = {"encoder self": "encoder", "decoder self": "decoder"}  # the walkthrough's kinds before naming.py


class AttentionKind(StrEnum):
    """The four kinds of attention. The values are stored in rooms, lesson files and links: never change them."""

    ENCODER = "encoder"  # encoder self-attention
    DECODER = "decoder"  # decoder masked self-attention
    CROSS = "cross"  # cross-attention: decoder queries over the encoder's output
    RNN = "rnn"  # the RNN decoder's attention over the encoder states

    @classmethod
    def parse(cls, text: object) -> AttentionKind:
        """The kind a stored value names: a value above, or a spelling older files, rooms and links hold ("encoder
        self", "decoder self"). ValueError for anything else."""
        if isinstance(text, str):
            value = _LEGACY_KINDS.get(text, text)
            if value in cls._value2member_map_:
                return cls(value)
        raise ValueError(f"attention kind must be one of {', '.join(cls)}; got {text!r}.")

    @classmethod
    def from_code(cls, letter: str) -> AttentionKind:
        """The kind of a knockout link code's letter (e, d, c, r)."""
        for kind in cls:
            if kind.code == letter:
                return kind
        raise ValueError(f"no attention kind has the letter {letter!r}.")

    @property
    def stack(self) -> Stack | None:
        """The stack its blocks are in (None for the RNN, which has no stacks)."""
        return None if self is AttentionKind.RNN else Stack.ENCODER if self is AttentionKind.ENCODER else Stack.DECODER

    @property
    def module(self) -> str:
        """The last word of its blocks' names: self_attn, cross_attn, or attn (the RNN)."""
        return {"encoder": SELF_ATTN, "decoder": SELF_ATTN, "cross": CROSS_ATTN, "rnn": "attn"}[self.value]

    @property
    def query_side(self) -> Side:
        """The sequence along a weight matrix's rows."""
        return Side.SRC if self is AttentionKind.ENCODER else Side.TGT

    @property
    def key_side(self) -> Side:
        """The sequence along a weight matrix's columns."""
        return Side.TGT if self is AttentionKind.DECODER else Side.SRC

    @property
    def code(self) -> str:
        """Its letter in the knockout link code (?off=e1.3,c2.1): e, d, c or r."""
        return {"encoder": "e", "decoder": "d", "cross": "c", "rnn": "r"}[self.value]


TRANSFORMER_KINDS: tuple[AttentionKind, ...] = (AttentionKind.ENCODER, AttentionKind.DECODER, AttentionKind.CROSS)
GPT_KINDS: tuple[AttentionKind, ...] = (AttentionKind.DECODER,)  # decoder-only: causal self-attention, nothing else
BERT_KINDS: tuple[AttentionKind, ...] = (AttentionKind.ENCODER,)  # encoder-only: self-attention over the source
FAMILY_KINDS: dict[str, tuple[AttentionKind, ...]] = {
    "transformer": TRANSFORMER_KINDS, "rnn": (AttentionKind.RNN,), "bert": BERT_KINDS, "gpt": GPT_KINDS,
}  # fmt: skip  # the kinds of attention each family (config.arch) has

# ---- the parts a block writes ----------------------------------------------------------------------------------

SIDE_PARTS = ("embed", "pos", "type", "sum", "input")  # type and sum: the bert family's embeddings
ATTENTION_PARTS = ("q", "k", "v", "scores", "scaled", "masked", "weights", "head_out", "concat", "out")
FFN_PARTS = ("hidden", "out")
SUBLAYER_PARTS = ("resid", "norm")  # written around every sublayer (attention and feed-forward)
RNN_ATTENTION_PARTS = ("scores", "masked", "weights", "context")
RNN_GATES = ("reset", "update", "input", "forget", "output")
PARTS = frozenset(  # every word that may follow a block's name
    (*SIDE_PARTS, *ATTENTION_PARTS, *FFN_PARTS, *SUBLAYER_PARTS, *RNN_ATTENTION_PARTS, *RNN_GATES,
     SELF_ATTN, CROSS_ATTN, FFN)
)  # fmt: skip

# ---- names -----------------------------------------------------------------------------------------------------

LOGITS = "logits"
FINAL_NORM = "final_norm"
RNN_ATTN = "rnn.attn"  # the RNN's one attention block (one head), also its Ablation.heads_off name
RNN_ENC_H, RNN_ENC_FINAL, RNN_ENC_C, RNN_ENC_GATES = "rnn.enc.h", "rnn.enc.final", "rnn.enc.c", "rnn.enc.gates"
RNN_DEC_S_PREV, RNN_DEC_S, RNN_DEC_C, RNN_DEC_GATES = "rnn.dec.s_prev", "rnn.dec.s", "rnn.dec.c", "rnn.dec.gates"


def part_name(block: str, part: str) -> str:
    """One part of a block: ("decoder.1.cross_attn", "weights") → "decoder.1.cross_attn.weights"."""
    if part not in PARTS:
        raise ValueError(f"{part!r} is not a part of any trace name.")
    return f"{block}.{part}"


def named(block: str, **tensors):
    """{part_name(block, part): tensor} for each part=tensor given: what a block writes into a trace."""
    return {part_name(block, part): tensor for part, tensor in tensors.items()}


def embed_name(side: Side | str) -> str:
    return part_name(Side(side), "embed")


def pos_name(side: Side | str) -> str:
    return part_name(Side(side), "pos")


def type_name(side: Side | str) -> str:
    """The token-type (segment) embedding a BERT-family encoder adds: "src.type"."""
    return part_name(Side(side), "type")


def sum_name(side: Side | str) -> str:
    """A BERT-family encoder's embedding sum before its LayerNorm: "src.sum"."""
    return part_name(Side(side), "sum")


def input_name(side: Side | str) -> str:
    return part_name(Side(side), "input")


def layer_name(stack: Stack | str, layer: int) -> str:
    """One layer of a stack: ("encoder", 0) → "encoder.0"."""
    return f"{Stack(stack)}.{int(layer)}"


def sublayer_name(stack: Stack | str, layer: int, sublayer: str, part: str | None = None) -> str:
    """("decoder", 1, "cross_attn") → "decoder.1.cross_attn"; with a part, "decoder.1.cross_attn.<part>"."""
    if sublayer not in Stack(stack).sublayers:
        raise ValueError(f"the {stack} has no {sublayer!r} sublayer.")
    name = part_name(layer_name(stack, layer), sublayer)
    return name if part is None else part_name(name, part)


def attention_name(kind: AttentionKind | str, layer: int = 0, part: str | None = None) -> str:
    """An attention block: (CROSS, 1) → "decoder.1.cross_attn", (RNN,) → "rnn.attn"; with a part,
    (CROSS, 1, "weights") → "decoder.1.cross_attn.weights"."""
    kind = AttentionKind(kind)
    stack = kind.stack
    if stack is None:  # the RNN
        if layer != 0:
            raise ValueError(f"the RNN has one attention block (layer 0), not layer {layer}.")
        return RNN_ATTN if part is None else part_name(RNN_ATTN, part)
    return sublayer_name(stack, layer, kind.module, part)


def ffn_name(stack: Stack | str, layer: int, part: str | None = None) -> str:
    """("encoder", 0, "hidden") → "encoder.0.ffn.hidden"."""
    return sublayer_name(stack, layer, FFN, part)


def final_norm_name(stack: Stack | str) -> str:
    """The LayerNorm that ends a pre-LN stack: "encoder.final_norm"."""
    return f"{Stack(stack)}.{FINAL_NORM}"


POSITION_NAMES = frozenset(pos_name(side) for side in Side)  # the names without a batch axis


# ---- reading names ---------------------------------------------------------------------------------------------


def split_part(name: str) -> tuple[str, str]:
    """(block, part): "decoder.1.cross_attn.weights" → ("decoder.1.cross_attn", "weights")."""
    block, _, part = name.rpartition(".")
    return block, part


def parse_sublayer_name(name: str) -> tuple[Stack, int, str] | None:
    """ "decoder.1.cross_attn" → (Stack.DECODER, 1, "cross_attn"); None for any other kind of name."""
    match = re.fullmatch(r"(encoder|decoder)\.(\d+)\.(\w+)", name)
    if match is None or match.group(3) not in Stack(match.group(1)).sublayers:
        return None
    return Stack(match.group(1)), int(match.group(2)), match.group(3)


def parse_attention_name(name: str) -> tuple[AttentionKind, int] | None:
    """An attention block's (kind, layer): "decoder.1.cross_attn" → (CROSS, 1), "rnn.attn" → (RNN, 0); None for a
    name that is not an attention block."""
    if name == RNN_ATTN:
        return AttentionKind.RNN, 0
    parsed = parse_sublayer_name(name)
    if parsed is None or parsed[2] == FFN:
        return None
    stack, layer, module = parsed
    if module == CROSS_ATTN:
        return AttentionKind.CROSS, layer
    return (AttentionKind.ENCODER if stack is Stack.ENCODER else AttentionKind.DECODER), layer


# ---- the table -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One row of the table: a name pattern, its axes (L, Lq, Lk as in the module docstring), family, meaning."""

    pattern: str
    axes: tuple[str, ...]
    family: str  # the families that write it, joined by "/": "transformer/bert"
    meaning: str

    @property
    def families(self) -> tuple[str, ...]:
        """The model families that write this name, a subset of FAMILIES."""
        return tuple(self.family.split("/"))

    @cached_property
    def regex(self) -> re.Pattern:
        text = re.escape(self.pattern)
        for slot, group in _SLOTS.items():
            text = text.replace(re.escape("{" + slot + "}"), group)
        return re.compile(text)


_SLOTS = {
    "side": "(?P<side>src|tgt)", "stack": "(?P<stack>encoder|decoder)", "i": r"(?P<i>\d+)",
    "attn": "(?P<attn>self_attn|cross_attn)", "gate": f"(?P<gate>{'|'.join(RNN_GATES)})",
}  # fmt: skip


def _table(doc: str) -> tuple[Entry, ...]:
    """The rows of the docstring's table (python -OO drops docstrings, as model/train.py's --help would notice;
    then the table is empty and axes_of knows no name)."""
    rows = []
    for line in doc.partition("|---|---|---|---|\n")[2].splitlines():
        if not line.startswith("| `"):
            break
        name, shape, family, meaning = (cell.strip() for cell in line.strip("|").split(" | "))
        rows.append(Entry(name.strip("`"), tuple(shape.split(", ")), family, meaning))
    return tuple(rows)


CONTRACT: tuple[Entry, ...] = _table(__doc__ or "")  # the docstring's table, row by row


def lookup(name: str) -> tuple[Entry, dict[str, str]] | None:
    """The table's row for a trace name and the slots it filled ({"stack": "decoder", "i": "1", ...}), or None."""
    for entry in CONTRACT:
        match = entry.regex.fullmatch(name)
        if match is not None:
            slots = match.groupdict()
            if slots.get("attn") == CROSS_ATTN and slots.get("stack") != Stack.DECODER:
                return None  # only the decoder has cross-attention
            return entry, slots
    return None


def axes_of(name: str) -> tuple[str, ...] | None:
    """The axis symbols of a trace name's tensor: "decoder.0.cross_attn.weights" → ("B", "H", "T", "S"); None for a
    name the table does not know."""
    found = lookup(name)
    if found is None:
        return None
    entry, slots = found
    own = Side(slots["side"]).axis if "side" in slots else Stack(slots["stack"]).side.axis if "stack" in slots else ""
    key = Side.SRC.axis if slots.get("attn") == CROSS_ATTN else own
    return tuple({"L": own, "Lq": own, "Lk": key}.get(axis, axis) for axis in entry.axes)
