"""The load test's protocol client against a real server: it must read what the page really shows.

One `streamlit run` of the app, one session of bench/load's client (no browser): the Attention page's model output
for inputs the client types (the page's own fragment rerun, ui/solo_page.py) equals the shipped model's own
prediction, and the focused head's heatmap after a head change (the focus section's fragment rerun) holds that head's
weights from the model's trace. So the client's widget ids, fragment reruns and message cache cannot rot without this
test failing.
"""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pytest
from streamlit.proto.BidiComponent_pb2 import BidiComponent

from devtools.harness import streamlit_server
from devtools.load.protocol import StreamlitSession
from model import load_pretrained
from ui.in_place_chart import chart_key

from .protos import protos

MODEL = "reverse"


@pytest.fixture(scope="module")
def server_url():
    with streamlit_server(timeout=120) as url:
        yield url


@pytest.fixture(scope="module")
def reference():
    return load_pretrained(MODEL)


def model_output(session: StreamlitSession) -> list[str]:
    """The tokens of the page's "Model output" line."""
    lines = [body for body in session.markdown() if body.startswith("**Model output:**")]
    assert len(lines) == 1, session.markdown()
    return re.findall(r"`([^`]*)`", lines[0])


def heatmap_z(session: StreamlitSession, key: str) -> np.ndarray:
    """The z matrix of the plotly heatmap drawn with this chart key (plotly sends typed arrays as base64)."""
    drawn = protos(session, "bidi_component", BidiComponent)
    (chart,) = [c for c in drawn if chart_key(c.id) == key]  # ui.in_place_chart
    z = json.loads(chart.bytes)["figure"]["data"][0]["z"]
    shape = tuple(int(n) for n in str(z["shape"]).split(","))
    return np.frombuffer(base64.b64decode(z["bdata"]), dtype=np.dtype(z["dtype"]).newbyteorder("<")).reshape(shape)


@pytest.mark.slow
def test_client_reads_the_models_real_output(server_url, reference):
    query = f"model={MODEL}&lang=en&kind=encoder&layer=1&head=1"  # (the page opens on cross-attention)
    with StreamlitSession(server_url, "attention", query, timeout=120) as session:
        assert session.session_id
        assert session.value("model") == MODEL
        example = str(session.value("text"))
        assert model_output(session) == reference.predict(example).split()

        for text in ("1 2 3 4 5", "7 0 7 9"):
            run = session.rerun({"text": text})  # one person's page reruns alone (ui/solo_page.py): its fragment
            assert run.ok and run.fragment_ids == (session.widget("text").fragment_id,) and not run.exceptions
            assert run.fragment_ids[0] and run.fragment_ids[0] != session.widget("head").fragment_id
            assert session.value("text") == text
            assert model_output(session) == reference.predict(text).split()

        run = session.rerun({"head": 2})  # inside the focus fragment: a fragment rerun, the model is not run again
        assert run.fragment_ids == (session.widget("head").fragment_id,) and run.fragment_ids[0]
        trace = reference.run("7 0 7 9")
        expected = trace.numpy("encoder.0.self_attn.weights")[2]  # (H, Lq, Lk) → layer 1, head 3
        np.testing.assert_allclose(heatmap_z(session, "focused"), expected, atol=1e-6)
        assert model_output(session) == reference.predict("7 0 7 9").split()  # the rest of the page is kept
