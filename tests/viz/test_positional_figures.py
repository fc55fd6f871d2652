"""Positional-encoding figures carry the table's numbers."""

import numpy as np

from model import sinusoidal_at, sinusoidal_curve, sinusoidal_table
from viz.positional import curves_figure, encoding_figure


def test_encoding_figure_is_the_table_positions_down():
    table = sinusoidal_table(20, 16).numpy()
    labels = [f"p{i}" for i in range(20)]
    fig = encoding_figure(table, title="t", position_title="P", dimension_title="D", position_labels=labels)
    np.testing.assert_array_equal(np.asarray(fig.data[0].z), table)
    assert list(fig.layout.yaxis.ticktext) == labels
    assert fig.data[0].zmin == -1 and fig.data[0].zmax == 1


def test_curves_figure_plots_the_chosen_columns_against_position():
    table = sinusoidal_table(30, 8).numpy()
    fig = curves_figure(table, [0, 5], title="t", position_title="P", value_title="V", names=["zero", "five"])
    assert [d.name for d in fig.data if d.showlegend is not False] == ["zero", "five"]
    np.testing.assert_array_equal(np.asarray(fig.data[1].y), table[:, 5])
    np.testing.assert_array_equal(np.asarray(fig.data[0].x), np.arange(30))
    # closed form: dimension 0 is sin(pos)
    np.testing.assert_allclose(np.asarray(fig.data[0].y), np.sin(np.arange(30)), atol=1e-6)


def test_the_curve_is_drawn_between_the_positions_and_the_positions_are_marked_on_it():
    """Dimension 0 turns by one radian per position: joined at whole positions only it is a zigzag. With the
    model's values at fractional positions the line is the smooth sine, and the whole positions are dots on it."""
    table = sinusoidal_table(20, 8).numpy()
    positions, values = (t.numpy() for t in sinusoidal_curve(20, 8, per_position=12))
    fig = curves_figure(table, [0, 1], title="t", position_title="P", value_title="V", names=["sin", "cos"],
                        curve=(positions, values))  # fmt: skip
    line, _cos, marks, _cos_marks = fig.data
    assert (line.mode, marks.mode, marks.showlegend, marks.legendgroup) == ("lines", "markers", False, line.legendgroup)
    np.testing.assert_allclose(np.asarray(line.x), np.arange(19 * 12 + 1) / 12, atol=1e-6)
    np.testing.assert_allclose(np.asarray(line.y), np.sin(np.asarray(line.x)), atol=1e-6)
    np.testing.assert_array_equal(np.asarray(marks.x), np.arange(20))
    np.testing.assert_array_equal(np.asarray(marks.y), table[:, 0])
    np.testing.assert_array_equal(np.asarray(line.y)[::12], np.asarray(marks.y))  # the dots sit on the line
    legend = fig.layout.legend
    assert (legend.orientation, legend.yref, legend.y, legend.yanchor) == ("h", "container", 0, "bottom")
    assert fig.layout.margin.b >= 72 + 26  # room for the x axis title and a row of the legend under the plot


def test_sinusoidal_at_fractional_positions_is_the_closed_form_and_the_table_at_whole_ones():
    x = np.array([0.0, 0.5, 1.25, 7.0])
    d = 8
    i = np.arange(d // 2)
    angle = x[:, None] / 10000 ** (2 * i / d)
    np.testing.assert_allclose(sinusoidal_at(x, d).numpy()[:, 0::2], np.sin(angle), atol=1e-6)
    np.testing.assert_allclose(sinusoidal_at(x, d).numpy()[:, 1::2], np.cos(angle), atol=1e-6)
    assert np.array_equal(sinusoidal_at(np.arange(9), d).numpy(), sinusoidal_table(9, d).numpy())
