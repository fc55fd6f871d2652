"""The KV cache, in one short exact panel: the keys and values a GPT keeps per layer as the text grows, and what a
step for the newest token computes anew (one row). The shapes are read off a real cached run of the model
(model.gpt.KVCache), not written from the config."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st
import torch

from model.gpt import KVCache, LoadedGPT
from model.naming import AttentionKind, attention_name

from ..i18n import _

Shape = tuple[int, ...]


@dataclass(frozen=True)
class CachedStep:
    """A cached run: the prompt but its last token fed at once, then the last token as one step."""

    layers: int
    before: Shape  # a layer's cached K (or V) before the step: (B, H, T − 1, dk)
    new: Shape  # the step's own query (and its new key and value row): (B, H, 1, dk)
    after: Shape  # after the step: (B, H, T, dk)
    row: Shape  # the step's attention weights: (B, H, 1, T)


def cached_step(loaded: LoadedGPT, ids: list[int]) -> CachedStep:
    """Run `ids` (at most the context) with a KVCache: all but the last token, then the last one alone."""
    config = loaded.config
    cache = KVCache(config)
    head = torch.tensor([ids], dtype=torch.long)  # (1, T)
    with torch.inference_mode():
        if len(ids) > 1:
            loaded.model(head[:, :-1], cache=cache)
        before = tuple(cache.keys(0).shape) if len(ids) > 1 else (1, config.n_heads, 0, config.d_head)
        _logits, step = loaded.model(head[:, -1:], record=True, cache=cache)
    kind = AttentionKind.DECODER
    return CachedStep(
        config.n_layers,
        before,
        tuple(step[attention_name(kind, 0, "q")].shape),
        tuple(cache.keys(0).shape),
        tuple(step[attention_name(kind, 0, "weights")].shape),
    )


def shape_text(shape: Shape) -> str:
    return " × ".join(str(n) for n in shape)


def kv_cache_panel(loaded: LoadedGPT, ids: list[int]) -> None:
    """The panel, folded: a table of the cached and new shapes, and one sentence on what the step saved. Its cached run
    is made only while it is open (an edit's time goes to what is on screen)."""
    box = st.expander(_("The KV cache: what a step for the next token computes"), key="nt_kv", on_change="rerun")
    if box.open:
        with box:
            cache_table(cached_step(loaded, ids))


def cache_table(step: CachedStep) -> None:
    rows = [
        (_("cached before the newest token"), step.before),
        (_("computed by its step (one token)"), step.new),
        (_("cached after the step"), step.after),
    ]
    header = _("| | K of each layer (batch × heads × tokens × d_head) | V of each layer |")
    lines = [header, "|---|---|---|"] + [f"| {what} | {shape_text(s)} | {shape_text(s)} |" for what, s in rows]
    st.markdown("\n".join(lines))
    st.caption(
        _(
            "Each of the {layers} layers keeps the keys and values of every token so far. A step for the next token "
            "computes one token's query, key and value, appends the key and value, and computes one new attention row "
            "per head ({row}), where reading the whole text again would compute {full}."
        ).format(
            layers=step.layers, row=shape_text(step.row), full=shape_text((*step.row[:2], step.row[3], step.row[3]))
        )
    )
