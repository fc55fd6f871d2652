"""Hostile text typed into the pages' input boxes: empty, huge, binary and control characters, HTML, <script> and
Markdown, LaTeX. Each gets a clear message or is shown inert as typed, never a traceback; the model, the layer
and head chosen before are still there afterwards, and a good input typed next draws the page again.

Covered elsewhere, not repeated here: an empty box on each page (tests/app/test_attention_page.py,
test_inside_a_layer.py, test_positional_page.py), over-long input cut to the model's limit (same files),
`<b>`/`<img …>` words in the Attention input (test_attention_page.py, tests/browser/test_attention_browser.py),
`$x}\\` and `<b>x</b>*y*` as worked-example token names (tests/app/test_step_by_step.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from tests.app.charts import charts_of

from .apptest import Says, assert_page_drawn, assert_says, messages, open_page, run

UNKNOWN = Says("Not in this model's vocabulary (read as <unk>):", "这些词不在模型的词表里（按 <unk> 处理）：")
UNKNOWN_TARGET = Says("Target words not in the vocabulary (read as <unk>):", "目标输出中这些词不在词表里")
TYPE_SOME = Says("Type a few tokens separated by spaces", "请输入几个用空格分开的词元")
CUT = Says("this model reads at most 63, so only the first 63 are used", "这个模型最多读 63 个，所以只用前 63 个")
MB = 2**20
SCRIPT = "<script>alert(1)</script>"
MARKDOWN = "**bold** [x](javascript:alert(1)) ![i](http://x/i.png) <h1>"
CONTROL = "3 \x00 1 \x07\x1b[31m 4\r\n1\u202e 5\ufeff\u200b 9 \x7f"
LATEX = r"\\ } $ \text{ \href{javascript:alert(1)}{x}"
BINARY = bytes(range(256)).decode("latin-1")  # every byte value, as a browser would send it


@dataclass(frozen=True)
class TextCase:
    id: str
    page: str
    key: str  # the text box: "text" (Input, every page) or "target" (the Attention page)
    value: str
    says: Says | None  # the message expected, in each language
    shows: tuple[str, ...] = ()  # escaped Markdown that must appear in the message: the input as plain text
    langs: tuple[str, ...] = ("en",)


CASES = [
    TextCase("whitespace-only", "attention", "text", " \t\n \u3000 ", TYPE_SOME, langs=("en", "zh")),
    TextCase("1MB-of-tokens", "attention", "text", "3 " * (MB // 2), CUT, langs=("en", "zh")),
    TextCase("1MB-one-word", "attention", "text", "7" * MB, UNKNOWN),
    TextCase("1MB-target", "attention", "target", "1 " * (MB // 2), Says("The target has", "目标输出有")),
    TextCase("control-characters", "attention", "text", CONTROL, UNKNOWN, langs=("en", "zh")),
    TextCase("binary-every-byte", "inside-a-layer", "text", "3 1 " + BINARY, None),
    TextCase("NUL-only", "positional-encoding", "text", "\x00\x00", UNKNOWN),
    TextCase("control-in-target", "attention", "target", "6 \x00 \x1b[2J", UNKNOWN_TARGET),
    TextCase("script-tag", "inside-a-layer", "text", f"3 {SCRIPT} 1", None),
    TextCase("script-in-target", "attention", "target", SCRIPT, UNKNOWN_TARGET, (r"\<script\>",), ("en", "zh")),
    TextCase("markdown-link-image", "attention", "text", MARKDOWN, UNKNOWN, shows=(r"\*\*bold\*\*", r"\!\[i\]")),
    TextCase("html-in-positional", "positional-encoding", "text", "<h1>x</h1> <iframe src=x>", UNKNOWN, (r"\<iframe",)),
    TextCase("latex-in-input", "attention", "text", LATEX, UNKNOWN, shows=(r"\\href\{javascript", r"“\$”")),
    TextCase("unicode-rtl-emoji-cjk", "step-by-step", "text", "\u202e😀 ü 中文", None),
]
KEEP = {"layer": "2", "head": "3", "model": "reverse"}  # chosen before the bad input; must survive it
GOOD = "3 1 4 1 5"


@pytest.mark.parametrize(
    ("case", "lang"), [pytest.param(c, lang, id=f"{c.id}-{lang}") for c in CASES for lang in c.langs]
)
def test_hostile_text(case: TextCase, lang: str):
    params = dict(KEEP, source="model") if case.page == "step-by-step" else dict(KEEP)
    at = open_page(case.page, lang, params)
    at.text_input(key=case.key).set_value(case.value)
    run(at)
    assert_says(at, case.says, lang)
    for shown in case.shows:
        assert shown in messages(at), messages(at)
    assert SCRIPT not in messages(at) and "<h1>" not in messages(at)  # never raw HTML in a message's Markdown
    assert len(messages(at)) < 1000, "a message repeats a huge input instead of naming it briefly"
    assert_page_drawn(at, case.page, lang)
    assert at.selectbox(key="model").value == "reverse"
    if case.page != "attention":
        return
    at.text_input(key=case.key).set_value(GOOD if case.key == "text" else "")
    run(at)  # a good input again: the page draws, and what was chosen before the bad input is still chosen
    assert (at.selectbox(key="layer").value, at.radio(key="head").value) == (1, 2)
    assert charts_of(at) and not at.error and not re.search("Type a few tokens|请输入几个", messages(at))
