"""The attention figures carry exactly the trace's numbers, in token order."""

import numpy as np
import plotly.graph_objects as go
import pytest

from model import load_pretrained
from viz.attention import head_figure, overview_figure, tile_gap, tile_heads
from viz.head_view import BANDS, head_view_figure, head_view_lines
from viz.matrix import matrix_figure

HOVER = ("query", "key", "weight")


@pytest.fixture(scope="module")
def trace():
    return load_pretrained("translate").run("the big dog sees the cat")  # "the" twice: labels must not merge


def cross_weights(trace):
    return np.stack(
        [trace["decoder.0.cross_attn.weights"][0].numpy(), trace["decoder.1.cross_attn.weights"][0].numpy()]
    )


def test_overview_is_one_trace_whose_tiles_are_the_trace_weights(trace):
    w = cross_weights(trace)  # (L, H, T, S)
    n_layers, n_heads, n_q, n_k = w.shape
    fig = overview_figure(
        w, title="t", layer_names=["L1", "L2"], head_names=[f"H{h}" for h in range(n_heads)],
        query_tokens=trace.tokens("tgt"), key_tokens=trace.tokens("src"), hover_names=HOVER,
    )  # fmt: skip
    assert isinstance(fig, go.Figure) and len(fig.data) == 1
    z = np.asarray(fig.data[0].z)
    g = tile_gap(n_k)
    assert z.shape == (n_layers * (n_q + g) - g, n_heads * (n_k + g) - g)
    for layer in range(n_layers):
        for head in range(n_heads):
            r, c = layer * (n_q + g), head * (n_k + g)
            np.testing.assert_array_equal(z[r : r + n_q, c : c + n_k], w[layer, head])
    assert np.isnan(z[n_q : n_q + g]).all() and np.isnan(z[:, n_k : n_k + g]).all()  # gaps
    assert np.count_nonzero(~np.isnan(z)) == w.size
    assert list(fig.layout.xaxis.ticktext) == ["H0", "H1", "H2", "H3"]
    assert list(fig.layout.yaxis.ticktext) == ["L1", "L2"]
    # hover of layer 2, head 3, query 1, key 2 names those tokens and that weight
    text = fig.data[0].text[(n_q + g) + 1][3 * (n_k + g) + 2]
    tgt, src = trace.tokens("tgt"), trace.tokens("src")
    assert text == f"L2 · H3<br>query: {tgt[1]}<br>key: {src[2]}<br>weight: {w[1, 3, 1, 2]:.3f}"
    assert fig.data[0].zmin == 0 and fig.data[0].zmax == 1


def test_tile_heads_places_each_head_independently():
    w = np.arange(2 * 3 * 2 * 4, dtype=np.float32).reshape(2, 3, 2, 4)
    grid = tile_heads(w)
    assert grid.dtype == np.float32
    np.testing.assert_array_equal(grid[3:5, 10:14], w[1, 2])  # gap 1: rows 3.., columns 2·(4+1)..


def test_head_figure_matches_trace_and_labels_in_token_order(trace):
    w = trace["encoder.1.self_attn.weights"][0, 2].numpy()
    src = trace.tokens("src")
    labels = [f"{i}:{t}" for i, t in enumerate(src)]
    fig = head_figure(
        w, title="t", query_tokens=labels, key_tokens=labels, query_title="Q", key_title="K", hover_names=HOVER
    )
    np.testing.assert_array_equal(np.asarray(fig.data[0].z), w)
    assert list(fig.layout.xaxis.ticktext) == labels and list(fig.layout.yaxis.ticktext) == labels
    assert list(fig.layout.xaxis.tickvals) == list(range(len(src)))
    assert fig.layout.yaxis.range[0] > fig.layout.yaxis.range[1]  # first query at the top
    assert fig.data[0].text[4][1] == f"query: {labels[4]} (4)<br>key: {labels[1]} (1)<br>weight: {w[4, 1]:.3f}"
    assert fig.layout.meta == "attention-head"


def test_matrix_figure_thins_ticks_but_keeps_order():
    labels = [f"t{i}" for i in range(100)]
    fig = matrix_figure(np.zeros((100, 100)), title="", x_title="", y_title="", x_labels=labels, y_labels=labels)
    ticks = list(fig.layout.xaxis.ticktext)
    assert ticks == labels[::2] and list(fig.layout.xaxis.tickvals) == list(range(0, 100, 2))


def test_head_view_draws_every_pair_above_the_threshold_in_its_band(trace):
    w = trace["decoder.1.cross_attn.weights"][0].numpy()  # (H, T, S)
    lines = head_view_lines(w)
    drawn = {(h, i, j) for (h, _), pairs in lines.items() for i, j in pairs}
    expected = {(h, i, j) for h, i, j in zip(*np.nonzero(w >= BANDS[0][0]), strict=True)}
    assert drawn == expected
    for (h, band), pairs in lines.items():
        low = BANDS[band][0]
        high = BANDS[band + 1][0] if band + 1 < len(BANDS) else np.inf
        assert all(low <= w[h, i, j] < high for i, j in pairs)
    focused = head_view_lines(w, focus=3)
    assert {i for pairs in focused.values() for i, _ in pairs} == {3}


def test_head_view_figure_lines_and_token_columns(trace):
    w = trace["encoder.0.self_attn.weights"][0].numpy()
    src = trace.tokens("src")
    fig = head_view_figure(
        w, title="t", query_tokens=src, key_tokens=src, head_names=["a", "b", "c", "d"], query_title="Q",
        key_title="K",
    )  # fmt: skip
    shapes = fig.layout.shapes
    assert [(d.name, d.legendgroup) for d in fig.data if d.showlegend is not False and d.name] == [
        ("a", "h0"),
        ("b", "h1"),
        ("c", "h2"),
        ("d", "h3"),
    ]
    left, right = fig.data[-2], fig.data[-1]
    assert list(left.text) == src and list(right.text) == src
    assert list(left.y) == [-i for i in range(len(src))]
    # every path segment "M 0 -i L 1 -j" is one (head, query, key) line, drawn in the style of its weight's band
    drawn = {}
    for sh in shapes:
        head = int(sh.legendgroup.removeprefix("h"))
        for segment in sh.path.split("M ")[1:]:
            x0, y0, _, x1, y1 = segment.split()
            if (float(x0), float(x1)) == (0.0, 1.0):
                drawn[(head, -int(float(y0)), -int(float(y1)))] = (sh.line.width, sh.opacity)
    assert set(drawn) == {(h, i, j) for h, i, j in zip(*np.nonzero(w >= BANDS[0][0]), strict=True)}
    for (h, i, j), style in drawn.items():
        _, width, opacity = max((band for band in BANDS if w[h, i, j] >= band[0]), key=lambda band: band[0])
        assert style == (width, opacity)


def test_a_crowded_head_view_leaves_out_its_weakest_bands_and_says_so():
    """72-head models and long inputs: past MAX_LINES lines the weakest bands go, the strongest always stays."""
    from viz.head_view import BANDS, MAX_LINES, head_view_figure, head_view_lines, thin_lines

    rng = np.random.default_rng(3)
    w = rng.dirichlet(np.full(64, 0.3), size=(12, 64)).astype(np.float32)  # (H, Lq, Lk), rows sum to 1
    lines = head_view_lines(w)
    kept, floor = thin_lines(lines)
    assert sum(map(len, lines.values())) > MAX_LINES >= sum(map(len, kept.values()))
    assert floor > BANDS[0][0] and all(band >= [edge for edge, _, _ in BANDS].index(floor) for _, band in kept)
    assert all(w[h, i, j] >= floor for (h, _band), pairs in kept.items() for i, j in pairs)
    tokens = [f"t{i}" for i in range(64)]
    fig = head_view_figure(w, title="T", query_tokens=tokens, key_tokens=tokens, head_names=[str(h) for h in range(12)],
                           query_title="q", key_title="k", thinned="under {weight} left out")  # fmt: skip
    assert fig.layout.title.text == f"T<br><sup>under {floor} left out</sup>"
    small = w[:1, :4, :4] / w[:1, :4, :4].sum(-1, keepdims=True)
    assert thin_lines(head_view_lines(small))[0] == head_view_lines(small)  # few lines: all kept
