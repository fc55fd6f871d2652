""" "What will the model write next?": the class's question on the Next token page.

The teacher asks it over the text on their page (prompt and the tokens written after it) under their sampling
settings; students pick one of the candidates or type a character; Reveal sets the class's answers beside the
model's probabilities. The question and its answer come from model.teach.questions.write_question on the
distribution the page shows (the chain of model.sampling on the trace's last logits). Every follower computes that
distribution from the same view (the teacher's, which it follows) through the shared trace cache, so a reveal costs
a class one forward pass, not one per student. Until the reveal the page itself waits (holdback.py).
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from model.errors import InputError
from model.gpt import LoadedGPT
from model.sampling import SamplingSettings, chain
from model.teach.questions import WRITE, QuestionError, write_choice, write_question
from views import NextTokenView
from views.next_token import WrittenError, written_ids
from viz.questions import answers_beside_model_figure

from ..charts import chart_name, show_chart
from ..class_role import ClassRole
from ..i18n import _, explain
from ..models import get_model
from ..state import current
from ..trace_cache import traced_gpt
from .answers import drawn_options, plain_label
from .opening import new_question, open_in_room

TYPED_KEY = "_class_typed_{id}"  # a student's typed character, per question


def page_distribution() -> tuple[LoadedGPT, str, np.ndarray] | None:
    """(model, text, probabilities (V,)) of the next token on this session's Next token page: its prompt and
    written tokens, its temperature, top-k and top-p (a setting the model refuses counts as off, as on the page);
    None when the page has nothing to ask about (another family picked, an empty prompt, unreadable tokens)."""
    view = current(NextTokenView)
    loaded = get_model(view.common.model)
    if not isinstance(loaded, LoadedGPT):
        return None
    try:
        ids = written_ids(view.written, len(loaded.vocab))
        prompt = str(view.common.input or loaded.task.example)
        text = prompt + loaded.vocab.decode(list(ids))  # shown with the question; the model reads the ids as written
        trace = traced_gpt(loaded, loaded.continued(prompt, ids))
    except (InputError, WrittenError):
        return None
    settings = _settings(view, len(loaded.vocab))
    return loaded, text, chain(loaded.next_logits(trace), settings).renormalised.double().numpy()


def _settings(view: NextTokenView, vocab_size: int) -> SamplingSettings:
    top_p = None if view.top_p >= 1 else view.top_p
    try:
        settings = SamplingSettings(view.temperature, view.top_k, top_p)
        settings.check_vocabulary(vocab_size)
        return settings
    except InputError:
        return SamplingSettings(view.temperature) if view.temperature >= 0 else SamplingSettings()


def ask_write(role: ClassRole) -> dict | None:
    """Build the question on the teacher's page as it is now and open it in the room; the question (with its answer
    and evidence, which stay in this session) or None after a message."""
    found = page_distribution()
    if found is None:
        st.warning(_(QuestionError.EMPTY))
        return None
    loaded, text, probs = found
    try:
        asked = write_question(probs, loaded.vocabulary, text)
    except QuestionError as exc:
        st.warning(explain(exc))
        return None
    question = new_question(WRITE, asked.options, asked.context, asked.answer, asked.evidence)
    return question if open_in_room(role, question) else None


def option_probabilities(options: list[str] | tuple[str, ...]) -> list[float] | None:
    """The model's probability of each option on this session's page now (OTHER: the rest), or None."""
    found = page_distribution()
    if found is None:
        return None
    loaded, _, probs = found
    index = {token: i for i, token in enumerate(loaded.vocabulary)}
    listed = [float(probs[index[o]]) if o in index else 0.0 for o in options[:-1]]
    return [*listed, max(0.0, 1.0 - sum(listed))]


def write_answer(options: tuple[str, ...], context: dict, key: str, on_change, args, disabled: bool) -> int | None:
    """A student's answer: one of the candidates (big buttons), or a typed character (counted as its option, or as
    another character); st.session_state[key] holds the chosen option's index (on_change(*args) sends it), which
    this returns (None: no answer yet)."""
    shown = int(context.get("shown", 2))
    labels = [plain_label(WRITE, o) for o in options]
    chosen = st.session_state.get(key)
    pills_key, typed_key = f"{key}_pills", TYPED_KEY.format(id=key)
    if isinstance(chosen, int) and pills_key not in st.session_state:  # the room's answer, after a page change
        st.session_state[pills_key] = chosen if chosen < shown else None
    st.pills(
        _("Your answer"), list(range(shown)), format_func=labels.__getitem__, key=pills_key,
        on_change=_picked, args=(key, on_change, args), disabled=disabled, width="stretch",
    )  # fmt: skip
    st.text_input(
        _("…or type one character"), key=typed_key, max_chars=1, disabled=disabled,
        on_change=_typed, args=(key, shown, options, on_change, args),
    )  # fmt: skip
    chosen = st.session_state.get(key)
    if isinstance(chosen, int) and shown <= chosen < len(options):
        st.caption(_("Your answer: {answer}").format(answer=labels[chosen]))
    return chosen if isinstance(chosen, int) else None


def _picked(key: str, on_change, args) -> None:
    st.session_state[key] = st.session_state.get(f"{key}_pills")
    on_change(*args)


def _typed(key: str, shown: int, options: tuple[str, ...], on_change, args) -> None:
    choice = write_choice(str(st.session_state.get(TYPED_KEY.format(id=key)) or ""), options)
    if choice is None:
        return
    st.session_state[key] = choice
    st.session_state[f"{key}_pills"] = choice if choice < shown else None
    on_change(*args)


def beside_model(
    options: tuple[str, ...], counts: list[int] | tuple[int, ...], answer: int, key: str, probs: list[float] | None,
    context: dict,
) -> None:  # fmt: skip
    """The class's answers as shares beside the model's probabilities, option by option: the candidates, any other
    option someone chose, and every other token together (OTHER). probs: the model's probability of each option (the
    teacher's, from the question's evidence); None: read from this session's page (a student's follows the teacher)."""
    probs = probs if probs is not None else option_probabilities(options)
    total = sum(counts)
    rows = sorted({*drawn_options(WRITE, counts, context), len(options) - 1})  # OTHER: the model's mass elsewhere
    labels = [("✓ " if i == answer else "") + plain_label(WRITE, options[i]) for i in rows]
    model = None if probs is None else [probs[i] for i in rows]
    fig = answers_beside_model_figure(
        labels, [counts[i] / total if total else 0.0 for i in rows], model,
        answer=rows.index(answer) if answer in rows else None,
        title=_("The class beside the model ({n} answers)").format(n=total), class_name=_("the class"),
        model_name=_("the model"), share_title=_("share of answers, probability"),
    )  # fmt: skip
    show_chart(fig, key, name=chart_name("answers", WRITE))
