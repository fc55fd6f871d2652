"""Traced forward latency against torch.nn.Transformer of the same dimensions, as ratios from one run.

    python bench/forward.py [--repeats 200] [--lengths 16 64 256]

Both sides get embeddings and an output projection, batch 1, eval mode, inference_mode, 2 threads.
Runs are interleaved so machine noise hits both sides alike; medians are printed.
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch
from torch import nn

from model import ModelConfig, Seq2SeqTransformer
from services.allocator import keep_freed_memory

D_MODEL, HEADS, LAYERS, D_FF, VOCAB = 64, 4, 2, 128, 64


class Reference(nn.Module):
    """nn.Transformer with embeddings and a generator, sized like our model."""

    def __init__(self, max_len: int):
        super().__init__()
        self.src_embed, self.tgt_embed = nn.Embedding(VOCAB, D_MODEL), nn.Embedding(VOCAB, D_MODEL)
        self.pos = nn.Parameter(torch.zeros(max_len, D_MODEL), requires_grad=False)
        self.core = nn.Transformer(D_MODEL, HEADS, LAYERS, LAYERS, D_FF, dropout=0.0, batch_first=True)
        self.generator = nn.Linear(D_MODEL, VOCAB)

    def forward(self, src, tgt):
        T = tgt.shape[1]
        mask = nn.Transformer.generate_square_subsequent_mask(T)
        x = self.src_embed(src) + self.pos[: src.shape[1]]
        y = self.tgt_embed(tgt) + self.pos[:T]
        return self.generator(self.core(x, y, tgt_mask=mask, tgt_is_causal=True))


def timed(fn, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=200)
    p.add_argument("--lengths", type=int, nargs="+", default=[16, 64, 256])
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    keep_freed_memory()  # as the app server does: the ratios in services/allocator.py were measured so
    torch.manual_seed(0)
    max_len = max(args.lengths)
    config = ModelConfig(VOCAB, VOCAB, D_MODEL, HEADS, LAYERS, LAYERS, D_FF, max_len=max_len)
    ours, ref = Seq2SeqTransformer(config).eval(), Reference(max_len).eval()
    print(f"d_model {D_MODEL}, {HEADS} heads, {LAYERS}+{LAYERS} layers, d_ff {D_FF}, batch 1, {args.threads} threads")
    header = ("T", "traced ms", "untraced ms", "nn.Transformer ms", "traced/nn", "untraced/nn")
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, (5, 10, 12, 18, 10, 12), strict=True)))
    for T in args.lengths:
        src = torch.randint(4, VOCAB, (1, T))
        tgt = torch.randint(4, VOCAB, (1, T))
        cases = {
            "traced": lambda src=src, tgt=tgt: ours(src, tgt, record=True),
            "untraced": lambda src=src, tgt=tgt: ours(src, tgt),
            "nn": lambda src=src, tgt=tgt: ref(src, tgt),
        }
        times: dict[str, list[float]] = {k: [] for k in cases}
        with torch.inference_mode():
            for fn in cases.values():
                timed(fn, 10)  # warm-up
            for _ in range(args.repeats // 10):
                for k, fn in cases.items():
                    times[k] += timed(fn, 10)
        med = {k: statistics.median(v) for k, v in times.items()}
        print(
            f"{T:>5} {med['traced']:>10.2f} {med['untraced']:>12.2f} {med['nn']:>18.2f} "
            f"{med['traced'] / med['nn']:>10.2f} {med['untraced'] / med['nn']:>12.2f}"
        )


if __name__ == "__main__":
    main()
