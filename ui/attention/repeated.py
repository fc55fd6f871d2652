"""The Attention page's button for a GPT: a random repeated sequence as the prompt, so the induction stripe shows; and
the line that says where the stripe lies and which head scores highest on it.

The sequence goes into the input box (the view's `input`), so the link carries it and a class follows it; the line is
read from whatever prompt is on screen (model.gpt.repeated.find_repeat), so a link or a class shows it too. The
button's run also focuses the head with the highest induction score on the sequence (model.analysis.induction), the
view's layer and head.
"""

from __future__ import annotations

import numpy as np
import streamlit as st
import torch

from model import Trace
from model.analysis.attention import attention_layers, attention_tokens
from model.analysis.induction import induction_per_sequence
from model.errors import LabError
from model.gpt import LoadedGPT
from model.gpt.repeated import Repeat, find_repeat, repeated_tokens
from model.naming import AttentionKind
from views import AttentionView, key_of

from ..i18n import _, explain
from ..inputs import TEXT_KEY
from ..state import choose

BUTTON_KEY = "attention_repeat"
FOCUS_KEY = "_attention_repeat_focus"  # set by the button: focus the head that copies in this run
PROBLEM_KEY = "_attention_repeat_problem"  # why the button could not make a sequence (shown once)
KIND = AttentionKind.DECODER  # a GPT's one kind of attention


def repeat_button(loaded: LoadedGPT) -> None:
    """The button, under the prompt; a model it cannot draw a sequence from is said in words."""
    st.button(
        _("🔁 A random repeated sequence"), key=BUTTON_KEY, on_click=_put_in, args=(loaded,),
        help=_("Puts in random tokens of this model's vocabulary, a segment of them repeated once, so a head that "
               "copies (an induction head) shows as a stripe beside the diagonal."),
    )  # fmt: skip
    problem = st.session_state.pop(PROBLEM_KEY, None)
    if problem is not None:
        st.warning(explain(problem))


def _put_in(loaded: LoadedGPT) -> None:
    try:
        tokens = repeated_tokens(loaded.vocabulary, loaded.max_len)
    except LabError as exc:
        st.session_state[PROBLEM_KEY] = exc
        return
    st.session_state[TEXT_KEY] = "".join(tokens)
    st.session_state[FOCUS_KEY] = True


def head_scores(trace: Trace, repeat: Repeat) -> np.ndarray:
    """(L, H): each head's induction score on the prompt's repeat, by model.analysis.induction."""
    weights = torch.from_numpy(attention_layers(trace, KIND))[None]  # (1, L, H, T, T)
    return induction_per_sequence(weights, repeat.start, repeat.segment)[0].numpy()  # (L, H)


def repeat_line(trace: Trace) -> None:
    """Where the prompt repeats itself and so where the stripe lies, and the head that copies most; after the
    button, that head is put in focus (before the page's pickers are drawn)."""
    queries, _keys = attention_tokens(trace, KIND)
    repeat = find_repeat(queries)
    if repeat is None:
        st.session_state.pop(FOCUS_KEY, None)
        return
    scores = head_scores(trace, repeat)  # (L, H)
    layer, head = (int(i) for i in np.unravel_index(int(np.argmax(scores)), scores.shape))
    if st.session_state.pop(FOCUS_KEY, False):
        choose(key_of(AttentionView, "layer"), layer)  # the view's, so the link and the class carry them
        choose(key_of(AttentionView, "head"), head)
    st.caption(
        _("A segment of {s} tokens, from position {start}, is repeated from position {copy}: in the second copy, a "
          "head that copies looks at the token after the earlier one, {back} keys back — a stripe {back} below the "
          "diagonal. The highest induction score here is layer {layer}, head {head}: {score}.").format(
            s=repeat.segment, start=repeat.start, copy=repeat.start + repeat.segment, back=repeat.segment - 1,
            layer=layer + 1, head=head + 1, score=f"{scores[layer, head]:.2f}",
        )
    )  # fmt: skip
