"""How a GPT-2 or BERT folder's size costs a page: a traced forward (what every edit of a page runs) of random models
in the shapes of distilgpt2, GPT-2 small, medium and large, BERT-base and BERT-large, against gpt-en, at 64 and 128
tokens. It sets model/io/folder.py's LARGE_MODEL_PARAMS (where a page turns visibly slower) and LARGE_MODEL_TOKENS.

    python bench/folder_size.py [--repeats 3] [--threads 1] [--skip-large]

Random weights (our own init, no transformers, nothing downloaded): the cost of a forward does not depend on the
values. One torch thread, as the app server sets; medians of interleaved repeats, with the load average before and
after (a shared machine): compare the ratios measured in one run.
"""

from __future__ import annotations

import argparse
import functools
import os
from collections.abc import Callable

import torch
from minilm import median_ms

from model import GPT, BertConfig, BertEncoder, GPTConfig, load_pretrained

SHAPES = {  # name: (d_model, heads, layers); GPT-2's vocabulary 50,257 and context 1,024
    "distilgpt2": (768, 12, 6),
    "gpt2": (768, 12, 12),
    "gpt2-medium": (1024, 16, 24),
    "gpt2-large": (1280, 20, 36),
}
BERTS = {"bert-base": (768, 12, 12), "bert-large": (1024, 16, 24)}


def gpt2_shaped(d: int, heads: int, layers: int) -> GPT:
    config = GPTConfig(vocab_size=50257, d_model=d, n_heads=heads, n_layers=layers, d_ff=4 * d, max_len=1024)
    return GPT(config).eval().requires_grad_(False)


def bert_shaped(d: int, heads: int, layers: int) -> BertEncoder:
    config = BertConfig(vocab_size=30522, d_model=d, n_heads=heads, n_encoder_layers=layers, d_ff=4 * d)
    return BertEncoder(config).eval().requires_grad_(False)


def traced(net: torch.nn.Module, ids: torch.Tensor) -> object:
    with torch.inference_mode():
        return net(ids, record=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--skip-large", action="store_true", help="leave out gpt2-large (774 M, 3 GB)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    load_before = os.getloadavg()
    gpt_en = load_pretrained("gpt-en")
    models: dict[str, torch.nn.Module] = {"gpt-en": gpt_en.model}
    for name, shape in SHAPES.items():
        if not (args.skip_large and name == "gpt2-large"):
            torch.manual_seed(0)
            models[name] = gpt2_shaped(*shape)
    for name, shape in BERTS.items():
        torch.manual_seed(0)
        models[name] = bert_shaped(*shape)
    print(f"{args.threads} thread(s), median of {args.repeats}")
    for tokens in (64, 128):
        runs: dict[str, Callable[[], object]] = {}
        for name, net in models.items():
            vocab = 60 if name == "gpt-en" else 1000
            runs[name] = functools.partial(traced, net, torch.randint(0, vocab, (1, tokens)))
        times = median_ms(runs, args.repeats)
        print(f"traced forward, {tokens} tokens:")
        base = times["gpt-en"]
        for name, ms in times.items():
            params = sum(p.numel() for p in models[name].parameters()) / 1e6
            per = ms / params * 100
            print(f"  {name:<12} {params:8.1f} M  {ms:9.1f} ms  {ms / base:7.1f}× gpt-en  {per:6.1f} ms per 100 M")
    print(f"load average before {load_before}, after {os.getloadavg()}")


if __name__ == "__main__":
    main()
