"""Room for a legend along the foot of a figure: plotly wraps a horizontal legend's items into rows, and with too
little bottom margin it lifts the x axis title onto the tick labels. Every word comes in as an argument."""

from __future__ import annotations

from collections.abc import Sequence

from .matrix import text_em

HALF_ROW_EM = 27.0  # a legend row in a half-width column on a 1280 px screen, in font sizes (~390 px of 14 px type)
FULL_ROW_EM = 58.0  # in a full-width column
FOOT = {"orientation": "h", "yref": "container", "yanchor": "bottom", "y": 0.0, "x": 0.0}  # the legend at the foot


def legend_room(names: Sequence[str], row_em: float = FULL_ROW_EM) -> int:
    """Bottom margin for the x axis title plus a legend at the foot of the figure: the names packed into rows of
    row_em, as plotly wraps them. Too little room and plotly lifts the axis title onto the tick labels."""
    rows, used = 1, 0.0
    for name in names:
        width = text_em(name) + 4  # the line sample and the gap before the next item
        if used and used + width > row_em:
            rows, used = rows + 1, 0.0
        used += width
    return 72 + 26 * rows
