"""Numbers computed from traces for the pages to draw; pure PyTorch/NumPy, no plotting.

attention.py   per-head entropy and peak, the mean over heads, attention rollout, attention maps of any family
layers.py      inside a layer: the residual stream, each sublayer's update, LayerNorm statistics, FFN activity
rnn.py         the RNN lessons: one decoder step opened up, accuracy by input length, gradients through time
knockout.py    heads switched off: which heads a model has, their link code, weights with heads off
probe.py       the attention of one fixed probe input, taken while a model trains
atlas.py       the head atlas: each head's share of attention per role (previous, next, self, [CLS], [SEP],
               punctuation, mirror, previous line, induction), its entropy and dominant role, on one input or
               averaged over a fixed set; lines.py the lines of a poem for its previous-line role
induction.py   induction heads: the induction and previous-token scores, the in-context loss, every head's scores on a
               repeated batch, the circuit's two heads
"""
