"""Training: teacher forcing with cross-entropy, AdamW, warmup + cosine decay, held-out exact match.

`train()` reports each step through a callback and stops when asked, so the browser can show
progress without this module knowing about any UI. `python -m model.train --task reverse` is the
command that makes the shipped checkpoints; `--arch rnn` trains the recurrent family instead, and `--task gpt-en` /
`--task gpt-zh` a GPT on a fetched corpus (model/gpt/train_cli.py), `--task induction` a small attention-only GPT
until an induction head forms (model/gpt/induction_cli.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import torch
import torch.nn.functional as F

from .architectures import CONFIGS, AnyConfig, Seq2SeqModel, build_model
from .errors import N_, LabError
from .gpt.induction_cli import INDUCTION_TASK
from .gpt.induction_cli import main as induction_main
from .gpt.train_cli import RECIPES as GPT_RECIPES
from .gpt.train_cli import main as gpt_main
from .io.checkpoint import save_checkpoint
from .optimise import optimiser_step, warmup_cosine
from .rnn.cells import CELL_TYPES
from .rnn.config import SCORES
from .runner import LoadedModel
from .tasks import PAD_ID, TASKS, Task, get_task


@dataclass(frozen=True)
class TrainConfig:
    """How to train: the optimiser, the schedule, the stop rule and the held-out evaluation."""

    steps: int = 2000  # upper bound on optimiser steps (the cosine schedule spans these)
    until: float | None = 0.99  # stop early once held-out exact match reaches this
    batch_size: int = 32
    lr: float = 2e-3
    warmup: int = 100
    weight_decay: float = 0.01
    clip: float = 1.0
    seed: int = 0
    eval_every: int = 100
    eval_size: int = 500
    teacher_forcing: float = 1.0  # RNN only: chance of feeding the true previous token (else its own guess)

    def __post_init__(self) -> None:
        if self.steps < 1 or self.batch_size < 1 or self.eval_every < 1 or self.eval_size < 1:
            raise LabError(N_("steps, batch_size, eval_every and eval_size must be at least 1."))
        if not (0 < self.lr < 1):
            raise LabError(N_("learning rate must be between 0 and 1, got {lr}."), lr=self.lr)
        if self.until is not None and not (0 < self.until <= 1):
            raise LabError(N_("--until is an accuracy between 0 and 1, got {until}."), until=self.until)
        if not (0 <= self.teacher_forcing <= 1):
            raise LabError(
                N_("--teacher-forcing is a probability between 0 and 1, got {value}."), value=self.teacher_forcing
            )


@dataclass
class StepInfo:
    """What the callback hears after every optimiser step."""

    step: int
    total_steps: int
    loss: float
    lr: float
    seconds: float
    accuracy: float | None = None  # held-out exact match, on evaluation steps only
    model: Seq2SeqModel | None = field(default=None, repr=False)  # the model being trained


@dataclass
class TrainResult:
    loaded: LoadedModel
    steps: int
    seconds: float
    accuracy: float
    stopped: bool  # True when should_stop ended the run early
    losses: list[float]


def lr_at(step: int, cfg: TrainConfig) -> float:
    """Linear warmup to cfg.lr over cfg.warmup steps, then cosine decay to 0 at cfg.steps."""
    return warmup_cosine(step, cfg.lr, cfg.warmup, cfg.steps)


def default_model_config(task: Task, arch: str = "transformer", **overrides) -> AnyConfig:
    """A small model of family `arch` sized for the task's vocabularies; overrides set any config field."""
    if arch not in CONFIGS:
        raise LabError(
            N_("unknown architecture {arch}; choose one of: {known}."), arch=repr(arch), known=", ".join(CONFIGS)
        )
    return CONFIGS[arch](src_vocab_size=len(task.src_vocab), tgt_vocab_size=len(task.tgt_vocab), **overrides)


def check_teacher_forcing(cfg: TrainConfig, model_config: AnyConfig) -> None:
    """Feeding the model's own guesses needs a decoder that runs step by step."""
    if cfg.teacher_forcing < 1 and model_config.arch != "rnn":
        raise LabError(
            N_(
                "--teacher-forcing below 1 needs a recurrent decoder (--arch rnn): a Transformer decodes every "
                "position at once, so it is always fed the true previous tokens."
            )
        )


def train(
    task: Task,
    model_config: AnyConfig,
    cfg: TrainConfig = TrainConfig(),
    callback: Callable[[StepInfo], None] | None = None,
    should_stop: Callable[[], bool] | threading.Event | None = None,
    name: str | None = None,
) -> TrainResult:
    """Train a fresh model of the config's family on `task`; deterministic for a seed. Returns it in eval mode."""
    check_teacher_forcing(cfg, model_config)
    stop = should_stop.is_set if isinstance(should_stop, threading.Event) else should_stop
    torch.manual_seed(cfg.seed)
    rng = random.Random(cfg.seed)
    model = build_model(model_config)
    forcing = {} if cfg.teacher_forcing == 1 else {
        "teacher_forcing": cfg.teacher_forcing, "generator": torch.Generator().manual_seed(cfg.seed),
    }  # fmt: skip
    loaded = LoadedModel(model, task, name=name or task.name)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr, betas=(0.9, 0.98), weight_decay=cfg.weight_decay)
    held_out = task.sample(cfg.eval_size, seed=cfg.seed + 1_000_003)
    held_src, held_tgt = [s for s, _ in held_out], [t for _, t in held_out]
    start, losses, accuracy, stopped, step = time.perf_counter(), [], 0.0, False, 0
    for step in range(1, cfg.steps + 1):
        if stop is not None and stop():
            stopped, step = True, step - 1
            break
        model.train()
        src, tgt_in, tgt_out = task.batch([_pair(task, rng) for _ in range(cfg.batch_size)])
        logits = model(src, tgt_in, **forcing)  # (B, T, V)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), tgt_out.reshape(-1), ignore_index=PAD_ID)
        lr = lr_at(step - 1, cfg)
        optimiser_step(model, optimizer, loss, lr, cfg.clip)
        losses.append(loss.item())
        info = StepInfo(step, cfg.steps, losses[-1], lr, time.perf_counter() - start, model=model)
        if step % cfg.eval_every == 0 or step == cfg.steps:
            model.eval()
            accuracy = task.accuracy(loaded.predict_batch(held_src), held_tgt)
            info.accuracy = accuracy
        if callback is not None:
            callback(info)
        if info.accuracy is not None and cfg.until is not None and accuracy >= cfg.until:
            break
    model.eval()
    seconds = time.perf_counter() - start
    if step and step % cfg.eval_every and step != cfg.steps:  # stopped between evaluations
        accuracy = task.accuracy(loaded.predict_batch(held_src), held_tgt)
    loaded.meta = {
        "steps": step, "seconds": round(seconds, 2), "held_out_accuracy": accuracy, "seed": cfg.seed,
        "train_config": asdict(cfg),
    }  # fmt: skip
    return TrainResult(loaded, step, seconds, accuracy, stopped, losses)


def _pair(task: Task, rng: random.Random) -> tuple[str, str]:
    src, tgt = task.generate(rng)
    return " ".join(src), " ".join(tgt)


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m model.train", description=__doc__.splitlines()[0])
    p.add_argument("--task", required=True, help="a toy task, or a GPT",
                   choices=sorted(TASKS) + sorted(GPT_RECIPES) + [INDUCTION_TASK])  # fmt: skip
    p.add_argument("--steps", type=int, default=TrainConfig.steps, help="most optimiser steps (default %(default)s)")
    p.add_argument("--until", type=float, default=TrainConfig.until, help="stop at this held-out accuracy (0 = never)")
    p.add_argument("--out", help="folder to write model.safetensors + config.json into")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch-size", type=int, default=TrainConfig.batch_size)
    p.add_argument("--lr", type=float, default=TrainConfig.lr)
    p.add_argument("--warmup", type=int, default=TrainConfig.warmup)
    p.add_argument("--eval-every", type=int, default=TrainConfig.eval_every)
    p.add_argument(
        "--max-len", type=int, default=None,
        help="longest sequence the model accepts, <eos> included (default: the config's, 128 for a Transformer, "
        "64 for an RNN)",
    )  # fmt: skip
    p.add_argument("--dropout", type=float, default=0.0)
    p.add_argument("--arch", default="transformer", choices=sorted(CONFIGS), help="model family")
    tf = p.add_argument_group("Transformer (--arch transformer)")
    tf.add_argument("--layers", type=int, default=1, help="encoder and decoder layers each")
    tf.add_argument("--d-model", type=int, default=64)
    tf.add_argument("--heads", type=int, default=4)
    tf.add_argument("--d-ff", type=int, default=128)
    tf.add_argument("--positional", default="sinusoidal", choices=["sinusoidal", "learned", "none"])
    tf.add_argument("--norm", default="post", choices=["post", "pre"])
    rnn = p.add_argument_group("RNN (--arch rnn)")
    rnn.add_argument("--cell", default="gru", choices=list(CELL_TYPES), help="recurrent cell (default %(default)s)")
    rnn.add_argument("--score", default="additive", choices=list(SCORES), help="attention score; none = no attention")
    rnn.add_argument("--bidirectional", action="store_true", help="read the source both ways")
    rnn.add_argument("--d-embed", type=int, default=32, help="token embedding width")
    rnn.add_argument("--d-hidden", type=int, default=64, help="state width of one direction")
    rnn.add_argument(
        "--teacher-forcing", type=float, default=1.0,
        help="chance per step of feeding the true previous token rather than the model's own (default 1 = always)",
    )  # fmt: skip
    p.add_argument("--threads", type=int, default=2, help="torch CPU threads")
    return p.parse_args(argv)


def _family_settings(args: argparse.Namespace) -> dict:
    """The command line's settings for the chosen model family."""
    common = {"dropout": args.dropout} | ({} if args.max_len is None else {"max_len": args.max_len})
    if args.arch == "rnn":
        return common | {
            "cell": args.cell, "score": args.score, "bidirectional": args.bidirectional,
            "d_embed": args.d_embed, "d_hidden": args.d_hidden,
        }  # fmt: skip
    return common | {
        "d_model": args.d_model, "n_heads": args.heads, "n_encoder_layers": args.layers,
        "n_decoder_layers": args.layers, "d_ff": args.d_ff, "positional": args.positional, "norm": args.norm,
    }  # fmt: skip


def _task_of(argv: list[str]) -> str | None:
    """The --task the command line names (a GPT recipe and the induction run have options of their own)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--task")
    return pre.parse_known_args(argv)[0].task


def main(argv: list[str] | None = None) -> int:
    from tqdm import tqdm

    given = sys.argv[1:] if argv is None else argv
    named = _task_of(given)
    if named in GPT_RECIPES:
        return gpt_main(given)
    if named == INDUCTION_TASK:
        return induction_main(given)
    args = _parse_args(argv)
    torch.set_num_threads(args.threads)
    try:
        task = get_task(args.task)
        model_config = default_model_config(task, args.arch, **_family_settings(args))
        cfg = TrainConfig(
            steps=args.steps, until=args.until or None, batch_size=args.batch_size, lr=args.lr,
            warmup=args.warmup, seed=args.seed, eval_every=args.eval_every, teacher_forcing=args.teacher_forcing,
        )  # fmt: skip
        check_teacher_forcing(cfg, model_config)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bar = tqdm(total=cfg.steps, desc=f"train {task.name}", unit="step", dynamic_ncols=True, mininterval=0.5)
    best: dict[str, float | None] = {"acc": None}  # the latest held-out accuracy, once there is one

    def report(info: StepInfo) -> None:
        bar.update(1)
        if info.accuracy is not None:
            best["acc"] = info.accuracy
        bar.set_postfix(
            loss=f"{info.loss:.3f}", acc="-" if best["acc"] is None else f"{best['acc']:.3f}", refresh=False
        )

    result = train(task, model_config, cfg, callback=report)
    bar.close()
    result.loaded.meta["command"] = "python -m model.train " + " ".join(argv if argv is not None else sys.argv[1:])
    print(
        f"task {task.name}: held-out exact match {result.accuracy:.4f}"
        f" after {result.steps} steps in {result.seconds:.1f} s"
    )
    if args.out:
        print(f"saved to {save_checkpoint(result.loaded, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
