"""Inside a layer: the residual stream, each sublayer's update, LayerNorm statistics, FFN activity.

Every number comes from a trace (batch item 0). The residual stream is the vector each position
carries between sublayers: post-LN it is the LayerNorm output `.norm`, pre-LN the residual sum
`.resid` (see model/transformer/layers.py: Sublayer). A BERT-family encoder (MiniLM) is read the same way: post-LN,
its stream starting at src.input, the embeddings after their LayerNorm. A decoder-only GPT is a pre-LN decoder stack
with no cross-attention: its stream starts at tgt.input (token + position) and ends in the final LayerNorm
(`decoder.final_norm`, GPT-2's ln_f), read before the LM head.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from ..naming import FFN, SELF_ATTN, Stack, ffn_name, final_norm_name, input_name, part_name, sublayer_name
from ..trace import Trace

STACKS = tuple(Stack)


@dataclass(frozen=True)
class LayerAnalysis:
    """Per-position numbers of one stack; rows follow `sublayers`, columns are token positions."""

    stack: str
    norm: str  # "post" or "pre"
    sublayers: list[str]  # trace prefixes in order, e.g. "encoder.0.self_attn", "encoder.0.ffn"
    stream_norms: np.ndarray  # (1 + n_sub, L): ‖x‖ of the stream at the stack input, then after each sublayer
    update_norms: np.ndarray  # (n_sub, L): ‖sublayer(x)‖, what the sublayer adds to the stream
    update_ratios: np.ndarray  # (n_sub, L): ‖sublayer(x)‖ / ‖x‖ with x the stream entering the sublayer
    ln_in_mean: np.ndarray  # (n_sub, L): mean over d_model of the LayerNorm input
    ln_in_std: np.ndarray  # (n_sub, L): its standard deviation (population, as LayerNorm uses)
    ln_out_mean: np.ndarray  # (n_sub, L): the same for the LayerNorm output
    ln_out_std: np.ndarray  # (n_sub, L)
    ffn_hidden: list[np.ndarray]  # per layer (L, d_ff): activations of the feed-forward block (ReLU; GELU for bert)
    ffn_active: np.ndarray  # (n_layers, L): how many hidden units are above zero at each position
    final_norms: np.ndarray | None = None  # (L,): ‖x‖ after the stack's final LayerNorm (pre-LN stacks that have one)

    @property
    def n_layers(self) -> int:
        return len(self.ffn_hidden)

    def growth(self) -> tuple[float, float, float | None]:
        """The stream's size, averaged over positions: at the stack input, after the last sublayer, and after the
        final LayerNorm (None without one). Pre-LN nothing normalises the stream between blocks, so it grows."""
        final = None if self.final_norms is None else float(self.final_norms.mean())
        return float(self.stream_norms[0].mean()), float(self.stream_norms[-1].mean()), final


def sublayer_names(trace: Trace, stack: str) -> list[str]:
    """Trace prefixes of a stack's sublayers in forward order."""
    if stack not in STACKS:
        raise ValueError(f"stack must be one of {', '.join(STACKS)}, got {stack!r}.")
    names, i = [], 0
    while part_name(sublayer_name(stack, i, SELF_ATTN), "resid") in trace:  # an attention-only GPT: no ffn
        inside = (sublayer_name(stack, i, sublayer) for sublayer in Stack(stack).sublayers)
        names += [name for name in inside if part_name(name, "resid") in trace]  # a GPT's decoder: no cross_attn
        i += 1
    return names


def _row_norm(x: torch.Tensor) -> torch.Tensor:
    return torch.linalg.vector_norm(x.float(), dim=-1)  # (L,)


def analyse_layers(trace: Trace, stack: str, norm: str) -> LayerAnalysis:
    """The numbers of the Inside-a-layer page for one stack of one traced input."""
    if norm not in ("post", "pre"):
        raise ValueError(f"norm must be 'post' or 'pre', got {norm!r}.")
    sublayers = sublayer_names(trace, stack)
    stream = [trace[input_name(Stack(stack).side)][0]]  # (L, d) each
    updates, in_stats, out_stats = [], [], []
    for name in sublayers:
        entering = stream[-1]
        resid, normed = trace[part_name(name, "resid")][0], trace[part_name(name, "norm")][0]
        after = resid if norm == "pre" else normed
        ln_input = entering if norm == "pre" else resid
        ln_output = normed
        updates.append(trace[part_name(name, "out")][0])
        in_stats.append((ln_input.mean(-1), ln_input.std(-1, unbiased=False)))
        out_stats.append((ln_output.mean(-1), ln_output.std(-1, unbiased=False)))
        stream.append(after)
    stream_norms = torch.stack([_row_norm(x) for x in stream])  # (1 + n_sub, L)
    update_norms = torch.stack([_row_norm(u) for u in updates])  # (n_sub, L)
    n_layers = sum(name.rpartition(".")[2] == FFN for name in sublayers)
    hidden = [trace[ffn_name(stack, i, "hidden")][0].float() for i in range(n_layers)]
    final = final_norm_name(stack)

    def np32(t: torch.Tensor) -> np.ndarray:
        return t.detach().float().numpy().astype(np.float32, copy=False)

    return LayerAnalysis(
        stack=stack,
        norm=norm,
        sublayers=sublayers,
        stream_norms=np32(stream_norms),
        update_norms=np32(update_norms),
        update_ratios=np32(update_norms / stream_norms[:-1].clamp_min(1e-12)),
        ln_in_mean=np32(torch.stack([m for m, _ in in_stats])),
        ln_in_std=np32(torch.stack([s for _, s in in_stats])),
        ln_out_mean=np32(torch.stack([m for m, _ in out_stats])),
        ln_out_std=np32(torch.stack([s for _, s in out_stats])),
        ffn_hidden=[np32(h) for h in hidden],
        ffn_active=np.stack([np32((h > 0).sum(-1)) for h in hidden]).astype(np.int64)
        if hidden
        else np.zeros((0, stream_norms.shape[1]), dtype=np.int64),
        final_norms=np32(_row_norm(trace[final][0])) if norm == "pre" and final in trace else None,
    )
