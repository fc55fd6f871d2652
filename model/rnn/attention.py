"""Attention of an RNN decoder over the encoder states: three score functions and the softmax.

    additive (Bahdanau et al., 2015): e_i = vᵀ tanh(W s + U h_i)
    dot      (Luong et al., 2015):    e_i = sᵀ h_i
    general  (Luong et al., 2015):    e_i = sᵀ W h_i
    a = softmax(e) over the real (non-padding) source tokens;  c = Σ_i a_i h_i

The key side (U h_i, W h_i or h_i) does not depend on the decoder step, so it is computed once.
"""

from __future__ import annotations

import torch
from torch import nn

from ..errors import N_, LabError, one_of

SCORE_FUNCTIONS = ("additive", "dot", "general")


class AttentionScore(nn.Module):
    """score(s, h_i) for every encoder state at once. Parameters: W, U, v (additive) or W (general)."""

    def __init__(self, kind: str, d_dec: int, d_enc: int):
        super().__init__()
        if kind not in SCORE_FUNCTIONS:
            raise one_of("score", SCORE_FUNCTIONS, kind)
        if kind == "dot" and d_dec != d_enc:
            raise LabError(N_("dot scores need d_dec == d_enc, got {d_dec} and {d_enc}."), d_dec=d_dec, d_enc=d_enc)
        self.kind = kind
        if kind == "additive":
            d_attn = d_dec
            self.W = nn.Parameter(torch.empty(d_attn, d_dec))  # x W convention: W s is F.linear(s, W)
            self.U = nn.Parameter(torch.empty(d_attn, d_enc))
            self.v = nn.Parameter(torch.empty(d_attn))
            for p, fan_in in ((self.W, d_dec), (self.U, d_enc), (self.v, d_attn)):
                nn.init.uniform_(p, -(fan_in**-0.5), fan_in**-0.5)
        elif kind == "general":
            self.W = nn.Parameter(torch.empty(d_dec, d_enc))
            nn.init.uniform_(self.W, -(d_enc**-0.5), d_enc**-0.5)

    def keys(self, states: torch.Tensor) -> torch.Tensor:
        """The step-independent part: U h_i (additive), W h_i (general) or h_i (dot): (B, S, ·)."""
        if self.kind == "additive":
            return states @ self.U.T  # (B, S, d_attn)
        if self.kind == "general":
            return states @ self.W.T  # (B, S, d_dec)
        return states

    def forward(self, s: torch.Tensor, keys: torch.Tensor) -> torch.Tensor:
        """s (B, d_dec), keys from `keys()` → raw scores e (B, S)."""
        if self.kind == "additive":
            return torch.tanh(keys + (s @ self.W.T)[:, None, :]) @ self.v  # (B, S)
        return (keys @ s[:, :, None]).squeeze(-1)  # (B, S)


def attend(
    scores: torch.Tensor, keep: torch.Tensor, states: torch.Tensor, temperature: float = 1.0
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """scores (B, S), keep (B, S) True at real tokens, states (B, S, d_enc) → (masked, weights, context).

    masked = scores / temperature with −inf at padding; weights = softmax(masked), exactly 0 at
    padding; context (B, d_enc) = weights @ states.
    """
    masked = (scores / temperature).masked_fill(~keep, float("-inf"))
    weights = torch.softmax(masked, dim=-1)  # (B, S)
    context = (weights[:, None, :] @ states).squeeze(1)  # (B, d_enc)
    return masked, weights, context
