"""BertConfig: the sizes of a BERT-family encoder, read from a Hugging Face config.json, checked before any weight.

The family is fixed where BERT fixes it (post-LN, GELU, learned absolute positions, an embedding LayerNorm), so those
are read-only properties: code written for our Transformer (config.norm, config.positional, config.n_decoder_layers,
config.d_head) reads a BertConfig the same way. `arch` is "bert".
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from ..config_base import require_heads_divide, require_whole
from ..errors import N_, CheckpointError, LabError

SEQUENCE_LIMIT = 256  # tokens a sentence-transformers MiniLM reads ([CLS] and [SEP] included): its max_seq_length


@dataclass(frozen=True)
class BertConfig:
    """Sizes of an encoder-only BERT-family model (defaults: all-MiniLM-L6-v2)."""

    arch: ClassVar[str] = "bert"

    vocab_size: int = 30522
    d_model: int = 384  # hidden_size
    n_heads: int = 12  # num_attention_heads
    n_encoder_layers: int = 6  # num_hidden_layers
    d_ff: int = 1536  # intermediate_size
    max_positions: int = 512  # max_position_embeddings: rows of the learned position table
    type_vocab_size: int = 2  # token types (segments); one sentence uses type 0 only
    layer_norm_eps: float = 1e-12
    pad_id: int = 0
    max_len: int = SEQUENCE_LIMIT  # longest input the app runs, in tokens, [CLS] and [SEP] included

    def __post_init__(self) -> None:
        for name in ("vocab_size", "d_model", "n_heads", "n_encoder_layers", "d_ff", "max_positions",
                     "type_vocab_size", "max_len"):  # fmt: skip
            require_whole(name, getattr(self, name))
        require_heads_divide(self.d_model, self.n_heads)
        if self.max_len > self.max_positions:
            raise LabError(
                N_("max_len ({max_len}) cannot exceed the {rows} rows of the position table."),
                max_len=self.max_len, rows=self.max_positions,
            )  # fmt: skip
        require_whole("pad_id", self.pad_id, 0, self.vocab_size - 1)
        if not 0 < self.layer_norm_eps < 1:
            raise LabError(N_("layer_norm_eps must be a small positive number, got {eps}."), eps=self.layer_norm_eps)

    # ---- what the family fixes (read like ModelConfig's fields) ----

    @property
    def d_head(self) -> int:
        """Width of one head's query/key/value vectors, d_k = d_model / n_heads (32 for MiniLM)."""
        return self.d_model // self.n_heads

    @property
    def n_decoder_layers(self) -> int:
        """0: an encoder-only model has no decoder (and so no decoder or cross-attention)."""
        return 0

    @property
    def norm(self) -> str:
        """'post': LayerNorm(x + sublayer(x)), as in BERT."""
        return "post"

    @property
    def positional(self) -> str:
        """'learned': a trained table of position rows, added to the token embeddings."""
        return "learned"

    @property
    def activation(self) -> str:
        """'gelu': the feed-forward block's activation (the exact erf form)."""
        return "gelu"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_hf(cls, data: object, max_len: int = SEQUENCE_LIMIT) -> BertConfig:
        """The config of a Hugging Face BERT config.json (a dict); CheckpointError names what does not fit this
        family: another model type, an activation other than GELU, relative positions, a causal (decoder) or
        cross-attending BERT, a missing size."""
        if not isinstance(data, dict):
            raise CheckpointError(N_("config.json must be a JSON object, got {kind}."), kind=type(data).__name__)
        fixed = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute", "is_decoder": False,
                 "add_cross_attention": False}  # fmt: skip
        for key, want in fixed.items():
            got = data.get(key, None if key in ("model_type", "hidden_act") else want)  # the rest default to BERT's
            if got != want:
                raise CheckpointError(
                    N_("config.json's {key} is {got}; this encoder reads only {want}."),
                    key=key, got=repr(got), want=repr(want),
                )  # fmt: skip
        sizes = {
            "vocab_size": "vocab_size", "d_model": "hidden_size", "n_heads": "num_attention_heads",
            "n_encoder_layers": "num_hidden_layers", "d_ff": "intermediate_size",
            "max_positions": "max_position_embeddings", "type_vocab_size": "type_vocab_size",
        }  # fmt: skip
        missing = sorted(key for key in sizes.values() if key not in data)
        if missing:
            raise CheckpointError(N_("config.json is missing: {names}."), names=", ".join(missing))
        try:
            return cls(
                **{ours: data[theirs] for ours, theirs in sizes.items()},
                layer_norm_eps=float(data.get("layer_norm_eps", 1e-12)),
                pad_id=data.get("pad_token_id", 0),
                max_len=max_len,
            )
        except (TypeError, ValueError) as exc:
            raise CheckpointError(N_("config.json has an invalid model config: {error}"), error=exc) from None
