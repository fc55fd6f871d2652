"""Numbers the app writes into its words are read from the thing they count, so they cannot go stale: each test
finds the number from the thing's own behaviour (the longest name accepted, the longest sequence read, the pieces
the tokenizer keeps, the size a chart's camera button exports) and checks that the words say it (AppTest where the
words are a page's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from model.analysis.rnn import gradient_setup
from model.errors import LabError
from tests.app.charts import charts_of
from ui.training.panels import name_problem

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def longest(accepted) -> int:
    """The largest n in 1..4096 that `accepted(n)` allows (it allows every n up to it and none past)."""
    low, high = 1, 4096
    assert accepted(low) and not accepted(high)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if accepted(middle) else (low, middle)
    return low


def test_the_model_name_rule_says_the_longest_name_it_takes():
    most = longest(lambda n: name_problem("m" * n) is None)
    assert f"Use 1 to {most} letters" in str(name_problem("m" * (most + 1)))


def test_the_gradient_demo_says_the_longest_sequence_it_reads():
    def reads(n: int) -> bool:
        try:
            gradient_setup("rnn", length=n, d_input=2, d_hidden=2, batch=1)
        except LabError:
            return False
        return True

    most = longest(reads)
    with pytest.raises(LabError) as refused:
        gradient_setup("rnn", length=most + 1, d_input=2, d_hidden=2, batch=1)
    assert refused.value.params["limit"] == most


def opened(page: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update(lang="en", **params)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_minilms_input_says_how_many_pieces_it_keeps():
    kept = len(load_pretrained("minilm").tokenize("word " * 2000).tokens)  # [CLS] and [SEP] included
    at = opened("pages/attention.py", model="minilm")
    assert f"inputs past {kept} pieces are cut" in str(at.text_input(key="text").help)


def test_the_chart_download_help_says_the_size_a_chart_exports():
    at = opened("pages/attention.py", model="reverse")
    image = charts_of(at)[0].config["toImageButtonOptions"]  # what plotly.js's camera button exports
    size = f"{image['width'] * image['scale']}×{image['height'] * image['scale']}"
    assert f"downloads it at {size} in this format" in str(at.sidebar.segmented_control(key="chart_format").help)
