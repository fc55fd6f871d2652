"""RNNSeq2Seq: a recurrent encoder–decoder with attention (Bahdanau et al., 2015), traced like the Transformer.

B batch, S source length, T target length, E = d_embed, d_enc = d_dec = d_hidden × directions:

    x_i = E_src[src_i]                                         src.embed          (B, S, E)
    h_1..h_S = cell over x (forwards ⧺ backwards if bidir.)     rnn.enc.h          (B, S, d_enc)
    h_fin = [forward h at the last token ; backward h at the first]   rnn.enc.final (B, d_enc)
    s_0 = tanh(W_b h_fin + b_b)
    for t = 1..T   (y_0 = <bos>; teacher forcing feeds the true y_{t-1}):
        s_{t-1}                                                rnn.dec.s_prev     (B, T, d_dec)
        e_t,i = score(s_{t-1}, h_i)                            rnn.attn.scores    (B, T, S)
        e / temperature, −inf at padding                       rnn.attn.masked    (B, T, S)
        a_t = softmax(masked)  (rows sum to 1, padding 0)      rnn.attn.weights   (B, T, S)
        c_t = Σ_i a_t,i h_i                                    rnn.attn.context   (B, T, d_enc)
        s_t = cell([E_tgt[y_{t-1}] ; c_t], s_{t-1})            rnn.dec.s          (B, T, d_dec)
        logits_t = W_o [s_t ; c_t] + b_o                       logits             (B, T, V)

The score reads s_{t-1}, the state before the step (Bahdanau's wiring); c_t feeds both the cell
and the output layer. Score `none` is the classic fixed-vector encoder–decoder (Cho et al., 2014):
c_t = h_fin at every step, so the decoder sees only the final encoder state, and the trace has no
rnn.attn.* entries. Gates: rnn.enc.gates.{reset,update} (GRU) or {input,forget,output} (LSTM),
(B, S, d_enc), and rnn.dec.gates.* (B, T, d_dec); the LSTM's cell states are rnn.enc.c / rnn.dec.c.

Ablation (models with attention): `temperature` divides the scores before the softmax, and
("rnn.attn", 0) in `heads_off` zeroes c_t (attention switched off: the decoder reads a zero
context, and the trace's rnn.attn.context shows those zeros). `positional`, `scale` and `causal` do
not apply (no positional encoding, no √d scaling, and a recurrent decoder only ever sees the past)
and are ignored, as is everything with score `none`.
"""

from __future__ import annotations

import torch
from torch import nn

from ..ablation import NO_ABLATION, Ablation
from ..errors import N_, LabError
from ..forward_checks import check_ids, new_record
from ..naming import (
    LOGITS,
    RNN_ATTN,
    RNN_DEC_C,
    RNN_DEC_GATES,
    RNN_DEC_S,
    RNN_DEC_S_PREV,
    RNN_ENC_C,
    RNN_ENC_FINAL,
    RNN_ENC_GATES,
    RNN_ENC_H,
    Side,
    embed_name,
    named,
)
from ..trace import Trace
from .attention import AttentionScore, attend
from .cells import State, make_cell
from .config import RNNConfig
from .encoder import EncoderStates, RecurrentEncoder

Cache = tuple[State, torch.Tensor | None]  # decoder state, precomputed attention keys


class RNNSeq2Seq(nn.Module):
    """Embeddings → recurrent encoder → a decoder cell stepped over time with attention → logits."""

    def __init__(self, config: RNNConfig):
        super().__init__()
        c = self.config = config
        self.src_embed = nn.Embedding(c.src_vocab_size, c.d_embed)
        self.tgt_embed = nn.Embedding(c.tgt_vocab_size, c.d_embed)
        self.dropout = nn.Dropout(c.dropout)
        self.encoder = RecurrentEncoder(c.cell, c.d_embed, c.d_hidden, c.bidirectional)
        self.bridge = nn.Linear(c.d_enc, c.d_dec)  # s_0 = tanh(W_b h_fin + b_b)
        self.score = AttentionScore(c.score, c.d_dec, c.d_enc) if c.attention else None
        self.decoder_cell = make_cell(c.cell, c.d_embed + c.d_enc, c.d_dec)
        self.generator = nn.Linear(c.d_dec + c.d_enc, c.tgt_vocab_size)

    def encode(self, src: torch.Tensor, trace: dict | None = None, ablation: Ablation = NO_ABLATION):
        """src (B, S) ids → (EncoderStates, keep (B, S) bool, True at real tokens)."""
        keep = src != self.config.pad_id
        x = self.src_embed(src)  # (B, S, E)
        memory = self.encoder(self.dropout(x), None if bool(keep.all()) else keep, record=trace is not None)
        if trace is not None:
            trace |= {embed_name(Side.SRC): x, RNN_ENC_H: memory.states, RNN_ENC_FINAL: memory.final}
            trace |= named(RNN_ENC_GATES, **memory.gates)
            if memory.cells is not None:
                trace[RNN_ENC_C] = memory.cells
        return memory, keep

    def start(self, memory: EncoderStates) -> Cache:
        """The decoder's first state s_0 and the attention keys (computed once per source)."""
        s0 = torch.tanh(self.bridge(memory.final))  # (B, d_dec)
        keys = self.score.keys(memory.states) if self.score is not None else None
        return self.decoder_cell.initial_state(s0.shape[0], s0), keys

    def step(
        self, y_embed: torch.Tensor, cache: Cache, memory: EncoderStates, keep: torch.Tensor, ablation: Ablation
    ) -> tuple[torch.Tensor, Cache, dict[str, torch.Tensor]]:
        """One decoder step: y_{t-1} embedded (B, E) → logits (B, V), the next cache, and the step's parts."""
        state, keys = cache
        parts = {RNN_DEC_S_PREV: state[0]}
        if self.score is None:
            context = memory.final  # (B, d_enc): the fixed vector
        else:
            scores = self.score(state[0], keys)  # (B, S)
            masked, weights, context = attend(scores, keep, memory.states, ablation.temperature)
            if ablation.heads_off and ablation.heads_off_in(RNN_ATTN):
                context = torch.zeros_like(context)
            parts |= named(RNN_ATTN, scores=scores, masked=masked, weights=weights, context=context)
        cell_in = self.decoder_cell.project_inputs(torch.cat([self.dropout(y_embed), context], dim=-1))
        state, gates = self.decoder_cell.step(cell_in, state)
        logits = self.generator(self.dropout(torch.cat([state[0], context], dim=-1)))  # (B, V)
        parts[RNN_DEC_S] = state[0]
        parts |= named(RNN_DEC_GATES, **gates)
        if len(state) > 1:
            parts[RNN_DEC_C] = state[1]
        return logits, (state, keys), parts

    def decode(
        self,
        tgt: torch.Tensor,
        memory: EncoderStates,
        src_mask: torch.Tensor,
        trace: dict | None = None,
        ablation: Ablation = NO_ABLATION,
        teacher_forcing: float = 1.0,
        generator: torch.Generator | None = None,
    ) -> torch.Tensor:
        """tgt (B, T) decoder inputs → logits (B, T, V).

        With teacher_forcing < 1, each step after the first feeds, per sequence, the model's own
        previous prediction with probability 1 − teacher_forcing instead of tgt (drawn from `generator`).
        """
        if not 0.0 <= teacher_forcing <= 1.0:
            raise LabError(N_("teacher_forcing is a probability in [0, 1], got {value}."), value=repr(teacher_forcing))
        embedded = self.tgt_embed(tgt)  # (B, T, E)
        cache = self.start(memory)
        logits: list[torch.Tensor] = []  # (B, V) per step
        steps: list[dict[str, torch.Tensor]] = []  # each step's named parts
        for t in range(tgt.shape[1]):
            y = embedded[:, t]
            if t and teacher_forcing < 1.0:
                own = logits[-1].detach().argmax(-1)  # (B,)
                use_true = torch.rand(tgt.shape[0], generator=generator) < teacher_forcing
                y = self.tgt_embed(torch.where(use_true, tgt[:, t], own))
            step_logits, cache, parts = self.step(y, cache, memory, src_mask, ablation)
            logits.append(step_logits)
            steps.append(parts)
        out = torch.stack(logits, dim=1)  # (B, T, V)
        if trace is not None:
            trace[embed_name(Side.TGT)] = embedded
            trace |= {name: torch.stack([p[name] for p in steps], dim=1) for name in steps[0]}
            trace[LOGITS] = out
        return out

    def decode_next(self, tgt, memory, src_mask, cache: Cache | None = None, ablation: Ablation = NO_ABLATION):
        """Logits (B, V) after the prefix tgt (B, t), and the cache for the next call.

        With a cache only the last token is fed (one cell step); without, the whole prefix is.
        """
        if cache is None:
            cache = self.start(memory)
            for t in range(tgt.shape[1] - 1):
                _, cache, _ = self.step(self.tgt_embed(tgt[:, t]), cache, memory, src_mask, ablation)
        logits, cache, _ = self.step(self.tgt_embed(tgt[:, -1]), cache, memory, src_mask, ablation)
        return logits, cache

    def forward(
        self,
        src: torch.Tensor,
        tgt: torch.Tensor,
        *,
        record: bool = False,
        ablation: Ablation = NO_ABLATION,
        teacher_forcing: float = 1.0,
        generator: torch.Generator | None = None,
    ):
        """Logits (B, T, V); with record=True, (logits, Trace) holding every named intermediate."""
        check_ids(src, tgt, self.config.max_len)
        trace = new_record(self, record)
        memory, keep = self.encode(src, trace, ablation)
        logits = self.decode(tgt, memory, keep, trace, ablation, teacher_forcing, generator)
        return logits if trace is None else (logits, Trace(trace))  # trace is None unless record
