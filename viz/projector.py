"""A figure restyled for a projector: larger fonts, axes that make room for them, colour scales that stay
readable when the projector washes colours out. Styling only: the data, ranges and labels are left as they are.
"""

from __future__ import annotations

import plotly.colors as pc
import plotly.graph_objects as go

FONT_SCALE = 1.4  # every font of the figure, relative to the normal view (titles: TITLE_SCALE, as they do not wrap)
TITLE_SCALE = 1.2
MIN_FONT = 18  # px: nothing smaller on a projector
MAX_NUMBERED_TICKS = 10  # numbered tick labels kept on an axis at the projector's font size
RAMP = 1.8  # > 1 moves a scale's colour stops towards its low end (or middle): mid values get stronger colours
WHITE = "rgb(255,255,255)"
INK = "rgb(17,17,17)"  # text a figure leaves uncoloured (a theme's grey ticks fade on a projector) is drawn in this
SEQUENTIAL = ("Blues", "Purples", "Oranges", "Greens", "Reds", "Greys")
DIVERGING = ("RdBu", "RdBu_r")


def _key(scale) -> tuple:
    return tuple((round(float(p), 6), str(c).replace(" ", "")) for p, c in scale)


def sequential_for_projector(name: str) -> list[list]:
    """A named sequential scale starting from pure white, each colour reached at a lower value (p → p^RAMP)."""
    scale = pc.get_colorscale(name)
    return [[0.0, WHITE]] + [[float(p) ** RAMP, c] for p, c in scale[1:]]


def diverging_for_projector(name: str) -> list[list]:
    """A named diverging scale with a pure white middle, each colour reached closer to the middle."""
    out = []
    for p, c in pc.get_colorscale(name):
        d = 2 * float(p) - 1  # −1 … 1 around the middle
        out.append([0.5 + (abs(d) ** RAMP) * (1 if d >= 0 else -1) / 2, WHITE if d == 0 else c])
    return out


PROJECTOR_SCALES = {
    **{_key(pc.get_colorscale(n)): sequential_for_projector(n) for n in SEQUENTIAL},
    **{_key(pc.get_colorscale(n)): diverging_for_projector(n) for n in DIVERGING},
}


def _bigger(size: float | None, default: float, scale: float = FONT_SCALE) -> int:
    return int(max(MIN_FONT, round((size or default) * scale)))


def _grow(parent: dict, key: str, default: float, scale: float = FONT_SCALE, ink: bool = True) -> None:
    """parent[key]["size"] (a font) scaled up, created when unset (a theme's template fonts are small); its colour
    INK unless the figure chose one or `ink` is False (text on coloured cells and hover boxes keeps plotly's
    automatic contrast)."""
    font = parent.setdefault(key, {})
    font["size"] = _bigger(font.get("size"), default, scale)
    if ink:
        font.setdefault("color", INK)


def _thin_numeric_ticks(axis: dict) -> None:
    """Numbered ticks (dimensions 1, 5, 9, …) thinned to at most MAX_NUMBERED_TICKS, as larger labels need more
    room; token labels are all kept."""
    values, labels = axis.get("tickvals"), axis.get("ticktext")
    if values is None or labels is None or len(labels) <= MAX_NUMBERED_TICKS:
        return
    if not all(str(label).strip().lstrip("-").isdigit() for label in labels):
        return
    step = -(-len(labels) // MAX_NUMBERED_TICKS)
    axis["tickvals"], axis["ticktext"] = list(values)[::step], list(labels)[::step]


def _restyle_layout(layout: dict, base: float, max_height: int | None) -> None:
    _grow(layout, "font", 12)
    title = layout.get("title")
    if isinstance(title, dict) and title.get("text"):
        _grow(title, "font", base * 1.3, TITLE_SCALE)
        margin = layout.get("margin", {})
        if margin.get("t") is not None:
            margin["t"] = int(margin["t"] * 1.3)
    for name in ("xaxis", "yaxis"):  # a figure that leaves its axes to the theme gets them too (the theme's are 12 px)
        layout.setdefault(name, {})
    for name in [k for k in layout if k.startswith(("xaxis", "yaxis"))]:
        axis = layout[name]
        axis["automargin"] = True
        _thin_numeric_ticks(axis)
        _grow(axis, "tickfont", base)
        _grow(axis.setdefault("title", {}), "font", base)
    legend = layout.setdefault("legend", {})
    _grow(legend, "font", base)
    margin = layout.get("margin", {})
    if legend.get("yref") == "container" and margin.get("b") is not None:  # a legend along the foot: its rows grow
        grown = int(margin["b"] * FONT_SCALE)
        layout["height"] = layout.get("height", 450) + grown - margin["b"]
        margin["b"] = grown
    _grow(layout.setdefault("hoverlabel", {}), "font", base, ink=False)
    for note in layout.get("annotations", []):
        _grow(note, "font", base)
    for slider in layout.get("sliders", []):
        _grow(slider, "font", base)
        _grow(slider.setdefault("currentvalue", {}), "font", base)
    for menu in layout.get("updatemenus", []):
        _grow(menu, "font", base)
    if max_height is not None and layout.get("height", 450) > max_height:
        layout["height"] = max_height


def _restyle_trace(trace: dict, base: float) -> None:
    if isinstance(trace.get("textfont"), dict) and isinstance(trace["textfont"].get("size"), (int, float)):
        _grow(trace, "textfont", base, ink=False)
    if trace.get("type") in ("heatmap", "contour") or "colorbar" in trace:
        colorbar = trace.setdefault("colorbar", {})
        _grow(colorbar, "tickfont", base)
        _grow(colorbar.setdefault("title", {}), "font", base)
    scale = trace.get("colorscale")
    if scale is not None and not isinstance(scale, str) and _key(scale) in PROJECTOR_SCALES:
        trace["colorscale"] = PROJECTOR_SCALES[_key(scale)]


def projector_layout(fig: go.Figure, max_height: int | None = None) -> go.Figure:
    """A copy of `fig` for the projector: fonts ×FONT_SCALE (at least MIN_FONT px), axes with automatic margins,
    the lab's sequential and diverging colour scales replaced by higher-contrast ones, the height at most
    max_height px when given.

    Restyled as a plain dict and wrapped without plotly's validation (its `_validate=False`): the dict comes from a
    validated figure and only gets sizes and colour scales plotly accepts (tests validate the result), and
    setting the same properties through plotly's objects cost 60–300 ms per figure on this machine."""
    spec = fig.to_dict()
    layout = spec.setdefault("layout", {})
    base = layout.get("font", {}).get("size") or 12
    _restyle_layout(layout, base, max_height)
    for trace in spec.get("data", []):
        _restyle_trace(trace, base)
    return go.Figure(spec, _validate=False)
