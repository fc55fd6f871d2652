"""Trace exports: the NPZ holds every trace name with its shape and values, plus the tokens; the CSV zip's files read
back (pandas) to the trace's values, labelled with the tokens, and its README lists every name with its shape."""

from __future__ import annotations

import io
import re
import zipfile

import numpy as np
import pandas as pd
import pytest

from model import Ablation, load_pretrained
from model.io.export import README_MESSAGES, README_TITLE, axes_of, csv_slices, file_stem, to_csv_zip, to_npz

TEXT = "the big red dog sees a small cat"


@pytest.fixture(scope="module", params=["translate", "translate-rnn", "translate-rnn-noattn"])
def trace(request):
    loaded = load_pretrained(request.param)
    return loaded.run(TEXT)


def test_npz_holds_every_name_with_its_shape_and_values_plus_tokens(trace):
    npz = np.load(io.BytesIO(to_npz(trace)))  # allow_pickle=False: strings are stored as unicode arrays
    assert set(npz.files) == set(trace) | {"tokens.src", "tokens.tgt"}
    for name, tensor in trace.items():
        assert npz[name].shape == tuple(tensor.shape), name
        assert npz[name].dtype == np.float32
        np.testing.assert_array_equal(npz[name], tensor.numpy(), err_msg=name)  # −inf included
    assert npz["tokens.src"].tolist() == TEXT.split() + ["<eos>"] == trace.tokens("src")
    assert npz["tokens.tgt"].tolist() == trace.tokens("tgt") and npz["tokens.tgt"][0] == "<bos>"


def test_npz_of_a_run_with_a_head_off_has_that_head_at_zero():
    loaded = load_pretrained("translate")
    trace = loaded.run(TEXT, ablation=Ablation(heads_off=frozenset({("decoder.1.cross_attn", 3)})))
    npz = np.load(io.BytesIO(to_npz(trace)))
    assert not npz["decoder.1.cross_attn.head_out"][0, 3].any() and npz["decoder.1.cross_attn.head_out"][0, 2].any()


def read_zip(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_csv_files_read_back_to_the_trace(trace):
    files = read_zip(to_csv_zip(trace))
    src, tgt = trace.tokens("src"), trace.tokens("tgt")
    expected_files = {"README.md"}
    for name, tensor in trace.items():
        a = tensor.numpy()
        for index in np.ndindex(*a.shape[:-2]) if a.ndim > 2 else [()]:
            suffix = "".join(f".{axis.lower()}{i}" for axis, i in zip(axes_of(name, a.ndim), index, strict=False))
            file_name = f"{name}{suffix}.csv"
            expected_files.add(file_name)
            frame = pd.read_csv(io.BytesIO(files[file_name]), index_col=0)
            np.testing.assert_array_equal(frame.to_numpy().astype(np.float32), np.atleast_2d(a[index]), err_msg=name)
    assert set(files) == expected_files
    if "encoder.0.self_attn.scores" in trace:
        frame = pd.read_csv(io.BytesIO(files["decoder.0.cross_attn.weights.b0.h3.csv"]), index_col=0)
        assert list(frame.index) == [f"{i} {t}" for i, t in enumerate(tgt)]  # queries: decoder input
        assert list(frame.columns) == [f"{i} {t}" for i, t in enumerate(src)]  # keys: the source
        masked = pd.read_csv(io.BytesIO(files["decoder.1.self_attn.masked.b0.h0.csv"]), index_col=0).to_numpy()
        assert np.isneginf(masked[0, 1:]).all() and np.isneginf(masked).sum() == len(tgt) * (len(tgt) - 1) // 2
    else:
        frame = pd.read_csv(io.BytesIO(files["rnn.enc.h.b0.csv"]), index_col=0)
        assert list(frame.index) == [f"{i} {t}" for i, t in enumerate(src)]


def test_readme_lists_every_name_with_its_shape_in_the_readers_words(trace):
    words = {msgid: f"«{msgid}»" for msgid in README_MESSAGES}  # stands in for a translation
    readme = read_zip(to_csv_zip(trace, words, about="Model: x"))["README.md"].decode()
    rows = dict(re.findall(r"^\| `([^`]+)` \| (\([0-9, ]+\)) \|", readme, flags=re.MULTILINE))
    assert rows == {name: "(" + ", ".join(map(str, t.shape)) + ")" for name, t in trace.items()}
    assert readme.startswith(f"# «{README_TITLE}»\n\nModel: x\n")
    assert " ".join(f"{i}:{t}" for i, t in enumerate(trace.tokens("src"))) in readme
    english = read_zip(to_csv_zip(trace))["README.md"].decode()
    assert english.startswith(f"# {README_TITLE}\n") and "«" not in english


def test_axes_follow_the_trace_contract():
    assert axes_of("decoder.1.cross_attn.weights", 4) == ("B", "H", "T", "S")
    assert axes_of("decoder.1.cross_attn.k", 4) == ("B", "H", "S", "dk")
    assert axes_of("decoder.0.self_attn.scores", 4) == ("B", "H", "T", "T")
    assert axes_of("encoder.0.ffn.hidden", 3) == ("B", "S", "d_ff")
    assert axes_of("tgt.pos", 2) == ("T", "d")
    assert axes_of("rnn.attn.weights", 3) == ("B", "T", "S")
    assert axes_of("rnn.enc.final", 2) == ("B", "d")
    assert axes_of("something.new", 3) == ("B", "a0", "a1")
    assert axes_of("decoder.0.cross_attn.q", 3) == ("B", "a0", "a1")  # a shape the contract does not give
    names = [f for f, _ in csv_slices("encoder.0.self_attn.q", np.zeros((2, 3, 4, 5)))]
    assert len(names) == 6 and names[0] == "encoder.0.self_attn.q.b0.h0.csv" and names[-1].endswith(".b1.h2.csv")


@pytest.mark.parametrize(
    ("parts", "stem"),
    [
        (("attention", "translate", "cross", "L2", "H3"), "attention_translate_cross_L2_H3"),
        (("trace", "attention", "my model/../x", "off-e1.3,c2.1"), "trace_attention_my-model-..-x_off-e1.3-c2.1"),
        (("attention", "翻译 模型", ""), "attention_翻译-模型"),
        (("a_b", "<script>"), "a-b_script"),
        (("",), "attention-lab"),
    ],
)
def test_file_stems_say_what_a_file_shows_in_safe_characters(parts, stem):
    assert file_stem(*parts) == stem
    assert len(file_stem("x" * 500)) == 120
