"""Loading BERT weights: Hugging Face names → ours, every tensor checked, config.json read and refused when it is not
the family this encoder implements. On a tiny random BERT made here, so every misfit can be built by hand."""

from __future__ import annotations

import json
import shutil

import pytest
import torch
from safetensors.torch import save_file

from model import CheckpointError
from model.bert import BertConfig, BertEncoder, load_minilm
from model.bert.layer import BertLayer
from model.bert.weights import convert, load_weights

from ..minilm import minilm, minilm_folder

TINY = BertConfig(vocab_size=20, d_model=8, n_heads=2, n_encoder_layers=2, d_ff=16, max_positions=10, max_len=10)


def hf_tensors(config: BertConfig = TINY, seed: int = 0) -> dict[str, torch.Tensor]:
    """A random BertModel state dict under Hugging Face's names (with the pooler and position_ids it also holds)."""
    g = torch.Generator().manual_seed(seed)
    d, f = config.d_model, config.d_ff

    def r(*shape: int) -> torch.Tensor:
        return torch.randn(*shape, generator=g)

    tensors = {
        "embeddings.word_embeddings.weight": r(config.vocab_size, d),
        "embeddings.position_embeddings.weight": r(config.max_positions, d),
        "embeddings.token_type_embeddings.weight": r(2, d),
        "embeddings.LayerNorm.weight": r(d), "embeddings.LayerNorm.bias": r(d),
        "embeddings.position_ids": torch.arange(config.max_positions)[None],
        "pooler.dense.weight": r(d, d), "pooler.dense.bias": r(d),
    }  # fmt: skip
    for i in range(config.n_encoder_layers):
        p = f"encoder.layer.{i}."
        for name in ("query", "key", "value"):
            tensors[p + f"attention.self.{name}.weight"], tensors[p + f"attention.self.{name}.bias"] = r(d, d), r(d)
        tensors |= {
            p + "attention.output.dense.weight": r(d, d), p + "attention.output.dense.bias": r(d),
            p + "attention.output.LayerNorm.weight": r(d), p + "attention.output.LayerNorm.bias": r(d),
            p + "intermediate.dense.weight": r(f, d), p + "intermediate.dense.bias": r(f),
            p + "output.dense.weight": r(d, f), p + "output.dense.bias": r(d),
            p + "output.LayerNorm.weight": r(d), p + "output.LayerNorm.bias": r(d),
        }  # fmt: skip
    return tensors


def loaded(tensors: dict[str, torch.Tensor]) -> BertEncoder:
    with torch.device("meta"):
        model = BertEncoder(TINY)
    return load_weights(model, tensors)


def test_names_map_and_q_k_v_stack_into_in_proj_in_that_order():
    tensors = hf_tensors()
    model = loaded(tensors)
    layer = model.encoder[1]
    assert isinstance(layer, BertLayer)
    q, k, v = (tensors[f"encoder.layer.1.attention.self.{n}.weight"] for n in ("query", "key", "value"))
    assert torch.equal(layer.self_attn.in_proj_weight[:8], q) and torch.equal(layer.self_attn.in_proj_weight[16:], v)
    assert torch.equal(layer.self_attn.in_proj_weight[8:16], k)
    assert torch.equal(layer.self_attn.in_proj_bias[8:16], tensors["encoder.layer.1.attention.self.key.bias"])
    assert torch.equal(layer.ffn.linear2.weight, tensors["encoder.layer.1.output.dense.weight"])
    assert torch.equal(layer.ffn_block.norm.bias, tensors["encoder.layer.1.output.LayerNorm.bias"])
    assert torch.equal(model.embeddings.position.weight, tensors["embeddings.position_embeddings.weight"])
    assert layer.attn_block.norm.eps == 1e-12 and not model.training
    assert not any(p.requires_grad for p in model.parameters())


def test_old_names_and_a_bert_prefix_are_read_too():
    old = {"LayerNorm.weight": "LayerNorm.gamma", "LayerNorm.bias": "LayerNorm.beta"}
    tensors = {}
    for name, tensor in hf_tensors().items():
        for new, was in old.items():
            name = name.replace(new, was)
        tensors["bert." + name] = tensor
    model = loaded(tensors)
    assert torch.equal(model.embeddings.norm.weight, tensors["bert.embeddings.LayerNorm.gamma"])


def test_the_tiny_model_matches_transformers_too():
    transformers = pytest.importorskip("transformers")
    config = transformers.BertConfig(
        vocab_size=20, hidden_size=8, num_attention_heads=2, num_hidden_layers=2, intermediate_size=16,
        max_position_embeddings=10, layer_norm_eps=1e-12,
    )  # fmt: skip
    config._attn_implementation = "eager"
    reference = transformers.BertModel(config).eval()
    tensors = hf_tensors()
    reference.load_state_dict({k: v for k, v in tensors.items() if k in reference.state_dict()}, strict=True)
    ids = torch.tensor([[1, 5, 7, 3, 2], [1, 4, 2, 0, 0]])
    keep = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]], dtype=torch.bool)
    with torch.inference_mode():
        theirs = reference(input_ids=ids, attention_mask=keep.long()).last_hidden_state
        ours = loaded(tensors)(ids, keep=keep)
    torch.testing.assert_close(ours[0], theirs[0], atol=1e-5, rtol=0)
    torch.testing.assert_close(ours[1, :3], theirs[1, :3], atol=1e-5, rtol=0)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda t: t.pop("encoder.layer.0.attention.self.key.weight"), "no attention.self.key.weight for layer 0"),
        (lambda t: t.pop("encoder.layer.1.output.dense.bias"), "missing: encoder.1.ffn.linear2.bias"),
        (lambda t: t.update({"encoder.layer.0.attention.self.rotary.weight": torch.zeros(1)}), "no place for"),
        (lambda t: t.update({"encoder.layer.0.output.dense.weight": torch.zeros(8, 15)}), "has shape (8, 15)"),
        (lambda t: t["embeddings.LayerNorm.bias"].__setitem__(3, float("nan")), "non-finite"),
        (lambda t: t.update({"embeddings.word_embeddings.weight": torch.zeros(20, 8, dtype=torch.long)}), "non-float"),
        (lambda t: t.update({"encoder.layer.2.output.dense.bias": torch.zeros(8)}), "has layer 2; config.json says 2"),
    ],
)  # fmt: skip
def test_a_tensor_that_does_not_fit_is_a_checkpoint_error_naming_it(change, words):
    tensors = hf_tensors()
    change(tensors)
    with pytest.raises(CheckpointError, match=words.replace("(", r"\(").replace(")", r"\)")):
        loaded(tensors)


def test_convert_leaves_out_the_pooler_and_the_position_ids():
    ours = convert(hf_tensors(), 2)
    assert not any("pooler" in k or "position_ids" in k for k in ours)
    assert len(ours) == 5 + 2 * 12  # embeddings, then per layer in_proj ×2, out_proj ×2, 2 LayerNorms ×2, FFN ×4


MINILM_CONFIG = {
    "model_type": "bert", "hidden_act": "gelu", "hidden_size": 384, "num_attention_heads": 12,
    "num_hidden_layers": 6, "intermediate_size": 1536, "max_position_embeddings": 512, "type_vocab_size": 2,
    "vocab_size": 30522, "layer_norm_eps": 1e-12, "pad_token_id": 0,
}  # fmt: skip


def test_config_json_is_read_into_our_names():
    config = BertConfig.from_hf(MINILM_CONFIG)
    assert config == BertConfig()
    assert BertConfig.from_hf(MINILM_CONFIG, max_len=128).max_len == 128


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"model_type": "roberta"}, "model_type is 'roberta'; this encoder reads only 'bert'"),
        ({"hidden_act": "relu"}, "hidden_act is 'relu'"),
        ({"position_embedding_type": "relative_key"}, "position_embedding_type is 'relative_key'"),
        ({"hidden_size": None}, "missing: hidden_size"),
        ({"num_attention_heads": 5}, "d_model (384) must be divisible by n_heads (5)"),
        ({"max_position_embeddings": 100}, "max_len (256) cannot exceed the 100 rows"),
        ({"vocab_size": -3}, "vocab_size must be a whole number"),
    ],
)  # fmt: skip
def test_a_config_of_another_family_is_refused_with_its_reason(change, words):
    data = {k: v for k, v in (MINILM_CONFIG | change).items() if v is not None}
    with pytest.raises(CheckpointError, match=words.replace("(", r"\(").replace(")", r"\)")):
        BertConfig.from_hf(data)


def _copy_of_the_package(tmp_path):
    minilm()  # skips (or fails in CI) when the package is missing
    folder = tmp_path / "model"
    shutil.copytree(minilm_folder(), folder)
    return folder


def test_a_damaged_package_folder_is_refused(tmp_path):
    folder = _copy_of_the_package(tmp_path)
    (folder / "model.safetensors").write_bytes((folder / "model.safetensors").read_bytes()[:1000])
    with pytest.raises(CheckpointError, match="damaged or not a safetensors file"):
        load_minilm(folder)
    save_file({"embeddings.word_embeddings.weight": torch.zeros(30522, 384)}, str(folder / "model.safetensors"))
    with pytest.raises(CheckpointError, match="missing: "):
        load_minilm(folder)
    (folder / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_cls_token": True}))
    with pytest.raises(CheckpointError, match="does not pool by the mean"):
        load_minilm(folder)
    (folder / "config.json").write_text("{not json")
    with pytest.raises(CheckpointError, match=r"config\.json cannot be read"):
        load_minilm(folder)
