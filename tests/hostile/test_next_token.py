"""Bad input on /next-token, from its controls' link parameters and its prompt: each is one clear message in the
reader's language, the page still draws the distribution (or says what to type), and no traceback.

A thousand written tokens, ids outside the vocabulary or not ids at all, a bad seed; temperature 0 (greedy), negative,
NaN or huge; top-k 0 or past the vocabulary; top-p 0 or above 1; an empty prompt, one past the context (cut from the
left), characters outside the vocabulary. The tiny GPTs of tests/app/test_next_token_page.py hold a context of 24
characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from tests.app.test_next_token_page import MODELS, figures, open_next_token

from .apptest import Says

CJK = re.compile(r"[\u4e00-\u9fff]")
VOCAB = {lang: len(lm.vocab) for lang, lm in MODELS.items()}


@dataclass(frozen=True)
class Case:
    id: str
    params: dict[str, str | dict[str, str]]  # a value by language where the two models read other characters
    says: Says | None  # None: said by model/ in words this file does not spell; checked translated in Chinese
    en: str = ""  # then: a part of the English message
    drawn: bool = True  # the bars are drawn (False: the page asks for a prompt instead)
    dropped: tuple[str, ...] = ()  # parameters the page leaves out of the link afterwards


def whole(param: str, high: int | str) -> Says:
    return Says(f"“{param}” must be a whole number from 1 to {high}.", f"“{param}”必须是 1 到 {high} 之间的整数。")


T_RANGE = Says("“t” must be a number from 0 to 5.", "“t” 必须是 0 到 5 之间的数。")
TOP_P_RANGE = Says("“top_p” must be a number from 0 to 1.", "“top_p” 必须是 0 到 1 之间的数。")
TOO_MANY = Says("“tokens” holds 300 tokens; the page writes at most 256", "“tokens”含有 300 个词元")
NOT_IDS = Says("must be vocabulary ids joined by dots", "必须是用点连接的词表编号")
CASES = [
    Case("a-thousand-tokens", {"tokens": ".".join(["1"] * 1000)},
         Says("“tokens” is too long: 1999 characters, at most 1536.", "“tokens”太长：1999 个字符，最多 1536 个。"),
         dropped=("tokens",)),
    Case("300-tokens", {"tokens": ".".join(["1"] * 300)},
         TOO_MANY, dropped=("tokens",)),
    Case("id-outside", {"tokens": "1.99999"}, Says("holds the id 99999", "含有编号 99999"), dropped=("tokens",)),
    Case("not-ids", {"tokens": "1,2;<b>x</b>"}, NOT_IDS, dropped=("tokens",)),
    Case("seed-negative", {"seed": "-1"}, Says("“seed” must be a whole number from 0 to 999999999.",
                                               "“seed”必须是 0 到 999999999 之间的整数。"), dropped=("seed",)),
    Case("seed-huge", {"seed": "1e99"}, Says("“seed” must be a whole number", "“seed”必须是"), dropped=("seed",)),
    Case("seed-text", {"seed": "abc"}, Says("“seed” must be a whole number", "“seed”必须是"), dropped=("seed",)),
    Case("t=0", {"t": "0"}, Says("Temperature 0: the most likely token is always chosen", "温度为 0")),
    Case("t-negative", {"t": "-1"}, T_RANGE,
         dropped=("t",)),
    Case("t-nan", {"t": "nan"}, T_RANGE, dropped=("t",)),
    Case("t-huge", {"t": "1000000"}, T_RANGE,
         dropped=("t",)),
    Case("top-k-0", {"top_k": "0"}, None, "“top_k” must be a whole number from 1 to", dropped=("top_k",)),
    Case("top-k-past-the-vocabulary", {"top_k": "9999"}, None, "“top_k” must be a whole number from 1 to",
         dropped=("top_k",)),
    Case("top-p-0", {"top_p": "0"}, None, "top-p must be a number above 0 and at most 1"),
    Case("top-p-above-1", {"top_p": "1.5"}, TOP_P_RANGE,
         dropped=("top_p",)),
    Case("empty-prompt", {"text": ""}, None, "The prompt is empty", drawn=False),
    Case("past-the-context", {"text": {"en": "To be, or not to be, that is the question",
                                        "zh": "床前明月光，疑是地上霜。举头望明月，低头思故乡。床前明月光，"}}, None,
         "The prompt has 41 characters; this model reads at most 24, so the first 17 were left out."),
    Case("outside-the-vocabulary", {"text": {"en": "To be 😀 or ü", "zh": "床前😀明月ü"}},
         Says("read as □: “😀”, “ü”", "读作 □：“😀”、“ü”")),
    Case("layer-and-head", {"layer": "99", "head": "99"}, None, "must be a whole number from 1 to 2"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "lang"), [pytest.param(c, lang, id=f"{c.id}-{lang}") for c in CASES
                                            for lang in ("en", "zh")])  # fmt: skip
def test_bad_input_gets_one_clear_message(case: Case, lang: str):
    at = open_next_token(lang, **{k: v if isinstance(v, str) else v[lang] for k, v in case.params.items()})
    messages = [m.value for m in (*at.warning, *at.info, *at.error)]
    assert messages, "no message"
    if case.says is not None:
        assert any(case.says[lang] in m for m in messages), messages
    elif lang == "en":
        assert any(case.en in m for m in messages), messages
    else:  # model/'s own words, translated
        assert messages and all(CJK.search(m) for m in messages), messages
    if case.drawn:
        assert "next-token-candidates" in figures(at)
    assert len(" ".join(messages)) < 1000, "a message repeats the whole value"
    for name in case.dropped:
        assert name not in at.query_params, (name, at.query_params[name])
    assert not at.error


def test_top_k_is_said_with_this_models_vocabulary():
    at = open_next_token("en", top_k="9999")
    assert any(whole("top_k", VOCAB["en"])["en"] in w.value for w in at.warning)
