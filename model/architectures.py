"""The model families by name: which config and which module each `arch` builds.

Every family offers the same small interface, so decoding, running, checkpoints and training
never ask which one they hold: `config.arch`, `config.max_len`, `encode(src, trace, ablation)`,
`decode(tgt, memory, src_mask, trace, ablation)`, `decode_next(tgt, memory, src_mask, cache,
ablation)` and `forward(src, tgt, record=..., ablation=...)` → logits or (logits, Trace).

These are the families trained here. The third, "bert" (model/bert/: MiniLM, encoder-only, pretrained), is loaded from
its installed package by model/io/pretrained.py and never built from a checkpoint or trained, so it is not in
CONFIGS or MODELS; code that branches on config.arch meets "transformer", "rnn" or "bert" (naming.FAMILIES).
"""

from __future__ import annotations

from .bert.model import BertEncoder
from .errors import N_, LabError
from .rnn.config import RNNConfig
from .rnn.model import RNNSeq2Seq
from .transformer.config import ModelConfig
from .transformer.model import Seq2SeqTransformer

Seq2SeqModel = Seq2SeqTransformer | RNNSeq2Seq
AnyConfig = ModelConfig | RNNConfig
AnyTransformer = Seq2SeqTransformer | BertEncoder  # the models with attention blocks: the toy encoder–decoder, MiniLM

CONFIGS: dict[str, type[ModelConfig] | type[RNNConfig]] = {"transformer": ModelConfig, "rnn": RNNConfig}
DEFAULT_ARCH = "transformer"  # checkpoints written before the RNN family carry no architecture field


def build_model(config: AnyConfig) -> Seq2SeqModel:
    """A freshly initialised model of the config's family: each config class builds its own model class."""
    if isinstance(config, RNNConfig):
        return RNNSeq2Seq(config)
    return Seq2SeqTransformer(config)


def config_from_dict(arch: str, data: object) -> AnyConfig:
    """The config of family `arch` from its JSON dict (anything else is refused); ValueError names what is wrong."""
    if arch not in CONFIGS:
        raise LabError(N_("unknown architecture {arch}; known: {known}."), arch=repr(arch), known=", ".join(CONFIGS))
    return CONFIGS[arch].from_dict(data)
