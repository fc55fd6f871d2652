"""model.naming is the one place trace names are spelled.

(a) the builders against the contract, written out here as literal strings (an independent reference);
(b) every name real forward passes of every family write is in the module's table, with the documented shape and
    family;
(c) no code outside model/naming.py (and tests/) spells a trace name or a legacy kind by hand.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest
import torch

from model import LoadedEncoder, LoadedModel, ModelConfig, RNNConfig, get_task, naming
from model.architectures import AnyConfig, build_model
from model.gpt import LoadedGPT
from model.naming import (
    CONTRACT,
    FAMILIES,
    FAMILY_KINDS,
    GPT_KINDS,
    LOGITS,
    RNN_ATTN,
    TRANSFORMER_KINDS,
    AttentionKind,
    Side,
    Stack,
    attention_name,
    axes_of,
    embed_name,
    ffn_name,
    final_norm_name,
    input_name,
    layer_name,
    lookup,
    named,
    parse_attention_name,
    parse_sublayer_name,
    part_name,
    pos_name,
    split_part,
    sublayer_name,
    sum_name,
    type_name,
)
from tests.toys import Vocabularies, tiny_gpt, toy

from .minilm import minilm

ROOT = Path(__file__).resolve().parents[2]

# ---- (a) the builders -------------------------------------------------------------------------------------------


def test_attention_kinds_keep_their_stored_values_and_tables():
    assert [k.value for k in AttentionKind] == ["encoder", "decoder", "cross", "rnn"]
    assert TRANSFORMER_KINDS == (AttentionKind.ENCODER, AttentionKind.DECODER, AttentionKind.CROSS)
    assert GPT_KINDS == (AttentionKind.DECODER,)  # decoder-only: causal self-attention, no encoder, no cross
    assert FAMILY_KINDS == {
        "transformer": ("encoder", "decoder", "cross"), "rnn": ("rnn",), "bert": ("encoder",), "gpt": ("decoder",),
    }  # fmt: skip
    table = {k: (k.stack, k.module, k.query_side, k.key_side, k.code) for k in AttentionKind}
    assert table == {
        "encoder": ("encoder", "self_attn", "src", "src", "e"),
        "decoder": ("decoder", "self_attn", "tgt", "tgt", "d"),
        "cross": ("decoder", "cross_attn", "tgt", "src", "c"),
        "rnn": (None, "attn", "tgt", "src", "r"),
    }
    assert [AttentionKind.from_code(c) for c in "edcr"] == list(AttentionKind)
    with pytest.raises(ValueError):
        AttentionKind.from_code("x")


@pytest.mark.parametrize(
    ("text", "kind"),
    [("encoder", "encoder"), ("decoder", "decoder"), ("cross", "cross"), ("rnn", "rnn"),
     ("encoder self", "encoder"), ("decoder self", "decoder")],
)  # fmt: skip
def test_parse_reads_the_values_and_the_walkthrough_s_old_spellings(text, kind):
    parsed = AttentionKind.parse(text)
    assert parsed is AttentionKind(kind) and parsed == kind


@pytest.mark.parametrize("text", ["", "Encoder", "cross self", "encoder.0.self_attn", None, 3, "e"])
def test_parse_refuses_anything_else(text):
    with pytest.raises(ValueError):
        AttentionKind.parse(text)


def test_builders_spell_the_contract():
    assert [embed_name(s) for s in Side] == ["src.embed", "tgt.embed"]
    assert [pos_name(s) for s in Side] == ["src.pos", "tgt.pos"]
    assert [input_name("src"), input_name(Side.TGT)] == ["src.input", "tgt.input"]
    assert [type_name("src"), sum_name(Side.SRC)] == ["src.type", "src.sum"]
    assert layer_name(Stack.DECODER, 3) == "decoder.3"
    assert attention_name(AttentionKind.ENCODER, 0) == "encoder.0.self_attn"
    assert attention_name("decoder", 2, "masked") == "decoder.2.self_attn.masked"
    assert attention_name(AttentionKind.CROSS, 1, "weights") == "decoder.1.cross_attn.weights"
    assert attention_name(AttentionKind.RNN) == RNN_ATTN == "rnn.attn"
    assert attention_name("rnn", part="context") == "rnn.attn.context"
    assert ffn_name("encoder", 1) == "encoder.1.ffn"
    assert ffn_name(Stack.DECODER, 0, "hidden") == "decoder.0.ffn.hidden"
    assert sublayer_name("decoder", 0, "cross_attn", "resid") == "decoder.0.cross_attn.resid"
    assert final_norm_name("encoder") == "encoder.final_norm"
    assert LOGITS == "logits"
    assert (naming.RNN_ENC_H, naming.RNN_ENC_FINAL, naming.RNN_ENC_C) == ("rnn.enc.h", "rnn.enc.final", "rnn.enc.c")
    assert (naming.RNN_DEC_S_PREV, naming.RNN_DEC_S, naming.RNN_DEC_C) == ("rnn.dec.s_prev", "rnn.dec.s", "rnn.dec.c")
    assert part_name(naming.RNN_ENC_GATES, "reset") == "rnn.enc.gates.reset"
    assert part_name(naming.RNN_DEC_GATES, "forget") == "rnn.dec.gates.forget"
    assert named("encoder.0.ffn", hidden=1, out=2) == {"encoder.0.ffn.hidden": 1, "encoder.0.ffn.out": 2}
    assert {"src.pos", "tgt.pos"} == naming.POSITION_NAMES


@pytest.mark.parametrize(
    "build",
    [lambda: part_name("encoder.0.self_attn", "weight"), lambda: attention_name("encoder self", 0),
     lambda: attention_name("encoder", 0, "hidden "), lambda: sublayer_name("encoder", 0, "cross_attn"),
     lambda: attention_name("rnn", 1), lambda: layer_name("middle", 0), lambda: embed_name("source")],
)  # fmt: skip
def test_builders_refuse_what_no_trace_holds(build):
    with pytest.raises(ValueError):
        build()


def test_names_read_back():
    assert parse_attention_name("decoder.1.cross_attn") == (AttentionKind.CROSS, 1)
    assert parse_attention_name("encoder.12.self_attn") == (AttentionKind.ENCODER, 12)
    assert parse_attention_name("decoder.0.self_attn") == (AttentionKind.DECODER, 0)
    assert parse_attention_name("rnn.attn") == (AttentionKind.RNN, 0)
    for other in ("encoder.0.ffn", "encoder.0.cross_attn", "decoder.1.cross_attn.weights", "rnn.enc.h", "logits"):
        assert parse_attention_name(other) is None
    assert parse_sublayer_name("decoder.1.ffn") == (Stack.DECODER, 1, "ffn")
    assert parse_sublayer_name("encoder.x.ffn") is None
    assert split_part("decoder.1.cross_attn.weights") == ("decoder.1.cross_attn", "weights")


@pytest.mark.parametrize(
    ("name", "axes"),
    [
        ("src.embed", ("B", "S", "d")), ("tgt.pos", ("T", "d")), ("tgt.input", ("B", "T", "d")),
        ("src.type", ("B", "S", "d")), ("src.sum", ("B", "S", "d")),
        ("encoder.0.self_attn.q", ("B", "H", "S", "dk")), ("decoder.1.self_attn.k", ("B", "H", "T", "dk")),
        ("decoder.1.cross_attn.v", ("B", "H", "S", "dk")), ("decoder.1.cross_attn.weights", ("B", "H", "T", "S")),
        ("decoder.0.cross_attn.head_out", ("B", "H", "T", "dk")), ("encoder.1.self_attn.norm", ("B", "S", "d")),
        ("decoder.0.ffn.hidden", ("B", "T", "d_ff")), ("encoder.0.ffn.resid", ("B", "S", "d")),
        ("decoder.final_norm", ("B", "T", "d")), ("logits", ("B", "T", "V")),
        ("rnn.enc.h", ("B", "S", "d")), ("rnn.enc.final", ("B", "d")), ("rnn.enc.gates.update", ("B", "S", "d")),
        ("rnn.dec.s_prev", ("B", "T", "d")), ("rnn.attn.weights", ("B", "T", "S")),
        ("rnn.attn.context", ("B", "T", "d")),
        ("encoder.0.cross_attn.weights", None), ("rnn.attn.q", None), ("tokens.src", None), ("src.embed.x", None),
    ],
)  # fmt: skip
def test_axes_of_each_name(name, axes):
    assert axes_of(name) == axes


def test_the_table_is_the_docstring_s_and_complete():
    assert len(CONTRACT) == 35
    assert len({e.pattern for e in CONTRACT}) == len(CONTRACT)
    assert FAMILIES == ("transformer", "rnn", "bert", "gpt")
    for entry in CONTRACT:
        assert f"| `{entry.pattern}` | {', '.join(entry.axes)} | {entry.family} |" in naming.__doc__
        assert entry.families and set(entry.families) <= set(FAMILIES), entry
    by_pattern = {e.pattern: e.families for e in CONTRACT}
    assert by_pattern["{side}.embed"] == ("transformer", "rnn", "bert", "gpt")
    assert by_pattern["{side}.type"] == by_pattern["{side}.sum"] == ("bert",)
    assert by_pattern["logits"] == ("transformer", "rnn", "gpt")
    assert by_pattern["{stack}.final_norm"] == ("transformer", "gpt")
    assert by_pattern["{stack}.{i}.{attn}.weights"] == ("transformer", "bert", "gpt")


# ---- (b) real forward passes ------------------------------------------------------------------------------------


LABELS = (
    "translate", "translate-rnn", "translate-rnn-noattn", "pre-ln", "lstm-bidirectional", "rnn-dot", "minilm", "gpt",
)  # fmt: skip


@functools.cache
def _model_of(label: str) -> LoadedModel:
    if label.startswith("translate"):
        return toy(label)
    task = get_task("translate")
    sizes: Vocabularies = {"src_vocab_size": len(task.src_vocab), "tgt_vocab_size": len(task.tgt_vocab)}
    configs: dict[str, AnyConfig] = {
        "pre-ln": ModelConfig(**sizes, norm="pre", n_encoder_layers=2, n_decoder_layers=3, d_ff=48),
        "lstm-bidirectional": RNNConfig(**sizes, cell="lstm", bidirectional=True, score="general", d_hidden=24),
        "rnn-dot": RNNConfig(**sizes, cell="rnn", score="dot"),
    }
    torch.manual_seed(0)
    return LoadedModel(build_model(configs[label]), task, name=label)


@functools.cache
def _gpt() -> LoadedGPT:
    return tiny_gpt("en", n_layers=3)


def model_of(label: str) -> LoadedModel | LoadedEncoder | LoadedGPT:
    """A shipped model of each family, variants whose traces hold more names (pre-LN, LSTM both ways, the plain RNN
    with dot scores), MiniLM (the bert family) and a small GPT (the gpt family)."""
    return minilm() if label == "minilm" else _gpt() if label == "gpt" else _model_of(label)


def run(loaded: LoadedModel | LoadedEncoder | LoadedGPT, text: str, target: str | None = None):
    """A trace of the text; a model without a decoder input of its own (MiniLM, a GPT) takes no target."""
    return loaded.run(text) if isinstance(loaded, LoadedEncoder | LoadedGPT) else loaded.run(text, target)


@pytest.mark.parametrize("label", LABELS)
def test_every_name_a_forward_pass_writes_is_in_the_table_with_its_shape(label):
    loaded = model_of(label)
    trace = run(loaded, "the big red dog sees a cat", "le chien rouge grand voit")
    config = loaded.config
    encoder_only, decoder_only = isinstance(loaded, LoadedEncoder), isinstance(loaded, LoadedGPT)
    sizes = {
        "B": 1, "S": None if decoder_only else len(trace.tokens("src")),
        "T": None if encoder_only else len(trace.tokens("tgt")),
        "V": getattr(config, "tgt_vocab_size", None), "H": getattr(config, "n_heads", None),
        "dk": getattr(config, "d_head", None), "d_ff": getattr(config, "d_ff", None),
    }  # fmt: skip
    widths = {config.d_embed, config.d_enc, config.d_dec} if isinstance(config, RNNConfig) else {config.d_model}
    assert len(trace) > 0
    assert config.arch in FAMILIES
    for name, tensor in trace.items():
        found = lookup(name)
        assert found is not None, f"{label}: {name} is not in model/naming.py's table"
        assert config.arch in found[0].families, f"{label}: the table does not say {config.arch} writes {name}"
        axes = axes_of(name)
        assert axes is not None  # a name in the table has its axes
        assert len(axes) == tensor.dim(), (name, axes, tuple(tensor.shape))
        for axis, size in zip(axes, tensor.shape, strict=True):
            if axis == "d":
                assert size in widths, (name, axis, size)
            else:
                assert size == sizes[axis], (name, axis, size)


def test_every_row_of_the_table_is_written_by_some_model():
    seen: dict[str, set[str]] = {}
    for label in LABELS:
        loaded = model_of(label)
        for name in run(loaded, "the dog sees a cat"):
            found = lookup(name)
            assert found is not None, f"{label}: {name} is not in model/naming.py's table"
            seen.setdefault(found[0].pattern, set()).add(loaded.config.arch)
    assert set(seen) == {entry.pattern for entry in CONTRACT}
    for entry in CONTRACT:  # each family the table names for a row writes it
        assert seen[entry.pattern] == set(entry.families), entry.pattern


# ---- (c) nobody else spells a name --------------------------------------------------------------------------------

SCANNED = ("app.py", "pages", "ui", "services", "viz", "model", "bench", "scripts")
ROOTS = ("src", "tgt", "encoder", "decoder", "rnn")
WORDS = set(naming.PARTS) | {"attn", "enc", "dec", "gates", "h", "s", "s_prev", "c", "final", "final_norm"}
LEGACY = ("encoder self", "decoder self")
DOTTED = re.compile(r"^\.?[A-Za-z_{}][\w{}]*(\.[\w{}]+)*$")  # a dotted identifier, {} standing for a placeholder


def trace_like(text: str) -> bool:
    """Whether a string without spaces spells (part of) a trace name: "rnn.attn", "decoder.{}.cross_attn", ".weights",
    "{}.q", "self_attn". Other dotted words ("tokens.src", "model.safetensors", "{}.csv") are not."""
    if text in LEGACY:
        return True
    if not DOTTED.fullmatch(text):
        return False
    parts = text.split(".")
    if text.startswith("."):
        return parts[1] in WORDS
    if len(parts) == 1:
        return text in ("self_attn", "cross_attn", "final_norm")
    if parts[0] in ROOTS:
        return True
    return parts[0] == "{}" and any(part in WORDS for part in parts[1:])


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (or other bare string statements)."""
    return {
        id(node.value) for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }  # fmt: skip


def violations(source: str, filename: str = "<string>") -> list[str]:
    """Every string literal or f-string in `source` that spells a trace name or a legacy attention kind."""
    tree = ast.parse(source, filename=filename)
    skip = _docstrings(tree)
    found = []
    in_fstring = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in skip or id(node) in in_fstring:
                continue
            text = node.value
        else:
            continue
        if trace_like(text):
            found.append(f"{filename}:{node.lineno}: {text!r}")
    return found


def scanned_files() -> list[Path]:
    files = []
    for entry in SCANNED:
        path = ROOT / entry
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return [f for f in files if f != ROOT / "model" / "naming.py"]


def test_no_code_outside_naming_spells_a_trace_name_or_an_old_kind():
    assert len(scanned_files()) > 100
    found = [v for path in scanned_files() for v in violations(path.read_text(), str(path.relative_to(ROOT)))]
    assert found == []


@pytest.mark.parametrize(
    "line",
    [
        'name = "encoder.0.self_attn.weights"',
        'name = f"decoder.{i}.cross_attn"',
        'name = f"{block}.weights"',
        'x = trace["rnn.attn.weights"]',
        'name = f"{stack}.{i}.ffn.hidden"',
        'ok = name.endswith(".weights")',
        'side = f"{side}.embed"',
        'kind = "encoder self"',
        'KINDS = ("decoder self", "cross")',
        'key = "src.pos"',
        'names = {"self_attn": 1}',
        'name = f"{n}.h"',
    ],
)
def test_the_scan_catches_a_hand_spelt_name(line):
    assert violations(line) != []


@pytest.mark.parametrize(
    "line",
    [
        '"""Docstring: "encoder.0.self_attn.weights" and "encoder self" are fine in prose."""',
        'msg = N_("Type an input: see encoder self-attention and the decoder.0.cross_attn weights.")',
        'label = _("src.pos: the {kind} encoding added to each source token")',
        'keys = {"src": "tokens.src", "tgt": "tokens.tgt"}',
        'file = f"{name}.csv"',
        'weights = "model.safetensors"',
        'module = "services.training.worker"',
        'kind = "encoder"',
        'title = "L{n} self-attention"',
    ],
)
def test_the_scan_leaves_prose_and_other_dotted_words_alone(line):
    assert violations(line) == []
