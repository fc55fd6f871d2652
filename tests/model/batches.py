"""Random padded id batches the trace-algebra tests of both model families run on."""

from __future__ import annotations

import torch

SRC_LENGTHS, TGT_LENGTHS = [7, 4, 2], [6, 6, 3]  # unequal lengths → padding


def padded_batch(config, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    """src (3, 7) and tgt (3, 6) ids from the config's vocabularies, right-padded with 0 to the lengths above."""
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(4, config.src_vocab_size, (3, max(SRC_LENGTHS)), generator=g)
    tgt = torch.randint(4, config.tgt_vocab_size, (3, max(TGT_LENGTHS)), generator=g)
    for i, (s, t) in enumerate(zip(SRC_LENGTHS, TGT_LENGTHS, strict=True)):
        src[i, s:], tgt[i, t:] = 0, 0
    return src, tgt
