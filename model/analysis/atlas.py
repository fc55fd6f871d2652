"""The head atlas: what each attention head attends to, as a share of its attention per role, and how broad it is.

For one head and one input, a role's score is the mean over query rows of the weight the row puts on that role's
keys; rows where the role does not exist are left out (the first token has no previous one), and a role no row has
is NaN (a toy model has no [CLS]). Roles, for query position i and key position j:

    previous     j = i − 1                      next         j = i + 1
    self         j = i (cross-attention: the same position in the source)
    cls, sep     the key is [CLS] / [SEP] (the BERT family only)
    punctuation  the key is punctuation (every character a Unicode punctuation mark: , . ! ? ， 。 “ …)
    mirror       j = Lk − 2 − i: the source read backwards, its <eos> left last (cross-attention and the RNN only;
                 the alignment of a model that reverses)
    previous_line  j is the token at i's offset in the line before i's (lines end at ，。 or a newline: lines.py;
                 self-attention only; what a poem's heads show: 疑 reads 床, 。 reads ，)
    induction    j is the token after an earlier occurrence of i's token (self-attention only: induction.py's
                 induction_keys; what an induction head reads on a repeated sequence)

Breadth is the entropy of each row in nats, averaged over rows, and normalised by the log of the number of keys the
row may see (1 = uniform over them, 0 = one key); rows that may see a single key are left out of the normalised one.
A head's dominant role is the role with the largest share when that share is at least DOMINANT_SHARE; otherwise
"broad" when its normalised entropy is at least BROAD_ENTROPY, else "mixed".

Pure NumPy over (H, Lq, Lk) weight arrays and token lists: head_roles for one block, trace_atlas for every block of
a trace (any family), mean_atlas to average atlases, corpus_atlas to run a model over texts and average (batched for
MiniLM), and atlas_texts for the fixed inputs of a model (MiniLM: the 50 sentences of model/bert/sentences.py; a GPT:
the 25 texts of gpt_texts.py in its language, or 25 repeated sequences for one trained on the induction task).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..bert.runner import LoadedEncoder
from ..bert.sentences import atlas_sentences
from ..gpt.induction import repeated_texts
from ..gpt.runner import LoadedGPT
from ..naming import AttentionKind, parse_attention_name, part_name
from ..runner import LoadedModel
from ..trace import Trace
from .attention import attention_maps
from .gpt_texts import gpt_texts
from .induction import induction_keys
from .lines import previous_line_keys

ROLES = ("previous", "next", "self", "cls", "sep", "punctuation", "mirror", "previous_line", "induction")
BROAD, MIXED = "broad", "mixed"
DOMINANT = (*ROLES, BROAD, MIXED)  # every value dominant_role() can give
DOMINANT_SHARE = 0.4  # a role dominates a head that gives it at least this share of its attention
BROAD_ENTROPY = 0.7  # otherwise a head whose normalised entropy is at least this is broad
CLS, SEP = "[CLS]", "[SEP]"
POSITIONAL = ("previous", "next", "self", "mirror", "previous_line")  # roles defined by positions, not tokens


def is_punctuation(token: str) -> bool:
    """Whether a token is punctuation: every character (after a WordPiece "##") in a Unicode P* category."""
    text = token.removeprefix("##")
    return bool(text) and all(unicodedata.category(ch).startswith("P") for ch in text)


def role_masks(
    query_tokens: Sequence[str], key_tokens: Sequence[str], kind: AttentionKind | str
) -> tuple[np.ndarray, np.ndarray]:
    """(masks, rows): masks (R, Lq, Lk) bool, True at the keys of each role for each query; rows (R, Lq) bool, True
    for the query rows where the role exists (has at least one key). R = len(ROLES), in ROLES' order. Read-only
    arrays, cached: every block of one input asks for the same ones."""
    return _role_masks(tuple(query_tokens), tuple(key_tokens), AttentionKind(kind))


@functools.lru_cache(maxsize=256)
def _role_masks(
    query_tokens: tuple[str, ...], key_tokens: tuple[str, ...], kind: AttentionKind
) -> tuple[np.ndarray, np.ndarray]:
    nq, nk = len(query_tokens), len(key_tokens)
    i = np.arange(nq)[:, None]  # (Lq, 1)
    j = np.arange(nk)[None, :]  # (1, Lk)
    crosses = kind in (AttentionKind.CROSS, AttentionKind.RNN)
    keys = np.array(key_tokens, dtype=object)
    token_role = {
        "cls": keys == CLS,
        "sep": keys == SEP,
        "punctuation": np.array([is_punctuation(t) for t in key_tokens], dtype=bool),
    }
    masks = np.zeros((len(ROLES), nq, nk), dtype=bool)
    for r, role in enumerate(ROLES):
        if role == "previous":
            masks[r] = j == i - 1
        elif role == "next":
            masks[r] = j == i + 1
        elif role == "self":
            masks[r] = j == i
        elif role == "mirror":
            masks[r] = (j == nk - 2 - i) if crosses else False
        elif role == "previous_line":
            above = previous_line_keys(query_tokens)[:, None]  # (Lq, 1), −1 where a query has no line above
            masks[r] = (j == above) & (above >= 0) if not crosses and query_tokens == key_tokens else False
        elif role == "induction":
            masks[r] = induction_keys(query_tokens) if not crosses and query_tokens == key_tokens else False
        else:
            masks[r] = np.broadcast_to(token_role[role][None, :], (nq, nk))
    rows = np.asarray(masks.any(axis=-1))  # (R, Lq)
    masks.flags.writeable = rows.flags.writeable = False
    return masks, rows


def row_entropy(weights: np.ndarray) -> np.ndarray:
    """Entropy in nats of each row of (…, Lq, Lk) weights, 0·log 0 = 0: (…, Lq)."""
    w = np.asarray(weights, dtype=np.float64)
    logs = np.log(np.where(w > 0, w, 1.0))
    return -(w * logs).sum(-1)


@dataclass(frozen=True)
class HeadRoles:
    """The atlas numbers of the heads of one block on one input (or averaged over several)."""

    scores: np.ndarray  # (H, R) share of attention per role, ROLES' order; NaN where the role does not apply
    entropy: np.ndarray  # (H,) mean row entropy, nats
    entropy_norm: np.ndarray  # (H,) mean of row entropy / log(keys the row may see), in [0, 1]

    def dominant(self) -> list[str]:
        """Each head's dominant role (a value of DOMINANT)."""
        return [dominant_role(s, e) for s, e in zip(self.scores, self.entropy_norm, strict=True)]


def head_roles(
    weights: np.ndarray,
    query_tokens: Sequence[str],
    key_tokens: Sequence[str],
    kind: AttentionKind | str = AttentionKind.ENCODER,
    allowed: np.ndarray | None = None,
) -> HeadRoles:
    """The role shares and breadth of every head of one block: weights (H, Lq, Lk), rows summing to 1 (or 0 for a
    row with nothing to see). allowed (Lq, Lk) bool: the keys each query may see (a causal or padding mask; None: all,
    or, for a decoder, the causal triangle). A head switched off (NaN weights) gets NaN."""
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 3 or w.shape[1:] != (len(query_tokens), len(key_tokens)):
        raise ValueError(f"weights must be (heads, {len(query_tokens)}, {len(key_tokens)}), got {w.shape}.")
    masks, rows = role_masks(query_tokens, key_tokens, kind)
    share = np.einsum("hqk,rqk->hrq", w, masks.astype(np.float64))  # (H, R, Lq)
    counted = rows.sum(-1)  # (R,)
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = np.where(counted > 0, (share * rows).sum(-1) / counted, np.nan)  # (H, R)
    if allowed is None:
        allowed = _default_allowed(kind, w.shape[1], w.shape[2])
    seen = allowed.sum(-1)  # (Lq,)
    entropy = row_entropy(w)  # (H, Lq)
    wide = seen > 1
    norm = entropy[:, wide] / np.log(seen[wide]) if wide.any() else np.full((w.shape[0], 0), np.nan)
    return HeadRoles(
        scores=scores,
        entropy=entropy.mean(-1),
        entropy_norm=norm.mean(-1) if wide.any() else np.full(w.shape[0], np.nan),
    )


def _default_allowed(kind: AttentionKind | str, nq: int, nk: int) -> np.ndarray:
    """The keys a query may see when no mask is given: the causal triangle for decoder self-attention, else all."""
    if AttentionKind(kind) is AttentionKind.DECODER:
        return np.tril(np.ones((nq, nk), dtype=bool))
    return np.ones((nq, nk), dtype=bool)


def dominant_role(scores: np.ndarray, entropy_norm: float) -> str:
    """The role a head mostly serves: the largest share if ≥ DOMINANT_SHARE, else broad (normalised entropy ≥
    BROAD_ENTROPY) or mixed. scores (R,) in ROLES' order, NaN for roles that do not apply."""
    s = np.asarray(scores, dtype=np.float64)
    if np.isfinite(s).any():
        best = int(np.nanargmax(s))
        if s[best] >= DOMINANT_SHARE:
            return ROLES[best]
    return BROAD if np.isfinite(entropy_norm) and entropy_norm >= BROAD_ENTROPY else MIXED


@dataclass(frozen=True)
class Atlas:
    """Every head of a model: blocks[b] is an attention block name (model/naming.py, "encoder.2.self_attn"), with its
    kind and layer; the arrays have one row per block and one column per head (blocks with fewer heads, the RNN's
    one, are NaN past theirs). n_inputs: how many inputs were averaged."""

    blocks: tuple[str, ...]
    kinds: tuple[AttentionKind, ...]
    layers: tuple[int, ...]
    scores: np.ndarray  # (N, H, R) share of attention per role (ROLES' order); NaN where a role does not apply
    entropy: np.ndarray  # (N, H) nats
    entropy_norm: np.ndarray  # (N, H) in [0, 1]
    n_inputs: int = 1

    @property
    def n_heads(self) -> int:
        return int(self.scores.shape[1])

    def dominant(self) -> np.ndarray:
        """(N, H) the dominant role of each head ("" where a block has no such head)."""
        out = np.full(self.entropy.shape, "", dtype=object)
        for b in range(len(self.blocks)):
            for h in range(self.n_heads):
                if not np.isnan(self.scores[b, h]).all() or np.isfinite(self.entropy[b, h]):
                    out[b, h] = dominant_role(self.scores[b, h], float(self.entropy_norm[b, h]))
        return out

    def kind_rows(self, kind: AttentionKind | str) -> list[int]:
        """The rows (blocks) of one kind, by layer: the layer × head grid of that kind is scores[rows]."""
        kind = AttentionKind(kind)
        return sorted((b for b, k in enumerate(self.kinds) if k is kind), key=lambda b: self.layers[b])

    def head(self, kind: AttentionKind | str, layer: int, head: int) -> dict[str, float | str]:
        """One head's numbers by name: each role's share, entropy, entropy_norm and dominant (for a hover)."""
        found = [row for row in self.kind_rows(kind) if self.layers[row] == layer]
        if not found or not 0 <= head < self.n_heads:
            raise ValueError(f"this atlas has no {AttentionKind(kind)} layer {layer} head {head}.")
        b = found[0]
        numbers: dict[str, float | str] = {role: float(self.scores[b, head, r]) for r, role in enumerate(ROLES)}
        numbers |= {"entropy": float(self.entropy[b, head]), "entropy_norm": float(self.entropy_norm[b, head])}
        return numbers | {"dominant": str(self.dominant()[b, head])}


def trace_atlas(trace: Trace) -> Atlas:
    """The atlas of one traced input: every attention block of the trace (any family: the encoder–decoder's encoder,
    decoder and cross blocks, the RNN's one, MiniLM's encoder), batch item 0, with the trace's tokens."""
    maps = attention_maps(trace)  # block name → (H, Lq, Lk)
    if not maps:
        raise ValueError("this trace holds no attention weights.")
    blocks = []
    for name, weights in maps.items():
        kind, _ = _parsed(name)
        queries, keys = trace.tokens(kind.query_side), trace.tokens(kind.key_side)
        blocks.append((name, weights, queries, keys, _allowed(name, trace)))
    return _atlas(blocks)


def _allowed(block: str, trace: Trace) -> np.ndarray | None:
    """(Lq, Lk) bool: the keys each query could see, from the block's −inf cells in `masked` (None without one)."""
    name = part_name(block, "masked")
    if name not in trace:
        return None
    masked = trace.numpy(name)  # (H, Lq, Lk) for a Transformer, (T, S) for the RNN
    return ~np.isneginf(masked[0] if masked.ndim == 3 else masked)


Block = tuple[str, np.ndarray, Sequence[str], Sequence[str], np.ndarray | None]  # name, (H, Lq, Lk), queries, keys


def _parsed(name: str) -> tuple[AttentionKind, int]:
    found = parse_attention_name(name)
    if found is None:
        raise ValueError(f"{name!r} is not an attention block.")
    return found


def _atlas(blocks: Sequence[Block]) -> Atlas:
    """The atlas of one input from each block's weights, tokens and allowed keys."""
    width = max(weights.shape[0] for _, weights, _, _, _ in blocks)
    n = len(blocks)
    scores = np.full((n, width, len(ROLES)), np.nan)
    entropy, norm = np.full((n, width), np.nan), np.full((n, width), np.nan)
    for b, (name, weights, queries, keys, allowed) in enumerate(blocks):
        roles = head_roles(weights, queries, keys, _parsed(name)[0], allowed)
        heads = weights.shape[0]
        scores[b, :heads], entropy[b, :heads], norm[b, :heads] = roles.scores, roles.entropy, roles.entropy_norm
    parsed = [_parsed(name) for name, *_ in blocks]
    return Atlas(
        tuple(name for name, *_ in blocks), tuple(k for k, _ in parsed), tuple(layer for _, layer in parsed),
        scores, entropy, norm,
    )  # fmt: skip


def mean_atlas(atlases: Sequence[Atlas]) -> Atlas:
    """The mean of atlases of the same model over several inputs, each input weighted by its n_inputs; a role
    absent from an input (NaN there) is averaged over the inputs that have it."""
    if not atlases:
        raise ValueError("mean_atlas needs at least one atlas.")
    first = atlases[0]
    for other in atlases[1:]:
        if other.blocks != first.blocks or other.scores.shape != first.scores.shape:
            raise ValueError("atlases of different models (or blocks) cannot be averaged.")
    counts = np.array([a.n_inputs for a in atlases], dtype=np.float64)

    def mean(arrays: list[np.ndarray]) -> np.ndarray:
        stack = np.stack(arrays)  # (A, …)
        w = counts.reshape(-1, *([1] * (stack.ndim - 1))) * np.isfinite(stack)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(w.sum(0) > 0, np.nan_to_num(stack * w).sum(0) / w.sum(0), np.nan)

    return Atlas(
        first.blocks, first.kinds, first.layers,
        scores=mean([a.scores for a in atlases]), entropy=mean([a.entropy for a in atlases]),
        entropy_norm=mean([a.entropy_norm for a in atlases]), n_inputs=int(counts.sum()),
    )  # fmt: skip


class Runs(Protocol):
    """What corpus_atlas needs of a loaded model: run(text) → Trace (LoadedModel and LoadedEncoder both do)."""

    def run(self, text: str) -> Trace: ...


CORPUS_SIZE, CORPUS_SEED = 50, 2017  # a toy model's fixed inputs: 50 sources of its task, always the same
ATLAS_SEQUENCES = 25  # an induction model's fixed inputs: as many repeated sequences as a GPT has texts


def atlas_texts(loaded: LoadedModel | LoadedEncoder | LoadedGPT) -> tuple[str, ...]:
    """The fixed inputs the atlas averages over: MiniLM's 50 shipped sentences (model/bert/sentences.py, English
    then Chinese); a GPT's 25 texts in the language it writes (gpt_texts.py: Shakespeare, or Tang poems), or, for one
    trained on the induction task, 25 of its repeated sequences (fixed seed); for a toy
    model, 50 sources of its own task drawn with a fixed seed (the same every time)."""
    if isinstance(loaded, LoadedEncoder):
        return atlas_sentences()
    if isinstance(loaded, LoadedGPT):
        return repeated_texts(ATLAS_SEQUENCES) if loaded.task.name == "induction" else gpt_texts(loaded.task.language)
    return tuple(source for source, _ in loaded.task.sample(CORPUS_SIZE, CORPUS_SEED))


def corpus_atlas(loaded: Runs | LoadedEncoder, texts: Sequence[str], batch_size: int = 25) -> Atlas:
    """The atlas averaged over texts (each text one input). A toy model runs each text alone through run() (on its
    own greedy output); MiniLM runs them in padded batches of batch_size (padding masked out, so every sentence
    gets the numbers it gets alone: tests/model/bert/test_parity.py), several times faster than one by one."""
    if not texts:
        raise ValueError("corpus_atlas needs at least one text.")
    if not isinstance(loaded, LoadedEncoder):
        return mean_atlas([trace_atlas(loaded.run(text)) for text in texts])
    atlases = []
    by_length = sorted(texts, key=len)  # similar lengths share a batch: less padding (the mean ignores order)
    for start in range(0, len(by_length), batch_size):
        trace, pieces = loaded.run_batch(list(by_length[start : start + batch_size]))
        maps = {name: trace.numpy(part_name(name, "weights"), batch=None) for name in attention_maps(trace)}
        for row, sentence in enumerate(pieces):
            n = len(sentence.ids)
            blocks = [(name, w[row, :, :n, :n], sentence.tokens, sentence.tokens, None) for name, w in maps.items()]
            atlases.append(_atlas(blocks))
    return mean_atlas(atlases)
