"""`python -m model.train --task gpt-en | gpt-zh`: the recipes of the shipped GPTs, and the command that trains them.

A recipe names the corpus (model/corpora), the vocabulary cap, the model's sizes and the training settings; every
one of them can be changed on the command line. The checkpoint's metadata records the steps, the seconds, the
corpus and its split, the held-out and train losses beside the unigram baseline's, and the command itself.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, fields, replace

import torch

from ..corpora import Corpus, load_corpus
from ..corpora.unigram import cross_entropy, unigram_probs
from ..errors import LabError
from ..io.checkpoint import save_checkpoint
from .config import GPTConfig
from .runner import GPT_TASKS, LoadedGPT
from .train import GPTStepInfo, GPTTrainConfig, GPTTrainResult, encode, train_gpt
from .vocab import CharVocab


@dataclass(frozen=True)
class Recipe:
    """How one shipped GPT is made."""

    name: str  # the checkpoint's name, "gpt-en"
    corpus: str  # model/corpora's name
    task: str  # GPT_TASKS' key: what the pages say it writes
    vocab_cap: int | None  # the most characters kept (the unknown mark among them); None keeps every one
    whole_documents_only: bool  # train only on documents with no character outside the vocabulary
    model: GPTConfig  # vocab_size is set from the vocabulary
    train: GPTTrainConfig


RECIPES = {
    recipe.name: recipe
    for recipe in (
        Recipe("gpt-en", "shakespeare", "shakespeare", None, False,
               GPTConfig(vocab_size=1, d_model=128, n_heads=4, n_layers=4, d_ff=512, max_len=128),
               GPTTrainConfig(steps=3500, batch_size=32, lr=2e-3, warmup=200, cpu_minutes=19)),
        Recipe("gpt-zh", "tang-jueju", "tang-poems", 3000, True,
               GPTConfig(vocab_size=1, d_model=128, n_heads=4, n_layers=2, d_ff=512, max_len=64, dropout=0.2),
               GPTTrainConfig(steps=3000, batch_size=32, lr=2e-3, warmup=100, cpu_minutes=10)),
    )
}  # fmt: skip


@dataclass
class Trained:
    """A trained GPT with its vocabulary, the run's result and the baseline, ready to save."""

    loaded: LoadedGPT
    result: GPTTrainResult
    unigram_held_out_loss: float


@dataclass(frozen=True)
class RecipeData:
    """A recipe's text as token ids: what it trains on and what it is judged on."""

    corpus: Corpus
    train_ids: torch.Tensor  # (N,) the training documents kept, each followed by the separator
    held_ids: torch.Tensor  # (M,) every held-out document
    documents_used: int  # the training documents kept


def recipe_data(recipe: Recipe, vocab: CharVocab | None = None) -> tuple[CharVocab, RecipeData]:
    """The recipe's vocabulary (built from the training text, capped; or the one given, a trained model's) and its
    ids. CorpusMissing when the corpus was not fetched."""
    corpus = load_corpus(recipe.corpus)
    if vocab is None:
        vocab = CharVocab.from_text(corpus.train_text(), max_size=recipe.vocab_cap)
    documents = corpus.train
    if recipe.whole_documents_only:  # a poem with a □ teaches the model to write □: leave those out
        documents = tuple(d for d in corpus.train if not vocab.encode(d)[1])
    train_ids = encode(vocab, "".join(d + corpus.separator for d in documents))
    return vocab, RecipeData(corpus, train_ids, encode(vocab, corpus.held_out_text()), len(documents))


def train_recipe(recipe: Recipe, callback=None, should_stop=None) -> Trained:
    """Train `recipe` on its corpus (CorpusMissing when the corpus was not fetched)."""
    vocab, data = recipe_data(recipe)
    config = replace(recipe.model, vocab_size=len(vocab))
    result = train_gpt(config, data.train_ids, data.held_ids, recipe.train, callback=callback, should_stop=should_stop)
    unigram = cross_entropy(unigram_probs(data.train_ids, len(vocab)), data.held_ids)
    meta = data.corpus.describe() | {"train_documents_used": data.documents_used} | result.meta() | {
        "unigram_held_out_loss": round(unigram, 4), "vocab_cap": recipe.vocab_cap,
        "held_out_unknown": round(float((data.held_ids == vocab.unk_id).float().mean()), 4),
        "threads": torch.get_num_threads(),
    }  # fmt: skip
    loaded = LoadedGPT(result.model, vocab, name=recipe.name, task=GPT_TASKS[recipe.task], meta=meta)
    return Trained(loaded, result, unigram)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m model.train", description=__doc__.splitlines()[0])
    p.add_argument("--task", required=True, choices=sorted(RECIPES))
    p.add_argument("--out", help="folder to write model.safetensors + config.json into")
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads (default %(default)s)")
    p.add_argument("--vocab-cap", type=int, help="most characters kept, the unknown mark among them")
    for f in fields(GPTTrainConfig):
        kind = float if f.default is None else type(f.default)  # the time budgets default to None
        p.add_argument("--" + f.name.replace("_", "-"), type=kind, help=f"training: {f.name}")
    for name in ("d_model", "n_heads", "n_layers", "d_ff", "max_len", "dropout"):
        p.add_argument("--" + name.replace("_", "-"), type=float if name == "dropout" else int, help=f"model: {name}")
    return p.parse_args(argv)


def recipe_of(args: argparse.Namespace) -> Recipe:
    """The task's recipe with the command line's changes."""
    base = RECIPES[args.task]
    train = {f.name: getattr(args, f.name) for f in fields(GPTTrainConfig) if getattr(args, f.name) is not None}
    model = {n: getattr(args, n) for n in ("d_model", "n_heads", "n_layers", "d_ff", "max_len", "dropout")}
    cap = base.vocab_cap if args.vocab_cap is None else args.vocab_cap
    return replace(
        base, vocab_cap=cap, train=replace(base.train, **train),
        model=replace(base.model, **{k: v for k, v in model.items() if v is not None}),
    )  # fmt: skip


def main(argv: list[str]) -> int:
    from tqdm import tqdm

    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    try:
        recipe = recipe_of(args)
    except LabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    bar = tqdm(total=recipe.train.steps, desc=f"train {recipe.name}", unit="step", dynamic_ncols=True, mininterval=1)
    held: dict[str, float | None] = {"loss": None}

    def report(info: GPTStepInfo) -> None:
        bar.update(1)
        if info.held_out_loss is not None:
            held["loss"] = info.held_out_loss
        shown = "-" if held["loss"] is None else f"{held['loss']:.3f}"
        bar.set_postfix(loss=f"{info.loss:.3f}", held_out=shown, refresh=False)

    load_before = os.getloadavg()
    try:
        trained = train_recipe(recipe, callback=report)
    except LabError as exc:
        bar.close()
        print(f"error: {exc}", file=sys.stderr)
        return 1
    bar.close()
    meta = trained.loaded.meta
    meta["command"] = "python -m model.train " + " ".join(argv)
    meta["load_average"] = [round(x, 2) for x in (*load_before, *os.getloadavg())]  # before (1, 5, 15 min), after
    print(
        f"{recipe.name}: held-out loss {meta['held_out_loss']:.4f} nats/char"
        f" (unigram {meta['unigram_held_out_loss']:.4f}), train loss {meta['train_loss']:.4f},"
        f" {meta['steps']} steps in {meta['seconds']:.0f} s"
    )
    if args.out:
        print(f"saved to {save_checkpoint(trained.loaded, args.out)}")
    return 0
