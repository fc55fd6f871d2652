"""The encoder–decoder Transformer of "Attention Is All You Need" (Vaswani et al., 2017), traced.

config.py      ModelConfig: sizes and options (post-LN or pre-LN, sinusoidal, learned or no positions)
attention.py   attention(q, k, v, mask): the paper's equation 1, every intermediate handed back
positional.py  the positional encodings
layers.py      multi-head attention, the feed-forward block, the encoder and decoder layers
model.py       Seq2SeqTransformer: embeddings → encoder → decoder → logits, with a traced forward
"""

from .config import ModelConfig
from .model import Seq2SeqTransformer

__all__ = ["ModelConfig", "Seq2SeqTransformer"]
