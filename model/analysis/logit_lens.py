"""The logit lens: what each layer would predict as the next token, read through the final LayerNorm and the LM head.

A GPT's residual stream carries one vector per position from the embeddings (`tgt.input`) through every block
(`decoder.{i}.ffn.resid`). Reading any of them as if it were the last, ln_f(x) @ wteᵀ (GPT.unembed), gives that
layer's guess at the next token (nostalgebraist, "interpreting GPT: the logit lens", 2020). At the last layer the
lens is the model's own prediction; earlier rows show where, in depth, the answer forms.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from ..errors import N_, InputError
from ..gpt.model import GPT
from ..naming import AttentionKind, Side, Stack, attention_name, ffn_name, input_name
from ..trace import Trace


@dataclass(frozen=True)
class LensRow:
    """One depth of the stream read through the head: 0 = the embeddings, i + 1 = after block i."""

    depth: int
    name: str  # the trace name read: "tgt.input", "decoder.{i}.ffn.resid"
    ids: list[int]  # the k most likely next tokens at this depth, most likely first
    tokens: list[str]
    probs: list[float]
    answer_rank: int  # 1-based rank of the model's final answer at this depth
    answer_prob: float


@dataclass(frozen=True)
class LogitLens:
    """The lens at one position: a row per depth, and the final answer each row is measured against."""

    position: int  # 0-based, counted from the start of the text the trace read
    answer_id: int  # the model's most likely next token (from its own logits)
    answer: str
    rows: list[LensRow]


def _stable_top(probs: torch.Tensor, k: int) -> torch.Tensor:
    """The ids of each row's k largest values, most likely first, ties in id order (as a stable sort's first k)."""
    values = torch.topk(probs, k, dim=-1).values[:, -1:]  # (depths, 1): the k-th largest
    candidates = probs >= values  # every tie with the k-th is in: a stable sort of those few is the answer
    out = []
    for row, keep in zip(probs, candidates, strict=True):
        ids = keep.nonzero()[:, 0]
        out.append(ids[torch.sort(row[ids], descending=True, stable=True).indices[:k]])
    return torch.stack(out)


def stream_names(n_layers: int, mlp: bool = True) -> list[str]:
    """The residual stream's names in depth order: the embeddings, then after each block (its MLP's sum; an
    attention-only block's is its attention's)."""
    after = (lambda i: ffn_name(Stack.DECODER, i, "resid")) if mlp else (
        lambda i: attention_name(AttentionKind.DECODER, i, "resid"))  # fmt: skip
    return [input_name(Side.TGT)] + [after(i) for i in range(n_layers)]


def logit_lens(model: GPT, trace: Trace, vocabulary: list[str], position: int = -1, k: int = 5) -> LogitLens:
    """Each depth's top-k next tokens and the rank and probability of the final answer, at `position` (negative:
    from the end) of batch item 0 of a GPT's trace."""
    names = stream_names(model.config.n_layers, model.config.mlp)
    length = trace[names[0]].shape[1]
    if isinstance(position, bool) or not isinstance(position, int) or not -length <= position < length:
        raise InputError(
            N_("The position must be a whole number from 1 to {length}; got {value}."),
            length=length, value=repr(position),
        )  # fmt: skip
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= len(vocabulary):
        raise InputError(N_("k must be a whole number from 1 to {size}; got {value}."), size=len(vocabulary),
                         value=repr(k))  # fmt: skip
    at = position % length
    with torch.inference_mode():
        streams = torch.stack([trace[name][0, at] for name in names])  # (depths, d)
        probs = torch.softmax(model.unembed(streams).double(), dim=-1)  # (depths, V)
    answer = int(torch.argmax(probs[-1]))
    # the top k and the answer's rank as a stable descending sort gives them, without sorting the whole vocabulary
    # (GPT-2's 50,257 tokens at 13 depths: the sort was most of the lens's time)
    top_ids = _stable_top(probs, k)  # (depths, k)
    at_answer = probs[:, answer : answer + 1]  # (depths, 1)
    ranks = (probs > at_answer).sum(-1) + (probs[:, :answer] == at_answer).sum(-1) + 1  # (depths,)
    rows = []
    for depth, name in enumerate(names):
        top = [int(i) for i in top_ids[depth]]
        rank = int(ranks[depth])
        rows.append(LensRow(depth, name, top, [vocabulary[i] for i in top], [float(probs[depth, i]) for i in top],
                            rank, float(probs[depth, answer])))  # fmt: skip
    return LogitLens(at, answer, vocabulary[answer], rows)
