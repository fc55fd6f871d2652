"""The recurrent encoder–decoder with attention (Bahdanau et al., 2015), traced like the Transformer.

config.py      RNNConfig: cell (rnn, gru, lstm), score (additive, dot, general, none), sizes
cells.py       the plain RNN, GRU and LSTM cells, one step at a time
encoder.py     a cell run over the source, forwards and (optionally) backwards
attention.py   the score functions and the softmax over the encoder states
model.py       RNNSeq2Seq: wiring and shapes in its docstring
"""

from .config import RNNConfig
from .model import RNNSeq2Seq

__all__ = ["RNNConfig", "RNNSeq2Seq"]
