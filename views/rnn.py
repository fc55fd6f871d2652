"""The RNN-vs-Transformer page's view: the part shown and each part's settings."""

from __future__ import annotations

from dataclasses import dataclass, field

from model import PRETRAINED

from .attention import HEAD, LAYER
from .base import PageView
from .common import Common
from .controls import Choice, Flag, Number, Whole, control

MAX_STEPS = 64  # the RNN models' max_len

N_PARTS = 5
RNN_TASKS = tuple(name.removesuffix("-rnn") for name in PRETRAINED if name.endswith("-rnn"))  # with a shipped RNN
BOTTLENECK_TASK = "reverse"  # the task whose curves show the bottleneck (translate's 5–9 words fit one vector)
PER_LENGTH = (20, 50, 100, 200)  # inputs per length the bottleneck measures
LAST_LAYER = Whole(LAYER.low, LAYER.high, none_ok=True, shown_from=1)


@dataclass(frozen=True)
class RnnView(PageView):
    PAGE = "rnn-vs-transformer"

    common: Common = field(default_factory=Common)
    rnn_part: int = control(Whole(1, N_PARTS), 1)
    rnn_step: int = control(Whole(1, MAX_STEPS), 1)  # the decoder step, counted from 1
    rnn_layer: int | None = control(LAST_LAYER, None)  # None: the Transformer's last decoder layer
    rnn_mean: bool = control(Flag(), True)
    rnn_head: int = control(HEAD, 0)
    bottleneck_task: str = control(Choice(RNN_TASKS), BOTTLENECK_TASK)  # whatever model the sidebar holds
    bottleneck_n: int = control(Choice(PER_LENGTH), 100)
    grad_length: int = control(Whole(10, 100, step=10), 40)
    grad_bias: float = control(Number(0.0, 4.0), 0.0)
