"""The worker's side of a GPT job: train (model/gpt/train.py's train_gpt), and stream the loss, the held-out loss,
samples written so far, the probe's attention and, for induction, every head's scores.

Text tasks read their corpus (model/corpora; a missing one fails the job with the command that fetches it) once per
worker process. The induction task trains as the induction run does (model/gpt/induction_train.py): fresh repeated
sequences every step, every head scored on that run's own probe sequences (its seed, its count) as it trains.
"""

from __future__ import annotations

import functools
import time
from dataclasses import asdict, replace
from multiprocessing.connection import Connection
from typing import Any

import numpy as np
import torch

from model.analysis.attention import attention_maps
from model.analysis.induction import HeadScores, circuit
from model.gpt import GPT, GPT_TASKS, CharVocab, GPTConfig, LoadedGPT
from model.gpt.induction import InductionSettings, RepeatedBatch, induction_vocab, repeated_batch
from model.gpt.induction_train import PROBE_SEED as RUN_PROBE_SEED
from model.gpt.induction_train import InductionRun, induction_batches, induction_probe, torch_default_init
from model.gpt.train import Fit, GPTStepInfo, GPTTrainConfig, GPTTrainResult, Probe, fit_gpt, train_gpt
from model.gpt.train_cli import RECIPES, recipe_data
from model.io.checkpoint import checkpoint_bytes
from model.naming import AttentionKind, attention_name

from .gpt_job import FORMED_SCORE, RECIPE_OF_TASK, GPTRun
from .gpt_progress import Circuit, circuit_to_json, scores_to_json
from .snapshots import SnapshotSchedule
from .stopflag import StopFlag
from .wire import arrays_to_bytes, pack

SEND_INTERVAL = 0.2  # seconds between progress messages, as for the toy models
PROBE_SEED = 1  # the page's one probe sequence (page_probe)
SCORE_SEED = RUN_PROBE_SEED  # the scored sequences' seed: the induction run's own (induction_probe)


@functools.cache
def text_data(recipe: str) -> tuple[CharVocab, torch.Tensor, torch.Tensor]:
    """(vocabulary, train ids, held-out ids) of a text recipe's corpus, read once per worker process."""
    vocab, data = recipe_data(RECIPES[recipe])
    return vocab, data.train_ids, data.held_ids


def page_probe(settings: InductionSettings) -> RepeatedBatch:
    """The one repeated sequence whose attention the page draws (the circuit's heads side by side): the first of
    PROBE_SEED's draws whose segment is long and starts after some filler, so the stripe reads clearly."""
    generator = torch.Generator().manual_seed(PROBE_SEED)
    while True:
        probe = repeated_batch(settings, 1, generator)
        segment, start = int(probe.segment[0]), int(probe.start[0])
        if segment >= (settings.min_segment + settings.max_segment) // 2 and start >= 2:
            return probe


class GPTReporter:
    """Collects a GPT run's progress and sends it in batches of at most SEND_INTERVAL."""

    def __init__(self, conn: Connection, spec: dict, stop_flag: StopFlag, run: GPTRun, vocab: CharVocab,
                 probe: list[int], scoring: Probe | None, copy_start: int = 0):  # fmt: skip
        self.conn, self.job, self.stop_flag, self.run, self.vocab = conn, spec["job"], stop_flag, run, vocab
        self.probe, self.scoring, self.copy_start = probe, scoring, copy_start  # copy_start: induction's second copy
        self.schedule = SnapshotSchedule(spec["snapshot_every"], spec["max_snapshots"])
        self.formed: tuple[int, float, float] | None = None
        self.user_stop = False
        self.last_sent, self.seconds, self.step = 0.0, 0.0, 0
        self._clear()
        self.fields["probe"] = [vocab.itos[i] for i in probe]

    def _clear(self) -> None:
        self.steps: list[int] = []
        self.losses: list[float] = []
        self.snapshots: dict[int, dict[str, np.ndarray]] = {}
        self.fields: dict[str, Any] = {"held_out": [], "samples": [], "scores": []}

    def should_stop(self) -> bool:
        """Stop asked for (acknowledged at once), or an induction run past its head's forming by after_formed."""
        if self.stop_flag.value == self.job:
            if not self.user_stop:
                self.user_stop = True
                self.conn.send_bytes(pack("stopping", {"job": self.job}))
            return True
        return self.run.until_formed and self.formed is not None and self.step >= self.formed[0] + self.run.after_formed

    def on_step(self, info: GPTStepInfo) -> None:
        self.step, self.seconds = info.step, info.seconds
        self.steps.append(info.step)
        self.losses.append(info.loss)
        if info.held_out_loss is not None:
            self.fields["held_out"].append([info.step, info.held_out_loss])
        model = info.model
        if model is not None:
            if self.schedule.due(info.step, info.total_steps):
                self.add_snapshot(info.step, model)
            if info.step == 1 or info.step % self.run.sample_every == 0:
                self.add_sample(info.step, model)
        if isinstance(info.probe, HeadScores):  # fit_gpt's probe: every head scored on the fixed sequences
            self.add_scores(info.step, info.seconds, info.probe, info.model)
        if time.monotonic() - self.last_sent >= SEND_INTERVAL:
            self.flush()

    def probe_attention(self, model: GPT) -> dict[str, np.ndarray]:
        """Every block's attention on the probe: "decoder.{i}.self_attn" → (H, T, T)."""
        with evaluating(model), torch.inference_mode():
            _, trace = model(torch.tensor([self.probe]), record=True)
        return attention_maps(trace)

    def add_snapshot(self, step: int, model: GPT) -> None:
        self.snapshots[step] = self.probe_attention(model)
        self.schedule.taken(step)

    def add_sample(self, step: int, model: GPT) -> None:
        with evaluating(model):
            lm = LoadedGPT(model, self.vocab, task=GPT_TASKS[self.run.task])
            self.fields["samples"].append({"step": step, **self.sample(lm)})

    def sample(self, lm: LoadedGPT) -> dict:
        """Text tasks: `sample_chars` characters after the task's example, seeded. Induction: the probe's first copy
        and the first token of its second, continued greedily for the rest of the copy, beside the true copy."""
        run = self.run
        if self.scoring is None:
            prompt = lm.task.example
            text = lm.generate(prompt, run.sample_chars, temperature=run.temperature, seed=run.sample_seed)
            return {"prompt": prompt, "text": text}
        prompt_ids = self.probe[: self.copy_start + 1]  # the probe ends with its second copy
        expected = self.vocab.decode(self.probe[self.copy_start + 1 :])
        written = lm.generate(prompt_ids, len(expected), temperature=0.0)
        right = sum(a == b for a, b in zip(written, expected, strict=False))
        return {"prompt": self.vocab.decode(prompt_ids), "text": written, "expected": expected, "right": right}

    def add_scores(self, step: int, seconds: float, scores: HeadScores, model: GPT | None) -> None:
        self.fields["scores"].append(scores_to_json(step, scores))
        if model is not None and scores.induction.shape[0] >= 2:  # the circuit's two heads on the probe, now
            heads = circuit(scores)
            maps = self.probe_attention(model)
            previous = maps[attention_name(AttentionKind.DECODER, heads[0])][heads[1]]  # (T, T)
            induction = maps[attention_name(AttentionKind.DECODER, heads[2])][heads[3]]  # (T, T)
            self.fields["circuit"] = circuit_to_json(Circuit(step, heads, previous, induction))
        best = scores.best_induction
        if self.formed is None and best >= FORMED_SCORE:
            self.formed = (step, seconds, best)
            self.fields["formed"] = list(self.formed)

    def finish(self, result: GPTTrainResult | Fit) -> None:
        """The last snapshot, sample and scores of a run that ended between them, then everything not yet sent."""
        model = result.model
        if result.steps and self.schedule.last != result.steps:
            self.add_snapshot(result.steps, model)
        if result.steps and result.steps % self.run.sample_every:
            self.add_sample(result.steps, model)
        if self.scoring is not None and result.steps and result.steps % self.run.score_every:
            self.add_scores(result.steps, result.seconds, self.scoring.measure(model), model)
        self.seconds = result.seconds
        self.flush()

    def flush(self) -> None:
        if not (self.steps or self.snapshots or any(self.fields.values())):
            return
        arrays = {f"{step}/{name}": w for step, weights in self.snapshots.items() for name, w in weights.items()}
        fields = {
            "job": self.job, "steps": self.steps, "losses": self.losses, "accuracies": [], "seconds": self.seconds,
            "snapshots": sorted(self.snapshots), **{k: v for k, v in self.fields.items() if v},
        }  # fmt: skip
        self.conn.send_bytes(pack("progress", fields, {"snapshots": arrays_to_bytes(arrays)} if arrays else None))
        self._clear()
        self.last_sent = time.monotonic()


class evaluating:
    """`with evaluating(model):` eval mode inside (samples, traces), the mode it had after."""

    def __init__(self, model: torch.nn.Module):
        self.model, self.was_training = model, model.training

    def __enter__(self) -> None:
        self.model.eval()

    def __exit__(self, *exc: object) -> None:
        self.model.train(self.was_training)


def train_induction(settings: InductionSettings, config: GPTConfig, cfg: GPTTrainConfig, reporter: GPTReporter) -> Fit:
    """The induction run's recipe (model/gpt/induction_train.py): fresh repeated sequences every step, PyTorch's
    default initialisation, the heads scored as it trains."""
    return fit_gpt(
        config, cfg, induction_batches(settings, cfg.batch_size), callback=reporter.on_step,
        should_stop=reporter.should_stop, probe=reporter.scoring, init=torch_default_init,
    )  # fmt: skip


def fit_meta(fit: Fit) -> dict:
    """What a checkpoint records of an induction run (a text run's GPTTrainResult.meta() says more)."""
    return {"steps": fit.steps, "seconds": round(fit.seconds, 3), "cpu_seconds": round(fit.cpu_seconds, 3)}


def train_gpt_job(conn: Connection, spec: dict, stop_flag: StopFlag) -> tuple[dict, tuple[bytes, bytes]]:
    """Train the job's GPT, streaming progress; (the done message's fields, its checkpoint bytes)."""
    run = GPTRun.from_dict(spec["gpt"])
    cfg = GPTTrainConfig(**spec["train"])
    config = GPTConfig.from_dict(spec["model"])
    scoring: Probe | None = None
    if run.induction:
        settings = InductionSettings(context=config.max_len)
        vocab = CharVocab(induction_vocab(settings))
        probe_batch = page_probe(settings)
        scoring = induction_probe(InductionRun(settings, config, cfg, probe_every=run.score_every, until=None))
        end = int(probe_batch.start[0] + 2 * probe_batch.segment[0])
        probe = probe_batch.ids[0, :end].tolist()  # cut after the second copy: the sample continues the copy
        copy_start = int(probe_batch.start[0] + probe_batch.segment[0])
    else:
        vocab, train_ids, held_ids = text_data(RECIPE_OF_TASK[run.task])
        probe, _ = vocab.encode(GPT_TASKS[run.task].example)
        copy_start = 0
    config = replace(config, vocab_size=len(vocab))
    reporter = GPTReporter(conn, spec, stop_flag, run, vocab, probe, scoring, copy_start)
    result: GPTTrainResult | Fit
    if run.induction:
        result = train_induction(settings, config, cfg, reporter)
        held_out, meta = None, fit_meta(result) | {"train_config": asdict(cfg)}
    else:
        result = train_gpt(config, train_ids, held_ids, cfg, callback=reporter.on_step,
                           should_stop=reporter.should_stop)  # fmt: skip
        held_out, meta = result.held_out_loss, result.meta()
    reporter.finish(result)
    meta |= {"trained_on": "the Train page", "task": run.task}
    if reporter.formed is not None:
        meta["induction_formed"] = {"step": reporter.formed[0], "seconds": round(reporter.formed[1], 3)}
    loaded = LoadedGPT(result.model, vocab, name=spec["name"], task=GPT_TASKS[run.task], meta=meta)
    fields = {"steps": result.steps, "seconds": result.seconds, "held_out_loss": held_out,
              "stopped": reporter.user_stop, "accuracy": 0.0}  # fmt: skip
    return fields, checkpoint_bytes(loaded)
