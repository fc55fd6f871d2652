"""GPTConfig: the sizes of a decoder-only GPT in the GPT-2 layout, checked with messages a student understands.

The layout is fixed where GPT-2 fixes it (learned positions, pre-LN blocks, GELU's tanh form, a final LayerNorm, the
LM head tied to the token embedding), so those are read-only properties: code written for our Transformer
(config.norm, config.positional, config.n_decoder_layers, config.d_head) reads a GPTConfig the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..config_base import DictConfig, require_heads_divide, require_probability, require_whole
from ..errors import N_, LabError

MAX_CONTEXT = 4096  # rows of the position table a config may ask for (a file's config is read before any weight)


@dataclass(frozen=True)
class GPTConfig(DictConfig):
    """Sizes of a decoder-only language model (defaults: a small character-level GPT)."""

    arch: ClassVar[str] = "gpt"
    required: ClassVar[tuple[str, ...]] = ("vocab_size",)

    vocab_size: int
    d_model: int = 128
    n_heads: int = 4
    n_layers: int = 4
    d_ff: int = 512  # 4 · d_model, as in GPT-2
    max_len: int = 128  # the context: rows of the learned position table
    layer_norm_eps: float = 1e-5
    dropout: float = 0.0
    mlp: bool = True  # False: attention-only blocks (no ln_2, no MLP, no decoder.{i}.ffn.* in a trace)
    tied: bool = True  # False: an LM head of its own (lm_head, no bias) instead of the token embedding

    def __post_init__(self) -> None:
        for name in ("vocab_size", "d_model", "n_heads", "d_ff"):
            require_whole(name, getattr(self, name))
        require_whole("n_layers", self.n_layers, 1, 48)
        require_whole("max_len", self.max_len, 1, MAX_CONTEXT)
        require_heads_divide(self.d_model, self.n_heads)
        eps = self.layer_norm_eps
        if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 < eps < 1:
            raise LabError(N_("layer_norm_eps must be a small positive number, got {eps}."), eps=eps)
        require_probability("dropout", self.dropout)
        for name in ("mlp", "tied"):
            if not isinstance(getattr(self, name), bool):
                value = repr(getattr(self, name))
                raise LabError(N_("{name} must be true or false, got {value}."), name=name, value=value)

    # ---- what the layout fixes (read like ModelConfig's fields) ----

    @property
    def d_head(self) -> int:
        """Width of one head's query/key/value vectors, d_k = d_model / n_heads."""
        return self.d_model // self.n_heads

    @property
    def n_decoder_layers(self) -> int:
        """The blocks: a GPT is a decoder stack (causal self-attention, no cross-attention)."""
        return self.n_layers

    @property
    def n_encoder_layers(self) -> int:
        """0: a decoder-only model has no encoder."""
        return 0

    @property
    def positional(self) -> str:
        """'learned': a trained table of position rows (wpe), added to the token embeddings."""
        return "learned"

    @property
    def norm(self) -> str:
        """'pre': each block normalises its input, x + sublayer(LayerNorm(x)); a final LayerNorm ends the stack."""
        return "pre"

    @property
    def activation(self) -> str:
        """'gelu_tanh': GPT-2's MLP activation, GELU's tanh approximation."""
        return "gelu_tanh"

    @property
    def tgt_vocab_size(self) -> int:
        """The output vocabulary, the same as the input's (the head is tied to the embedding)."""
        return self.vocab_size
