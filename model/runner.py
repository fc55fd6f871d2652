"""LoadedModel: a model with its task and vocabularies, run on text the way the pages need."""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from .ablation import NO_ABLATION, Ablation
from .architectures import AnyConfig, Seq2SeqModel
from .decode import decode_with_trace, greedy_decode, strip_after_eos
from .errors import N_, InputError
from .tasks import BOS_ID, EOS_ID, SPECIALS, Encoded, Task
from .trace import Trace


@dataclass
class LoadedModel:
    """A trained model ready to use. Never mutated after loading, so threads may share it."""

    model: Seq2SeqModel  # Seq2SeqTransformer or RNNSeq2Seq (see model/architectures.py)
    task: Task
    name: str = ""
    meta: dict = field(default_factory=dict)  # how it was trained: steps, seconds, accuracy, command

    def __post_init__(self) -> None:
        self.model.eval()

    @property
    def config(self) -> AnyConfig:
        """The model's config; config.arch says which family it is ('transformer' or 'rnn')."""
        return self.model.config

    @property
    def max_words(self) -> int:
        """Longest input in words: max_len positions minus one for <eos>."""
        return self.config.max_len - 1

    def tokenize(self, text: str) -> Encoded:
        """Source text → ids; raises InputError for empty text or text over the model's limit."""
        if not isinstance(text, str) or not text.strip():
            raise InputError(
                N_("The input is empty: type a few tokens separated by spaces, e.g. '{example}'."),
                example=self.task.example,
            )
        encoded = self.task.src_vocab.encode(text)
        if len(encoded.ids) > self.max_words:
            raise InputError(
                N_("The input has {n} tokens; this model takes at most {limit} (max_len {max_len} including <eos>)."),
                n=len(encoded.ids), limit=self.max_words, max_len=self.config.max_len,
            )  # fmt: skip
        return encoded

    def _src(self, encoded: Encoded) -> torch.Tensor:
        return torch.tensor([encoded.ids + [EOS_ID]], dtype=torch.long)  # (1, S)

    def predict(self, text: str, ablation: Ablation = NO_ABLATION) -> str:
        """Greedy output for one input, in the same space-separated token format."""
        src = self._src(self.tokenize(text))
        ids = greedy_decode(self.model, src, self.task.max_new_tokens(src.shape[1]), ablation)[0]
        return self.task.tgt_vocab.decode(ids)

    def predict_batch(self, texts: list[str], batch_size: int = 500) -> list[str]:
        """Greedy outputs for many inputs (used for accuracy)."""
        out = []
        for i in range(0, len(texts), batch_size):
            chunk = texts[i : i + batch_size]
            for t in chunk:
                self.tokenize(t)
            src = self.task.source_ids(chunk)  # (B, S)
            ids = greedy_decode(self.model, src, self.task.max_new_tokens(src.shape[1]))
            out += [self.task.tgt_vocab.decode(strip_after_eos(row)) for row in ids]
        return out

    def accuracy(self, n: int = 1000, seed: int = 12345) -> float:
        """Exact-match accuracy on n freshly generated pairs."""
        pairs = self.task.sample(n, seed)
        return self.task.accuracy(self.predict_batch([s for s, _ in pairs]), [t for _, t in pairs])

    def run(self, text: str, target: str | None = None, ablation: Ablation = NO_ABLATION) -> Trace:
        """Trace of one input: teacher-forced on `target`, or on the model's own greedy output."""
        encoded = self.tokenize(text)
        src = self._src(encoded)
        src_tokens = encoded.tokens + [SPECIALS[EOS_ID]]
        vocab = self.task.tgt_vocab
        if target is None or not target.strip():
            generated, trace = decode_with_trace(self.model, src, ablation, self.task.max_new_tokens(src.shape[1]))
            unknown_target: list[str] = []
        else:
            tgt_encoded = vocab.encode(target)
            if len(tgt_encoded.ids) + 1 > self.config.max_len:
                raise InputError(
                    N_("The target has {n} tokens; this model takes at most {limit}."),
                    n=len(tgt_encoded.ids), limit=self.max_words,
                )  # fmt: skip
            generated, unknown_target = tgt_encoded.ids, tgt_encoded.unknown
            tgt = torch.tensor([[BOS_ID, *generated]], dtype=torch.long)
            with torch.inference_mode():
                _, trace = self.model(src, tgt, record=True, ablation=ablation)
        tgt_tokens = [SPECIALS[BOS_ID]] + [vocab.itos[i] for i in generated]
        prediction = vocab.decode(generated) if target is None or not target.strip() else None
        return trace.with_tokens(
            src_tokens, tgt_tokens, unknown=encoded.unknown, unknown_target=unknown_target, prediction=prediction
        )
