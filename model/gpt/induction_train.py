"""The induction run: a small attention-only GPT trained on repeated sequences until an induction head forms.

Every probe_every steps, head_scores (model/analysis/induction.py) scores every head on probe_size sequences that are
never trained on (drawn once, from their own seed); the run stops as soon as some head's induction score reaches
`until` (0.5), or after train.steps. The CLI (`python -m model.train --task induction`) and the Train page's worker
both run it; GPTStepInfo.probe carries the HeadScores to their callback.

What makes the head form in under a thousand steps (measured here, docs/induction.md): an LM head of its own
(GPTConfig.tied False) and PyTorch's default initialisation (embeddings N(0, 1)), no weight decay, no warmup, and a
schedule long enough for the learning rate to stay near its peak. With GPT-2's tied head and N(0, 0.02) weights the
same model had not formed one after 8,000 steps; with the head untied but GPT-2's weights, not after 3,000.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

import torch
from torch import nn

from ..analysis.induction import INDUCTION_THRESHOLD, HeadScores, circuit, head_scores
from .config import GPTConfig
from .induction import DEFAULT_SETTINGS, InductionSettings, induction_vocab, repeated_batch
from .model import GPT
from .runner import GPT_TASKS, LoadedGPT
from .train import Batches, Fit, GPTStepInfo, GPTTrainConfig, Probe, fit_gpt
from .vocab import CharVocab

PROBE_SEED = 20_220_308  # the probe sequences' own seed (never a training seed's stream)
# 2 attention-only layers of 2 heads, d_model 32, an LM head of its own: 11,744 parameters
INDUCTION_MODEL = GPTConfig(vocab_size=32, d_model=32, n_heads=2, n_layers=2, d_ff=128, max_len=32, mlp=False,
                            tied=False)  # fmt: skip
# at most 6,000 steps: the cosine schedule spans them, so the rate is still 0.96 · 5e-3 at step 1,200 (5e-3 formed the
# head in 800–900 steps over 4 seeds here, 3e-3 in 950–1,200: docs/induction.md)
INDUCTION_TRAINING = GPTTrainConfig(steps=6000, batch_size=32, lr=5e-3, warmup=0, weight_decay=0.0, eval_every=10**9)


@dataclass(frozen=True)
class InductionRun:
    """How the induction run is set: the task, the model (attention-only, 2 layers), the training and the probe."""

    settings: InductionSettings = DEFAULT_SETTINGS
    # vocab_size and max_len follow the settings (vocab_size tokens, a context of settings.context)
    model: GPTConfig = INDUCTION_MODEL
    train: GPTTrainConfig = INDUCTION_TRAINING
    probe_every: int = 50  # steps between two probes
    probe_size: int = 100  # sequences the probe scores
    until: float | None = INDUCTION_THRESHOLD  # stop once some head's induction score reaches this (None: never)

    @property
    def model_config(self) -> GPTConfig:
        """The model's config, sized to the task's vocabulary and context."""
        return replace(self.model, vocab_size=self.settings.vocab_size, max_len=self.settings.context)


@dataclass
class InductionResult:
    """The trained model, the run, and the head scores at every probe (the last: the model's)."""

    loaded: LoadedGPT
    fit: Fit
    history: list[tuple[int, HeadScores]] = field(default_factory=list)  # (step, scores) at every probe

    @property
    def scores(self) -> HeadScores:
        """The last probe's scores."""
        return self.history[-1][1]

    @property
    def formed(self) -> bool:
        """True when the run stopped because an induction head formed."""
        return self.fit.reached


def torch_default_init(model: GPT) -> None:
    """PyTorch's own initialisation of each part, as a model built of plain nn modules gets it: embeddings N(0, 1),
    Linear layers Kaiming-uniform, the attention's [W_Q; W_K; W_V] Xavier-uniform with zero biases, LayerNorms 1, 0."""
    for module in model.modules():
        if isinstance(module, nn.Linear | nn.Embedding | nn.LayerNorm):
            module.reset_parameters()
    for block in model.blocks:
        nn.init.xavier_uniform_(block.self_attn.in_proj_weight)
        nn.init.zeros_(block.self_attn.in_proj_bias)
        if block.self_attn.out_proj.bias is not None:
            nn.init.zeros_(block.self_attn.out_proj.bias)


def induction_batches(settings: InductionSettings, batch: int) -> Batches:
    """Training batches: (inputs, targets) = (ids[:, :−1], ids[:, 1:]) of fresh repeated sequences."""

    def draw(generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        ids = repeated_batch(settings, batch, generator).ids  # (B, T)
        return ids[:, :-1], ids[:, 1:]

    return draw


def induction_probe(run: InductionRun) -> Probe:
    """head_scores on run.probe_size sequences of their own seed, every run.probe_every steps; done at run.until."""
    probe_batch = repeated_batch(run.settings, run.probe_size, torch.Generator().manual_seed(PROBE_SEED))
    until = run.until
    done = None if until is None else (lambda scores: scores.best_induction >= until)
    return Probe(run.probe_every, lambda model: head_scores(model, probe_batch), done)


def train_induction(
    run: InductionRun = InductionRun(),
    callback: Callable[[GPTStepInfo], None] | None = None,
    should_stop: Callable[[], bool] | threading.Event | None = None,
    name: str = "induction",
) -> InductionResult:
    """Train a fresh attention-only GPT on the task until an induction head forms (or run.train.steps); deterministic
    for run.train.seed on one thread."""
    fit = fit_gpt(
        run.model_config, run.train, induction_batches(run.settings, run.train.batch_size),
        callback=callback, should_stop=should_stop, probe=induction_probe(run), init=torch_default_init,
    )  # fmt: skip
    history: list[tuple[int, HeadScores]] = [(step, scores) for step, scores in fit.probes]
    if not history or history[-1][0] != fit.steps:  # the model as it ended, scored too
        history.append((fit.steps, induction_probe(run).measure(fit.model)))
    result = InductionResult(LoadedGPT(fit.model, CharVocab(induction_vocab(run.settings)), name=name,
                                       task=GPT_TASKS["induction"]), fit, history)  # fmt: skip
    result.loaded.meta.update(run_meta(run, result))
    return result


def run_meta(run: InductionRun, result: InductionResult) -> dict:
    """What the checkpoint records of the run: its settings, steps and seconds, and the scores at every probe."""
    fit, scores = result.fit, result.scores
    prev_layer, prev_head, ind_layer, ind_head = circuit(scores)
    return {
        "task_settings": asdict(run.settings), "train_config": asdict(run.train),
        "probe": {"every": run.probe_every, "sequences": run.probe_size, "seed": PROBE_SEED, "until": run.until},
        "steps": fit.steps, "seconds": round(fit.seconds, 3), "cpu_seconds": round(fit.cpu_seconds, 3),
        "formed": result.formed, "induction_score": round(scores.best_induction, 4),
        "in_context_loss": round(scores.in_context_loss, 4),
        "circuit": {"previous_token_head": [prev_layer, prev_head], "induction_head": [ind_layer, ind_head]},
        "curve": [[step, round(s.best_induction, 4), round(float(s.previous.max()), 4), round(s.in_context_loss, 4),
                   round(s.loss, 4)] for step, s in result.history],
        "curve_columns": ["step", "induction", "previous_token", "in_context_loss", "loss"],
    }  # fmt: skip
