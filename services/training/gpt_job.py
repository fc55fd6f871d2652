"""What a GPT training job asks for besides its model and training configs: samples, head scores, the stop rule.

The Train page's GPT family (model.gpt.GPT_TASKS: "shakespeare", "tang-poems", "induction") trains in the pool's
workers like the toy models. The job frame carries `GPTRun.to_dict()`; the worker (gpt_worker.py) reads it back.
`check_run_size` turns steps and batch sizes a person typed into a translated message before anything queues.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields

from model.analysis.induction import INDUCTION_THRESHOLD
from model.corpora import CORPORA, CorpusMissing, cache_root
from model.corpora.cache import require
from model.errors import N_, InputError
from model.gpt import LoadedGPT
from model.gpt.induction_train import InductionRun
from model.gpt.train_cli import RECIPES

INDUCTION = "induction"
RECIPE_OF_TASK = {"shakespeare": "gpt-en", "tang-poems": "gpt-zh"}  # a text task → model.gpt.train_cli's recipe
GPT_TASK_NAMES = (*RECIPE_OF_TASK, INDUCTION)  # the Train page's three GPT tasks, in its order
MAX_BATCH = 512  # windows (or sequences) per step at most: more would not fit the page's time or memory
FORMED_SCORE = INDUCTION_THRESHOLD  # a head has formed once its score on the run's 100 probe sequences reaches this
SCORE_SEQUENCES = InductionRun().probe_size  # how many sequences the induction run scores (100)


@dataclass(frozen=True)
class GPTRun:
    """The GPT-only part of a job: when to write samples, when to score heads, when an induction run stops."""

    task: str  # one of GPT_TASK_NAMES
    sample_every: int = 200  # steps between samples written by the model so far
    sample_chars: int = 160  # characters in each sample
    sample_seed: int = 0  # the same seed for every sample, so they differ only by what the model learned
    temperature: float = 0.8
    snapshot_every: int = 50  # steps between attention snapshots of the probe (thinned when the list is full)
    score_every: int = 50  # steps between head scores (induction only)
    until_formed: bool = True  # induction: stop once the head has formed (and `after_formed` steps more)
    after_formed: int = 300  # steps trained after the head formed, so the curves show the plateau too

    def __post_init__(self) -> None:
        if self.task not in GPT_TASK_NAMES:
            raise InputError(N_("Unknown GPT task {task}; choose one of: {known}."), task=repr(self.task),
                             known=", ".join(GPT_TASK_NAMES))  # fmt: skip

    @property
    def induction(self) -> bool:
        return self.task == INDUCTION

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> GPTRun:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


# (not a whole number, out of range) for each of the two sizes a person types
SIZE_MESSAGES = {
    "steps": (N_("Steps must be a whole number; got {value}."), N_("Steps must be from 1 to {most}; got {value}.")),
    "batch": (N_("The batch size must be a whole number; got {value}."),
              N_("The batch size must be from 1 to {most}; got {value}.")),
}  # fmt: skip


def corpus_missing(task: str) -> CorpusMissing | None:
    """Why a text task cannot train here (its corpus was not fetched: the message names the command), or None. Reads
    only the corpus' manifest, so the page can say it before a run queues."""
    if task not in RECIPE_OF_TASK:
        return None
    module = CORPORA[RECIPES[RECIPE_OF_TASK[task]].corpus]
    try:
        require(cache_root() / module.FOLDER, module.NAME, module.PIN)
    except CorpusMissing as exc:
        return exc
    return None


def check_run_size(steps: object, batch: object, max_steps: int) -> tuple[int, int]:
    """(steps, batch) as whole numbers, or an InputError that says what is allowed (0, negative, huge, not whole)."""
    checked = []
    for name, value, most in (("steps", steps, max_steps), ("batch", batch, MAX_BATCH)):
        not_whole, out_of_range = SIZE_MESSAGES[name]
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or value != int(value)
        ):
            raise InputError(not_whole, value=repr(value))
        if not 1 <= int(value) <= most:
            raise InputError(out_of_range, most=f"{most:,}", value=f"{int(value):,}")
        checked.append(int(value))
    return checked[0], checked[1]


@dataclass
class GPTResult:
    """A finished GPT job, as the pool rebuilt it from the worker's checkpoint bytes."""

    loaded: LoadedGPT
    steps: int
    seconds: float
    held_out_loss: float | None  # the whole held-out text's loss (text tasks); None for induction
    stopped: bool  # True when Stop (or leaving the page) ended it
    losses: list[float]
