"""A session keeps a bounded number of its own models, and says so clearly (in the reader's language) when the
list is full."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest


def _fill(limit_plus: int) -> None:
    import streamlit as st

    from model import LoadedModel, load_pretrained
    from ui.i18n import explain
    from ui.models import add_user_model, model_names

    loaded = load_pretrained("copy")
    assert isinstance(loaded, LoadedModel)
    for i in range(limit_plus):
        try:
            add_user_model(f"mine-{i}", loaded)
        except ValueError as exc:
            st.error(explain(exc))
            break
    try:
        add_user_model("copy", loaded)
    except ValueError as exc:
        st.warning(explain(exc))
    st.markdown(f"models: {len(model_names())}")


@pytest.mark.parametrize(
    ("lang", "full", "shipped"),
    [
        ("en", "already holds 12 models", "shipped model"),
        ("zh", "已经保存了 12 个你自己的模型", "“copy”是内置模型的名字"),
    ],
)
def test_the_session_model_list_is_bounded(lang, full, shipped):
    from ui.models import MAX_USER_MODELS

    at = AppTest.from_function(_fill, args=(MAX_USER_MODELS + 3,), default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    assert len(at.error) == 1 and full in at.error[0].value
    assert shipped in at.warning[0].value
    from model import available_pretrained  # the shipped checkpoints and MiniLM when its package is installed

    assert at.markdown[-1].value == f"models: {len(available_pretrained()) + MAX_USER_MODELS}"
