"""A trace as files: every intermediate of one forward pass as NPZ (name → array, plus the tokens), or as a ZIP
of CSVs (one per 2-D slice) with a README of the names, shapes and axes; and file names that say what they hold.

Pure NumPy and zipfile. The README's words are msgids marked with N_; the caller passes them translated
(`words`, msgid → text in the reader's language), since the bytes may be built outside the page's run.
"""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import re
import zipfile
from collections.abc import Mapping

import numpy as np

from .. import naming
from ..errors import N_
from ..naming import Side
from ..trace import Trace

# NPZ keys of the token lists, by side ("src", "tgt"); no trace name starts so
TOKEN_KEYS: dict[str, str] = {Side.SRC: "tokens.src", Side.TGT: "tokens.tgt"}
AXIS_NAMES = {  # axis symbol → what it runs over (README legend)
    "B": N_("batch: the one input"),
    "H": N_("attention head (index 0 is Head 1 on screen)"),
    "S": N_("source token position"),
    "T": N_("decoder input position (<bos> followed by the output)"),
    "d": N_("features: d_model, or the RNN's state width"),
    "dk": N_("features of one head (d_k)"),
    "d_ff": N_("hidden units of the feed-forward block"),
    "V": N_("output vocabulary"),
}
README_TITLE = N_("Attention Lab: every intermediate of one forward pass")
README_INTRO = N_(
    "One CSV file per 2-D slice of each tensor of the trace, holding the same numbers as the NPZ download. A tensor "
    "with more than two axes is cut along its leading axes, named in the file name with their index from 0, as in "
    "NumPy: encoder.0.self_attn.q.b0.h2.csv is q[0, 2], batch 0 and head index 2 (Head 3 on screen). Rows and columns "
    "that run over tokens are labelled with the position and the token; masked cells read -inf."
)
README_AXES = N_("Axes")
README_SOURCE = N_("Source tokens (S)")
README_TARGET = N_("Decoder input tokens (T)")
README_COLUMNS = (N_("name"), N_("shape"), N_("axes"), N_("files"))
README_MESSAGES = (README_TITLE, README_INTRO, README_AXES, README_SOURCE, README_TARGET, *README_COLUMNS,
                   *AXIS_NAMES.values())  # fmt: skip
MAX_STEM = 120  # characters of a file name before its extension


def trace_arrays(trace: Trace) -> dict[str, np.ndarray]:
    """Every tensor of the trace as a NumPy array of its own shape and dtype (batch axis kept)."""
    return {name: tensor.detach().cpu().numpy() for name, tensor in trace.items()}


def trace_tokens(trace: Trace) -> dict[str, list[str]]:
    """{"src": [...], "tgt": [...]}: the sides the trace carries tokens for."""
    tokens: dict[str, list[str]] = {}
    for side in TOKEN_KEYS:
        with contextlib.suppress(ValueError):  # a trace straight from forward() carries none
            tokens[side] = trace.tokens(side)
    return tokens


def to_npz(trace: Trace) -> bytes:
    """NPZ bytes: each trace name → its array, and tokens.src / tokens.tgt → the tokens as a string array
    (np.load reads it all with the default allow_pickle=False)."""
    arrays = trace_arrays(trace)
    clash = set(arrays) & set(TOKEN_KEYS.values())
    if clash:
        raise ValueError(f"trace names {sorted(clash)} collide with the token keys.")
    for side, tokens in trace_tokens(trace).items():
        arrays[TOKEN_KEYS[side]] = np.array(tokens, dtype=np.str_)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, allow_pickle=False, **arrays)  # strings and numbers: nothing to pickle
    return buffer.getvalue()


def axes_of(name: str, ndim: int) -> tuple[str, ...]:
    """The axis symbols of a trace tensor (model/naming.py's table), e.g. ("B", "H", "T", "S") for
    decoder.0.cross_attn.weights; a name the table does not know gets B then a0, a1, …"""
    known = naming.axes_of(name)
    if known is not None and len(known) == ndim:
        return known
    return ("B", *(f"a{i}" for i in range(ndim - 1)))[:ndim] if ndim else ()


def csv_slices(name: str, array: np.ndarray) -> list[tuple[str, tuple[int, ...]]]:
    """(file name, index) of each 2-D slice: the whole array when it has at most 2 axes, else one file per index
    of the leading axes, named by axis and index: ("encoder.0.self_attn.q.b0.h2.csv", (0, 2))."""
    if array.ndim <= 2:
        return [(f"{name}.csv", ())]
    axes = axes_of(name, array.ndim)
    lead = [range(n) for n in array.shape[:-2]]
    return [
        (name + "".join(f".{axes[i].lower()}{j}" for i, j in enumerate(index)) + ".csv", index)
        for index in itertools.product(*lead)
    ]


def _labels(symbol: str, n: int, tokens: dict[str, list[str]]) -> list[str]:
    """Position and token ("3 dog") along a token axis of the right length, else the index."""
    side = {side.axis: side for side in Side}.get(symbol)
    words = tokens.get(side) if side else None
    if words is not None and len(words) == n:
        return [f"{i} {w}" for i, w in enumerate(words)]
    return [str(i) for i in range(n)]


def slice_csv(array: np.ndarray, axes: tuple[str, ...], tokens: dict[str, list[str]]) -> str:
    """One slice of at most 2 axes (`axes`: their symbols) as CSV text: a header of column labels, then each row after
    its label. Values are written with the fewest digits that read back to the same float32 (or float64); masked
    cells as -inf."""
    a = np.atleast_2d(array)
    row_axis, col_axis = ("", "", *axes)[-2:]
    rows, cols = _labels(row_axis, a.shape[0], tokens), _labels(col_axis, a.shape[1], tokens)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([f"{row_axis}\\{col_axis}", *cols])
    for label, row in zip(rows, a.astype(str), strict=True):
        writer.writerow([label, *row])
    return out.getvalue()


def readme(trace: Trace, files: dict[str, list[str]], words: Mapping[str, str], about: str = "") -> str:
    """The README of the CSV zip (Markdown): what the files are, the tokens, the axis legend, then one line per
    name with its shape, axes and files. `words` translates the msgids of README_MESSAGES."""

    def say(msgid: str) -> str:
        return words.get(msgid, msgid)

    tokens = trace_tokens(trace)
    lines = [f"# {say(README_TITLE)}", ""]
    if about:
        lines += [about, ""]
    lines += [say(README_INTRO), ""]
    for side, msgid in ((Side.SRC, README_SOURCE), (Side.TGT, README_TARGET)):
        if side in tokens:
            lines.append(f"- {say(msgid)}: " + " ".join(f"{i}:{t}" for i, t in enumerate(tokens[side])))
    lines += ["", f"## {say(README_AXES)}", ""]
    lines += [f"- `{symbol}`: {say(meaning)}" for symbol, meaning in AXIS_NAMES.items()]
    lines += ["", "| " + " | ".join(say(c) for c in README_COLUMNS) + " |", "|---|---|---|---|"]
    for name, tensor in trace.items():
        shape = "(" + ", ".join(map(str, tensor.shape)) + ")"
        axes = "(" + ", ".join(axes_of(name, tensor.dim())) + ")"
        listed = files[name]
        shown = listed[0] if len(listed) == 1 else f"{listed[0]} … {listed[-1]} ({len(listed)})"
        lines.append(f"| `{name}` | {shape} | {axes} | {shown} |")
    return "\n".join(lines) + "\n"


def to_csv_zip(trace: Trace, words: Mapping[str, str] | None = None, about: str = "") -> bytes:
    """ZIP bytes: README.md (in the language of `words`; `about` is its first line, e.g. the model and input) and
    one CSV per 2-D slice of every tensor (csv_slices)."""
    tokens = trace_tokens(trace)
    files: dict[str, list[str]] = {}  # name → its CSV files
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in trace_arrays(trace).items():
            files[name], axes = [], axes_of(name, array.ndim)
            for file_name, index in csv_slices(name, array):
                archive.writestr(file_name, slice_csv(array[index], axes[len(index) :], tokens))
                files[name].append(file_name)
        archive.writestr("README.md", readme(trace, files, words or {}, about))
    return buffer.getvalue()


def file_stem(*parts: object) -> str:
    """A file name (without extension) from what a file shows: parts joined by "_", each kept to letters, digits,
    '.', '-' (any script), runs of anything else made one "-": ("attention", "translate", "cross", "L2", "H3") →
    "attention_translate_cross_L2_H3"."""
    cleaned = [re.sub(r"[^\w.\-]+|_+", "-", str(p), flags=re.UNICODE).strip("-.") for p in parts]
    stem = "_".join(p for p in cleaned if p)
    return stem[:MAX_STEM].rstrip("-._") or "attention-lab"
