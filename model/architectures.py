"""The model families by name: which config and which module each `arch` builds.

Every sequence-to-sequence family offers the same small interface, so decoding, running, checkpoints and training
never ask which one they hold: `config.arch`, `config.max_len`, `encode(src, trace, ablation)`,
`decode(tgt, memory, src_mask, trace, ablation)`, `decode_next(tgt, memory, src_mask, cache,
ablation)` and `forward(src, tgt, record=..., ablation=...)` → logits or (logits, Trace).

These are the families trained here on the toy tasks (CONFIGS). The decoder-only "gpt" (model/gpt/: one sequence, a
character vocabulary, trained on text by `python -m model.train --task gpt-en | gpt-zh`) is a language model, not a
task model: LANGUAGE_MODELS, built by build_language_model; checkpoints hold any of ARCHITECTURES. "bert"
(model/bert/: MiniLM, encoder-only, pretrained) is loaded from its installed package by model/io/pretrained.py and
never built from a checkpoint or trained, so it is in none of them; code that branches on config.arch meets
"transformer", "rnn", "bert" or "gpt" (naming.FAMILIES).
"""

from __future__ import annotations

from .bert.model import BertEncoder
from .errors import N_, LabError
from .gpt.config import GPTConfig
from .gpt.model import GPT
from .rnn.config import RNNConfig
from .rnn.model import RNNSeq2Seq
from .transformer.config import ModelConfig
from .transformer.model import Seq2SeqTransformer

Seq2SeqModel = Seq2SeqTransformer | RNNSeq2Seq
AnyConfig = ModelConfig | RNNConfig
# The models with attention blocks: the toy encoder–decoder, MiniLM (encoder only), a GPT (decoder only)
AnyTransformer = Seq2SeqTransformer | BertEncoder | GPT

CONFIGS: dict[str, type[ModelConfig] | type[RNNConfig]] = {"transformer": ModelConfig, "rnn": RNNConfig}
LANGUAGE_MODELS: dict[str, type[GPTConfig]] = {GPTConfig.arch: GPTConfig}  # decoder-only: text, no task
ARCHITECTURES: tuple[str, ...] = (*CONFIGS, *LANGUAGE_MODELS)  # every family a checkpoint may hold
DEFAULT_ARCH = "transformer"  # checkpoints written before the RNN family carry no architecture field


def build_model(config: AnyConfig) -> Seq2SeqModel:
    """A freshly initialised model of the config's family: each config class builds its own model class."""
    if isinstance(config, RNNConfig):
        return RNNSeq2Seq(config)
    return Seq2SeqTransformer(config)


def build_language_model(config: GPTConfig) -> GPT:
    """A freshly initialised decoder-only language model (GPT-2's initialisation)."""
    return GPT(config)


def config_from_dict(arch: str, data: object) -> AnyConfig:
    """The config of toy-task family `arch` (one of CONFIGS) from its JSON dict (anything else is refused);
    ValueError names what is wrong."""
    if arch not in CONFIGS:
        raise LabError(N_("unknown architecture {arch}; known: {known}."), arch=repr(arch), known=", ".join(CONFIGS))
    return CONFIGS[arch].from_dict(data)


def checkpoint_config_from_dict(arch: str, data: object) -> AnyConfig | GPTConfig:
    """The config of any family a checkpoint may hold (ARCHITECTURES: the toy-task ones and the GPT)."""
    if arch in LANGUAGE_MODELS:
        return LANGUAGE_MODELS[arch].from_dict(data)
    return config_from_dict(arch, data)
