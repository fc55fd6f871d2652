"""LoadedGPT: a trained GPT with its character vocabulary, run on text the way the pages and the README need.

It answers the questions LoadedModel and LoadedEncoder answer (.name, .config with arch "gpt", .task with .name,
.example, .description, .max_words, .meta, .tokenize, .run(text) → Trace) and the language model's own:
next_token (the distribution of the next token, every stage of model/sampling.py's chain), generate (text written one
token at a time, reusing cached keys and values) and trace. A prompt longer than the context is cut from the left
(the model reads the last max_len characters), with a notice; characters outside the vocabulary read as □.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch
import torch.nn.functional as F

from ..ablation import NO_ABLATION, Ablation
from ..errors import N_, CheckpointError, InputError, LabError
from ..naming import Stack, final_norm_name
from ..sampling import UNCHANGED, Chain, SamplingSettings, chain, generator_of, sample
from ..trace import Trace
from .cache import KVCache
from .config import GPTConfig
from .model import GPT
from .tokenizer import GPTTokenizer
from .vocab import CharVocab

MAX_NEW_TOKENS = 2000  # the most characters one generate() call writes
PromptInput = str | list[int] | list[str]  # text, token ids, or tokens as lm.vocabulary's strings
PROMPT_CUT = N_("The prompt has {n} characters; this model reads at most {limit}, so the first {cut} were left out.")
PROMPT_CUT_TOKENS = N_("The prompt makes {n} tokens; this model reads at most {limit}: the first {cut} were left out.")
NOT_CHARACTERS = N_("{name} reads GPT-2's byte-level BPE tokens, not characters: it cannot be saved or trained here.")
NO_TARGET = N_("{name} is a decoder-only model: it continues the prompt, so it takes no target text.")


@dataclass(frozen=True)
class GPTTask:
    """What a GPT was trained to write, in the shape the pages read a toy task in (.name, .example, .description)."""

    name: str  # the corpus' name, stored in the checkpoint: "shakespeare", "tang-poems"
    example: str  # a prompt for the pages' defaults
    description: str  # N_ text, translated where it is shown
    language: str = "en"  # the language it writes: "en" or "zh"
    title: str = ""  # N_ text: what the pages call it; "" (a folder's GPT): its name


GPT_TASKS: dict[str, GPTTask] = {
    task.name: task
    for task in (
        GPTTask("shakespeare", "To be, or not to be", N_("Writes English like Shakespeare's plays, one character at "
                                                          "a time."), "en",
                N_("English text (Shakespeare)")),
        GPTTask("tang-poems", "床前明月光，", N_("Writes classical Chinese poems like the Tang poets', one character "
                                                  "at a time."), "zh",
                N_("Chinese poems (Tang)")),
        GPTTask("induction", "kqzf3bmhkqzf3bmh", N_("Continues a random sequence repeated once: it copies what came "
                                                      "after the same token earlier (an induction head)."), "en",
                N_("Induction (random tokens repeated once)")),
    )
}  # fmt: skip


@dataclass(frozen=True)
class Prompt:
    """A prompt as the model reads it: ids and their characters (□ for unknown ones), cut to the context."""

    ids: list[int]
    tokens: list[str]
    unknown: list[str]  # the characters read as □ (the vocabulary lacks them), once each
    cut: int = 0  # characters left out at the start (the prompt was longer than the context)
    limit: int = 0  # the context, max_len
    by_token: bool = False  # cut and limit count tokens (a BPE model), not characters

    def notice(self) -> LabError | None:
        """The message that the prompt was cut from the left, or None."""
        if not self.cut:
            return None
        template = PROMPT_CUT_TOKENS if self.by_token else PROMPT_CUT
        return LabError(template, n=self.cut + len(self.ids), limit=self.limit, cut=self.cut)


@dataclass(frozen=True)
class NextToken:
    """The distribution of the next token: the whole chain, and the kept tokens most likely first (probs sum to 1)."""

    chain: Chain
    ids: list[int]  # the kept tokens, most likely first
    tokens: list[str]
    probs: list[float]  # their renormalised probabilities, summing to 1
    vocab: GPTTokenizer = field(repr=False)

    @classmethod
    def of(cls, c: Chain, vocab: GPTTokenizer) -> NextToken:
        order = c.order  # (V,) most likely first
        kept = order[c.kept[order]]  # (n_kept,): one gather, not a Python loop over the vocabulary
        ids = kept.tolist()
        return cls(c, ids, [vocab.itos[i] for i in ids], c.renormalised[kept].tolist(), vocab)

    def candidates(self, n: int) -> list[tuple[int, str, float, bool, float]]:
        """The n most likely tokens before the cut: (id, token, probability, kept, renormalised probability)."""
        c = self.chain
        top = c.order[:n]
        rows = zip(top.tolist(), c.probs[top].tolist(), c.kept[top].tolist(), c.renormalised[top].tolist(), strict=True)
        return [(i, self.vocab.itos[i], p, k, r) for i, p, k, r in rows]


@dataclass
class LoadedGPT:
    """A trained GPT ready to use. Never mutated after loading, so threads and sessions may share it."""

    model: GPT
    vocab: GPTTokenizer  # a CharVocab, or a folder's ByteLevelBPE (model/gpt/bpe.py)
    name: str = "gpt"
    task: GPTTask = field(default_factory=lambda: GPT_TASKS["shakespeare"])
    meta: dict[str, Any] = field(default_factory=dict)  # how it was trained: steps, seconds, corpus, split, losses
    limit: int | None = None  # the most tokens a prompt may hold when below the context (a big model: a capped input)
    notices: tuple[LabError, ...] = ()  # what a page says about this model once (a big model is slower: why)

    def __post_init__(self) -> None:
        self.model.eval()
        if len(self.vocab) != self.config.vocab_size:
            raise LabError(
                N_("the vocabulary has {n} tokens but the model config says {size}."),
                n=len(self.vocab), size=self.config.vocab_size,
            )  # fmt: skip

    @property
    def config(self) -> GPTConfig:
        """The model's config; config.arch is 'gpt'."""
        return self.model.config

    @property
    def max_len(self) -> int:
        """The context: the most tokens the model reads at once (capped at `limit` for a big model)."""
        return self.config.max_len if self.limit is None else min(self.limit, self.config.max_len)

    @property
    def max_words(self) -> int:
        """The counterpart of LoadedModel.max_words: tokens of context (a longer prompt is cut from the left)."""
        return self.max_len

    @property
    def vocabulary(self) -> list[str]:
        """Every token's string, by id."""
        return self.vocab.to_list()

    @property
    def chars(self) -> CharVocab:
        """The character vocabulary of a GPT trained here; CheckpointError for a folder's GPT-2 (BPE: none)."""
        if not isinstance(self.vocab, CharVocab):
            raise CheckpointError(NOT_CHARACTERS, name=self.name)
        return self.vocab

    # ---- reading a prompt ----

    def tokenize(self, text: str) -> Prompt:
        """Text → the ids the model reads: one per character, □ for unknown ones, the last max_len characters."""
        if not isinstance(text, str) or not text:
            raise InputError(
                N_("The prompt is empty: type a few characters for the model to continue, e.g. '{example}'."),
                example=self.task.example,
            )
        if not isinstance(self.vocab, CharVocab):  # BPE: a token holds several characters, so cut the tokens
            ids, unknown = self.vocab.encode(text)
            cut = max(0, len(ids) - self.max_len)
            ids = ids[cut:]
            return Prompt(ids, self.vocab.show(ids), unknown, cut, self.max_len, by_token=True)
        cut = max(0, len(text) - self.max_len)
        ids, unknown = self.vocab.encode(text[cut:])  # only what the model reads: a huge paste costs nothing more
        return Prompt(ids, [self.vocab.itos[i] for i in ids], unknown, cut, self.max_len)

    def prompt_of_ids(self, ids: list[int]) -> Prompt:
        """Token ids (from a link, or appended one by one) → a Prompt; InputError for an id outside the vocabulary."""
        if not ids:
            raise InputError(N_("The prompt is empty: type a few characters for the model to continue, e.g. "
                                "'{example}'."), example=self.task.example)  # fmt: skip
        bad = [i for i in ids if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(self.vocab)]
        if bad:
            raise InputError(
                N_("Token id {value} is not in this model's vocabulary (0 to {last})."),
                value=repr(bad[0]), last=len(self.vocab) - 1,
            )  # fmt: skip
        cut = max(0, len(ids) - self.max_len)
        kept = list(ids[cut:])
        by_token = not isinstance(self.vocab, CharVocab)
        return Prompt(kept, self.vocab.show(kept), [], cut, self.max_len, by_token=by_token)

    def continued(self, text: str, written: Sequence[int]) -> str | list[int]:
        """The input the model reads for the prompt `text` followed by the token ids `written` (the Next-token page's
        text so far), for read, trace or tokenize: text's own tokens, then exactly `written`, uncut (a reader cuts at
        max_len). For a character-level vocabulary that is the joined text (one id per character: exact, cut by
        characters, unknown ones said); for a BPE the ids themselves, since the joined text re-encoded may merge
        tokens across the join ("hel" + "lo" → "hello") and the model would read other tokens than those written."""
        ids = [int(i) for i in written]
        if isinstance(self.vocab, CharVocab):
            return text + self.vocab.decode(ids)
        return (self.vocab.encode(text)[0] if text else []) + ids

    def ids_of_tokens(self, tokens: list[str]) -> list[int]:
        """Tokens given as lm.vocabulary's strings → their ids; InputError naming the first one not in it."""
        index = {token: i for i, token in reversed(list(enumerate(self.vocabulary)))}  # the first id of a string
        bad = [t for t in tokens if not isinstance(t, str) or t not in index]
        if bad:
            raise InputError(
                N_("{token} is not a token of this model's vocabulary (lm.vocabulary lists its {n} tokens)."),
                token=repr(bad[0]), n=len(index),
            )  # fmt: skip
        return [index[t] for t in tokens]

    def read(self, text_or_ids: PromptInput) -> Prompt:
        """Text, token ids, or tokens as strings (a list of lm.vocabulary's entries) → the Prompt the model reads
        (what trace reads, cut to max_len)."""
        if isinstance(text_or_ids, str):
            return self.tokenize(text_or_ids)
        items = list(text_or_ids)
        if items and all(isinstance(item, str) for item in items):
            return self.prompt_of_ids(self.ids_of_tokens([str(item) for item in items]))
        return self.prompt_of_ids(items)  # type: ignore[arg-type]  # ids (a mixed list is refused there)

    # ---- the pages' interface ----

    def run(self, text: str, target: str | None = None, ablation: Ablation = NO_ABLATION) -> Trace:
        """Trace of one prompt (batch of one): trace.tokens("tgt") its characters, trace.prediction the most likely
        next one, trace.unknown the characters read as □, trace.notices the cut. A non-empty target is an
        InputError: a decoder-only model has no decoder input of its own."""
        if target is not None and target.strip():
            raise InputError(NO_TARGET, name=self.name)
        return self.trace(text, ablation)

    def trace(self, text_or_ids: PromptInput, ablation: Ablation = NO_ABLATION) -> Trace:
        """Every named intermediate of the forward pass over the prompt (model/naming.py's names): text, token ids,
        or a list of token strings (lm.trace(["a", "b", "a", "b"]))."""
        prompt = self.read(text_or_ids)
        with torch.inference_mode():
            logits, trace = self.model(self._ids_of(prompt.ids), record=True, ablation=ablation, last_only=True)
        notice = prompt.notice()
        prediction = self.vocab.itos[int(torch.argmax(logits[0, -1]))]
        return trace.with_tokens(
            None, prompt.tokens, unknown=prompt.unknown, prediction=prediction, notices=(notice,) if notice else ()
        )

    def next_logits(self, trace: Trace) -> torch.Tensor:
        """(V,) the logits of the token after the trace's last position: the head on its final norm's last row, so a
        page never computes the trace's whole (T, V) logits (GPT-2's 50,257 at every position) for the one it shows."""
        with torch.no_grad():
            return F.linear(trace[final_norm_name(Stack.DECODER)][0, -1], self.model.head_weight)

    def last_logits(self, text_or_ids: PromptInput, ablation: Ablation = NO_ABLATION) -> torch.Tensor:
        """The logits (V,) of the token after the prompt."""
        prompt = self.read(text_or_ids)
        with torch.inference_mode():
            return self.model(self._ids_of(prompt.ids), ablation=ablation)[0, -1]

    def next_token(
        self,
        text_or_ids: PromptInput,
        temperature: float = 1.0,
        top_k: int | None = None,
        top_p: float | None = None,
        ablation: Ablation = NO_ABLATION,
    ) -> NextToken:
        """The distribution of the next token under these settings: .tokens, .probs (most likely first, summing to 1)
        and .chain, every stage (logits, ÷ T, softmax, kept, renormalised)."""
        settings = SamplingSettings(temperature, top_k, top_p)
        return NextToken.of(chain(self.last_logits(text_or_ids, ablation), settings), self.vocab)

    def generate_ids(
        self, text_or_ids: PromptInput, n: int, settings: SamplingSettings = UNCHANGED,
        ablation: Ablation = NO_ABLATION,
    ) -> list[int]:  # fmt: skip
        """The ids of n tokens written after the prompt, one at a time. Until the context is full each step feeds
        only the new token (a KVCache holds the earlier keys and values); then each step re-reads the last max_len
        tokens (learned positions end there), as it does with the causal mask switched off. The same seed and
        settings give the same tokens."""
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_NEW_TOKENS:
            raise InputError(
                N_("The number of tokens to write must be a whole number from 0 to {limit}; got {value}."),
                limit=MAX_NEW_TOKENS, value=repr(n),
            )  # fmt: skip
        settings.check_vocabulary(len(self.vocab))
        ids = list(self.read(text_or_ids).ids)
        generator = generator_of(settings.seed)
        # Without the causal mask every position sees the later ones, so earlier keys and values change as the text
        # grows: nothing can be cached, and each step re-reads the text.
        cache: KVCache | None = KVCache(self.config) if ablation.causal else None
        written: list[int] = []
        with torch.inference_mode():
            logits = self.model(self._ids_of(ids), ablation=ablation, cache=cache)[0, -1]  # (V,)
            for step in range(n):
                token = sample(chain(logits, settings), generator)
                written.append(token)
                ids.append(token)
                if step == n - 1:
                    break
                if cache is not None and cache.room == 0:
                    cache = None  # the context is full: from now on, re-read the last max_len tokens
                new = ids[-1:] if cache is not None else ids[-self.max_len :]  # (T,)
                logits = self.model(self._ids_of(new), ablation=ablation, cache=cache)[0, -1]
        return written

    @staticmethod
    def _ids_of(ids: list[int]) -> torch.Tensor:
        return torch.tensor([ids], dtype=torch.long)  # (1, T)

    def generate(
        self,
        text_or_ids: PromptInput,
        n: int = 40,
        temperature: float = 1.0,
        top_k: int | None = None,
        top_p: float | None = None,
        seed: int | None = None,
        ablation: Ablation = NO_ABLATION,
    ) -> str:
        """The n characters written after the prompt (the prompt itself not included); same seed, same text."""
        settings = SamplingSettings(temperature, top_k, top_p, seed)
        return self.vocab.decode(self.generate_ids(text_or_ids, n, settings, ablation))
