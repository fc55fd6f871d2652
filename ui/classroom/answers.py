"""How a question reads on every screen: its prompt, its options and the answers, in the reader's language.

A question travels as language-neutral data (model/teach/questions.py: tokens or option ids, and a context of
numbers and tokens), so a teacher in Chinese and a student in English each read it in their own language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from model.naming import AttentionKind
from model.teach.questions import ATTEND, COPY, FLATTER, NEXT, OTHER, SAME, SHARPER, UNSCALED, WRITE, parse_head_id
from viz.questions import answers_figure

from ..charts import chart_name, show_chart
from ..i18n import N_, _, ngettext
from ..tokens import md_escape, visible

ATTENTION_NAMES = {  # what a question's context["attention"] names: a kind of the Transformer, or the worked example
    AttentionKind.ENCODER: N_("encoder self-attention"),
    AttentionKind.DECODER: N_("decoder masked self-attention"),
    AttentionKind.CROSS: N_("cross-attention"),
    "example": N_("the worked example"),
}
KIND_NAMES = {  # the kinds of question, as the ask controls offer them
    ATTEND: N_("Which key will this query attend to most?"),
    NEXT: N_("Which token will the model output next?"),
    UNSCALED: N_("What happens to this row without the ÷√dₖ?"),
}
SCALING_NAMES = {
    SHARPER: N_("Sharper: more weight on fewer keys"),
    FLATTER: N_("Flatter: the weight spreads out"),
    SAME: N_("About the same"),
}
PROMPTS = {  # (kind, whether the block has a layer) → the question, filled in from its context
    (ATTEND, True): N_(
        "In layer {layer}, head {head} ({attention}), which key will query {query} “{token}” attend to most?"
    ),
    (ATTEND, False): N_("In head {head} of {attention}, which key will query {query} “{token}” attend to most?"),
    (UNSCALED, True): N_(
        "In layer {layer}, head {head} ({attention}), what happens to the weights of query {query} “{token}” "
        "without the ÷√dₖ?"
    ),
    (UNSCALED, False): N_(
        "In head {head} of {attention}, what happens to the weights of query {query} “{token}” without the ÷√dₖ?"
    ),
    (NEXT, True): N_("After decoder position {position} (“{token}”), which token will the model output next?"),
    (NEXT, False): N_("After decoder position {position} (“{token}”), which token will the model output next?"),
    (WRITE, False): N_("What will the model write next, after “{token}”?"),
    (COPY, False): N_(
        "Which head will copy? As the model learns, one head will look from each token of the repeat back to the "
        "token that came after it the first time. Which one will it be?"
    ),
}  # fmt: skip


def prompt(kind: str, context: dict) -> str:
    """The question in this session's language (Markdown; tokens escaped)."""
    number_from = int(context.get("number_from", 0))
    has_layer = context.get("layer") is not None
    template = PROMPTS.get((kind, has_layer))
    if template is None:
        return _("A question about this view.")
    values = {
        "layer": int(context.get("layer") or 0) + 1,
        "head": int(context.get("head", 0)) + 1,
        "attention": _(ATTENTION_NAMES.get(str(context.get("attention")), ATTENTION_NAMES["example"])),
        "query": int(context.get("query", 0)) + number_from,
        "position": int(context.get("position", 0)),
        "token": md_escape(str(context.get("token", ""))),
    }
    return _(template).format(**values)


OTHER_NAME = N_("another character")  # a write question's last option: any token it does not list


def head_label(layer: int, head: int) -> str:
    """'Layer 2 · Head 1' for a head counted from 0."""
    return f"{_('Layer {n}').format(n=layer + 1)} · {_('Head {n}').format(n=head + 1)}"


def option_label(kind: str, option: str) -> str:
    """An option as shown: a scaling outcome translated, a head named, a token as typed (escaped)."""
    if kind == UNSCALED and option in SCALING_NAMES:
        return _(SCALING_NAMES[option])
    if kind == WRITE and option == OTHER:
        return _(OTHER_NAME)
    if kind == COPY and (where := parse_head_id(option)) is not None:
        return head_label(*where)
    return md_escape(visible([option])[0])  # a GPT's space as ␣


def plain_label(kind: str, option: str) -> str:
    """An option for a figure's axis (no Markdown)."""
    if kind == WRITE and option == OTHER:
        return _(OTHER_NAME)
    if kind == COPY and (where := parse_head_id(option)) is not None:
        return head_label(*where)
    return _(SCALING_NAMES[option]) if kind == UNSCALED and option in SCALING_NAMES else visible([option])[0]


def drawn_options(kind: str, counts: Sequence[int], context: Mapping) -> list[int]:
    """The options a chart of the answers draws: all of them, but for a write question (dozens of tokens) the
    candidates and any other option someone chose."""
    if kind != WRITE:
        return list(range(len(counts)))
    shown = int(context.get("shown", 0))
    return [i for i in range(len(counts)) if i < shown or counts[i]]


def answer_count(total: int) -> str:
    return ngettext("{n} answer", "{n} answers", total).format(n=total)


def distribution(
    kind: str, options: Sequence[str], counts: Sequence[int], answer: int | None, key: str, context: Mapping
) -> None:
    """The bar chart of the answers, with the count; the true answer green when `answer` is given. The question's
    `context` (attention kind, layer, head) names its download."""
    total = sum(counts)
    rows = drawn_options(kind, counts, context)
    labels = [("✓ " if i == answer else "") + plain_label(kind, options[i]) for i in rows]
    fig = answers_figure(
        labels, [counts[i] for i in rows], answer=rows.index(answer) if answer in rows else None,
        title=answer_count(total), count_title=_("answers"), hover_name=_("answers"),
    )  # fmt: skip
    layer, head = context.get("layer"), context.get("head")
    name = chart_name(
        "answers", kind, str(context.get("attention") or ""), layer=layer if isinstance(layer, int) else None,
        head=head if isinstance(head, int) else None,
    )  # fmt: skip
    show_chart(fig, key, name=name)


def reveal_line(kind: str, options: Sequence[str], answer: int) -> str:
    """'The model's answer: …' in bold."""
    return _("**The model's answer:** {answer}").format(answer=option_label(kind, options[answer]))


def evidence_line(kind: str, evidence: dict) -> str:
    """The numbers behind the answer, as the trace holds them."""
    if kind == ATTEND and "weight" in evidence:
        return _("That key gets weight {weight} in this row (the row's weights sum to 1).").format(
            weight=f"{evidence['weight']:.3f}"
        )
    if kind in (NEXT, WRITE) and "probability" in evidence:
        return _("The model gives that token probability {p}.").format(p=f"{evidence['probability']:.3f}")
    if kind == COPY and "induction" in evidence:
        return _(
            "At step {step}, {head} reached an induction score of {score}. It reads from {previous_head}, a "
            "previous-token head (score {previous}): the two make the circuit."
        ).format(
            step=evidence["step"], head=head_label(*(parse_head_id(str(evidence["head"])) or (0, 0))),
            score=f"{evidence['induction']:.2f}", previous=f"{evidence['previous']:.2f}",
            previous_head=head_label(int(evidence["previous_layer"]), int(evidence["previous_head"])),
        )  # fmt: skip
    if kind == UNSCALED and "entropy_with" in evidence:
        return _(
            "Entropy of the row: {before} nats with the ÷√dₖ, {after} without; its largest weight goes from "
            "{peak_before} to {peak_after}."
        ).format(
            before=f"{evidence['entropy_with']:.3f}", after=f"{evidence['entropy_without']:.3f}",
            peak_before=f"{evidence['peak_with']:.3f}", peak_after=f"{evidence['peak_without']:.3f}",
        )  # fmt: skip
    return ""


def your_answer_line(kind: str, options: Sequence[str], choice: int | None, answer: int) -> str:
    if choice is None:
        return _("You did not answer.")
    label = option_label(kind, options[choice])
    if choice == answer:
        return _("✅ Your answer, {answer}, is right.").format(answer=label)
    return _("❌ Your answer was {answer}.").format(answer=label)


def answer_pills(kind: str, options: Sequence[str], key: str, on_change=None, args=(), disabled: bool = False):
    """Big buttons, one per option (fine on a phone); returns the chosen index or None."""
    labels = [option_label(kind, option) for option in options]  # translated now, in the script run
    return st.pills(
        _("Your answer"), list(range(len(options))), format_func=labels.__getitem__,
        key=key, on_change=on_change, args=args, disabled=disabled, width="stretch",
    )  # fmt: skip
