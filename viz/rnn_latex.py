r"""One step of an RNN decoder with attention as LaTeX, the real numbers substituted (for st.latex).

Step t (1-based) reads s_{t−1}, scores every encoder state h_i, takes the softmax a_t, sums c_t = Σ a_{t,i} h_i,
updates the state to s_t and writes y_t. Every function only prints numbers computed by model/ code
(model.analysis.rnn.decoder_step); words inside \text{…} come in translated. The softmax and the weighted sum are
viz.walkthrough_latex's, written in the RNN's letters (walkthrough_latex.RNN).
"""

from __future__ import annotations

from .latex import bmatrix, number, shown_indices, text, words

SCORE_RULES = {  # score kind → e_{t,i} for step t (the state before the step is s_{t−1})
    "additive": r"v^{{\top}} \tanh\!\left(W\, s_{{{prev}}} + U\, h_i\right)",
    "dot": r"s_{{{prev}}}^{{\top}}\, h_i",
    "general": r"s_{{{prev}}}^{{\top}}\, W\, h_i",
}
CELL_OPERATORS = {"rnn": "RNN", "gru": "GRU", "lstm": "LSTM"}
H_FIN = r"h_{\mathrm{fin}}"


def vector(lhs: str, v, size: int = 8, digits: int = 2) -> str:
    """lhs = [v₁ … v_d] (abbreviated to `size` entries)."""
    return rf"{lhs} = {bmatrix(v, digits=digits, max_cols=size)}"


def first_state(s0, size: int = 8) -> str:
    """s_0 = tanh(W_b h_fin + b_b) = [...]: the decoder starts from the encoder's final state."""
    return vector(rf"s_{{0}} = \tanh\!\left(W_b\, {H_FIN} + b_b\right)", s0, size)


def previous_state(t: int, s_prev, size: int = 8) -> str:
    return vector(f"s_{{{t - 1}}}", s_prev, size)


def score_lines(kind: str, t: int, scores, key_labels: list[str], digits: int = 2, max_cols: int = 10) -> list[str]:
    """The score rule for step t, then the row e_t over the encoder states, each under its token (a row longer than
    max_cols is elided with ⋯)."""
    rule = SCORE_RULES[kind].format(prev=t - 1)
    cells = " & ".join(
        r"\cdots" if i is None else rf"\underset{{{text(key_labels[i], max_chars=10)}}}{{{number(scores[i], digits)}}}"
        for i in shown_indices(len(scores), max_cols)
    )
    return [
        rf"e_{{{t},i}} = \operatorname{{score}}\!\left(s_{{{t - 1}}}, h_i\right) = {rule}",
        rf"e_{{{t}}} = \begin{{bmatrix}}{cells}\end{{bmatrix}}",
    ]


def fixed_context(t: int, context, every_step: str, size: int = 8) -> str:
    r"""c_t = h_fin = [...] (every_step: the words saying it is the same vector at every step)."""
    note = text(every_step, max_chars=None)
    return rf"c_{{{t}}} = {H_FIN} = {bmatrix(context, max_cols=size)} \quad \left({note}\right)"


def state_update(cell: str, t: int, s_new, size: int = 8) -> str:
    """s_t = CELL([E y_{t−1} ; c_t], s_{t−1}) = [...]."""
    operator = CELL_OPERATORS[cell]
    inputs = rf"\left[E\, y_{{{t - 1}}} \,;\, c_{{{t}}}\right]"
    update = rf"\operatorname{{{operator}}}\!\left({inputs},\; s_{{{t - 1}}}\right)"
    return rf"s_{{{t}}} = {update} = {bmatrix(s_new, max_cols=size)}"


def output_lines(t: int, token: str, probability: float, chosen: str) -> list[str]:
    """p_t = softmax(W_o [s_t ; c_t] + b_o), then y_t = argmax = token with its probability.

    chosen: the words "{token} with probability {p}" (or the reader's language's order), placeholders filled here."""
    return [
        rf"p_{{{t}}} = \operatorname{{softmax}}\!\left(W_o \left[s_{{{t}}} \,;\, c_{{{t}}}\right] + b_o\right)",
        rf"y_{{{t}}} = \arg\max_w\, p_{{{t}}}(w) \;=\; " + words(chosen, token=text(token), p=number(probability, 3)),
    ]
