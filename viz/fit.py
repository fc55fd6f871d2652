"""Words that fit their figure. Plotly never wraps a title: one wider than its figure is cut at the figure's edge
("…PE[pos, 2i+1] = c"), an axis title longer than its axis runs into the next chart's, and numbers printed in
heatmap cells wider than the cells run together ("-1.27-2.04-0.68"). Given the width a figure is drawn at (the
page knows its column), `fit_to_width` wraps the titles onto more lines (the top margin and the height grow, so the
plot keeps its size), turns tick labels upright that would lie on each other at 45°, and shrinks cell numbers to
their cells (leaving them to the hover when they would be too small to read), and token labels taller than their
rows (the projector's larger fonts in a capped height) to their rows. Widths are estimated from the
characters, with a margin for error. Nothing else changes: data, labels and colours stay as they are.
"""

from __future__ import annotations

import copy
import html
import math
import re

import plotly.graph_objects as go

from .figure_json import fig_dict

LINE = 1.3  # a title's line height, in font sizes
TITLE_PAD, TITLE_GAP = 10, 12  # px above a title anchored at the top, and between it and the plot
SUBTITLE_GAP = 14  # px between a title and its subtitle
MIN_CELL_FONT = 11  # px: cell numbers that would be smaller are left to the hover
TICK_LINE = 1.25  # the room a turned tick label needs across, in font sizes
SAFETY = 0.95  # share of the estimated room a line may fill
DIGIT_EM = 0.6  # a digit or sign printed in a cell (digits are wider than the average letter)
LATIN_EM = 0.52  # a Latin glyph's width in font sizes: 0.45 measured for the lab's titles in Chromium, with a margin
DEFAULT_HEIGHT = 450  # plotly's height when the layout sets none
BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
TAGS = re.compile(r"<[^>]+>")
WIDE = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")  # a Chinese character or full-width sign: a line may break there


def _words(line: str) -> list[str]:
    """A line cut where it may break: after a space, and either side of a wide (Chinese) character."""
    pieces: list[str] = []
    for chunk in re.findall(r"\S+\s*|\s+", line):
        start = 0
        for match in WIDE.finditer(chunk):
            if match.start() > start:
                pieces.append(chunk[start : match.start()])
            pieces.append(match.group())
            start = match.end()
        if start < len(chunk):
            pieces.append(chunk[start:])
    return pieces


def _em(text: str) -> float:
    """Width of `text` (tags left out, entities such as &lt; read as the one sign they are) in font sizes: LATIN_EM
    a narrow glyph, 1 a wide (Chinese) one."""
    return sum(1.0 if WIDE.match(c) else LATIN_EM for c in html.unescape(TAGS.sub("", text)))


def wrap(text: str, max_em: float) -> str:
    """`text` with "<br>" where a line would be wider than max_em font sizes (lines it already has are kept); a word
    wider than a line stays whole."""
    out = []
    for line in BREAK.split(text):
        current = ""
        for word in _words(line):
            if current.strip() and _em(current + word.rstrip()) > max_em:
                out.append(current.rstrip())
                current = word.lstrip()
            else:
                current += word
        out.append(current.rstrip())
    return "<br>".join(out)


def _lines(text: str) -> int:
    return len(BREAK.split(text))


def _size(font: dict | None, fallback: float) -> float:
    size = (font or {}).get("size")
    return float(size) if isinstance(size, int | float) else fallback


def _margins(layout: dict) -> dict:
    margin = layout.setdefault("margin", {})
    for side, default in (("l", 80), ("r", 80), ("t", 100), ("b", 80)):
        margin.setdefault(side, default)
    return margin


def top_title(title: dict, title_lines: int, size: float) -> None:
    """Anchor a title to the top of the figure. Plotly places a title in the middle of the top margin, and writes the
    further lines of a longer one downwards, onto the plot (or onto column labels above it); anchored at the top,
    it places a first line of several about 0.75 font sizes too high (measured in Chromium, plotly.js 3), so the pad
    makes up for that."""
    pad = TITLE_PAD + (0.75 * size if title_lines > 1 else 0)
    title.update(yref="container", y=1.0, yanchor="top", pad={"t": int(pad)})


def _top_ticks(layout: dict, width: float, base: float) -> int:
    """Room the tick labels of an x axis drawn above the plot take from the top margin (a heatmap's column labels):
    one line, or, when they are too many to stand side by side and plotly turns them, the longest label's length."""
    margin = _margins(layout)
    room = 0.0
    for name, axis in layout.items():
        if not (re.fullmatch(r"xaxis\d*", name) and isinstance(axis, dict) and axis.get("side") == "top"):
            continue
        size = _size(axis.get("tickfont"), base)
        labels = [str(t) for t in axis.get("ticktext") or []]
        longest = max(map(_em, labels), default=2.0) * size
        plot_w = (width - _plot_left(layout, layout.get("yaxis", {}), base) - margin["r"]) * _domain(axis)
        turned = len(labels) * (longest + 0.5 * size) > plot_w
        room = max(room, (longest + size if turned else 1.6 * size))
    return int(room)


def _fit_title(layout: dict, width: float, base: float) -> bool:
    """The title (and subtitle) wrapped to the figure's width. A title of several lines (wrapped here or written
    so), a subtitle wrapped here, or a title above column labels is anchored at the top, and the top margin makes
    room for all of it, the height growing by as much, so the plot keeps its size."""
    title = layout.get("title")
    if not isinstance(title, dict) or not title.get("text"):
        return False
    margin = _margins(layout)
    room = width - 20 if title.get("xref", "container") == "container" else width - margin["l"] - margin["r"]
    size = _size(title.get("font"), base * 1.4)
    height, changed, subtitle_wrapped = 0.0, False, False
    for part, default in ((title, base * 1.4), (title.get("subtitle"), base)):
        if not isinstance(part, dict) or not part.get("text"):
            continue
        part_size = _size(part.get("font"), default)
        text = str(part["text"])
        wrapped = wrap(text, SAFETY * room / part_size)
        height += _lines(wrapped) * LINE * part_size + (0 if part is title else SUBTITLE_GAP)
        if wrapped != text:
            part["text"] = wrapped
            changed = True
            subtitle_wrapped = subtitle_wrapped or part is not title
    title_lines, ticks = _lines(str(title["text"])), _top_ticks(layout, width, base)
    if title_lines <= 1 and not subtitle_wrapped and not ticks:
        return changed  # one line in the middle of the top margin, where plotly puts it
    top_title(title, title_lines, size)
    top = max(int(margin["t"]), int(TITLE_PAD + height + TITLE_GAP + ticks))
    layout["height"] = int(layout.get("height") or DEFAULT_HEIGHT) + top - int(margin["t"])
    margin["t"] = top
    return True


def _domain(axis: dict) -> float:
    low, high = axis.get("domain", [0.0, 1.0])
    return float(high) - float(low)


def _fit_axis_titles(layout: dict, width: float, base: float) -> bool:
    """Each axis title wrapped to its axis: an x title to the axis's width, a y title to its height."""
    margin = _margins(layout)
    plot_w = max(1.0, width - margin["l"] - margin["r"])
    plot_h = max(1.0, float(layout.get("height") or DEFAULT_HEIGHT) - margin["t"] - margin["b"])
    changed = False
    for name in [k for k in layout if re.fullmatch(r"[xy]axis\d*", k)]:
        axis = layout[name]
        title = axis.get("title")
        if not isinstance(axis, dict) or not isinstance(title, dict) or not title.get("text"):
            continue
        size = _size(title.get("font"), base * 1.2)
        room = (plot_w if name.startswith("x") else plot_h) * _domain(axis)
        text = str(title["text"])
        wrapped = wrap(text, SAFETY * room / size)
        if wrapped != text:
            title["text"] = wrapped
            axis["automargin"] = True  # the margin on that side makes room for the added lines
            changed = True
    return changed


def _fit_ticks(layout: dict, width: float, base: float) -> bool:
    """Turned tick labels of an x axis that would lie on each other (tokens under a narrow heatmap, each label a
    line of 1.2 font sizes): turned upright when 45° is too tight, and made smaller when upright is too."""
    margin = _margins(layout)
    changed = False
    for name, axis in list(layout.items()):
        if not (re.fullmatch(r"xaxis\d*", name) and isinstance(axis, dict) and axis.get("ticktext")):
            continue
        angle = axis.get("tickangle")
        if not isinstance(angle, int | float) or angle == 0 or abs(angle) == 90:
            continue
        plot_w = (width - _plot_left(layout, layout.get("yaxis", {}), base) - margin["r"]) * _domain(axis)
        spacing = plot_w / max(1, len(axis.get("tickvals") or axis["ticktext"]))
        size = _size(axis.get("tickfont"), base)
        if spacing >= TICK_LINE * size / abs(math.sin(math.radians(angle))):
            continue
        axis.update(tickangle=-90, automargin=True)
        if spacing < TICK_LINE * size:
            axis.setdefault("tickfont", {})["size"] = max(8, int(spacing / TICK_LINE))
        changed = True
    return changed


MIN_ROW_FONT = 8  # px: row labels that would be smaller show every k-th one instead,
THINNED_FONT = 11  # px: at most this size
ROW_LINE = 1.15  # the height a row label needs, in font sizes


def _legend_below(layout: dict, data, width: float, base: float) -> float:
    """Height a horizontal legend under the plot takes from it (plotly grows the bottom margin by as much): its
    items laid out side by side in rows as wide as the figure."""
    legend = layout.get("legend") or {}
    if legend.get("orientation") != "h" or float(legend.get("y", 1.0)) > 0:
        return 0.0
    size = _size(legend.get("font"), base)
    names = [str(t.name) for t in data if t.name and t.showlegend is not False]
    if not names:
        return 0.0
    rows, used = 1, 0.0
    for name in names:
        item = (_em(name) + 3.5) * size  # the line symbol and the gap after the item
        if used and used + item > width - 20:
            rows, used = rows + 1, 0.0
        used += item
    return rows * 1.6 * size + 10


def _row_px(axis: dict, plot_h: float) -> float | None:
    """Pixels per unit of a y axis with a fixed range (a row of tokens), else None."""
    span = axis.get("range")
    if not isinstance(span, list | tuple) or len(span) != 2:
        return None
    units = abs(float(span[1]) - float(span[0]))
    return plot_h * _domain(axis) / units if units else None


def _row_font(spacing: float, size: float) -> tuple[float, int]:
    """(font size, keep every k-th label) for labels `spacing` px apart, drawn at `size` px when they fit: smaller
    down to MIN_ROW_FONT, and past that every k-th label at a size that reads (THINNED_FONT at most)."""
    if spacing >= ROW_LINE * size:
        return size, 1
    fitted = spacing / ROW_LINE
    if fitted >= MIN_ROW_FONT:
        return int(fitted), 1
    size = min(size, THINNED_FONT)
    return size, math.ceil(ROW_LINE * size / spacing)


def _fit_rows(layout: dict, data, width: float, base: float) -> tuple[bool, dict[int, tuple[float, int]]]:
    """Row labels taller than their rows (tokens beside a heatmap or a head view's columns, squeezed by a capped
    height on the projector): y tick labels are made smaller in `layout` (or every k-th kept); returns whether the
    layout changed, and {trace index: (font size, every k-th)} for the scatter traces of text labels one per row
    (y = 0, -1, -2, …)."""
    margin = _margins(layout)
    plot_h = float(layout.get("height") or DEFAULT_HEIGHT) - margin["t"] - margin["b"]
    plot_h -= _legend_below(layout, data, width, base)
    texts: dict[int, tuple[float, int]] = {}
    changed = False
    for name, axis in list(layout.items()):
        if not (re.fullmatch(r"yaxis\d*", name) and isinstance(axis, dict)):
            continue
        unit = _row_px(axis, plot_h)
        if unit is None:
            continue
        values = axis.get("tickvals") or []
        if axis.get("ticktext") and len(values) > 1:
            spacing = unit * abs(float(values[1]) - float(values[0]))
            size, every = _row_font(spacing, _size(axis.get("tickfont"), base))
            if size != _size(axis.get("tickfont"), base) or every > 1:
                axis.setdefault("tickfont", {})["size"] = size
                axis["tickvals"], axis["ticktext"] = list(values)[::every], list(axis["ticktext"])[::every]
                changed = True
        for i, trace in enumerate(data):
            if trace.type != "scatter" or "text" not in str(trace.mode or "") or trace.text is None:
                continue
            drawn_at = trace.textfont.size
            if ("yaxis" + str(trace.yaxis or "y")[1:]) != name or not isinstance(drawn_at, int | float):
                continue
            size, every = _row_font(unit, float(drawn_at))  # one label per unit
            if size != drawn_at or every > 1:
                texts[i] = (size, every)
    return changed, texts


def _cells(z) -> tuple[int, int] | None:
    """(rows, columns) of a heatmap's z: a list of rows, an array, or plotly's typed-array dict with a shape."""
    if isinstance(z, dict) and "shape" in z:
        rows, cols = (int(n) for n in str(z["shape"]).split(","))
        return rows, cols
    shape = getattr(z, "shape", None)
    if shape is not None and len(shape) == 2:
        return int(shape[0]), int(shape[1])
    if isinstance(z, list | tuple) and z and isinstance(z[0], list | tuple):
        return len(z), len(z[0])
    return None


def _longest_cell(trace: dict) -> float:
    """The widest number a heatmap prints in a cell, in font sizes ("-0.68": 3)."""
    text = trace.get("text")
    if "%{text}" in str(trace.get("texttemplate", "")) and isinstance(text, list | tuple):
        cells = [str(c) for row in text if isinstance(row, list | tuple) for c in row]
        if cells:
            return DIGIT_EM * max(map(len, cells))
    return DIGIT_EM * len("-0.00")  # the lab's cell numbers are printed with two decimals


def _tick_room(axis, base: float) -> float:
    """Width the tick labels of a y axis take from the plot (automargin gives them that much more room)."""
    labels = axis.get("ticktext") if isinstance(axis, dict) else None
    if not labels:
        return 0.0
    size = _size(axis.get("tickfont"), base)
    return size * max(map(_em, map(str, labels))) + 10


def _plot_left(layout: dict, y_axis, base: float) -> float:
    """Where the plot starts: the left margin, or, when the y axis's tick labels do not fit in it, as far as plotly's
    automargin pushes it (the labels and its pad: the smallest margin, at most 12 px)."""
    margin = _margins(layout)
    pad = min(12, *(margin[side] for side in "lrtb"))
    return max(float(margin["l"]), pad + _tick_room(y_axis, base))


def _cell_sizes(data, layout: dict, width: float, base: float) -> dict[int, int]:
    """{trace index: font size} for the heatmaps whose cell numbers are wider than their cells (half a font size to
    spare), read from the figure's traces without copying them."""
    margin = _margins(layout)
    sizes = {}
    for i, trace in enumerate(data):
        if trace.type != "heatmap" or not trace.texttemplate:
            continue
        cells = _cells(trace.z)
        if cells is None:
            continue
        axis = layout.get("xaxis" + str(trace.xaxis or "x")[1:], {})
        y_axis = layout.get("yaxis" + str(trace.yaxis or "y")[1:], {})
        plot_w = max(1.0, width - _plot_left(layout, y_axis, base) - margin["r"])
        cell_w = plot_w * _domain(axis if isinstance(axis, dict) else {}) / max(1, cells[1])
        size = _size({"size": trace.textfont.size}, base)
        text = {"text": trace.text, "texttemplate": trace.texttemplate}
        fits = int(cell_w / (_longest_cell(text) + 0.5))
        if fits < size:
            sizes[i] = fits
    return sizes


def fitted_spec(fig: go.Figure, width_px: float) -> dict | None:
    """The dict of `fig` as drawn `width_px` wide (see fit_to_width), or None when everything fits. It is made from
    plotly's own dicts of `fig` without copying them whole: the layout is copied but for its template, a trace only
    when its text changes, and what is not copied is shared with `fig` (read it, never change it)."""
    own = fig_dict(fig)
    layout = {key: value if key == "template" else copy.deepcopy(value) for key, value in own["layout"].items()}
    base = _size(layout.get("font"), 12.0)
    changed = _fit_title(layout, width_px, base)
    changed = _fit_axis_titles(layout, width_px, base) or changed
    changed = _fit_ticks(layout, width_px, base) or changed
    sizes = _cell_sizes(fig.data, layout, width_px, base)
    rows_changed, rows = _fit_rows(layout, fig.data, width_px, base)
    if not (changed or rows_changed or sizes or rows):
        return None
    data = list(own["data"])
    for i in {*rows, *sizes}:
        data[i] = {**data[i], "textfont": {**data[i].get("textfont", {})}}
    for i, (size, every) in rows.items():
        data[i]["textfont"]["size"] = size
        if every > 1:
            data[i]["text"] = [t if k % every == 0 else "" for k, t in enumerate(data[i]["text"])]
    for i, size in sizes.items():
        if size < MIN_CELL_FONT:  # unreadable: the colours and the hover tell the values
            data[i]["texttemplate"] = ""
        else:
            data[i]["textfont"]["size"] = size
    return {"data": data, "layout": layout}


def fitted_dict(fig: go.Figure, width_px: float) -> dict:
    """The dict of `fig` as drawn `width_px` wide: fitted_spec's, or plotly's own of `fig` when everything fits
    (shared with it either way: read it, never change it). figure_json writes it."""
    spec = fitted_spec(fig, width_px)
    return fig_dict(fig) if spec is None else spec


def fit_to_width(fig: go.Figure, width_px: float) -> go.Figure:
    """`fig` as drawn `width_px` wide: titles wrapped onto more lines, axis titles wrapped to their axes, crowded
    turned tick labels upright, cell numbers shrunk to their cells (or left to the hover when they would be smaller
    than MIN_CELL_FONT), row labels (tokens) no taller than their rows (every k-th one when they would be smaller than
    MIN_ROW_FONT). Returns `fig` itself when everything fits, else a new figure (built from fitted_spec's dict
    without plotly's validation, as viz.projector does: only text and sizes plotly accepts are changed)."""
    spec = fitted_spec(fig, width_px)
    return fig if spec is None else go.Figure(spec, _validate=False)
