"""Attention weights of one fixed probe input, taken while a model trains (the Train page's timeline)."""

from __future__ import annotations

import numpy as np
import torch

from .runner import LoadedModel
from .tasks import Task


def probe_attention(model: torch.nn.Module, task: Task, source: str, target: str) -> dict[str, np.ndarray]:
    """Every attention head's weights for the probe (teacher-forced on the right target, so the
    axes stay the same all through training). Leaves the model in the mode it found it in."""
    was_training = model.training
    model.eval()
    try:
        with torch.inference_mode():
            trace = LoadedModel(model, task).run(source, target)
    finally:
        model.train(was_training)
    return {
        name.removesuffix(".weights"): trace.numpy(name).astype(np.float32, copy=True)
        for name in trace.names()
        if name.endswith(".weights")
    }  # (H, Lq, Lk) each


def probe_tokens(task: Task, source: str, target: str) -> tuple[list[str], list[str]]:
    """(source tokens with <eos>, decoder input tokens with <bos>): the axes of the probe's attention."""
    return task.src_vocab.encode(source).tokens + ["<eos>"], ["<bos>", *task.tgt_vocab.encode(target).tokens]
