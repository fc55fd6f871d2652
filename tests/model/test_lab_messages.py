"""Messages the RNN code and the config checks raise are LabErrors: the English text is what it always was, and the
template has a Chinese translation that keeps its placeholders (so the Train page and uploads show it translated)."""

from __future__ import annotations

import pytest
import torch

from model import get_task, load_pretrained
from model.analysis.rnn import decoder_step, gradient_setup
from model.architectures import config_from_dict
from model.errors import LabError
from model.rnn.attention import AttentionScore
from model.rnn.config import RNNConfig
from model.train import TrainConfig, check_teacher_forcing, default_model_config
from model.transformer.config import ModelConfig
from tests.toys import Vocabularies
from ui.i18n import translations

V: Vocabularies = {"src_vocab_size": 10, "tgt_vocab_size": 10}
CASES = [
    (lambda: RNNConfig(**V, cell="xyz"), "cell must be one of rnn, gru, lstm; got 'xyz'."),
    (lambda: RNNConfig(**V, score="cosine"), "score must be one of additive, dot, general, none; got 'cosine'."),
    (lambda: RNNConfig(**V, bidirectional="yes"),  # type: ignore[arg-type]  # a str where a bool goes, on purpose
     "bidirectional must be true or false, got 'yes'."),
    (lambda: RNNConfig(**V, d_hidden=0), "d_hidden must be a whole number of at least 1, got 0."),
    (lambda: RNNConfig(**V, dropout=1.5), "dropout must be a probability in [0, 1); got 1.5."),
    (lambda: RNNConfig(src_vocab_size=10, tgt_vocab_size=10, pad_id=12),
     "pad_id (12) must be a token id inside both vocabularies."),
    (lambda: ModelConfig(**V, n_heads=3),
     "d_model (64) must be divisible by n_heads (3): each head gets d_model / n_heads dimensions."),
    (lambda: ModelConfig(**V, d_model=63, n_heads=3),
     "sinusoidal positional encoding pairs a sine with a cosine, so d_model must be even; got 63."),
    (lambda: ModelConfig(**V, positional="rotary"),
     "positional must be one of sinusoidal, learned, none; got 'rotary'."),
    (lambda: ModelConfig(**V, norm="mid"), "norm must be 'post' or 'pre'; got 'mid'."),
    (lambda: ModelConfig(**V, n_encoder_layers=13), "n_encoder_layers must be a whole number from 1 to 12, got 13."),
    (lambda: RNNConfig.from_dict([1]), "model config must be a JSON object, got list."),
    (lambda: RNNConfig.from_dict(V | {"heads": 2}), "model config has unknown settings: heads."),
    (lambda: RNNConfig.from_dict({}), "model config is missing: src_vocab_size, tgt_vocab_size."),
    (lambda: config_from_dict("mamba", V), "unknown architecture 'mamba'; known: transformer, rnn."),
    (lambda: default_model_config(get_task("copy"), "mamba"),
     "unknown architecture 'mamba'; choose one of: transformer, rnn."),
    (lambda: TrainConfig(steps=0), "steps, batch_size, eval_every and eval_size must be at least 1."),
    (lambda: TrainConfig(lr=2.0), "learning rate must be between 0 and 1, got 2.0."),
    (lambda: TrainConfig(until=1.5), "--until is an accuracy between 0 and 1, got 1.5."),
    (lambda: TrainConfig(teacher_forcing=-0.5), "--teacher-forcing is a probability between 0 and 1, got -0.5."),
    (lambda: check_teacher_forcing(TrainConfig(teacher_forcing=0.5), ModelConfig(**V)),
     "--teacher-forcing below 1 needs a recurrent decoder (--arch rnn): a Transformer decodes every position at "
     "once, so it is always fed the true previous tokens."),
    (lambda: AttentionScore("cosine", 4, 4), "score must be one of additive, dot, general; got 'cosine'."),
    (lambda: AttentionScore("dot", 4, 8), "dot scores need d_dec == d_enc, got 4 and 8."),
    (lambda: gradient_setup("elman"), "cell must be one of rnn, gru, lstm; got 'elman'."),
    (lambda: gradient_setup("gru", length=0), "length must be from 1 to 512, got 0."),
    (lambda: decoder_step(load_pretrained("translate-rnn").run("a cat sees a dog"), 9), "step must be in 0..5, got 9."),
]  # fmt: skip


@pytest.mark.parametrize(("make", "english"), CASES)
def test_each_message_is_a_lab_error_with_its_english_text_and_a_chinese_template(make, english):
    with pytest.raises(LabError) as caught:
        make()
    exc = caught.value
    assert str(exc) == english
    chinese = translations("zh").gettext(exc.template)
    assert chinese != exc.template  # translated
    assert chinese.format(**exc.params)  # and its placeholders are the template's


def test_a_decoder_given_a_bad_teacher_forcing_ratio_says_so():
    model = load_pretrained("translate-rnn").model
    src, tgt = torch.tensor([[5, 6, 2]]), torch.tensor([[1, 5]])
    with pytest.raises(LabError, match=r"teacher_forcing is a probability in \[0, 1\], got 1\.5\."):
        model(src, tgt, teacher_forcing=1.5)


def test_a_task_refuses_a_length_it_cannot_make_at_once(monkeypatch):
    task = get_task("translate")
    assert (task.min_src_words, task.max_src_words) == (5, 9)
    assert all(len(s.split()) == 5 for s, _ in task.sample_of_length(20, 5))
    drawn = []
    generate = task.generate

    def counted(rng):
        drawn.append(1)
        return generate(rng)

    monkeypatch.setattr(task, "generate", counted)  # this instance only (get_task makes a new one)
    for length in (1, 4, 10, 24):
        with pytest.raises(ValueError, match="makes inputs of 5 to 9 words"):
            task.sample_of_length(200, length)
    assert drawn == []  # refused before drawing, not after 1000 · n draws per length (minutes for the page)
    assert len(get_task("reverse").sample_of_length(3, 24)) == 3  # digit tasks make any length
