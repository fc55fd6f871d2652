"""Predict, then reveal: questions about the model's own numbers, and their true answers read from a trace.

Each builder takes the arrays a page already shows (attention weights, logits) and returns a ModelQuestion:
the options a class chooses from, the index of the true answer, what the question is about (`context`,
shown to everyone, so it never holds the answer) and the numbers behind the answer (`evidence`, shown at
the reveal). Options are tokens or language-neutral ids (SCALING_OPTIONS), so every reader translates them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..analysis.induction import HeadScores, circuit
from ..errors import N_, LabError
from ..naming import LOGITS, part_name
from ..trace import Trace

ATTEND, NEXT, UNSCALED = "attend", "next", "unscaled"
QUESTION_KINDS = (ATTEND, NEXT, UNSCALED)  # what the Attention and Step-by-step pages ask about a head or a position
WRITE = "write"  # the Next token page's: what will the GPT write next? (write_question)
COPY = "copy"  # the Train page's, on an induction run: which head will copy? (copy_options, then copy_question)
SHARPER, FLATTER, SAME = "sharper", "flatter", "same"
SCALING_OPTIONS = (SHARPER, FLATTER, SAME)
SAME_TOLERANCE = 0.05  # nats of row entropy: a smaller change counts as "about the same"
NEXT_OPTIONS = 6  # candidate tokens offered for "which token comes next"
MAX_TOKEN_CHARS = 40  # a token longer than this is cut in an option label (a room takes options of ≤ 64 chars)
WRITE_SHOWN = 6  # candidates a student picks from for "what will the model write next?"
WRITE_OPTIONS = 64  # the likeliest tokens a typed answer is counted as (the rest count as OTHER)
OTHER = "<other>"  # the last option of a write question: any other token (no character token is two characters)
CONTEXT_CHARS = 24  # the end of the text a write question quotes


class QuestionError(LabError):
    """A question cannot be asked about this view; the message says why and what to choose instead."""

    EMPTY = N_("There is nothing to ask about yet: type an input first.")
    NO_HEAD = N_("There is no head {head} here: this block has {count} heads.")
    NO_QUERY = N_("There is no query {query} here: this view has {count} query tokens.")
    ONE_KEY = N_("Query {query} can see only one key, so there is nothing to predict: choose another query.")
    NO_POSITION = N_("There is no decoder position {position}: the decoder reads {count} tokens.")
    NOT_FINITE = N_("This row holds numbers that are not finite, so it has no clear answer.")
    SHAPES = N_("The run without the scaling does not line up with this view; try another query.")
    SCALING_OFF = N_("The scaling is already switched off here, so there is nothing to compare.")
    NOT_A_DISTRIBUTION = N_("These probabilities do not add up to 1, so they are not the model's distribution.")
    NO_CIRCUIT = N_(
        "An induction head needs a head before it to read from: train a model of at least 2 layers "
        "(this one has {layers})."
    )
    TOO_MANY_HEADS = N_("This model has {count} heads, more than a question can offer ({limit}).")


@dataclass(frozen=True)
class ModelQuestion:
    """A question with its true answer: `options[answer]` is what the model computed."""

    kind: str
    options: tuple[str, ...]
    answer: int
    context: dict = field(default_factory=dict)  # what it is about: head, query, position (shown to all)
    evidence: dict = field(default_factory=dict)  # the numbers behind the answer (shown at the reveal)


def token_label(index: int, token: str) -> str:
    """'3 · dog': a numbered token, so repeated tokens stay distinct options."""
    token = token if len(token) <= MAX_TOKEN_CHARS else token[: MAX_TOKEN_CHARS - 1] + "…"
    return f"{index} · {token}"


def _row(weights: np.ndarray, head: int, query: int) -> np.ndarray:
    """One attention row of (H, Lq, Lk) weights, with head and query checked."""
    weights = np.asarray(weights, dtype=np.float64)
    if weights.ndim != 3 or weights.size == 0:
        raise QuestionError(QuestionError.EMPTY)
    n_heads, n_queries, _ = weights.shape
    if not 0 <= head < n_heads:
        raise QuestionError(QuestionError.NO_HEAD, head=head + 1, count=n_heads)
    if not 0 <= query < n_queries:
        raise QuestionError(QuestionError.NO_QUERY, query=query, count=n_queries)
    row = weights[head, query]
    if not np.isfinite(row).all():
        raise QuestionError(QuestionError.NOT_FINITE)
    return row


def attend_question(
    weights: np.ndarray, head: int, query: int, key_tokens: Sequence[str], number_from: int = 0
) -> ModelQuestion:
    """Which key will this query attend to most in this head? weights: (H, Lq, Lk) softmax weights; the options
    are the keys numbered from `number_from` (as the page counts its tokens)."""
    row = _row(weights, head, query)  # (Lk,)
    if len(key_tokens) != row.shape[0]:
        raise QuestionError(QuestionError.SHAPES)
    if row.shape[0] < 2 or np.count_nonzero(row > 0) < 2:
        raise QuestionError(QuestionError.ONE_KEY, query=query)
    answer = int(np.argmax(row))
    options = tuple(token_label(j + number_from, t) for j, t in enumerate(key_tokens))
    evidence = {"weight": float(row[answer])}
    return ModelQuestion(ATTEND, options, answer, {"head": head, "query": query}, evidence)


def softmax(row: np.ndarray) -> np.ndarray:
    """e^(x − max x) / Σ e^(x − max x) in float64."""
    shifted = np.exp(row - row.max())
    return shifted / shifted.sum()


def next_token_question(
    logits: np.ndarray, position: int, vocabulary: Sequence[str], n_options: int = NEXT_OPTIONS
) -> ModelQuestion:
    """Which token will the model output after decoder position `position`? logits: (T, V).

    The options are the n_options likeliest tokens, listed in vocabulary order so their order gives
    nothing away; the answer is the argmax of the logits."""
    logits = np.asarray(logits, dtype=np.float64)
    if logits.ndim != 2 or logits.size == 0:
        raise QuestionError(QuestionError.EMPTY)
    n_positions, n_vocab = logits.shape
    if not 0 <= position < n_positions:
        raise QuestionError(QuestionError.NO_POSITION, position=position, count=n_positions)
    if len(vocabulary) != n_vocab:
        raise QuestionError(QuestionError.SHAPES)
    row = logits[position]  # (V,)
    if not np.isfinite(row).all():
        raise QuestionError(QuestionError.NOT_FINITE)
    best = int(np.argmax(row))
    likeliest = np.argsort(-row, kind="stable")[: max(2, min(n_options, n_vocab))]
    chosen = sorted({best, *(int(i) for i in likeliest)})  # vocabulary order
    options = tuple(vocabulary[i][:MAX_TOKEN_CHARS] for i in chosen)
    probability = float(softmax(row)[best])
    return ModelQuestion(NEXT, options, chosen.index(best), {"position": position}, {"probability": probability})


def write_question(
    probs: np.ndarray, vocabulary: Sequence[str], text: str, shown: int = WRITE_SHOWN, n_options: int = WRITE_OPTIONS
) -> ModelQuestion:
    """What will the model write after `text`? probs (V,): the distribution of the next token as the page shows it
    (after temperature, top-k and top-p: renormalised, the cut tokens at 0).

    The options are the `shown` likeliest tokens (the candidates students pick from), then the next likeliest up to
    `n_options` in all (what a typed character is counted as), each group in vocabulary order so the order gives
    nothing away, then OTHER for any token not listed. The answer is the most likely token; the evidence holds the
    model's probability of every option (OTHER: the rest), to set beside the class's answers."""
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or p.size < 2 or len(vocabulary) != p.size:
        raise QuestionError(QuestionError.SHAPES)
    if not np.isfinite(p).all():
        raise QuestionError(QuestionError.NOT_FINITE)
    if (p < 0).any() or abs(p.sum() - 1.0) > 1e-4:
        raise QuestionError(QuestionError.NOT_A_DISTRIBUTION)
    order = [int(i) for i in np.argsort(-p, kind="stable")]
    shown = max(2, min(shown, p.size))
    candidates, others = sorted(order[:shown]), sorted(order[shown : max(shown, min(n_options, p.size))])
    chosen = candidates + others
    best = order[0]
    listed = [float(p[i]) for i in chosen]
    options = (*(vocabulary[i][:MAX_TOKEN_CHARS] for i in chosen), OTHER)
    evidence = {"probability": float(p[best]), "probabilities": [*listed, max(0.0, 1.0 - sum(listed))]}
    context = {"shown": len(candidates), "token": text[-CONTEXT_CHARS:]}
    return ModelQuestion(WRITE, options, chosen.index(best), context, evidence)


def write_choice(typed: str, options: Sequence[str]) -> int | None:
    """The option a typed answer counts as: the option that is that character, else OTHER (the last option); None
    for anything but one character (nothing typed, or several)."""
    if not isinstance(typed, str) or len(typed) != 1:
        return None
    listed = list(options[:-1])
    return listed.index(typed) if typed in listed else len(options) - 1


def entropy(row: np.ndarray) -> float:
    """Shannon entropy in nats of a weight row, with 0 · log 0 = 0."""
    p = np.asarray(row, dtype=np.float64)
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def scaling_question(
    scaled: np.ndarray, unscaled: np.ndarray, head: int, query: int, tolerance: float = SAME_TOLERANCE
) -> ModelQuestion:
    """What happens to this row without the ÷√dₖ: sharper, flatter or about the same?

    scaled, unscaled: (H, Lq, Lk) weights of the same block from the normal run and from the same run
    with the scaling switched off. Judged by the row's entropy: lower means sharper."""
    with_scaling, without_scaling = _row(scaled, head, query), _row(unscaled, head, query)
    if with_scaling.shape != without_scaling.shape:
        raise QuestionError(QuestionError.SHAPES)
    h_with, h_without = entropy(with_scaling), entropy(without_scaling)
    change = h_without - h_with
    answer = SHARPER if change < -tolerance else FLATTER if change > tolerance else SAME
    evidence = {
        "entropy_with": h_with,
        "entropy_without": h_without,
        "peak_with": float(with_scaling.max()),
        "peak_without": float(without_scaling.max()),
    }
    return ModelQuestion(
        UNSCALED, SCALING_OPTIONS, SCALING_OPTIONS.index(answer), {"head": head, "query": query}, evidence
    )


def block_weights(trace: Trace, name: str) -> np.ndarray:
    """(H, Lq, Lk) attention weights of the block `name` (e.g. "decoder.1.cross_attn"), batch 0."""
    key = part_name(name, "weights")
    if key not in trace:
        raise QuestionError(QuestionError.EMPTY)
    return trace.numpy(key)


def trace_logits(trace: Trace) -> np.ndarray:
    """(T, V) output logits of batch 0: row t scores the token after decoder position t."""
    if LOGITS not in trace:
        raise QuestionError(QuestionError.EMPTY)
    return trace.numpy(LOGITS)


MAX_HEAD_OPTIONS = 256  # a room takes at most 256 options (services.rooms.RoomLimits.max_options)


def head_id(layer: int, head: int) -> str:
    """A head as an option id, "layer.head" counted from 0 ("1.0": the first head of the second layer)."""
    return f"{layer}.{head}"


def parse_head_id(option: str) -> tuple[int, int] | None:
    """(layer, head) of a head_id, or None for anything else."""
    layer, dot, head = option.partition(".")
    return (int(layer), int(head)) if dot and layer.isdigit() and head.isdigit() else None


def copy_options(n_layers: int, n_heads: int) -> tuple[str, ...]:
    """The options of "which head will copy?", asked before an induction run's head forms: every head of the model,
    layer by layer. A one-layer model has no head an induction head could read from, so it is not asked."""
    if n_layers < 2:
        raise QuestionError(QuestionError.NO_CIRCUIT, layers=n_layers)
    if n_layers * n_heads > MAX_HEAD_OPTIONS:
        raise QuestionError(QuestionError.TOO_MANY_HEADS, count=n_layers * n_heads, limit=MAX_HEAD_OPTIONS)
    return tuple(head_id(layer, head) for layer in range(n_layers) for head in range(n_heads))


def copy_question(scores: HeadScores, step: int) -> ModelQuestion:
    """Which head will copy? Answered by the run's own scores when its head formed (at `step`): the induction head of
    the circuit (model.analysis.induction.circuit: the highest induction score after the first layer); the evidence
    holds its score and the previous-token head it reads from, with that head's score."""
    n_layers, n_heads = scores.induction.shape
    options = copy_options(n_layers, n_heads)
    prev_layer, prev_head, layer, head = circuit(scores)
    evidence = {
        "step": int(step), "head": head_id(layer, head), "induction": float(scores.induction[layer, head]),
        "previous_layer": prev_layer,
        "previous_head": prev_head, "previous": float(scores.previous[prev_layer, prev_head]),
    }  # fmt: skip
    context = {"layers": n_layers, "heads": n_heads}
    return ModelQuestion(COPY, options, options.index(head_id(layer, head)), context, evidence)
