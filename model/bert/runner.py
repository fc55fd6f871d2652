"""LoadedEncoder: MiniLM with its tokenizer, run on text the way the pages run our models (model/runner.py).

It answers the same questions as LoadedModel where they make sense for an encoder-only model: .name, .config
(config.arch == "bert"), .task (.name, .example, .description), .max_words, .meta, .run(text) → Trace. It has no
decoder, so it neither predicts nor takes a target; what it outputs is a sentence embedding (.embed) and the cosine
similarity of two sentences (.similarity).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from ..ablation import NO_ABLATION, Ablation
from ..errors import N_, InputError, LabError
from ..trace import Trace
from .config import BertConfig
from .model import BertEncoder
from .pooling import cosine_similarity, l2_normalize, mean_pool, sentence_embedding
from .tokenizer import WordPieces, WordPieceTokenizer

EXAMPLE = "The children were playing football in the park after school."
NO_TARGET = N_("{name} is an encoder-only model: it has no decoder, so it takes no target text.")


@dataclass(frozen=True)
class EncoderTask:
    """What an encoder-only model is for, in the shape the pages read a toy task in (.name, .example, .description)."""

    name: str = "sentence-embedding"
    title: str = N_("Pretrained sentence encoder")  # what the pages call it, translated where it is shown
    example: str = EXAMPLE  # a sentence for the pages' defaults
    description: str = N_("Sentence embeddings: one vector per sentence, and how alike two sentences are (cosine).")


@dataclass
class LoadedEncoder:
    """A pretrained encoder ready to use. Never mutated after loading, so threads and sessions may share it."""

    model: BertEncoder
    tokenizer: WordPieceTokenizer
    name: str = "minilm"
    task: EncoderTask = field(default_factory=EncoderTask)
    meta: dict[str, Any] = field(default_factory=dict)  # where it came from: package, version, licence, files
    notices: tuple[LabError, ...] = ()  # what a page says about this model once (a big folder model is slower: why)

    def __post_init__(self) -> None:
        self.model.eval()

    @property
    def config(self) -> BertConfig:
        """The encoder's config; config.arch is 'bert'."""
        return self.model.config

    @property
    def max_len(self) -> int:
        """Longest input in tokens, [CLS] and [SEP] included (256); a longer one is cut, with a notice."""
        return self.config.max_len

    @property
    def max_words(self) -> int:
        """Word pieces between [CLS] and [SEP] (254): the counterpart of LoadedModel.max_words. Words are not pieces,
        so a page should not cut text by words for this model: run() cuts it and says so in trace.notices."""
        return self.config.max_len - 2

    def tokenize(self, text: str) -> WordPieces:
        """Text → [CLS] pieces [SEP], cut to max_len; InputError for empty input (or nothing readable)."""
        return self.tokenizer.encode(text)

    def run(self, text: str, target: str | None = None, ablation: Ablation = NO_ABLATION) -> Trace:
        """Trace of one sentence (batch of one), with trace.tokens("src") the word pieces, trace.unknown the words
        read as [UNK], trace.notices the cut (if any). A non-empty target is an InputError: there is no decoder."""
        if target is not None and target.strip():
            raise InputError(NO_TARGET, name=self.name)
        pieces = self.tokenize(text)
        ids = torch.tensor([pieces.ids], dtype=torch.long)  # (1, S)
        with torch.inference_mode():
            _, trace = self.model(ids, record=True, ablation=ablation)
        notice = pieces.notice()
        return trace.with_tokens(pieces.tokens, None, unknown=pieces.unknown, notices=(notice,) if notice else ())

    def run_batch(self, texts: list[str]) -> tuple[Trace, list[WordPieces]]:
        """One traced forward over several sentences, right-padded with [PAD] and masked (B, S): every tensor of
        the trace has the batch axis; rows past a sentence's length are padding. With the pieces of each sentence."""
        pieces = [self.tokenize(text) for text in texts]
        if not pieces:
            raise ValueError("run_batch needs at least one sentence.")
        ids, keep = self._padded(pieces)
        with torch.inference_mode():
            _, trace = self.model(ids, keep=keep, record=True)
        return trace, pieces

    def _padded(self, pieces: list[WordPieces]) -> tuple[torch.Tensor, torch.Tensor]:
        """ids (B, S) right-padded with [PAD], and keep (B, S), True at real tokens."""
        width = max(len(p.ids) for p in pieces)
        ids = torch.full((len(pieces), width), self.tokenizer.pad_id, dtype=torch.long)  # (B, S)
        keep = torch.zeros(len(pieces), width, dtype=torch.bool)  # (B, S)
        for row, p in enumerate(pieces):
            ids[row, : len(p.ids)] = torch.tensor(p.ids)
            keep[row, : len(p.ids)] = True
        return ids, keep

    def embed(self, texts: str | list[str]) -> np.ndarray:
        """Sentence embeddings as the model card makes them (mean over real tokens, then L2-normalised): (d,) float32
        for one text, (n, d) for a list."""
        if isinstance(texts, str):
            return sentence_embedding(self.run(texts))[0]
        pieces = [self.tokenize(text) for text in texts]
        if not pieces:
            return np.zeros((0, self.config.d_model), dtype=np.float32)
        ids, keep = self._padded(pieces)
        with torch.inference_mode():
            hidden = self.model(ids, keep=keep)  # (B, S, d)
            return l2_normalize(mean_pool(hidden, keep)).numpy().astype(np.float32)

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of two sentences' embeddings, in [−1, 1] (1: the same direction)."""
        u, v = self.embed([a, b])
        return cosine_similarity(u, v)
