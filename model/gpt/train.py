"""Training a GPT on a text: random windows, next-character cross-entropy, AdamW, warmup + cosine, clip 1.

`train_gpt()` reports every step through a callback (minGPT's way: the caller draws progress, this module knows no
UI) and stops when asked; a Probe measures the model every so many steps (the induction run's head scores) and may
end the run once its measure is good enough. `fit_gpt()` is the loop itself, for any source of batches. The held-out
loss is the mean next-character loss over the held-out text cut into consecutive windows of the context; the train
loss is the same measure on as many windows drawn from the train text (at most TRAIN_LOSS_WINDOWS).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import torch
import torch.nn.functional as F

from ..errors import N_, LabError
from ..optimise import optimiser_step, warmup_cosine
from .config import GPTConfig
from .model import GPT
from .vocab import CharVocab

TRAIN_LOSS_WINDOWS = 1000


@dataclass(frozen=True)
class GPTTrainConfig:
    """How to train: the optimiser, the schedule, the batch of windows and the held-out evaluation."""

    steps: int = 3000  # optimiser steps (the cosine schedule spans these, or the time budgets below)
    batch_size: int = 32  # windows per step
    lr: float = 1e-3
    warmup: int = 100
    weight_decay: float = 0.1  # on matrices only (not biases or LayerNorms)
    beta2: float = 0.99  # nanoGPT's choice for small character models
    clip: float = 1.0
    seed: int = 0
    eval_every: int = 250  # a quick held-out loss (eval_windows windows) every so many steps
    eval_windows: int = 64
    # Time budgets (None: none): training ends when the first of steps, wall-clock minutes or CPU minutes (this
    # process's) is spent, and the cosine decay follows whichever is furthest along, so it reaches 0 at that end.
    minutes: float | None = None
    cpu_minutes: float | None = None

    def __post_init__(self) -> None:
        if min(self.steps, self.batch_size, self.eval_every, self.eval_windows) < 1 or self.warmup < 0:
            raise LabError(N_("steps, batch_size, eval_every and eval_windows must be at least 1."))
        if any(m is not None and not m > 0 for m in (self.minutes, self.cpu_minutes)):
            raise LabError(N_("a time budget must be a positive number of minutes."))
        if not (0 < self.lr < 1):
            raise LabError(N_("learning rate must be between 0 and 1, got {lr}."), lr=self.lr)

    def time_spent(self, seconds: float, cpu_seconds: float) -> float | None:
        """The share of the time budgets spent (the larger of the two; 1 = the end), or None without a budget."""
        shares = [seconds / (60 * self.minutes)] if self.minutes is not None else []
        shares += [cpu_seconds / (60 * self.cpu_minutes)] if self.cpu_minutes is not None else []
        return max(shares, default=None)


@dataclass
class GPTStepInfo:
    """What the callback hears after every optimiser step."""

    step: int
    total_steps: int
    loss: float  # this step's batch loss, nats per character
    lr: float
    seconds: float
    held_out_loss: float | None = None  # on evaluation steps only (a fixed sample of held-out windows)
    model: GPT | None = field(default=None, repr=False)
    probe: Any = None  # on probe steps only: what Probe.measure returned (e.g. the induction run's HeadScores)


@dataclass(frozen=True)
class Probe:
    """A measure of the model taken every `every` steps while it trains; once `done(measure)` is True the run ends
    at that step (the induction run: stop when some head's induction score reaches 0.5)."""

    every: int
    measure: Callable[[GPT], Any]
    done: Callable[[Any], bool] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.every, bool) or not isinstance(self.every, int) or self.every < 1:
            raise LabError(N_("a probe's interval must be a whole number of steps, at least 1; got {value}."),
                           value=repr(self.every))  # fmt: skip


@dataclass
class Fit:
    """What the training loop did: the model (eval mode), the steps run, the time they took, the losses, the quick
    evaluations and the probes' measures."""

    model: GPT
    steps: int
    seconds: float
    cpu_seconds: float
    stopped: bool  # should_stop ended the run
    reached: bool  # the probe's done() ended the run
    losses: list[float]
    curve: list[tuple[int, float]]  # (step, quick evaluation)
    probes: list[tuple[int, Any]]  # (step, Probe.measure's result)


@dataclass
class GPTTrainResult:
    model: GPT  # in eval mode
    steps: int
    seconds: float  # training alone (wall clock), the final evaluation not included
    cpu_seconds: float  # the process's CPU time over the same span: what the run costs a core of its own
    held_out_loss: float  # the whole held-out text
    train_loss: float  # as many train windows as the held-out text has (at most TRAIN_LOSS_WINDOWS)
    stopped: bool  # True when should_stop ended the run early
    losses: list[float]
    train_config: GPTTrainConfig
    curve: list[tuple[int, float]] = field(default_factory=list)  # (step, quick held-out loss) at each evaluation
    probes: list[tuple[int, Any]] = field(default_factory=list)  # (step, Probe.measure's result) at each probe
    reached: bool = False  # True when the probe's done() ended the run

    def meta(self) -> dict:
        """What a checkpoint records of this run."""
        return {
            "steps": self.steps, "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
            "held_out_loss": round(self.held_out_loss, 4), "train_loss": round(self.train_loss, 4),
            "held_out_curve": [[step, round(loss, 4)] for step, loss in self.curve],
            "train_config": asdict(self.train_config),
        }  # fmt: skip


def encode(vocab: CharVocab, text: str) -> torch.Tensor:
    """(N,) long: the text's token ids (characters outside the vocabulary read as its unknown mark)."""
    return torch.tensor(vocab.encode(text)[0], dtype=torch.long)


def random_windows(data: torch.Tensor, batch: int, length: int, generator: torch.Generator) -> tuple:
    """(inputs, targets), each (batch, length): windows at random offsets, targets one character later."""
    if data.numel() < length + 1:
        raise LabError(
            N_("the text has {n} characters, fewer than one window of {length}."), n=data.numel(), length=length
        )
    starts = torch.randint(0, data.numel() - length, (batch,), generator=generator)  # (B,)
    index = starts[:, None] + torch.arange(length + 1)  # (B, length + 1)
    windows = data[index]
    return windows[:, :-1], windows[:, 1:]


def consecutive_windows(data: torch.Tensor, length: int) -> tuple:
    """(inputs, targets), each (n, length): the text cut into consecutive windows (a short tail is left out)."""
    n = (data.numel() - 1) // length
    if n < 1:
        raise LabError(
            N_("the text has {n} characters, fewer than one window of {length}."), n=data.numel(), length=length
        )
    inputs = data[: n * length].view(n, length)
    targets = data[1 : n * length + 1].view(n, length)
    return inputs, targets


@torch.no_grad()
def mean_loss(model: GPT, inputs: torch.Tensor, targets: torch.Tensor, batch: int = 64) -> float:
    """Mean next-token cross-entropy (nats) over every position of these windows, in eval mode."""
    was_training = model.training
    model.eval()
    total, count = 0.0, 0
    for i in range(0, inputs.shape[0], batch):
        logits = model(inputs[i : i + batch])  # (b, T, V)
        loss = F.cross_entropy(logits.flatten(0, 1), targets[i : i + batch].flatten(), reduction="sum")
        total, count = total + float(loss), count + targets[i : i + batch].numel()
    model.train(was_training)
    return total / count


def optimizer_for(model: GPT, cfg: GPTTrainConfig) -> torch.optim.AdamW:
    """AdamW with weight decay on the matrices (embeddings and weights) and none on biases and LayerNorms: nanoGPT's
    rule."""
    params = list(model.parameters())
    groups = [
        {"params": [p for p in params if p.dim() >= 2], "weight_decay": cfg.weight_decay},
        {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=cfg.lr, betas=(0.9, cfg.beta2))


Batches = Callable[[torch.Generator], tuple[torch.Tensor, torch.Tensor]]  # → (inputs, targets), each (B, T)


def fit_gpt(
    model_config: GPTConfig,
    cfg: GPTTrainConfig,
    batches: Batches,
    evaluate: Callable[[GPT], float] | None = None,
    callback: Callable[[GPTStepInfo], None] | None = None,
    should_stop: Callable[[], bool] | threading.Event | None = None,
    probe: Probe | None = None,
    init: Callable[[GPT], None] | None = None,
) -> Fit:
    """Train a fresh GPT on the batches drawn (next-token cross-entropy, AdamW, warmup + cosine, clipping) until
    cfg.steps, a time budget, should_stop or the probe's done(); deterministic for a seed on one thread. `evaluate`
    runs every cfg.eval_every steps (GPTStepInfo.held_out_loss), the probe every probe.every steps; `init`, when
    given, re-initialises the fresh model (under the seed) in place of GPT-2's initialisation."""
    stop = should_stop.is_set if isinstance(should_stop, threading.Event) else should_stop
    torch.manual_seed(cfg.seed)
    generator = torch.Generator().manual_seed(cfg.seed)
    model = GPT(model_config)
    if init is not None:
        init(model)
    model.train()
    optimizer = optimizer_for(model, cfg)
    start, cpu_start = time.perf_counter(), time.process_time()
    losses: list[float] = []
    curve: list[tuple[int, float]] = []
    probes: list[tuple[int, Any]] = []
    stopped = reached = False
    step = 0
    for step in range(1, cfg.steps + 1):
        if stop is not None and stop():
            stopped, step = True, step - 1
            break
        spent = cfg.time_spent(time.perf_counter() - start, time.process_time() - cpu_start)
        if spent is not None and spent >= 1:
            step -= 1
            break
        inputs, targets = batches(generator)  # (B, T) each
        logits = model(inputs)  # (B, T, V)
        loss = F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        if spent is not None:  # the decay follows whichever of the steps and the time budget is further along
            spent = max(spent, (step - 1 - cfg.warmup) / max(1, cfg.steps - cfg.warmup))
        lr = warmup_cosine(step - 1, cfg.lr, cfg.warmup, cfg.steps, progress=spent)
        optimiser_step(model, optimizer, loss, lr, cfg.clip)
        losses.append(loss.item())
        info = GPTStepInfo(step, cfg.steps, losses[-1], lr, time.perf_counter() - start, model=model)
        if evaluate is not None and step % cfg.eval_every == 0:
            info.held_out_loss = evaluate(model)
            curve.append((step, info.held_out_loss))
        if probe is not None and step % probe.every == 0:
            info.probe = probe.measure(model)
            probes.append((step, info.probe))
            reached = probe.done is not None and probe.done(info.probe)
        if callback is not None:
            callback(info)
        if reached:
            break
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    model.eval()
    return Fit(model, step, seconds, cpu_seconds, stopped, reached, losses, curve, probes)


def train_gpt(
    model_config: GPTConfig,
    train_ids: torch.Tensor,
    held_out_ids: torch.Tensor,
    cfg: GPTTrainConfig = GPTTrainConfig(),
    callback: Callable[[GPTStepInfo], None] | None = None,
    should_stop: Callable[[], bool] | threading.Event | None = None,
    probe: Probe | None = None,
) -> GPTTrainResult:
    """Train a fresh GPT on random windows of the train ids; deterministic for a seed on one thread. Returns it in
    eval mode, with the held-out and train losses."""
    T = model_config.max_len
    held_in, held_out = consecutive_windows(held_out_ids, T)
    pick = torch.linspace(0, held_in.shape[0] - 1, min(cfg.eval_windows, held_in.shape[0])).long()
    quick_in, quick_out = held_in[pick], held_out[pick]  # evenly spread over the held-out text
    fit = fit_gpt(
        model_config, cfg, lambda generator: random_windows(train_ids, cfg.batch_size, T, generator),
        lambda model: mean_loss(model, quick_in, quick_out), callback, should_stop, probe,
    )  # fmt: skip
    sample = min(held_in.shape[0], TRAIN_LOSS_WINDOWS)
    train_in, train_out = random_windows(train_ids, sample, T, torch.Generator().manual_seed(cfg.seed + 1))
    return GPTTrainResult(
        fit.model, fit.steps, fit.seconds, fit.cpu_seconds, mean_loss(fit.model, held_in, held_out),
        mean_loss(fit.model, train_in, train_out), fit.stopped, fit.losses, cfg, fit.curve, fit.probes, fit.reached,
    )  # fmt: skip
