"""AppTest of the step-by-step page: every step renders, the numbers are the computation's, edits and bad input,
in English and in Chinese; links name the source and the mask in either language."""

import json
from pathlib import Path
from typing import TypedDict

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from services.lessons import FORMAT, parse_lesson
from ui.i18n import translations
from ui.walkthrough.export import CONVENTIONS_KEY, INFINITY_NOTE, VIEW_KEY, WALK_KEY, to_json

from .charts import charts_of

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/step-by-step.py"
MODEL = "model"  # the source's id; a link may also carry its label in either language
LANGS = ["en", "zh"]


def click(at: AppTest, key: str) -> AppTest:
    return at.button(key=key).click().run()


def open_page(step=None, source=None, lang="en", **state) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    if step is not None:
        at.query_params["step"] = str(step)
    if source is not None:
        at.query_params["source"] = source
    at.run()
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["lang"] == lang
    return at


def exported(at: AppTest) -> dict:
    """The JSON the download button offers (to_json of the page's Walk), parsed strictly: no NaN / Infinity."""

    def refuse(name):
        raise ValueError(f"invalid JSON constant {name}")

    walk, conventions, view = (at.session_state[key] for key in (WALK_KEY, CONVENTIONS_KEY, VIEW_KEY))
    data = json.loads(to_json(walk, conventions, view), parse_constant=refuse)
    for key in ("masked",):
        data[key] = [[float(v) if isinstance(v, str) else v for v in row] for row in data[key]]
    return {k: np.asarray(v, dtype=float) if isinstance(v, list) and k not in ("query_tokens", "key_tokens") else v
            for k, v in data.items()}  # fmt: skip


class Tolerance(TypedDict):  # np.testing.assert_allclose's rtol and atol
    rtol: float
    atol: float


def np_softmax(rows):
    out = np.zeros_like(rows)
    for i, r in enumerate(rows):
        if np.isfinite(r).any():
            e = np.exp(r - r[np.isfinite(r)].max())
            out[i] = e / e.sum()
    return out


def check_export(e: dict, heads: int):
    """Every matrix of the export against NumPy from X, M and the weights (biases 0 for the example)."""
    tol: Tolerance = {"rtol": 1e-6, "atol": 1e-6}
    bq, bk, bv = (e.get(k, 0.0) for k in ("b_Q", "b_K", "b_V"))
    np.testing.assert_allclose(e["Q"], e["X"] @ e["W_Q"] + bq, **tol)
    np.testing.assert_allclose(e["K"], e["M"] @ e["W_K"] + bk, **tol)
    np.testing.assert_allclose(e["V"], e["M"] @ e["W_V"] + bv, **tol)
    np.testing.assert_allclose(e["scores"], e["Q"] @ e["K"].T, **tol)
    divisor = (np.sqrt(e["d_k"]) if e["scale"] else 1.0) * e["temperature"]
    np.testing.assert_allclose(e["scaled"], e["scores"] / divisor, **tol)
    np.testing.assert_allclose(e["masked"], np.where(e["mask"].astype(bool), e["scaled"], -np.inf), **tol)
    np.testing.assert_allclose(e["weights"], np_softmax(e["masked"]), **tol)
    np.testing.assert_allclose(e["Z"], e["weights"] @ e["V"], **tol)
    assert e["heads"].shape[0] == heads
    np.testing.assert_allclose(e["heads"][e["head"] - 1], e["Z"], **tol)
    concat = np.concatenate(list(e["heads"]), axis=1)
    np.testing.assert_allclose(e["concat"], concat, **tol)
    np.testing.assert_allclose(e["out"], concat @ e["W_O"] + e.get("b_O", 0.0), **tol)
    np.testing.assert_allclose(e["resid"], e["R"] + e["out"], **tol)


STEP_TITLE = {"en": "Step {step} of 8", "zh": "第 {step} 步（共 8 步）"}  # how each language starts a step's title


def subheader(at: AppTest) -> str:
    starts = tuple(title.split("{")[0] for title in STEP_TITLE.values())
    return next(s.value for s in at.subheader if s.value.startswith(starts))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("source", [None, MODEL])
def test_every_step_renders_with_next(source, lang):
    at = open_page(source=source, lang=lang)
    for step in range(1, 9):
        assert subheader(at).startswith(STEP_TITLE[lang].format(step=step)), subheader(at)
        assert at.latex, f"step {step} shows no formula"
        assert not at.exception and not at.error
        if step < 8:
            click(at, "wt_next")
    assert at.button(key="wt_next").disabled
    click(at, "wt_prev")
    assert subheader(at).startswith(STEP_TITLE[lang].format(step=7))


@pytest.mark.parametrize(("lang", "title", "key"), [("en", "Step 5 of 8 · Softmax", "key"),
                                                    ("zh", "第 5 步（共 8 步）· Softmax 归一化", "键")])  # fmt: skip
def test_step_in_the_url_opens_that_step(lang, title, key):
    at = open_page(step=5, lang=lang)
    assert subheader(at).startswith(title)
    assert any(r"\sum_j \alpha_{ij} = 1.000" in tex.value for tex in at.latex)  # the step-by-step row sums to 1
    # the arithmetic table of the followed row (query 1) against NumPy's softmax of the exported masked row
    table = at.table[0].value
    row = exported(at)["masked"][0]
    assert list(table[key]) == ["the", "cat", "sat", "down"]
    shifted, weights = table["s − m"].astype(float), table["α = e^(s − m) / Σ"].astype(float)
    np.testing.assert_allclose(shifted, row - row.max(), atol=1e-4)
    np.testing.assert_allclose(weights, np_softmax(row[None])[0], atol=1e-4)
    assert abs(weights.sum() - 1) < 1e-3


@pytest.mark.parametrize("step", [1, 5])
def test_worked_example_export_matches_numpy(step):
    at = open_page(step=step)
    e = exported(at)
    assert e["source"] == "example" and e["X"].shape == (4, 4)
    check_export(e, heads=2)
    np.testing.assert_allclose(e["weights"].sum(axis=1), 1.0, atol=1e-9)


@pytest.mark.parametrize(("kind", "layer", "head"), [("encoder", 0, 0), ("decoder", 1, 2), ("cross", 1, 3)])
def test_model_export_matches_numpy_and_the_trace(kind, layer, head):
    at = open_page(step=2, source=MODEL, wt_kind=kind, wt_layer=layer, wt_head=head)
    e = exported(at)
    assert (e["kind"], e["layer"], e["head"]) == (kind, layer, head + 1)
    check_export(e, heads=4)
    # The same numbers the dashboard plots: straight from a fresh trace of the same input.
    loaded = load_pretrained("translate")
    trace = loaded.run(loaded.task.example)
    name = {"encoder": "encoder", "decoder": "decoder", "cross": "decoder"}[kind]
    attn = "cross_attn" if kind == "cross" else "self_attn"
    weights = trace.numpy(f"{name}.{layer}.{attn}.weights")[head]
    np.testing.assert_allclose(e["weights"], weights, rtol=0, atol=1e-7)
    np.testing.assert_allclose(e["norm"], trace.numpy(f"{name}.{layer}.{attn}.norm"), rtol=0, atol=1e-6)


def test_ablations_change_every_number():
    base = exported(open_page(step=3))
    at = open_page(step=3, wt_temperature=2.0, wt_scale_off=True, mask="causal")
    e = exported(at)
    assert e["temperature"] == 2.0 and e["scale"] is False
    np.testing.assert_allclose(e["scores"], base["scores"])
    np.testing.assert_allclose(e["scaled"], e["scores"] / 2.0)
    assert np.isneginf(e["masked"][0, 1:]).all() and e["weights"][0, 0] == pytest.approx(1.0)
    raw = json.loads(to_json(at.session_state[WALK_KEY], at.session_state[CONVENTIONS_KEY]))
    assert raw["masked"][0][1] == "-Infinity" and "-Infinity" in raw["conventions"]  # documented in the file
    check_export(e, heads=2)
    off = exported(open_page(step=4, mask="causal", wt_mask_off=True))
    assert np.isfinite(off["masked"]).all()


def edit(at: AppTest, name: str, row: int, col: int, value) -> AppTest:
    """Type `value` into cell (row, col) (0-based, numeric columns) of a matrix editor, then rerun."""
    key = f"wt_edit_{name}_{at.session_state.get('wt_version', 0)}"
    at.session_state[key] = {"edited_rows": {row: {str(col + 1): value}}, "added_rows": [], "deleted_rows": []}
    return at.run()


def test_editing_w_q_changes_q_scores_and_weights():
    at = open_page(step=2)
    before = exported(at)
    edit(at, "W_Q", 1, 0, "3.5")
    after = exported(at)
    assert not at.error
    assert after["W_Q"][1, 0] == 3.5 and before["W_Q"][1, 0] != 3.5
    for name in ("Q", "scores", "weights"):
        assert not np.allclose(after[name], before[name]), name
    np.testing.assert_allclose(after["K"], before["K"])  # W_K untouched
    check_export(after, heads=2)


CELL = {"en": "W_Q row 2, column 3: ", "zh": "W_Q 第 2 行第 3 列："}


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("abc", {"en": "“abc” is not a number.", "zh": "“abc”不是一个数。"}),
        ("", {"en": "the cell is empty", "zh": "格子是空的"}),
        (None, {"en": "the cell is empty", "zh": "格子是空的"}),
        ("nan", {"en": "NaN (not a number) is not allowed", "zh": "不能用 NaN"}),
        ("inf", {"en": "inf is infinite", "zh": "inf 是无穷大"}),
        ("-inf", {"en": "-inf is infinite", "zh": "-inf 是无穷大"}),
        ("1e308", {"en": "1e308 is too large: keep |x| ≤ 1,000,000", "zh": "1e308 太大了：请保持 |x| ≤ 1,000,000"}),
    ],
)
@pytest.mark.parametrize("lang", LANGS)
def test_bad_input_names_the_cell_and_keeps_the_last_valid_values(value, says, lang):
    at = open_page(step=6, lang=lang)
    edit(at, "W_Q", 0, 0, "0.25")  # a valid edit first: these become the last valid values
    valid = exported(at)
    assert valid["W_Q"][0, 0] == 0.25
    at.session_state[f"wt_edit_W_Q_{at.session_state.get('wt_version', 0)}"] = {
        "edited_rows": {0: {"1": "0.25"}, 1: {"3": value}}, "added_rows": [], "deleted_rows": []}  # fmt: skip
    at.run()
    assert not at.exception
    messages = " ".join(e.value for e in at.error)
    assert CELL[lang] + says[lang] in messages, messages
    kept = exported(at)
    for name in ("W_Q", "Q", "scores", "weights", "Z"):
        np.testing.assert_array_equal(kept[name], valid[name])


@pytest.mark.parametrize(("lang", "says"), [("en", "Token 3: the name is empty"), ("zh", "第 3 个词元：名称是空的")])
def test_empty_token_name_is_refused(lang, says):
    at = open_page(step=1, lang=lang)
    key = "wt_edit_X_0"
    at.session_state[key] = {"edited_rows": {2: {"token": "  "}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert any(says in e.value for e in at.error)
    assert exported(at)["query_tokens"] == ["the", "cat", "sat", "down"]


def test_user_text_in_token_names_is_escaped_in_formulas():
    at = open_page(step=5)
    at.session_state["wt_edit_X_0"] = {"edited_rows": {0: {"token": "$x}\\"}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.error
    assert any(r"\text{\$x\}\backslash{}}" in tex.value for tex in at.latex)


def test_new_random_example_replaces_the_numbers():
    at = open_page(step=1)
    before = exported(at)
    at.session_state["wt_seed"] = 7
    click(at, "wt_random")
    after = exported(at)
    assert not np.allclose(after["X"], before["X"])
    check_export(after, heads=2)


def test_custom_mask_cells_become_minus_infinity():
    at = open_page(step=4, mask="custom")
    default = exported(at)  # the custom grid starts from the causal mask
    assert np.isneginf(default["masked"][0, 1:]).all() and np.isfinite(default["masked"][3]).all()
    assert at.query_params["custom"] == CAUSAL_4  # the grid is the view's: in the link (and the class's room)
    at.session_state[f"wt_mask_0_{CAUSAL_4}"] = {"edited_rows": {3: {"2 cat": False}}, "added_rows": [],
                                                  "deleted_rows": []}  # fmt: skip
    at.run()
    e = exported(at)
    assert np.isneginf(e["masked"][3, 1]) and e["weights"][3, 1] == 0
    assert np.isfinite(e["masked"][3, [0, 2, 3]]).all()
    check_export(e, heads=2)
    assert at.query_params["custom"] == "1000/1100/1110/1011" and e["view"]["custom_mask"] == "1000/1100/1110/1011"


CAUSAL_4 = "1000/1100/1110/1111"


@pytest.mark.parametrize("lang", LANGS)
def test_a_link_carries_the_custom_mask_and_a_bad_grid_gets_a_message(lang):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(lang=lang, step="4", mask="custom", custom="1000/1100/1010/1001")
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception and not at.warning
    masked = exported(at)["masked"]  # (4, 4): −∞ where the grid holds 0
    assert (np.isneginf(masked) == (np.array([[1, 0, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 0, 0, 1]]) == 0)).all()
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(lang=lang, step="4", mask="custom", custom="12/01")
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    rows = {"en": "a square grid of 0s and 1s, 1 to 16 rows", "zh": "由 0 和 1 组成的方阵，1 到 16 行"}[lang]
    assert any("custom=12/01" in w.value and rows in w.value for w in at.warning), [w.value for w in at.warning]
    assert at.query_params["custom"] == CAUSAL_4  # the default grid (causal) replaces it


def test_model_source_bad_input_gets_a_message():
    at = open_page(step=1, source=MODEL)
    at.text_input(key="text").set_value("   ")
    at.run()
    assert not at.exception
    assert any("Type a few tokens" in i.value for i in at.info)


def test_d_model_six_example():
    at = open_page(step=7)
    at.radio(key="wt_d_model").set_value(6)
    at.run()
    assert not at.exception
    e = exported(at)
    assert e["X"].shape == (4, 6) and e["d_k"] == 3 and e["W_Q"].shape == (6, 3) and e["W_O"].shape == (6, 6)
    check_export(e, heads=2)


def test_csv_of_a_matrix_round_trips():
    import io

    import pandas as pd

    from model.teach.walkthrough import build_mask
    from ui.walkthrough.example import example_walk
    from ui.walkthrough.export import matrix_csv
    from ui.walkthrough.state import Ablations

    at = open_page(step=1)
    values = at.session_state["wt_values"]
    walk = example_walk(Ablations(1.0, True, True), 1, build_mask("causal", 4, 4), values)
    masked = pd.read_csv(io.StringIO(matrix_csv(walk, "masked")), index_col=0)
    assert list(masked.index) == list(masked.columns) == ["the", "cat", "sat", "down"]
    np.testing.assert_array_equal(masked.to_numpy(), walk.view["masked"])  # −inf survives as -inf
    heads = pd.read_csv(io.StringIO(matrix_csv(walk, "heads")), index_col=0)
    np.testing.assert_allclose(heads.to_numpy(), walk.view["concat"], rtol=1e-12)
    w_q = pd.read_csv(io.StringIO(matrix_csv(walk, "W_Q")), index_col=0)
    np.testing.assert_array_equal(w_q.to_numpy(), values["W_Q"][:, 2:])  # head 2's columns


def test_html_and_markdown_in_token_names_stay_plain_text():
    at = open_page(step=6)
    name = "<b>x</b>*y*"
    at.session_state["wt_edit_X_0"] = {"edited_rows": {0: {"token": name}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert not at.error and not at.exception
    assert at.radio(key="query").proto.captions[0] == r"\<b\>x\</b\>\*y\*"  # Markdown-escaped caption
    specs = [json.dumps(c.spec, ensure_ascii=False) for c in charts_of(at)]
    assert any("&lt;b&gt;x&lt;/b&gt;*y*" in spec for spec in specs) and not any("<b>x</b>" in spec for spec in specs)


def test_model_source_with_a_pre_ln_model_of_this_session():
    """A model trained in the browser may be pre-LN: X is then LayerNorm(x) and the residual adds to x."""
    import torch

    from model import LoadedModel, ModelConfig, Seq2SeqTransformer, get_task

    task = get_task("translate")
    torch.manual_seed(0)
    config = ModelConfig(src_vocab_size=len(task.src_vocab.itos), tgt_vocab_size=len(task.tgt_vocab.itos),
                         d_model=32, n_heads=2, d_ff=64, norm="pre")  # fmt: skip
    mine = LoadedModel(Seq2SeqTransformer(config), task, name="mine")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(lang="en", source=MODEL, model="mine (yours)")
    at.session_state["user_models"] = {"mine": mine}
    at.run()
    at.switch_page(PAGE).run()
    for step in range(1, 9):
        assert not at.exception, [e.value for e in at.exception]
        assert subheader(at).startswith(f"Step {step} of 8")
        if step < 8:
            click(at, "wt_next")
    assert any("pre-LN" in i.value for i in at.info)
    e = exported(at)
    assert e["model"] == "mine" and e["heads"].shape[0] == 2 and e["pre_ln"] is True
    check_export(e, heads=2)
    np.testing.assert_allclose(e["norm"], e["resid"])  # pre-LN: the residual sum is the block's output


ZH_STEPS = {1: "线性投影", 2: "注意力分数 QKᵀ", 3: "缩放", 4: "掩码", 5: "Softmax 归一化", 6: "加权求和",
            7: "多头注意力", 8: "残差连接 + 层归一化"}  # fmt: skip
ZH_FORMULA_WORDS = {4: r"\text{若 }i\text{ 可以关注 }j", 5: r"(\text{每一项} \le 0)", 7: r"\text{输出} &= ",
                    8: r"x + \text{输出}"}  # fmt: skip


@pytest.mark.parametrize("source", [None, MODEL])
def test_every_step_in_chinese(source):
    """lang=zh: each step opens with no exception, its Chinese name in the title, Chinese words in the formulas
    (and none of the English ones), and Chinese headings and explanations."""
    for step in range(1, 9):
        at = open_page(step=step, source=source, lang="zh")
        assert not at.exception and not at.error
        assert subheader(at).startswith(f"第 {step} 步（共 8 步）· {ZH_STEPS[step]}"), subheader(at)
        formulas = " ".join(tex.value for tex in at.latex)
        if step in ZH_FORMULA_WORDS:
            assert ZH_FORMULA_WORDS[step] in formulas, formulas
        for english in (r"\text{if ", "may attend", r"\text{otherwise}", r"\text{every entry}", r"\text{out}"):
            assert english not in formulas
        assert at.title[0].value == "逐步演算注意力"
        assert at.button(key="wt_next").proto.label == "下一步 ▶"
        assert at.radio(key="step").proto.captions[step - 1] == ZH_STEPS[step]
        explanation = next(m.value for m in at.markdown if "。" in m.value)
        assert "the " not in explanation, explanation


def test_chinese_export_documents_its_conventions_in_chinese():
    at = open_page(step=4, lang="zh", mask="causal")
    raw = json.loads(to_json(at.session_state[WALK_KEY], at.session_state[CONVENTIONS_KEY]))
    assert raw["source"] == "example" and raw["masked"][0][1] == "-Infinity"  # ids and values: the same in any language
    assert "被掩码的格子" in raw["conventions"] and '"-Infinity"' in raw["conventions"]
    assert '"-Infinity"' in translations("zh").gettext(INFINITY_NOTE)  # the literal a reader types survives translation
    assert at.get("download_button")[0].proto.label == "⬇️ 把这个例子下载为 JSON"


SOURCE_IN_URL = {"en": "model", "zh": "model"}  # the id, in every language
MASK_IN_URL = {"en": "causal", "zh": "causal"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("written", ["model", "From the model", "来自模型"])
def test_a_link_names_the_source_by_id_or_by_its_label_in_either_language(written, lang):
    """A link with the id or a label in either language opens the same view; the URL then holds the id."""
    at = open_page(step=2, source=written, lang=lang)
    assert at.session_state["source"] == MODEL
    assert at.query_params["source"] == SOURCE_IN_URL[lang]
    assert exported(at)["source"] == MODEL and at.selectbox(key="wt_kind").value == "encoder"
    click(at, "wt_next")  # the choice stays for the rest of the visit
    assert at.session_state["source"] == MODEL and at.query_params["source"] == SOURCE_IN_URL[lang]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("written", ["causal", "Causal", "因果"])
def test_a_link_names_the_mask_by_id_or_by_its_label_in_either_language(written, lang):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(lang=lang, step="4", mask=written)
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["mask"] == "causal" and at.query_params["mask"] == MASK_IN_URL[lang]
    e = exported(at)
    assert np.isneginf(e["masked"][0, 1:]).all() and np.isfinite(e["masked"][3]).all()  # causal: row i sees 1..i


def test_a_link_with_both_in_the_other_language_opens_both():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(lang="en", step="4", source="演算示例", mask="填充")
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception and not at.error
    assert (at.session_state["source"], at.session_state["mask"]) == ("example", "padding")
    assert at.query_params.get("mask") == "padding" and "source" not in at.query_params  # the default leaves the URL
    assert np.isneginf(exported(at)["masked"][:, 3]).all()


def test_an_unknown_source_or_mask_in_a_link_opens_the_defaults():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(lang="zh", step="4", source="<script>", mask="Causal (no peeking ahead)")
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception and not at.error
    assert at.session_state["source"] == "example" and at.session_state["mask"] == "none"
    assert "source" not in at.query_params and "mask" not in at.query_params


def test_switching_language_keeps_source_mask_kind_and_head():
    at = open_page(step=4, mask="padding")
    assert at.query_params["mask"] == "padding"
    at.button_group(key="lang").set_value("zh")
    at.run()
    assert at.session_state["lang"] == "zh" and at.session_state["mask"] == "padding"
    assert at.selectbox(key="mask").proto.options[at.selectbox(key="mask").index] == "填充"
    assert at.query_params["mask"] == "padding"  # an id, the same in every language
    assert np.isneginf(exported(at)["masked"][:, 3]).all()  # padding: no query sees the last token
    at.button_group(key="source").set_value(MODEL)
    at.run()
    at.selectbox(key="wt_kind").set_value("cross")
    at.selectbox(key="wt_head").set_value(2)
    at.run()
    at.button_group(key="lang").set_value("en")
    at.run()
    assert not at.exception
    assert (at.session_state["source"], at.session_state["wt_kind"], at.session_state["wt_head"]) == (MODEL, "cross", 2)
    assert at.query_params["source"] == "model"
    assert subheader(at) == "Step 4 of 8 · Mask · head 3 of 4"


def test_the_json_export_names_the_view_that_made_it_as_a_slide_would():
    """The export reads the page's view (views.StepByStepView): its "view" is a lesson slide's page and state."""
    at = open_page(step=5, source=MODEL, wt_kind="cross", wt_layer=1, wt_head=2, wt_temperature=2.0)
    view = exported(at)["view"]
    assert view["page"] == "step-by-step"
    expected = {"step": 5, "source": "model", "wt_kind": "cross", "wt_layer": 1, "wt_head": 2, "wt_temperature": 2.0}
    assert {k: view[k] for k in expected} == expected
    slide = {"page": view.pop("page"), "state": view, "title": {"en": "t", "zh": "题"}, "text": {"en": "x", "zh": "文"}}
    lesson = parse_lesson(json.dumps({"format": FORMAT, "title": {"en": "L", "zh": "课"}, "slides": [slide]}))
    assert lesson.slides[0].view() == at.session_state[VIEW_KEY]
