"""Hugging Face BERT weights → BertEncoder's parameters: one table of names, Q, K and V stacked into in_proj.

Hugging Face keeps query, key and value as three Linear layers; our MultiHeadAttention holds them as one
in_proj_weight = [W_Q; W_K; W_V] (torch.nn.MultiheadAttention's layout), so the three are concatenated in that order.
Every other tensor is renamed as it is. A tensor that is missing, left over, of another shape, not floating point or
not finite is a CheckpointError naming it, before anything reaches the model.
"""

from __future__ import annotations

import re

import torch

from ..errors import N_, CheckpointError
from .model import BertEncoder

LAYERS = "encoder"  # BertEncoder's ModuleList of layers (its state-dict prefix)
EMBEDDINGS = {  # Hugging Face name → ours
    "embeddings.word_embeddings.weight": "embeddings.word.weight",
    "embeddings.position_embeddings.weight": "embeddings.position.weight",
    "embeddings.token_type_embeddings.weight": "embeddings.token_type.weight",
    "embeddings.LayerNorm.weight": "embeddings.norm.weight",
    "embeddings.LayerNorm.bias": "embeddings.norm.bias",
}
LAYER_PARTS = {  # inside encoder.layer.{i}: Hugging Face name → ours (inside encoder.{i})
    "attention.output.dense.weight": "self_attn.out_proj.weight",
    "attention.output.dense.bias": "self_attn.out_proj.bias",
    "attention.output.LayerNorm.weight": "attn_block.norm.weight",
    "attention.output.LayerNorm.bias": "attn_block.norm.bias",
    "intermediate.dense.weight": "ffn.linear1.weight",
    "intermediate.dense.bias": "ffn.linear1.bias",
    "output.dense.weight": "ffn.linear2.weight",
    "output.dense.bias": "ffn.linear2.bias",
    "output.LayerNorm.weight": "ffn_block.norm.weight",
    "output.LayerNorm.bias": "ffn_block.norm.bias",
}
QKV = ("query", "key", "value")  # attention.self.{query,key,value}.{weight,bias}, stacked in this order
# a buffer of 0…511, the [CLS] pooler MiniLM skips, and the pretraining heads on top of the encoder (cls.predictions,
# cls.seq_relationship: a BertForMaskedLM or BertForPreTraining folder such as bert-base-uncased holds them)
UNUSED = re.compile(r"(embeddings\.position_ids|pooler\..*|cls\..*)")
LAYER_KEY = re.compile(r"encoder\.layer\.(\d+)\.(.+)")
OLD_NAMES = {".gamma": ".weight", ".beta": ".bias"}  # LayerNorm names of checkpoints older than transformers 4


def _ours(i: int, part: str) -> str:
    return f"{LAYERS}.{i}.{part}"


def convert(tensors: dict[str, torch.Tensor], n_layers: int) -> dict[str, torch.Tensor]:
    """Our state dict from a Hugging Face BertModel's tensors (a leading "bert." is dropped, LayerNorm gamma/beta
    read as weight/bias). CheckpointError for a tensor this encoder has no place for."""
    theirs: dict[str, torch.Tensor] = {}
    for name, tensor in tensors.items():
        name = name.removeprefix("bert.")
        for old, new in OLD_NAMES.items():
            if name.endswith(old) and "LayerNorm" in name:
                name = name.removesuffix(old) + new
        theirs[name] = tensor
    ours: dict[str, torch.Tensor] = {}
    stacked: dict[tuple[int, str], dict[str, torch.Tensor]] = {}
    for name, tensor in theirs.items():
        layer = LAYER_KEY.fullmatch(name)
        if name in EMBEDDINGS:
            ours[EMBEDDINGS[name]] = tensor
        elif layer is not None and layer.group(2) in LAYER_PARTS:
            ours[_ours(int(layer.group(1)), LAYER_PARTS[layer.group(2)])] = tensor
        elif layer is not None and (qkv := re.fullmatch(r"attention\.self\.(query|key|value)\.(weight|bias)",
                                                          layer.group(2))):  # fmt: skip
            stacked.setdefault((int(layer.group(1)), qkv.group(2)), {})[qkv.group(1)] = tensor
        elif UNUSED.fullmatch(name) is None:
            raise CheckpointError(N_("model.safetensors holds {name}, which this encoder has no place for."), name=name)
    for (i, kind), parts in sorted(stacked.items()):
        absent = [p for p in QKV if p not in parts]
        if absent:
            raise CheckpointError(
                N_("model.safetensors has no {names} for layer {layer}."),
                names=", ".join(f"attention.self.{p}.{kind}" for p in absent), layer=i,
            )  # fmt: skip
        ours[_ours(i, f"self_attn.in_proj_{kind}")] = torch.cat([parts[p] for p in QKV])  # (3d, d) or (3d,)
    too_deep = sorted({int(k.split(".")[1]) for k in ours if k.startswith(LAYERS + ".")} - set(range(n_layers)))
    if too_deep:
        raise CheckpointError(
            N_("model.safetensors has layer {layer}; config.json says {n} layers."), layer=too_deep[0], n=n_layers
        )
    return ours


def all_finite(tensor: torch.Tensor) -> bool:
    """Whether every value is finite, from one float64 sum: a NaN or an infinity makes the sum non-finite, and float32
    values cannot overflow a float64 sum. Several times faster than isfinite(t).all() on MiniLM's 22 M values."""
    return bool(torch.isfinite(tensor.sum(dtype=torch.float64)))


def load_weights(model: BertEncoder, tensors: dict[str, torch.Tensor]) -> BertEncoder:
    """Put Hugging Face tensors into `model` (built on any device, e.g. "meta": the tensors are assigned, not
    copied) after checking every name, shape and value; returns the model in eval mode, without gradients."""
    state = convert(tensors, model.config.n_encoder_layers)
    expected = {name: (tuple(p.shape), p.dtype) for name, p in model.state_dict().items()}
    missing = sorted(set(expected) - set(state))
    if missing:
        listed = ", ".join(missing[:4]) + (" …" if len(missing) > 4 else "")
        raise CheckpointError(N_("model.safetensors does not match config.json (missing: {missing})."), missing=listed)
    for name, tensor in state.items():
        shape, _ = expected[name]
        if tuple(tensor.shape) != shape:
            raise CheckpointError(
                N_("model.safetensors does not match config.json: {key} has shape {shape}, the config needs {needed}."),
                key=name, shape=tuple(tensor.shape), needed=shape,
            )  # fmt: skip
        if not tensor.is_floating_point() or not all_finite(tensor):
            raise CheckpointError(N_("model.safetensors: {key} holds non-finite or non-float values."), key=name)
    model.load_state_dict({k: v.float() for k, v in state.items()}, strict=True, assign=True)
    model.requires_grad_(False)
    return model.eval()
