"""A model folder the user holds (a save_pretrained output, a Hugging Face snapshot, a fine-tune), opened into our code.

A folder holds config.json, model.safetensors (or shards listed in model.safetensors.index.json) and a tokenizer:
tokenizer.json, or GPT-2's vocab.json + merges.txt, or BERT's vocab.txt.
- model_type "gpt2" (distilgpt2, GPT-2's sizes) → model/gpt's GPT (model/gpt/gpt2.py maps the names, Conv1D weights
  transposed), byte-level BPE (model/gpt/bpe.py): a LoadedGPT.
- model_type "bert" (MiniLM-like encoders) → model/bert's BertEncoder (model/bert/weights.py): a LoadedEncoder.
Anything else is refused by a FolderError naming what was found and what is supported: another model_type, a pickle
(pytorch_model.bin) with no safetensors (never unpickled), a missing file, tensors whose names or shapes do not fit
config.json. inspect_folder reads only config.json and the safetensors headers (names, shapes), so every check on
names and shapes runs on "meta" tensors before a weight is read. A model over LARGE_MODEL_PARAMS parameters still
opens, with a notice saying why its pages are slower, and its input capped at LARGE_MODEL_TOKENS tokens.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from ..bert.config import SEQUENCE_LIMIT, BertConfig
from ..bert.model import BertEncoder
from ..bert.package import check_pooling, sequence_limit
from ..bert.runner import LoadedEncoder
from ..bert.tokenizer import WordPieceTokenizer
from ..bert.weights import all_finite, convert
from ..errors import N_, CheckpointError, FolderError, LabError
from ..gpt import gpt2
from ..gpt.bpe import ByteLevelBPE
from ..gpt.model import GPT
from ..gpt.runner import GPTTask, LoadedGPT

CONFIG, WEIGHTS, INDEX = "config.json", "model.safetensors", "model.safetensors.index.json"
PICKLES = ("pytorch_model.bin", "pytorch_model.bin.index.json")
MODEL_TYPES = ("gpt2", "bert")  # what a folder may hold
MAX_JSON_BYTES = 64 * 2**20  # config.json, the index, tokenizer.json: GPT-2's tokenizer.json is 1.4 MB
# Measured 2026-12-01 (bench/folder_size.py, one thread, load average 2-7 on 2 cores): a traced forward of 64 tokens
# took 0.9 s for distilgpt2 (82 M), 1.4 s for GPT-2 small (124 M), 0.9 s for BERT-base (109 M); 4.1 s for GPT-2
# medium (355 M), 5.4 s for GPT-2 large (774 M), 3.0 s for BERT-large (334 M); at 128 tokens 1.7 s for GPT-2 small and
# 5.5 s / 12.8 s for medium / large. About 1 s per 100 M parameters at 64 tokens, growing with the length: over 200 M
# a page that traces on every edit waits seconds, so such a model opens with a notice and its input capped at 64.
LARGE_MODEL_PARAMS = 200_000_000
LARGE_MODEL_TOKENS = 64  # a big model's input cap, in tokens
GPT_EXAMPLE = "The quick brown fox jumps over the lazy dog. The quick brown"
FOLDER_GPT = N_("A GPT-2 model opened from a folder: it writes text one token at a time.")
LARGE = N_("{name} has {millions} million parameters (over {limit} million): every page runs it again on each edit, so "
           "pages are slower, and its input is capped at {tokens} tokens.")  # fmt: skip


@dataclass(frozen=True)
class FolderInfo:
    """What a folder holds, read from config.json and the safetensors headers only (no weight is read)."""

    path: Path
    model_type: str  # "gpt2" or "bert"
    n_params: int  # the parameters our model takes from the files
    files: tuple[str, ...]  # the folder's files this lab reads, in reading order
    tokenizer_kind: str  # "tokenizer.json", "vocab.json+merges.txt" or "vocab.txt"
    config: dict[str, Any]  # config.json's contents
    shards: tuple[str, ...]  # the safetensors files

    def large(self, limit: int = LARGE_MODEL_PARAMS) -> bool:
        """Over `limit` parameters (LARGE_MODEL_PARAMS): opens with a notice and a capped input."""
        return self.n_params > limit


def _read_json(folder: Path, name: str) -> Any:
    path = folder / name
    if path.stat().st_size > MAX_JSON_BYTES:
        raise FolderError(N_("{file} is larger than {mb} MB; refusing to read it."), file=name,
                          mb=MAX_JSON_BYTES // 2**20)  # fmt: skip
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FolderError(N_("{file} cannot be read ({error})."), file=name, error=exc) from None


def _missing(folder: Path, what: str) -> FolderError:
    return FolderError(N_("The folder {folder} has no {what}."), folder=folder.name, what=what)


def _shards(folder: Path) -> tuple[str, ...]:
    """The safetensors files: model.safetensors, or the shards its index names. A pickle alone is refused."""
    if (folder / WEIGHTS).is_file():
        return (WEIGHTS,)
    if (folder / INDEX).is_file():
        index = _read_json(folder, INDEX)
        weight_map = index.get("weight_map") if isinstance(index, dict) else None
        if not isinstance(weight_map, dict) or not weight_map:
            raise FolderError(N_("{file} has no weight_map."), file=INDEX)
        names = tuple(dict.fromkeys(weight_map.values()))
        for name in names:
            if not isinstance(name, str) or not name.endswith(".safetensors") or Path(name).name != name:
                raise FolderError(N_("{file} names a shard {name}; a shard is a .safetensors file in the folder."),
                                  file=INDEX, name=repr(name))  # fmt: skip
        for name in names:
            if not (folder / name).is_file():
                raise _missing(folder, name)
        return names
    pickles = [name for name in PICKLES if (folder / name).is_file()]
    if pickles:
        raise FolderError(
            N_("The folder {folder} holds its weights as {file}, a Python pickle, which can run code when it is "
               "opened: this lab never opens one. Save the model as safetensors (model.safetensors)."),
            folder=folder.name, file=pickles[0],
        )  # fmt: skip
    raise _missing(folder, f"{WEIGHTS} / {INDEX}")


def _tokenizer_kind(folder: Path, model_type: str) -> tuple[str, tuple[str, ...]]:
    """(kind, its files) of the folder's tokenizer: tokenizer.json first, else the family's own files."""
    own = {"gpt2": ("vocab.json", "merges.txt"), "bert": ("vocab.txt",)}[model_type]
    if (folder / "tokenizer.json").is_file():
        return "tokenizer.json", ("tokenizer.json",)
    if all((folder / name).is_file() for name in own):
        return "+".join(own), own
    raise _missing(folder, " / ".join(("tokenizer.json", " + ".join(own))))


def _header(folder: Path, shards: tuple[str, ...]) -> dict[str, torch.Tensor]:
    """Every tensor of the shards as a "meta" tensor of its shape and dtype: the header only, no weight read."""
    from safetensors import safe_open

    out: dict[str, torch.Tensor] = {}
    for shard in shards:
        try:
            with safe_open(str(folder / shard), framework="pt") as file:
                for key in file.keys():  # noqa: SIM118 (safe_open is not a mapping)
                    part = file.get_slice(key)
                    dtype = getattr(torch, _DTYPES.get(part.get_dtype(), "float32"))
                    out[key] = torch.empty(part.get_shape(), dtype=dtype, device="meta")
        except Exception as exc:  # safetensors raises its own error types for truncated or corrupt data
            raise FolderError(N_("{file} is damaged or not a safetensors file ({error})."), file=shard,
                              error=exc) from None  # fmt: skip
    return out


_DTYPES = {"F64": "float64", "F32": "float32", "F16": "float16", "BF16": "bfloat16", "I64": "int64", "I32": "int32",
           "I16": "int16", "I8": "int8", "U8": "uint8", "BOOL": "bool"}  # fmt: skip


def _tensors(folder: Path, shards: tuple[str, ...]) -> Iterator[tuple[str, torch.Tensor]]:
    """Every tensor of the shards, read one at a time (FolderError for a file whose data is cut short or damaged)."""
    from safetensors import safe_open

    for shard in shards:  # each header was read by _header already
        with safe_open(str(folder / shard), framework="pt") as file:
            for key in file.keys():  # noqa: SIM118 (safe_open is not a mapping)
                try:
                    tensor = file.get_tensor(key)
                except Exception as exc:  # safetensors raises its own error types for truncated or corrupt data
                    raise FolderError(N_("{file} is damaged or not a safetensors file ({error})."), file=shard,
                                      error=exc) from None  # fmt: skip
                yield key, tensor


def _ours(model_type: str, tensors: dict[str, torch.Tensor], config: Any) -> dict[str, torch.Tensor]:
    """The file's tensors under our names (GPT-2: Conv1D weights transposed; BERT: Q, K, V stacked)."""
    try:
        if model_type == "gpt2":
            return gpt2.gpt2_state_to_ours(tensors, config.tied)
        return convert(tensors, config.n_encoder_layers)
    except CheckpointError as exc:
        raise FolderError(exc.template, **exc.params) from None


def snapshot_of(folder: Path) -> Path:
    """A Hugging Face cache entry (models--gpt2/, holding refs/ and snapshots/) → the snapshot its refs/main names, or
    its only snapshot; any other folder as it is."""
    snapshots = folder / "snapshots"
    if (folder / CONFIG).exists() or not snapshots.is_dir():
        return folder
    main = folder / "refs" / "main"
    if main.is_file():
        named = snapshots / main.read_text(encoding="utf-8", errors="replace").strip()
        if named.is_dir() and named.parent == snapshots:
            return named
    found = [entry for entry in snapshots.iterdir() if entry.is_dir()]
    return found[0] if len(found) == 1 else folder


def default_name(folder: Path) -> str:
    """The folder's name; for a Hugging Face snapshot (models--openai-community--gpt2/snapshots/<hash>) the model's."""
    folder = Path(os.path.abspath(folder))
    entry = folder.parent.parent
    if folder.parent.name == "snapshots" and entry.name.startswith("models--"):
        return entry.name.split("--")[-1]
    return folder.name


def inspect_folder(path: str | os.PathLike) -> FolderInfo:
    """What a folder holds, checked before anything big is read: FolderError for another model_type, a pickle with no
    safetensors, a missing file, a damaged safetensors header."""
    folder = snapshot_of(Path(path).expanduser())
    if not folder.is_dir():
        raise FolderError(N_("No model folder at {folder}."), folder=str(folder))
    if not (folder / CONFIG).is_file():
        raise _missing(folder, CONFIG)
    config = _read_json(folder, CONFIG)
    if not isinstance(config, dict):
        raise FolderError(N_("config.json must be a JSON object, got {kind}."), kind=type(config).__name__)
    model_type = config.get("model_type")
    if model_type not in MODEL_TYPES:
        raise FolderError(
            N_("config.json's model_type is {found}; this lab opens {supported}."),
            found=repr(model_type), supported=", ".join(MODEL_TYPES),
        )  # fmt: skip
    shards = _shards(folder)
    kind, tokenizer_files = _tokenizer_kind(folder, model_type)
    ours = _ours(model_type, _header(folder, shards), _model_config(model_type, config, folder))
    n_params = sum(t.numel() for t in ours.values())
    files = (CONFIG, *((INDEX,) if shards != (WEIGHTS,) else ()), *shards, *tokenizer_files)
    return FolderInfo(folder, model_type, n_params, files, kind, config, shards)


def _model_config(model_type: str, config: dict[str, Any], folder: Path, large: bool = False) -> Any:
    """GPT-2's config as a GPTConfig; BERT's as a BertConfig reading at most the sentence-transformers limit
    (sentence_bert_config.json's max_seq_length, else 256), the position table, and the big-model cap."""
    if model_type == "gpt2":
        return gpt2.config_from_gpt2(config)
    positions = config.get("max_position_embeddings")
    try:
        limit = min(sequence_limit(folder), LARGE_MODEL_TOKENS if large else SEQUENCE_LIMIT)
        max_len = min(limit, positions) if isinstance(positions, int) and positions > 0 else limit
        return BertConfig.from_hf(config, max_len=max_len)
    except CheckpointError as exc:
        raise FolderError(exc.template, **exc.params) from None
    except LabError as exc:
        raise FolderError(N_("config.json has an invalid model config: {error}"), error=exc) from None


def _check_shapes(model: nn.Module, ours: dict[str, torch.Tensor], arch: str) -> None:
    """Our model's state-dict names and shapes against the file's (as ours): FolderError naming the first misfit."""
    expected = model.state_dict()
    missing, unexpected = sorted(set(expected) - set(ours)), sorted(set(ours) - set(expected))
    templates = (
        (missing, N_("The folder's tensors do not match config.json's {arch} model (missing: {names}).")),
        (unexpected, N_("The folder's tensors do not match config.json's {arch} model (unexpected: {names}).")),
    )
    for names, template in templates:
        if names:
            raise FolderError(template, arch=arch, names=", ".join(names[:4]) + (" …" if len(names) > 4 else ""))
    for key, want in expected.items():
        if tuple(ours[key].shape) != tuple(want.shape):
            raise FolderError(
                N_("The folder's tensors do not fit config.json: {key} has shape {shape}, config.json needs {needed}."),
                key=key, shape=tuple(ours[key].shape), needed=tuple(want.shape),
            )  # fmt: skip
        if not ours[key].is_floating_point():
            raise FolderError(N_("model.safetensors: {key} holds non-finite or non-float values."), key=key)


def _loaded_state(info: FolderInfo, model_config: Any) -> dict[str, torch.Tensor]:
    """The weights as our model's state dict, float32, every value checked finite. GPT-2's tensors are converted one
    at a time (a transposed copy replaces each as it is read); BERT's Q, K and V are stacked from the whole set."""
    if info.model_type == "gpt2":
        ours = {}
        for key, tensor in _tensors(info.path, info.shards):
            name = gpt2.our_name(key, model_config.tied)
            if name is not None:
                ours[name] = gpt2.our_tensor(key, tensor)
    else:
        ours = _ours(info.model_type, dict(_tensors(info.path, info.shards)), model_config)
    for key, tensor in ours.items():
        if not all_finite(tensor):
            raise FolderError(N_("model.safetensors: {key} holds non-finite or non-float values."), key=key)
    return {key: tensor.float().contiguous() for key, tensor in ours.items()}


def _built(build: Callable[[], nn.Module], info: FolderInfo, model_config: Any, arch: str) -> nn.Module:
    """The model `build` makes, names and shapes checked on the meta device first, then the weights assigned."""
    with torch.device("meta"):
        model = build()
    _check_shapes(model, _ours(info.model_type, _header(info.path, info.shards), model_config), arch)
    model.load_state_dict(_loaded_state(info, model_config), strict=True, assign=True)
    model.requires_grad_(False)
    return model.eval()


def _notices(info: FolderInfo, name: str, large: int) -> tuple[LabError, ...]:
    if not info.large(large):
        return ()
    millions = f"{info.n_params / 1e6:.0f}"
    return (LabError(LARGE, name=name, millions=millions, limit=f"{large / 1e6:.0f}", tokens=LARGE_MODEL_TOKENS),)


def load_folder(
    path: str | os.PathLike, name: str | None = None, *, large: int = LARGE_MODEL_PARAMS
) -> LoadedGPT | LoadedEncoder:
    """A GPT-2 folder as a LoadedGPT, a BERT folder as a LoadedEncoder, named `name` (default: the folder's name);
    FolderError says what does not fit (module docstring). A model of more than `large` parameters carries a notice
    (.notices) and reads at most LARGE_MODEL_TOKENS tokens (.max_words)."""
    info = inspect_folder(path)
    name = name or default_name(info.path)
    meta = {"folder": str(info.path), "model_type": info.model_type, "n_params": info.n_params,
            "files": list(info.files), "tokenizer": info.tokenizer_kind}  # fmt: skip
    notices = _notices(info, name, large)
    is_large = info.large(large)
    folder = info.path
    if info.model_type == "gpt2":
        config = gpt2.config_from_gpt2(info.config)
        if info.tokenizer_kind == "tokenizer.json":
            vocab = ByteLevelBPE.from_file(folder / "tokenizer.json", config.vocab_size)
        else:
            vocab = ByteLevelBPE.from_vocab_merges(folder / "vocab.json", folder / "merges.txt", config.vocab_size)
        model = _built(lambda: GPT(config), info, config, "gpt2")
        assert isinstance(model, GPT)
        task = GPTTask(name, GPT_EXAMPLE, FOLDER_GPT, "en")
        return LoadedGPT(model, vocab, name=name, task=task, meta=meta,
                         limit=LARGE_MODEL_TOKENS if is_large else None, notices=notices)  # fmt: skip
    bert_config = _model_config("bert", info.config, folder, is_large)
    try:
        check_pooling(folder)  # a sentence-transformers folder that pools otherwise than by the mean is refused
    except CheckpointError as exc:
        raise FolderError(exc.template, **exc.params) from None
    tokenizer = _bert_tokenizer(folder, info.tokenizer_kind, bert_config)
    encoder = _built(lambda: BertEncoder(bert_config), info, bert_config, "bert")
    assert isinstance(encoder, BertEncoder)
    return LoadedEncoder(encoder, tokenizer, name=name, meta=meta, notices=notices)


def _bert_tokenizer(folder: Path, kind: str, config: BertConfig) -> WordPieceTokenizer:
    """BERT's WordPiece from tokenizer.json, or from vocab.txt with BERT's normaliser, splitter and [CLS] … [SEP]."""
    from ..bert.runner import EXAMPLE

    try:
        tokenizer = WordPieceTokenizer(_wordpiece(folder, kind), config.max_len, EXAMPLE)
    except CheckpointError as exc:
        raise FolderError(exc.template, **exc.params) from None
    if tokenizer.vocab_size > config.vocab_size:
        raise FolderError(N_("{file} has {n} tokens but config.json says {size}."), file=kind,
                          n=tokenizer.vocab_size, size=config.vocab_size)  # fmt: skip
    return tokenizer


def _wordpiece(folder: Path, kind: str):
    """A `tokenizers` Tokenizer from tokenizer.json, or from BERT's vocab.txt with BERT's normaliser (lower-casing as
    tokenizer_config.json says, default yes) and splitter. Either way [CLS] … [SEP] is added when the file does not say
    so itself, as transformers' BertTokenizer does."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    try:
        if kind == "tokenizer.json":
            tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        else:
            tokenizer = Tokenizer(models.WordPiece.from_file(str(folder / "vocab.txt"), unk_token="[UNK]"))
    except Exception as exc:  # the library raises its own exception type for a file it cannot parse
        raise FolderError(N_("{file} cannot be read ({error})."), file=kind, error=exc) from None
    if kind != "tokenizer.json":
        settings = _read_json(folder, "tokenizer_config.json") if (folder / "tokenizer_config.json").is_file() else {}
        lower = bool(settings.get("do_lower_case", True)) if isinstance(settings, dict) else True
        tokenizer.normalizer = normalizers.BertNormalizer(lowercase=lower)
        tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tokenizer.decoder = decoders.WordPiece()
    if tokenizer.post_processor is None:
        cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
        if cls is None or sep is None:
            raise FolderError(N_("{file} has no {tokens} token."), file=kind, tokens="[CLS], [SEP]")
        tokenizer.post_processor = processors.BertProcessing(("[SEP]", sep), ("[CLS]", cls))
    return tokenizer
