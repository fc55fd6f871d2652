"""A GPT block equals the same computation by torch's own modules with copied weights: nn.MultiheadAttention with the
causal mask for the attention, nn.LayerNorm, nn.Linear and nn.GELU(approximate="tanh") for the rest; and our GPT
equals a nanoGPT-style model written here with torch.nn parts."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from model.gpt import GPT, GPTConfig
from model.gpt.block import GPTBlock

TOL = 1e-5


def _config(**sizes) -> GPTConfig:
    return GPTConfig(**{"vocab_size": 17, "d_model": 32, "n_heads": 4, "n_layers": 2, "d_ff": 64, "max_len": 16,
                        **sizes})  # fmt: skip


def _reference_block(block: GPTBlock, config: GPTConfig):
    """torch's modules holding the block's weights: (ln_1, attn, ln_2, fc, gelu, proj)."""
    d = config.d_model
    ln_1, ln_2 = nn.LayerNorm(d, eps=config.layer_norm_eps), nn.LayerNorm(d, eps=config.layer_norm_eps)
    attn = nn.MultiheadAttention(d, config.n_heads, batch_first=True)
    fc, proj = nn.Linear(d, config.d_ff), nn.Linear(config.d_ff, d)
    assert block.ffn is not None and block.ffn_block is not None  # a block with its MLP (GPTConfig.mlp True)
    ln_1.load_state_dict(block.self_block.norm.state_dict())
    ln_2.load_state_dict(block.ffn_block.norm.state_dict())
    attn.load_state_dict(
        {"in_proj_weight": block.self_attn.in_proj_weight, "in_proj_bias": block.self_attn.in_proj_bias,
         "out_proj.weight": block.self_attn.out_proj.weight, "out_proj.bias": block.self_attn.out_proj.bias}
    )  # fmt: skip
    fc.load_state_dict(block.ffn.linear1.state_dict())
    proj.load_state_dict(block.ffn.linear2.state_dict())
    return ln_1, attn.eval(), ln_2, fc, nn.GELU(approximate="tanh"), proj


def _perturb(module: nn.Module) -> None:
    with torch.no_grad():
        for p in module.parameters():
            p.add_(0.1 * torch.randn_like(p))


@pytest.mark.parametrize("record", [False, True])
def test_a_block_matches_torch_modules(record):
    torch.manual_seed(4)
    config = _config()
    block = GPTBlock(config).eval()
    _perturb(block)
    ln_1, attn, ln_2, fc, gelu, proj = _reference_block(block, config)
    x = torch.randn(3, 9, config.d_model)
    causal = torch.triu(torch.ones(9, 9, dtype=torch.bool), diagonal=1)  # torch: True = may NOT attend
    h = ln_1(x)
    attn_out, attn_weights = attn(h, h, h, attn_mask=causal, need_weights=True, average_attn_weights=False)
    a = x + attn_out
    expected = a + proj(gelu(fc(ln_2(a))))
    trace: dict[str, torch.Tensor] | None = {} if record else None
    got = block(x, trace, 0)
    torch.testing.assert_close(got, expected, atol=TOL, rtol=0)
    if trace is not None:
        torch.testing.assert_close(trace["decoder.0.self_attn.weights"], attn_weights, atol=TOL, rtol=0)
        torch.testing.assert_close(trace["decoder.0.self_attn.out"], attn_out, atol=TOL, rtol=0)


class NanoGPT(nn.Module):
    """Karpathy's nanoGPT model.py forward, written with torch.nn parts (its CausalSelfAttention through
    nn.MultiheadAttention): the reference our GPT must equal."""

    def __init__(self, ours: GPT):
        super().__init__()
        c = ours.config
        self.wte, self.wpe = nn.Embedding(c.vocab_size, c.d_model), nn.Embedding(c.max_len, c.d_model)
        self.wte.load_state_dict(ours.wte.state_dict())
        self.wpe.load_state_dict(ours.wpe.state_dict())
        self.blocks = [_reference_block(b, c) for b in ours.blocks]
        self.ln_f = nn.LayerNorm(c.d_model, eps=c.layer_norm_eps)
        self.ln_f.load_state_dict(ours.ln_f.state_dict())

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        T = ids.shape[1]
        x = self.wte(ids) + self.wpe(torch.arange(T))
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        for ln_1, attn, ln_2, fc, gelu, proj in self.blocks:
            h = ln_1(x)
            x = x + attn(h, h, h, attn_mask=causal, need_weights=False)[0]
            x = x + proj(gelu(fc(ln_2(x))))
        return self.ln_f(x) @ self.wte.weight.T  # lm_head.weight is wte.weight


@pytest.mark.parametrize("record", [False, True])
def test_the_gpt_matches_a_nanogpt_written_with_torch_modules(record):
    torch.manual_seed(5)
    ours = GPT(_config(n_layers=3)).eval()
    _perturb(ours)
    ids = torch.randint(0, 17, (2, 16))
    got = ours(ids, record=True)[0] if record else ours(ids)
    torch.testing.assert_close(got, NanoGPT(ours)(ids), atol=TOL, rtol=0)


def test_gpt2_initialisation():
    torch.manual_seed(6)
    config = GPTConfig(vocab_size=500, d_model=128, n_heads=4, n_layers=8, d_ff=512, max_len=256)
    model = GPT(config)
    residual = 0.02 / (2 * config.n_layers) ** 0.5
    mlps = [block.ffn for block in model.blocks if block.ffn is not None]
    assert len(mlps) == config.n_layers
    for tensor in (model.wte.weight, model.wpe.weight, model.blocks[0].self_attn.in_proj_weight,
                   mlps[3].linear1.weight):  # fmt: skip
        assert abs(float(tensor.detach().std()) - 0.02) < 0.002
    for tensor in (model.blocks[2].self_attn.out_proj.weight, mlps[5].linear2.weight):
        assert abs(float(tensor.detach().std()) - residual) < 0.1 * residual
    for name, p in model.named_parameters():
        if name.endswith("bias"):
            assert bool((p == 0).all()), name
        if name.endswith("norm.weight") or name == "ln_f.weight":
            assert bool((p == 1).all()), name
