"""Attention weights of one fixed probe input, taken while a model trains (the Train page's timeline)."""

from __future__ import annotations

import numpy as np
import torch

from ..architectures import Seq2SeqModel
from ..runner import LoadedModel
from ..tasks import Task
from .attention import attention_maps, head_peak


def probe_attention(model: Seq2SeqModel, task: Task, source: str, target: str) -> dict[str, np.ndarray]:
    """Every attention block's weights for the probe, either family: name → (H, Lq, Lk) float32 ({} for a model
    without attention). Teacher-forced on the right target, so the axes stay the same all through training;
    leaves the model in the mode it found it in."""
    was_training = model.training
    model.eval()
    try:
        with torch.inference_mode():
            trace = LoadedModel(model, task).run(source, target)
    finally:
        model.train(was_training)
    return attention_maps(trace)


def probe_tokens(task: Task, source: str, target: str) -> tuple[list[str], list[str]]:
    """(source tokens with <eos>, decoder input tokens with <bos>): the axes of the probe's attention."""
    return task.src_vocab.encode(source).tokens + ["<eos>"], ["<bos>", *task.tgt_vocab.encode(target).tokens]


def sharpest_head(weights: np.ndarray) -> int:
    """The head (axis 0 of (H, Lq, Lk)) whose rows put the most weight on one key: the clearest pattern."""
    return int(np.argmax(head_peak(weights)))


def has_attention(config) -> bool:
    """Whether a model of this config (either family) attends at all; an RNN with score 'none' does not."""
    return bool(getattr(config, "attention", True))
