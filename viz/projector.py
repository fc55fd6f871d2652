"""A figure restyled for a projector: larger fonts, axes that make room for them, colour scales that stay
readable when the projector washes colours out. Styling only: the data, ranges and labels are left as they are.
"""

from __future__ import annotations

import plotly.colors as pc
import plotly.graph_objects as go

FONT_SCALE = 1.4  # every font of the figure, relative to the normal view
MIN_FONT = 18  # px: nothing smaller on a projector
RAMP = 1.8  # > 1 moves a sequential scale's stops towards 0: mid values get darker, more saturated colours
WHITE = "rgb(255,255,255)"
SEQUENTIAL = ("Blues", "Purples", "Oranges", "Greens", "Reds", "Greys")
DIVERGING = ("RdBu", "RdBu_r")


def _key(scale) -> tuple:
    return tuple((round(float(p), 6), str(c).replace(" ", "")) for p, c in scale)


def sequential_for_projector(name: str) -> list[list]:
    """A named sequential scale starting from pure white, its colours reached at lower values (p → p^RAMP)."""
    scale = pc.get_colorscale(name)
    return [[0.0, WHITE]] + [[float(p) ** RAMP, c] for p, c in scale[1:]]


def diverging_for_projector(name: str) -> list[list]:
    """A named diverging scale with a pure white middle, its colours reached closer to the middle."""
    out = []
    for p, c in pc.get_colorscale(name):
        d = 2 * float(p) - 1  # −1 … 1 around the middle
        out.append([0.5 + (abs(d) ** RAMP) * (1 if d >= 0 else -1) / 2, WHITE if d == 0 else c])
    return out


PROJECTOR_SCALES = {
    **{_key(pc.get_colorscale(n)): sequential_for_projector(n) for n in SEQUENTIAL},
    **{_key(pc.get_colorscale(n)): diverging_for_projector(n) for n in DIVERGING},
}


def _bigger(size: float | None, default: float) -> int:
    return int(max(MIN_FONT, round((size or default) * FONT_SCALE)))


def projector_layout(fig: go.Figure, max_height: int | None = None) -> go.Figure:
    """A copy of `fig` for the projector: fonts ×FONT_SCALE (at least MIN_FONT px), axes with automatic margins,
    the lab's sequential and diverging colour scales replaced by higher-contrast ones, the height at most
    max_height px when given."""
    fig = go.Figure(fig)
    layout = fig.layout
    base = layout.font.size or 12
    layout.font.size = _bigger(base, 12)
    if layout.title.text:
        layout.title.font.size = _bigger(layout.title.font.size, base * 1.3)
        if layout.margin.t is not None:
            layout.margin.t = int(layout.margin.t * 1.3)
    for name in [k for k in layout if k.startswith(("xaxis", "yaxis"))]:
        axis = layout[name]
        axis.automargin = True
        if axis.tickfont.size:
            axis.tickfont.size = _bigger(axis.tickfont.size, base)
    for note in layout.annotations:
        note.font.size = _bigger(note.font.size, base)
    for slider in layout.sliders:
        slider.font.size = _bigger(slider.font.size, base)
        slider.currentvalue.font.size = _bigger(slider.currentvalue.font.size, base)
    for menu in layout.updatemenus:
        menu.font.size = _bigger(menu.font.size, base)
    for trace in fig.data:
        if getattr(trace, "textfont", None) is not None and trace.textfont.size:
            trace.textfont.size = _bigger(trace.textfont.size, base)
        scale = getattr(trace, "colorscale", None)
        if scale is not None and _key(scale) in PROJECTOR_SCALES:
            trace.colorscale = PROJECTOR_SCALES[_key(scale)]
    if max_height is not None and (layout.height or 450) > max_height:
        layout.height = max_height
    return fig
