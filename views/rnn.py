"""The RNN-vs-Transformer page's view: the part shown and each part's settings."""

from __future__ import annotations

from dataclasses import dataclass, field

from model import PRETRAINED

from .attention import HEAD, LAYER, MAX_TOKENS
from .base import PageView
from .common import Common
from .controls import Choice, Flag, Number, Whole, control

N_PARTS = 5
RNN_TASKS = tuple(name.removesuffix("-rnn") for name in PRETRAINED if name.endswith("-rnn"))  # with a shipped RNN
PER_LENGTH = (20, 50, 100, 200)  # inputs per length the bottleneck measures
LAST_LAYER = Whole(LAYER.low, LAYER.high, none_ok=True, shown_from=1)


@dataclass(frozen=True)
class RnnView(PageView):
    PAGE = "rnn-vs-transformer"

    common: Common = field(default_factory=Common)
    part: int = control(Whole(1, N_PARTS), 1, name="rnn_part")
    step: int = control(Whole(1, MAX_TOKENS), 1, name="rnn_step")  # the decoder step, counted from 1
    layer: int | None = control(LAST_LAYER, None, name="rnn_layer")  # None: the Transformer's last decoder layer
    mean: bool = control(Flag(), True, name="rnn_mean")
    head: int = control(HEAD, 0, name="rnn_head")
    bottleneck_task: str = control(Choice(RNN_TASKS), RNN_TASKS[0])
    bottleneck_n: int = control(Choice(PER_LENGTH), 100)
    grad_length: int = control(Whole(10, 100, step=10), 40)
    grad_bias: float = control(Number(0.0, 4.0), 0.0)
