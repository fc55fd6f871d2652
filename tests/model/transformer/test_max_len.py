"""Longer inputs for our own Transformers: a new config carries max_len 128 (the train command's default too), while the
shipped checkpoints keep the 64 they were trained with and still load, run and refuse what they refused."""

from __future__ import annotations

import pytest
import torch

from model import (
    InputError,
    LoadedModel,
    ModelConfig,
    RNNConfig,
    Seq2SeqTransformer,
    get_task,
    load_checkpoint,
    load_pretrained,
)
from model.analysis.attention import attention_layers
from model.architectures import build_model
from model.io.checkpoint import save_checkpoint
from model.naming import AttentionKind, Side, pos_name
from model.train import _family_settings, _parse_args, default_model_config
from model.transformer.positional import sinusoidal_table


def test_a_new_transformer_config_reads_128_positions_and_an_rnn_keeps_64():
    assert ModelConfig(src_vocab_size=10, tgt_vocab_size=10).max_len == 128
    assert RNNConfig(src_vocab_size=10, tgt_vocab_size=10).max_len == 64


@pytest.mark.parametrize(
    ("argv", "max_len"),
    [([], 128), (["--arch", "rnn"], 64), (["--max-len", "96"], 96), (["--arch", "rnn", "--max-len", "32"], 32)],
)
def test_the_train_command_s_default_is_the_family_s(argv, max_len):
    args = _parse_args(["--task", "reverse", *argv])
    task = get_task("reverse")
    assert default_model_config(task, args.arch, **_family_settings(args)).max_len == max_len


@pytest.mark.parametrize("name", ["reverse", "translate", "translate-zh", "copy", "sort"])
def test_the_shipped_transformers_keep_max_len_64(name):
    loaded = load_pretrained(name)
    assert isinstance(loaded, LoadedModel)
    assert loaded.config.max_len == 64 and loaded.max_words == 63
    assert isinstance(loaded.model, Seq2SeqTransformer)
    assert loaded.model.positional.table.shape[0] == 64


def test_a_shipped_model_still_takes_63_tokens_and_refuses_64():
    loaded = load_pretrained("reverse")
    trace = loaded.run(" ".join(["7"] * 63))
    assert len(trace.tokens(Side.SRC)) == 64
    with pytest.raises(InputError, match="has 64 tokens; this model takes at most 63"):
        loaded.run(" ".join(["7"] * 64))


def test_a_128_position_transformer_runs_127_tokens_and_keeps_128_through_a_checkpoint(tmp_path):
    task = get_task("reverse")
    torch.manual_seed(0)
    loaded = LoadedModel(build_model(default_model_config(task, d_model=16, n_heads=2, d_ff=32)), task, name="long")
    assert loaded.config.max_len == 128 and loaded.max_words == 127
    trace = loaded.run(" ".join(["3"] * 127), target=" ".join(["3"] * 120))
    S = len(trace.tokens(Side.SRC))
    assert S == 128
    assert trace[pos_name(Side.SRC)].shape == (128, 16)
    torch.testing.assert_close(trace[pos_name(Side.SRC)], sinusoidal_table(128, 16))
    assert attention_layers(trace, AttentionKind.ENCODER).shape == (1, 2, 128, 128)
    with pytest.raises(InputError, match="this model takes at most 127"):
        loaded.run(" ".join(["3"] * 128))
    again = load_checkpoint(save_checkpoint(loaded, tmp_path / "long"))
    assert again.config.max_len == 128 and again.config == loaded.config


def test_the_first_64_sinusoid_rows_are_the_same_whatever_the_table_s_length():
    torch.testing.assert_close(sinusoidal_table(128, 64)[:64], sinusoidal_table(64, 64))
