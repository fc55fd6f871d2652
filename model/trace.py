"""Trace: the named intermediates of one forward pass (every name and its shape: model/naming.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import torch

from .errors import LabError
from .naming import POSITION_NAMES, Side


@dataclass(frozen=True)
class Deferred:
    """A trace entry computed when first read (then kept): a GPT-2's logits over 50,257 tokens at every position cost
    more than the rest of the Attention page, which never reads them (bench/folder.py, py-spy: 177 of 361–531 ms)."""

    compute: Callable[[], torch.Tensor]
    nbytes: int  # the tensor's size once computed, so a cache bounded by bytes counts it before it exists


class Trace(Mapping[str, torch.Tensor]):
    """Read-only mapping from dotted names ("encoder.0.self_attn.weights") to tensors, batch first.

    tokens("src") / tokens("tgt") give the token strings along each axis (batch of one); an encoder-only model's
    trace (MiniLM) has no decoder side, so its tokens("tgt") raises ValueError and its prediction is None; a
    decoder-only GPT's has no source side (tokens("src") raises), and its prediction is the most likely next token.
    notices: messages for the reader about this run that are not errors (the input was cut to the model's limit),
    each a LabError carried rather than raised, so the app shows it in the reader's language (ui.i18n.explain).
    """

    def __init__(
        self,
        tensors: dict[str, torch.Tensor] | dict[str, torch.Tensor | Deferred],
        src_tokens: list[str] | None = None,
        tgt_tokens: list[str] | None = None,
        unknown: list[str] | None = None,
        unknown_target: list[str] | None = None,
        prediction: str | None = None,
        notices: tuple[LabError, ...] = (),
    ):
        self._tensors: dict[str, torch.Tensor | Deferred] = tensors  # type: ignore[assignment]  # dict is invariant
        self._tokens: dict[str, list[str] | None] = {Side.SRC: src_tokens, Side.TGT: tgt_tokens}  # "src", "tgt"
        self.unknown = list(unknown or [])  # source words the vocabulary did not know (shown as <unk>)
        self.unknown_target = list(unknown_target or [])  # the same for a typed target
        self.prediction = prediction  # the model's greedy output, when the target was its own
        self.notices = tuple(notices)  # e.g. "the input makes 300 tokens; this model reads at most 256"

    def __getitem__(self, name: str) -> torch.Tensor:
        try:
            value = self._tensors[name]
        except KeyError:
            raise KeyError(f"no '{name}' in this trace; see trace.names()") from None
        if isinstance(value, Deferred):  # two threads may both compute it: the same tensor, the last one kept
            value = self._tensors[name] = value.compute()
        return value

    def __contains__(self, name: object) -> bool:
        return name in self._tensors  # Mapping's would read the entry, computing a deferred one

    def __iter__(self) -> Iterator[str]:
        return iter(self._tensors)

    def __len__(self) -> int:
        return len(self._tensors)

    def nbytes(self) -> int:
        """Memory its tensors hold, a deferred entry counted at its size once computed (none is computed here)."""
        return sum(
            v.nbytes if isinstance(v, Deferred) else v.element_size() * v.nelement() for v in self._tensors.values()
        )

    def names(self, prefix: str = "") -> list[str]:
        return [n for n in self._tensors if n.startswith(prefix)]

    def tokens(self, side: str) -> list[str]:
        """Token strings of the source ("src") or the decoder input ("tgt")."""
        if side not in self._tokens:
            raise ValueError(f"side must be 'src' or 'tgt', got {side!r}.")
        tokens = self._tokens[side]
        if tokens is None:
            raise ValueError(
                f"this trace carries no {side} tokens (it came straight from forward(), or from a model without that "
                "side: an encoder-only model has no decoder side, a decoder-only GPT no source)."
            )
        return list(tokens)

    def with_tokens(self, src_tokens: list[str] | None, tgt_tokens: list[str] | None, **details) -> Trace:
        """The same tensors labelled with tokens (and unknown / unknown_target / prediction / notices); None for a side
        the model does not have (a decoder-only GPT has no source)."""
        return Trace(self._tensors, src_tokens, tgt_tokens, **details)

    def numpy(self, name: str, batch: int | None = 0):
        """The tensor as a float32 NumPy array, batch `batch` selected when it has a batch axis."""
        t = self[name]
        if batch is not None and name not in POSITION_NAMES:  # the positional encodings have no batch axis
            t = t[batch]
        return t.detach().float().numpy()
