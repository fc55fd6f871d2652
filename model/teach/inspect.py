"""Read one attention block of a trained model: its weights as matrices and its numbers from a trace.

The walkthrough writes Q = X W_Q + b_Q (row vectors times a matrix, as textbooks do); torch stores
in_proj_weight as [W_Q; W_K; W_V] in (out, in) layout, so the matrices here are its transposes.

Any of our Transformers: the encoder–decoder (Seq2SeqTransformer), the encoder-only BERT family (BertEncoder,
MiniLM) and the decoder-only GPT, whose layers keep their modules under the same names (model/bert/layer.py,
model/gpt/block.py); MiniLM has encoder blocks only, a GPT causal decoder self-attention only (naming.GPT_KINDS).
"""

from __future__ import annotations

import numpy as np
from torch import nn

from ..architectures import AnyTransformer
from ..bert.layer import BertLayer
from ..bert.model import BertEncoder
from ..gpt.block import GPTBlock
from ..gpt.model import GPT
from ..naming import (
    FAMILY_KINDS,
    TRANSFORMER_KINDS,
    AttentionKind,
    Stack,
    attention_name,
    ffn_name,
    final_norm_name,
    input_name,
)
from ..trace import Trace
from ..transformer.layers import DecoderLayer, EncoderLayer, MultiHeadAttention
from .walkthrough import select_head

KINDS = TRANSFORMER_KINDS  # the blocks the walkthrough can open: encoder, decoder (masked) and cross-attention


def kinds_of(model: AnyTransformer) -> tuple[AttentionKind, ...]:
    """The kinds of attention the model has: all three for the encoder–decoder, the encoder's for MiniLM, the
    decoder's (causal self-attention) for a GPT."""
    return FAMILY_KINDS[model.config.arch]


def n_layers(model: AnyTransformer, kind: AttentionKind | str) -> int:
    """Layers holding attention of this kind (0 for a kind the model lacks: MiniLM's decoder, a GPT's encoder or
    cross-attention)."""
    kind = AttentionKind(kind)
    if kind not in kinds_of(model):
        return 0
    if isinstance(model, GPT):
        return len(model.decoder)  # its one kind: decoder self-attention
    if kind.stack is Stack.ENCODER:
        return len(model.encoder)
    return 0 if isinstance(model, BertEncoder) else len(model.decoder)


def _kind(kind: AttentionKind | str, model: AnyTransformer | None = None) -> AttentionKind:
    """The kind, if the walkthrough can open its blocks (KINDS, or those the model has); ValueError otherwise."""
    kind = AttentionKind(kind)
    kinds = KINDS if model is None else kinds_of(model)
    if kind not in kinds:
        raise ValueError(f"kind must be one of {', '.join(kinds)}, got {kind!r}.")
    return kind


def _modules(model: AnyTransformer, kind: AttentionKind | str, layer: int) -> tuple[MultiHeadAttention, nn.LayerNorm]:
    """The MultiHeadAttention module and the LayerNorm of the Sublayer around it."""
    kind = _kind(kind, model)
    if not 0 <= layer < n_layers(model, kind):
        raise ValueError(f"layer must be in 0..{n_layers(model, kind) - 1}, got {layer}.")
    if not isinstance(model, GPT) and (isinstance(model, BertEncoder) or kind is AttentionKind.ENCODER):
        encoder_layer = model.encoder[layer]
        # nn.ModuleList types its items as any nn.Module; BertLayer keeps EncoderLayer's module names
        assert isinstance(encoder_layer, EncoderLayer | BertLayer)
        return encoder_layer.self_attn, encoder_layer.attn_block.norm
    block = model.decoder[layer]
    assert isinstance(block, DecoderLayer | GPTBlock)
    if kind is AttentionKind.DECODER:
        return block.self_attn, block.self_block.norm
    assert isinstance(block, DecoderLayer)  # a GPTBlock has no cross-attention: _kind refused it above
    return block.cross_attn, block.cross_block.norm


def _np(t) -> np.ndarray:
    return t.detach().double().numpy()


def all_weights(model: AnyTransformer, kind: AttentionKind | str, layer: int) -> dict[str, np.ndarray]:
    """W_Q, W_K, W_V, W_O as (d, d) matrices in the x W convention, the biases, LayerNorm γ, β and ε (0-d)."""
    attn, norm = _modules(model, kind, layer)
    d = attn.d_model
    w, b = attn.in_proj_weight, attn.in_proj_bias
    return {
        "W_Q": _np(w[:d].T), "W_K": _np(w[d : 2 * d].T), "W_V": _np(w[2 * d :].T),
        "b_Q": _np(b[:d]), "b_K": _np(b[d : 2 * d]), "b_V": _np(b[2 * d :]),
        "W_O": _np(attn.out_proj.weight.T), "b_O": _np(attn.out_proj.bias),
        "ln_gamma": _np(norm.weight), "ln_beta": _np(norm.bias), "ln_eps": np.asarray(norm.eps, dtype=np.float64),
    }  # fmt: skip


def attention_weights(model: AnyTransformer, kind: AttentionKind | str, layer: int, head: int) -> dict[str, np.ndarray]:
    """One head's W_Q, W_K, W_V (d, dk) and b_Q, b_K, b_V (dk,), plus the whole W_O (d, d) and b_O."""
    weights = all_weights(model, kind, layer)
    dk = model.config.d_model // model.config.n_heads
    cols = slice(head * dk, (head + 1) * dk)
    picked = {n: weights[n][:, cols] for n in ("W_Q", "W_K", "W_V")}
    picked |= {n: weights[n][cols] for n in ("b_Q", "b_K", "b_V")}
    return picked | {"W_O": weights["W_O"], "b_O": weights["b_O"]}


def _layer_output(stack: Stack, layer: int, pre_ln: bool, mlp: bool = True) -> str:
    """Trace name of what layer `layer` of `stack` hands on (its input for layer + 1); an attention-only GPT block's
    (mlp False) is its attention's sum."""
    if not mlp:
        return attention_name(AttentionKind.DECODER, layer, "resid")
    return ffn_name(stack, layer, "resid" if pre_ln else "norm")


def attention_inputs(
    trace: Trace, model: AnyTransformer, kind: AttentionKind | str, layer: int
) -> dict[str, np.ndarray]:
    """What this block read, from the trace (batch 0):

    X (Lq, d): the rows multiplied by W_Q; M (Lk, d): the rows multiplied by W_K and W_V (X itself for
    self-attention, the encoder output for cross); R (Lq, d): the residual stream the output is added
    to (= X post-LN; pre-LN X is LayerNorm(R)).
    """
    kind = _kind(kind, model)
    pre_ln = model.config.norm == "pre"
    if kind is AttentionKind.CROSS:
        previous = attention_name(AttentionKind.DECODER, layer, "resid" if pre_ln else "norm")
    elif layer == 0:
        previous = input_name(kind.query_side)
    else:  # self-attention reads the output of the layer below in its own stack
        stack = Stack.ENCODER if kind is AttentionKind.ENCODER else Stack.DECODER
        previous = _layer_output(stack, layer - 1, pre_ln, getattr(model.config, "mlp", True))
    R = trace.numpy(previous).astype(np.float64)
    X = trace.numpy(attention_name(kind, layer, "norm")).astype(np.float64) if pre_ln else R
    if kind is AttentionKind.CROSS:
        assert not isinstance(model, GPT)  # _kind refused cross-attention for a GPT above
        last = len(model.encoder) - 1
        memory = final_norm_name(Stack.ENCODER) if pre_ln else _layer_output(Stack.ENCODER, last, pre_ln)
        M = trace.numpy(memory).astype(np.float64)
    else:
        M = X
    return {"X": X, "M": M, "R": R}


def from_trace(trace: Trace, model: AnyTransformer, kind: AttentionKind | str, layer: int) -> dict[str, np.ndarray]:
    """Every array of the walkthrough for one attention block, all heads, exactly as traced.

    Same keys and layout as `walkthrough.worked_example`, plus the block's real biases and LayerNorm.
    """
    weights = all_weights(model, kind, layer)  # first: a kind or layer the model lacks is a ValueError naming it
    arrays = {
        key: trace.numpy(attention_name(kind, layer, part)).astype(np.float64)
        for key, part in (
            ("Q", "q"), ("K", "k"), ("V", "v"), ("scores", "scores"), ("scaled", "scaled"),
            ("masked", "masked"), ("weights", "weights"), ("heads", "head_out"), ("concat", "concat"),
            ("out", "out"), ("resid", "resid"),
        )
    }  # fmt: skip
    pre_ln = model.config.norm == "pre"
    # Post-LN: norm = LayerNorm(resid), the block's output. Pre-LN normalises before: no norm after.
    arrays["norm"] = arrays["resid"] if pre_ln else trace.numpy(attention_name(kind, layer, "norm")).astype(np.float64)
    arrays["mask"] = ~np.isneginf(arrays["masked"][0])  # (Lq, Lk) True = may attend (same for every head)
    return attention_inputs(trace, model, kind, layer) | weights | arrays


def head_view(
    trace: Trace, model: AnyTransformer, kind: AttentionKind | str, layer: int, head: int
) -> dict[str, np.ndarray]:
    """`from_trace` for one head (see walkthrough.select_head)."""
    return select_head(from_trace(trace, model, kind, layer), head)
