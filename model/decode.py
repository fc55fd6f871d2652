"""Greedy decoding, and the traced teacher-forced pass over the decoder's own output."""

from __future__ import annotations

import torch

from .ablation import NO_ABLATION, Ablation
from .architectures import Seq2SeqModel
from .tasks import BOS_ID, EOS_ID
from .trace import Trace


@torch.inference_mode()
def greedy_decode(
    model: Seq2SeqModel, src: torch.Tensor, max_new: int | None = None, ablation: Ablation = NO_ABLATION
) -> torch.Tensor:
    """(B, S) source ids → (B, N) generated ids, each row ending at its first <eos> (padded after).

    The encoder runs once. Each step asks the model for the next token's logits (`decode_next`): the
    Transformer re-reads its whole prefix (sequences are short), the RNN takes one step from its state.
    """
    limit = model.config.max_len
    max_new = min(limit, src.shape[1] + 2 if max_new is None else max_new)
    memory, src_mask = model.encode(src, ablation=ablation)
    tgt = torch.full((src.shape[0], 1), BOS_ID, dtype=torch.long)
    done = torch.zeros(src.shape[0], dtype=torch.bool)
    cache = None
    for _ in range(max_new):
        logits, cache = model.decode_next(tgt, memory, src_mask, cache, ablation=ablation)  # (B, V)
        nxt = logits.argmax(-1).masked_fill(done, EOS_ID)
        tgt = torch.cat([tgt, nxt[:, None]], dim=1)
        done |= nxt == EOS_ID
        if bool(done.all()) or tgt.shape[1] >= limit:
            break
    return tgt[:, 1:]


def strip_after_eos(ids: torch.Tensor) -> list[int]:
    """One row of generated ids, up to (not including) its first <eos>."""
    out = []
    for i in ids.tolist():
        if i == EOS_ID:
            break
        out.append(i)
    return out


@torch.inference_mode()
def decode_with_trace(
    model: Seq2SeqModel, src: torch.Tensor, ablation: Ablation = NO_ABLATION, max_new: int | None = None
) -> tuple[list[int], Trace]:
    """Greedy-decode one source (1, S), then trace a teacher-forced pass over <bos> + the output."""
    generated = strip_after_eos(greedy_decode(model, src, max_new, ablation)[0])
    generated = generated[: model.config.max_len - 1]
    tgt = torch.tensor([[BOS_ID, *generated]], dtype=torch.long)
    _, trace = model(src, tgt, record=True, ablation=ablation)
    return generated, trace
