"""A cached step equals a full recompute: the new token's attention row in every layer and head, and its logits,
within 1e-6 (float64), over many steps; in float32 within 1e-5; the cache's buffers are allocated once."""

from __future__ import annotations

import pytest
import torch

from model import Ablation
from model.gpt import GPT, GPTConfig, KVCache


def _model(dtype=torch.float64, **sizes) -> GPT:
    torch.manual_seed(7)
    settings = {"vocab_size": 19, "d_model": 24, "n_heads": 3, "n_layers": 3, "d_ff": 48, "max_len": 20, **sizes}
    model = GPT(GPTConfig(**settings)).to(dtype).eval()
    with torch.no_grad():  # trained-looking weights: the cache must not rely on small ones
        for p in model.parameters():
            p.add_(0.2 * torch.randn_like(p))
    return model


@pytest.mark.parametrize(("dtype", "tol"), [(torch.float64, 1e-6), (torch.float32, 1e-5)])
def test_each_cached_step_equals_a_full_recompute(dtype, tol):
    model = _model(dtype)
    ids = torch.randint(0, 19, (2, 20))
    cache = KVCache(model.config)
    with torch.inference_mode():
        model(ids[:, :4], cache=cache)  # the prompt, 4 tokens at once
        for t in range(4, 20):
            step_logits, step = model(ids[:, t : t + 1], record=True, cache=cache)
            full_logits, full = model(ids[:, : t + 1], record=True)
            torch.testing.assert_close(step_logits[:, 0], full_logits[:, -1], atol=tol, rtol=0)
            for i in range(model.config.n_layers):
                row = step[f"decoder.{i}.self_attn.weights"]  # (B, H, 1, t + 1)
                assert row.shape == (2, 3, 1, t + 1)
                torch.testing.assert_close(row[:, :, 0], full[f"decoder.{i}.self_attn.weights"][:, :, -1],
                                           atol=tol, rtol=0)  # fmt: skip
                torch.testing.assert_close(step[f"decoder.{i}.self_attn.k"],
                                           full[f"decoder.{i}.self_attn.k"], atol=tol, rtol=0)  # fmt: skip
    assert cache.length == 20 and cache.room == 0


def test_the_fused_path_with_a_cache_equals_the_traced_one():
    model = _model()
    ids = torch.randint(0, 19, (1, 12))
    plain, traced = KVCache(model.config), KVCache(model.config)
    with torch.inference_mode():
        a = model(ids[:, :5], cache=plain)
        b, _ = model(ids[:, :5], record=True, cache=traced)
        torch.testing.assert_close(a, b, atol=1e-12, rtol=0)
        a = model(ids[:, 5:9], cache=plain)  # several new tokens after a cache: the causal mask's last rows
        b, _ = model(ids[:, 5:9], record=True, cache=traced)
        torch.testing.assert_close(a, b, atol=1e-12, rtol=0)
        torch.testing.assert_close(a, model(ids[:, :9])[:, 5:], atol=1e-10, rtol=0)


def test_a_cache_works_with_an_ablation():
    model = _model()
    ids = torch.randint(0, 19, (1, 8))
    off = Ablation(heads_off=frozenset({("decoder.1.self_attn", 2)}), temperature=2.0, scale=False)
    cache = KVCache(model.config)
    with torch.inference_mode():
        model(ids[:, :7], ablation=off, cache=cache)
        step = model(ids[:, 7:], ablation=off, cache=cache)[:, 0]
        torch.testing.assert_close(step, model(ids, ablation=off)[:, -1], atol=1e-10, rtol=0)


def test_the_cache_allocates_its_buffers_once_and_refuses_overflow():
    model = _model()
    cache = KVCache(model.config)
    with torch.inference_mode():
        model(torch.tensor([[1, 2, 3]]), cache=cache)
        pointers = [cache.keys(i).data_ptr() for i in range(3)]
        for token in range(17):
            model(torch.tensor([[token]]), cache=cache)
        assert [cache.keys(i).data_ptr() for i in range(3)] == pointers
        assert cache.keys(0).shape == (1, 3, 20, 8) == cache.values(2).shape
        with pytest.raises(ValueError, match="context of 20"):
            model(torch.tensor([[1]]), cache=cache)


def test_a_cache_is_refused_without_the_causal_mask():
    model = _model()
    cache = KVCache(model.config)
    with torch.inference_mode():
        model(torch.tensor([[1, 2]]), ablation=Ablation(causal=False), cache=cache)  # filling it is one full read
        with pytest.raises(ValueError, match="causal mask"):
            model(torch.tensor([[3]]), ablation=Ablation(causal=False), cache=cache)
