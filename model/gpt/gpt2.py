"""GPT-2's files → our GPT: its config.json read as a GPTConfig, and its tensor names mapped onto ours (one table).

GPT-2's names → ours: wte, wpe, ln_f → the same; h.{i}.ln_1 → decoder.{i}.self_block.norm; h.{i}.attn.c_attn →
self_attn.in_proj_weight / in_proj_bias; h.{i}.attn.c_proj → self_attn.out_proj; h.{i}.ln_2 → ffn_block.norm;
h.{i}.mlp.c_fc / c_proj → ffn.linear1 / linear2. GPT-2's four projections are Conv1D layers, whose weight is stored
(in, out): ours are nn.Linear (out, in), so those weights are transposed (c_attn's transpose is [W_Q; W_K; W_V],
MultiHeadAttention's in_proj_weight). A leading "transformer." is dropped; the causal-mask buffers (attn.bias,
attn.masked_bias) are not weights, and lm_head is wte itself (tied) unless config.json unties it. Options of GPT-2's
config that this code does not compute are refused by name, so a folder either runs exactly as transformers would run
it or does not open.
"""

from __future__ import annotations

import re
from typing import Any

import torch

from ..errors import N_, FolderError
from ..naming import Stack, layer_name
from .config import MAX_CONTEXT, GPTConfig

MODEL_TYPE = "gpt2"
ACTIVATIONS = ("gelu_new", "gelu_pytorch_tanh")  # both are GELU's tanh form, the one our blocks compute
CONV1D = ("attn.c_attn", "attn.c_proj", "mlp.c_fc", "mlp.c_proj")  # stored (in, out): transposed on load
PARTS = {  # inside h.{i}: GPT-2's module → ours, inside decoder.{i}
    "ln_1": "self_block.norm",
    "attn.c_attn": "self_attn.in_proj",
    "attn.c_proj": "self_attn.out_proj",
    "ln_2": "ffn_block.norm",
    "mlp.c_fc": "ffn.linear1",
    "mlp.c_proj": "ffn.linear2",
}
TOP = {"wte.weight", "wpe.weight", "ln_f.weight", "ln_f.bias"}  # the same names in both
SKIPPED = re.compile(r"h\.\d+\.attn\.(bias|masked_bias)")  # causal-mask buffers of older checkpoints
HEAD = "lm_head.weight"  # the tied head: wte again when a file holds it
BLOCK = re.compile(r"h\.(\d+)\.(.+)\.(weight|bias)")
# options GPT-2's config may set that change the computation: the value our code computes
UNSUPPORTED: dict[str, Any] = {
    "scale_attn_weights": True,
    "scale_attn_by_inverse_layer_idx": False,
    "reorder_and_upcast_attn": False,
    "add_cross_attention": False,
}


def config_from_gpt2(data: dict[str, Any]) -> GPTConfig:
    """The GPTConfig of a GPT-2 config.json (model_type "gpt2"); FolderError names an option this code does not
    implement (another activation, unscaled or upcast attention, cross-attention) or a missing size. An untied head
    (tie_word_embeddings false) is a GPTConfig with tied False: lm_head.weight is then a weight of its own."""
    activation = data.get("activation_function", "gelu_new")
    if activation not in ACTIVATIONS:
        raise FolderError(
            N_("config.json's activation_function is {got}; this GPT computes only {want}."),
            got=repr(activation), want=", ".join(ACTIVATIONS),
        )  # fmt: skip
    for key, want in UNSUPPORTED.items():
        got = data.get(key, want)
        if got != want:
            raise FolderError(
                N_("config.json sets {key} to {got}; this GPT computes only {want}."),
                key=key, got=repr(got), want=repr(want),
            )  # fmt: skip
    sizes = {"vocab_size": "vocab_size", "d_model": "n_embd", "n_heads": "n_head", "n_layers": "n_layer",
             "max_len": "n_positions"}  # fmt: skip
    missing = sorted(theirs for theirs in sizes.values() if theirs not in data)
    if missing:
        raise FolderError(N_("config.json is missing: {names}."), names=", ".join(missing))
    n_positions = data["n_positions"]
    if isinstance(n_positions, int) and n_positions > MAX_CONTEXT:
        raise FolderError(
            N_("config.json asks for max_len {max_len}; models here take at most {limit} tokens."),
            max_len=n_positions, limit=MAX_CONTEXT,
        )  # fmt: skip
    d_model = data["n_embd"]
    inner = data.get("n_inner")
    tied = data.get("tie_word_embeddings", True)
    try:
        return GPTConfig(
            **{ours: data[theirs] for ours, theirs in sizes.items()},
            d_ff=inner if inner is not None else (4 * d_model if isinstance(d_model, int) else d_model),
            layer_norm_eps=float(data.get("layer_norm_epsilon", 1e-5)),
            tied=tied,
        )
    except (TypeError, ValueError) as exc:
        raise FolderError(N_("config.json has an invalid model config: {error}"), error=exc) from None


def our_name(name: str, tied: bool = True) -> str | None:
    """Our state-dict name for a GPT-2 tensor name; None for a tensor that is not a weight of ours (a mask buffer, the
    head when it is tied to wte); FolderError for a name GPT-2 does not have."""
    short = name.removeprefix("transformer.")
    if short in TOP:
        return short
    if short == HEAD:
        return None if tied else HEAD
    if SKIPPED.fullmatch(short):
        return None
    block = BLOCK.fullmatch(short)
    if block is None or block.group(2) not in PARTS:
        raise FolderError(N_("model.safetensors holds {name}, which GPT-2 has no place for."), name=name)
    layer, module, kind = block.groups()
    joint = "_" if module == "attn.c_attn" else "."  # in_proj_weight, in_proj_bias; linear1.weight, …
    return f"{layer_name(Stack.DECODER, int(layer))}.{PARTS[module]}{joint}{kind}"  # the block's own state-dict name


def our_tensor(name: str, tensor: torch.Tensor) -> torch.Tensor:
    """A GPT-2 tensor as our parameter holds it: float32, Conv1D weights transposed (in, out) → (out, in)."""
    block = BLOCK.fullmatch(name.removeprefix("transformer."))
    tensor = tensor.float()
    if block is not None and block.group(2) in CONV1D and block.group(3) == "weight":
        return tensor.T.contiguous()
    return tensor


def gpt2_state_to_ours(tensors: dict[str, torch.Tensor], tied: bool = True) -> dict[str, torch.Tensor]:
    """A GPT2LMHeadModel's state dict (or a GPT-2 model.safetensors) under our GPT's names."""
    out = {}
    for name, tensor in tensors.items():
        ours = our_name(name, tied)
        if ours is not None:
            out[ours] = our_tensor(name, tensor)
    return out
