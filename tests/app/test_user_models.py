"""A session keeps a bounded number of its own models, and says so clearly when the list is full."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _fill(limit_plus: int) -> None:
    import streamlit as st

    from model import load_pretrained
    from ui.models import add_user_model, model_names

    loaded = load_pretrained("copy")
    for i in range(limit_plus):
        try:
            add_user_model(f"mine-{i}", loaded)
        except ValueError as exc:
            st.error(str(exc))
            break
    try:
        add_user_model("copy", loaded)
    except ValueError as exc:
        st.warning(str(exc))
    st.markdown(f"models: {len(model_names())}")


def test_the_session_model_list_is_bounded():
    from ui.models import MAX_USER_MODELS

    at = AppTest.from_function(_fill, args=(MAX_USER_MODELS + 3,), default_timeout=60).run()
    assert not at.exception
    assert len(at.error) == 1 and "already holds 12 models" in at.error[0].value
    assert "shipped model" in at.warning[0].value
    from model import PRETRAINED

    assert at.markdown[-1].value == f"models: {len(PRETRAINED) + MAX_USER_MODELS}"
