"""Checkpoints: model.safetensors + config.json (architecture, model config, task, vocabularies). Never pickle.

config.json's "architecture" ("transformer", "rnn" or "gpt") picks the model family; checkpoints written
before the RNN family have none and load as Transformers. A toy model's config names its task (whose vocabularies
it must hold); a GPT's names what it writes (model.gpt.GPT_TASKS) and holds its character vocabulary
("vocabulary", "unknown_mark") and how it was trained ("training": steps, seconds, corpus, split, losses, command).

Files are written atomically (temporary file, then rename), and loading checks everything a
damaged or foreign file could get wrong before any weight reaches a model.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import torch
from safetensors.torch import load as load_safetensors_bytes
from safetensors.torch import save as save_safetensors_bytes
from torch import nn

from ..architectures import (
    ARCHITECTURES,
    DEFAULT_ARCH,
    LANGUAGE_MODELS,
    build_language_model,
    build_model,
    checkpoint_config_from_dict,
)
from ..errors import N_, CheckpointError, LabError
from ..gpt.config import GPTConfig
from ..gpt.runner import GPT_TASKS, LoadedGPT
from ..gpt.vocab import CharVocab
from ..runner import LoadedModel
from ..tasks import TASKS, get_task

FORMAT = "attention-lab/1"
WEIGHTS_FILE, CONFIG_FILE = "model.safetensors", "config.json"
MAX_CHECKPOINT_BYTES = 64 * 1024 * 1024  # our models are well under 2 MB
MAX_LEN_LIMIT = 4096  # a Transformer builds a (max_len, d_model) position table: bound what a file may ask for
AnyCheckpoint = LoadedModel | LoadedGPT  # what a checkpoint holds: a toy task's model, or a GPT
M = TypeVar("M", bound=nn.Module)


def _atomic_write(path: Path, data: bytes) -> None:
    """Write to a temporary file in the same folder, then rename it over `path`."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _config_of(loaded: AnyCheckpoint) -> dict:
    """config.json's contents for a loaded model."""
    head = {"format": FORMAT, "architecture": loaded.config.arch, "task": loaded.task.name, "name": loaded.name}
    if isinstance(loaded, LoadedGPT):
        vocabulary = {"vocabulary": loaded.chars.to_list(), "unknown_mark": loaded.chars.unk}
    else:
        vocabulary = {"src_vocab": loaded.task.src_vocab.words, "tgt_vocab": loaded.task.tgt_vocab.words}
    return head | {"model": loaded.config.to_dict()} | vocabulary | {"training": loaded.meta}


def checkpoint_bytes(loaded: AnyCheckpoint) -> tuple[bytes, bytes]:
    """(config.json bytes, model.safetensors bytes) of a loaded model (a toy task's model or a GPT)."""
    config = _config_of(loaded)
    state = {k: v.detach().contiguous() for k, v in loaded.model.state_dict().items()}
    config_json = json.dumps(config, indent=2, ensure_ascii=False)  # Chinese vocabularies stay readable
    return config_json.encode(), save_safetensors_bytes(state, metadata={"format": FORMAT})


def save_checkpoint(loaded: AnyCheckpoint, directory: str | os.PathLike) -> Path:
    """Write model.safetensors then config.json into `directory` (created if needed)."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    config_bytes, weights_bytes = checkpoint_bytes(loaded)
    _atomic_write(out / WEIGHTS_FILE, weights_bytes)
    _atomic_write(out / CONFIG_FILE, config_bytes)
    return out


def load_checkpoint(path: str | os.PathLike, name: str | None = None, *, shipped: bool = False) -> AnyCheckpoint:
    """Load a checkpoint folder (or its config.json); CheckpointError says what is wrong. `shipped`: one of the
    package's own checkpoints (see load_checkpoint_bytes)."""
    folder = Path(path)
    if folder.name == CONFIG_FILE:
        folder = folder.parent
    if not folder.is_dir():
        raise CheckpointError(N_("No checkpoint folder at {folder}."), folder=folder)
    parts = []
    for filename in (CONFIG_FILE, WEIGHTS_FILE):
        file = folder / filename
        if not file.is_file():
            raise CheckpointError(N_("The checkpoint at {folder} has no {filename}."), folder=folder, filename=filename)
        if file.stat().st_size > MAX_CHECKPOINT_BYTES:
            raise CheckpointError(
                N_("{filename} is larger than {mb} MB; refusing to load it."),
                filename=filename, mb=MAX_CHECKPOINT_BYTES // 2**20,
            )  # fmt: skip
        parts.append(file.read_bytes())
    return load_checkpoint_bytes(parts[0], parts[1], name=name or folder.name, shipped=shipped)


def _parse_config(config_bytes: bytes) -> dict:
    try:
        config = json.loads(config_bytes.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(N_("config.json is not valid JSON ({error})."), error=exc) from None
    if not isinstance(config, dict) or config.get("format") != FORMAT:
        raise CheckpointError(
            N_("config.json is not an Attention Lab checkpoint config (expected format {format})."),
            format=repr(FORMAT),
        )
    arch = config.setdefault("architecture", DEFAULT_ARCH)
    if not isinstance(arch, str) or arch not in ARCHITECTURES:
        raise CheckpointError(
            N_("config.json names an unknown architecture {arch}; this version knows {known}."),
            arch=repr(arch),
            known=", ".join(ARCHITECTURES),
        )
    tasks = GPT_TASKS if arch in LANGUAGE_MODELS else TASKS
    if not isinstance(config.get("task"), str) or config["task"] not in tasks:
        raise CheckpointError(
            N_("config.json names an unknown task {task}; known: {known}."),
            task=repr(config.get("task")),
            known=", ".join(tasks),
        )
    return config


def load_checkpoint_bytes(
    config_bytes: bytes, weights_bytes: bytes, name: str | None = None, *, shipped: bool = False
) -> AnyCheckpoint:
    """Validate and load a checkpoint held in memory (e.g. from an uploaded zip). Any other checkpoint's model is
    first built on the meta device, so a config that claims a huge model allocates nothing; a `shipped` one (the
    package's own, whose config is ours) is built for real at once and checked the same way: the meta build's first
    use in a process imports torch._dynamo (its init functions run through torch._refs), 1.3 s of a fresh server's
    first page (docs/capacity.md, "Cold start")."""
    config = _parse_config(config_bytes)
    try:
        model_config = checkpoint_config_from_dict(config["architecture"], config.get("model"))
    except (TypeError, ValueError) as exc:
        raise CheckpointError(N_("config.json has an invalid model config: {error}"), error=exc) from None
    if model_config.max_len > MAX_LEN_LIMIT:
        raise CheckpointError(
            N_("config.json asks for max_len {max_len}; models here take at most {limit} tokens."),
            max_len=model_config.max_len,
            limit=MAX_LEN_LIMIT,
        )
    training = config.get("training")
    meta = training if isinstance(training, dict) else {}
    if isinstance(model_config, GPTConfig):
        vocab = _gpt_vocabulary(config, model_config)
        gpt = _built(lambda: build_language_model(model_config), weights_bytes, model_config.arch, shipped)
        return LoadedGPT(gpt, vocab, name=name or config.get("name") or "gpt", task=GPT_TASKS[config["task"]],
                         meta=meta)  # fmt: skip
    task = get_task(config["task"])
    for side, words, size in (
        ("src_vocab", task.src_vocab, model_config.src_vocab_size),
        ("tgt_vocab", task.tgt_vocab, model_config.tgt_vocab_size),
    ):
        if config.get(side) != words.words:
            raise CheckpointError(
                N_("config.json's {side} is not the vocabulary of the '{task}' task."), side=side, task=task.name
            )
        if size != len(words):
            raise CheckpointError(
                N_("{side} has {n} tokens but the model config says {size}."), side=side, n=len(words), size=size
            )
    model = _built(lambda: build_model(model_config), weights_bytes, model_config.arch, shipped)
    return LoadedModel(model, task, name=name or config.get("name") or task.name, meta=meta)


def task_model(loaded: AnyCheckpoint) -> LoadedModel:
    """A loaded checkpoint that must be a toy task's model (a training job's, a Train page upload's); a GPT is
    refused with a message."""
    if isinstance(loaded, LoadedGPT):
        raise CheckpointError(
            N_("This checkpoint holds a GPT language model ({name}), not a model trained on a toy task."),
            name=loaded.name,
        )
    return loaded


def _gpt_vocabulary(config: dict, model_config: GPTConfig) -> CharVocab:
    """A GPT checkpoint's character vocabulary, checked against the model config's vocab_size."""
    try:
        vocab = CharVocab.from_list(config.get("vocabulary"), config.get("unknown_mark", "□"))
    except LabError as exc:
        raise CheckpointError(N_("config.json's vocabulary is not usable: {error}"), error=exc) from None
    if len(vocab) != model_config.vocab_size:
        raise CheckpointError(
            N_("{side} has {n} tokens but the model config says {size}."),
            side="vocabulary", n=len(vocab), size=model_config.vocab_size,
        )  # fmt: skip
    return vocab


def _built(build: Callable[[], M], weights_bytes: bytes, arch: str, shipped: bool) -> M:
    """The model `build` makes, holding the checked weights of model.safetensors."""
    try:
        tensors = load_safetensors_bytes(weights_bytes)
    except Exception as exc:  # safetensors raises its own error types for truncated or corrupt data
        raise CheckpointError(
            N_("model.safetensors is damaged or not a safetensors file ({error})."), error=exc
        ) from None
    if not shipped:
        with torch.device("meta"):  # shapes only: a hostile config claiming a huge model allocates nothing
            _check_state(build(), tensors, arch)
    model = build()
    if shipped:
        _check_state(model, tensors, arch)
    model.load_state_dict(tensors, strict=True)
    return model


def _check_state(model: nn.Module, tensors: dict[str, torch.Tensor], arch: str) -> None:
    """Same names, same shapes, floating point and finite, or a CheckpointError naming the first misfit."""
    expected = model.state_dict()
    missing, unexpected = sorted(set(expected) - set(tensors)), sorted(set(tensors) - set(expected))
    if missing or unexpected:
        listed = {
            label: f"{', '.join(names[:4])}{' …' if len(names) > 4 else ''}"
            for label, names in (("missing", missing), ("unexpected", unexpected)) if names
        }  # fmt: skip
        template = {
            ("missing",): N_("model.safetensors does not match config.json's {arch} model (missing: {missing})."),
            ("unexpected",): N_(
                "model.safetensors does not match config.json's {arch} model (unexpected: {unexpected})."
            ),
            ("missing", "unexpected"): N_(
                "model.safetensors does not match config.json's {arch} model "
                "(missing: {missing}; unexpected: {unexpected})."
            ),
        }[tuple(listed)]
        raise CheckpointError(template, arch=arch, **listed)
    for key, want in expected.items():
        got = tensors[key]
        if tuple(got.shape) != tuple(want.shape):
            raise CheckpointError(
                N_("model.safetensors does not match config.json: {key} has shape {shape}, the config needs {needed}."),
                key=key, shape=tuple(got.shape), needed=tuple(want.shape),
            )  # fmt: skip
        if not got.is_floating_point() or not bool(torch.isfinite(got).all()):
            raise CheckpointError(N_("model.safetensors: {key} holds non-finite or non-float values."), key=key)
