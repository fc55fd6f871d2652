"""What the Next-token page shows with a model of another family: one sentence that it needs a GPT, and a button per
GPT model here that switches the sidebar's model to it."""

from __future__ import annotations

import streamlit as st

from model import pretrained_arch
from model.gpt import LoadedGPT

from ..extra_models import extra_model_arch
from ..i18n import _
from ..models import model_names, user_models
from ..sidebar import MODEL_KEY
from ..streamlit_private import fragment_run
from ..tokens import md_escape

PREFERRED = ("gpt-en", "gpt-zh")  # offered first: the shipped GPTs, English then Chinese
SWITCHED = "_nt_switched"  # a switch button was pressed in this run


def is_gpt(loaded: object) -> bool:
    return isinstance(loaded, LoadedGPT)


def gpt_names() -> list[str]:
    """The GPT models this session can pick: the shipped ones first, then the server's folders', its own (and its
    class's)."""
    mine = user_models()
    names = [n for n in model_names()
             if pretrained_arch(n) == "gpt" or extra_model_arch(n) == "gpt" or is_gpt(mine.get(n))]  # fmt: skip
    return sorted(names, key=lambda n: PREFERRED.index(n) if n in PREFERRED else len(PREFERRED))


def _switch(name: str) -> None:
    st.session_state[MODEL_KEY] = name
    st.session_state[SWITCHED] = True


def needs_gpt(loaded) -> bool:
    """False for a GPT. For any other family: the sentence, the switch buttons, and True (draw nothing else)."""
    if st.session_state.pop(SWITCHED, False) and fragment_run():  # the sidebar shows the model picked: a full run
        st.rerun(scope="app")
    if is_gpt(loaded):
        return False
    with st.container(border=True, key="nt_needs_gpt"):
        names = gpt_names()
        if not names:
            st.markdown(_("**{name}** is not a GPT, and no GPT model is installed here: this page shows how a "
                          "decoder-only GPT writes the next token.").format(name=md_escape(loaded.name)))  # fmt: skip
            return True
        st.markdown(_("**{name}** is not a GPT, and this page shows how a decoder-only GPT writes the next token: "
                      "switch to one here.").format(name=md_escape(loaded.name)))  # fmt: skip
        row = st.container(horizontal=True, gap="small")
        for name in names:
            row.button(name, key=f"nt_switch_{name}", icon=":material/swap_horiz:", on_click=_switch, args=(name,))
    return True
