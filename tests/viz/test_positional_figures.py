"""Positional-encoding figures carry the table's numbers."""

import numpy as np

from model import sinusoidal_table
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
    assert [d.name for d in fig.data] == ["zero", "five"]
    np.testing.assert_array_equal(np.asarray(fig.data[1].y), table[:, 5])
    np.testing.assert_array_equal(np.asarray(fig.data[0].x), np.arange(30))
    # closed form: dimension 0 is sin(pos)
    np.testing.assert_allclose(np.asarray(fig.data[0].y), np.sin(np.arange(30)), atol=1e-6)
