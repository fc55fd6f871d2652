"""The lesson format "attention-lab-lesson/1": its limits, the pages a slide can show, and each page's settings.

A slide's `state` uses the class room's language-neutral names (ui/classroom/registry.py: room fields such as
`model`, `input`, `step`, and the session keys it carries as extras, such as `wt_kind`), holding the values the
page keeps in its session: option ids (never a translated label), numbers as the page counts them (`step` and
`query` from 1; `layer`, `head`, `wt_layer`, `wt_head` from 0), flags. docs/lessons.md describes the format.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from model.io.pretrained import PRETRAINED_ARCH
from model.naming import TRANSFORMER_KINDS, AttentionKind, Stack

FORMAT = "attention-lab-lesson/1"
LANGUAGES = ("en", "zh")
LESSON_FIELDS = ("format", "title", "slides")
SLIDE_FIELDS = ("page", "state", "title", "text")


@dataclass(frozen=True)
class Limits:
    """How large a lesson may be. Depth counts nested objects and lists: lesson → slides → slide → state = 4."""

    max_bytes: int = 256 * 1024
    max_depth: int = 4
    max_slides: int = 40
    max_title_chars: int = 120
    max_text_chars: int = 1200
    max_input_chars: int = 300
    max_number_digits: int = 15


LIMITS = Limits()


@dataclass(frozen=True)
class Choice:
    """One of a few ids; `read`, when given, turns a value into the id it names first (an older spelling)."""

    options: tuple[str, ...]
    read: Callable[[str], str] | None = None


def attention_kind(value: str) -> str:
    """The AttentionKind a value names, as its id: files written before model/naming.py say "encoder self" for the
    walkthrough's "encoder" (ValueError for anything else)."""
    return AttentionKind.parse(value).value


@dataclass(frozen=True)
class Whole:
    """An int (never a bool) in [low, high], a multiple of `step`; `none_ok`: null is allowed too."""

    low: int
    high: int
    step: int = 1
    none_ok: bool = False


@dataclass(frozen=True)
class Number:
    """A finite number in [low, high] (an int is read as a float)."""

    low: float
    high: float


@dataclass(frozen=True)
class Flag:
    """true or false."""


@dataclass(frozen=True)
class Words:
    """Text of at most `limit` characters (may be empty)."""

    limit: int


Spec = Choice | Whole | Number | Flag | Words
TRANSFORMERS = tuple(name for name, arch in PRETRAINED_ARCH.items() if arch == "transformer")
MODEL = Choice(TRANSFORMERS)  # a file names a shipped model: a session's own models do not travel
INPUT = Words(LIMITS.max_input_chars)
LAYER, HEAD = Whole(0, 15), Whole(0, 15)
RNN_TASKS = tuple(name.removesuffix("-rnn") for name in PRETRAINED_ARCH if name.endswith("-rnn"))  # with a shipped RNN
KIND = Choice(tuple(kind.value for kind in TRANSFORMER_KINDS), read=attention_kind)  # an attention block's kind

PAGE_STATE: dict[str, dict[str, Spec]] = {
    "step-by-step": {
        "model": MODEL, "input": INPUT,
        "source": Choice(("example", "model")),
        "step": Whole(1, 8), "query": Whole(1, 64),
        "mask": Choice(("none", "causal", "padding")),  # the worked example's mask ("custom" needs a grid)
        "wt_kind": KIND, "wt_layer": LAYER, "wt_head": HEAD,
        "wt_temperature": Number(0.1, 5.0), "wt_scale_off": Flag(), "wt_mask_off": Flag(),
    },
    "attention": {
        "model": MODEL, "input": INPUT, "target": INPUT,
        "kind": KIND, "layer": LAYER, "head": HEAD,
        "token": Whole(0, 63, none_ok=True),
    },
    "positional-encoding": {
        "model": MODEL, "input": INPUT,
        "d_model": Whole(8, 256, step=8), "length": Whole(4, 128), "no_pe": Flag(),
    },
    "inside-a-layer": {
        "model": MODEL, "input": INPUT,
        "layer_stack": Choice(tuple(stack.value for stack in Stack)), "layer_ln": Whole(0, 63), "layer_ffn": LAYER,
    },
    "train": {"model": MODEL, "input": INPUT},  # the trained model whose attention the slide sets beside random weights
    "rnn-vs-transformer": {  # a slide shows part 3, the bottleneck: exact match by input length, with(out) attention
        "rnn_part": Whole(3, 3), "bottleneck_task": Choice(RNN_TASKS),
    },
}  # fmt: skip


def describe(spec: Spec) -> str:
    """A spec in a few language-neutral symbols, for docs and messages: 'int 0–15', 'true|false'."""
    if isinstance(spec, Choice):
        return " | ".join(spec.options)
    if isinstance(spec, Whole):
        text = f"{spec.low}–{spec.high}" + (f" (×{spec.step})" if spec.step > 1 else "")
        return text + (" | null" if spec.none_ok else "")
    if isinstance(spec, Number):
        return f"{spec.low:g}–{spec.high:g}"
    if isinstance(spec, Flag):
        return "true | false"
    return f"≤ {spec.limit}"
