"""What Streamlit, plotly.js, KaTeX and torch take on this machine by themselves: the lower bounds under issue 15 §3's
one-person goals (an edit ≤ 3× the floor app, a cold start ≤ 3 s), measured in one run with the floor they are read by.

    python bench/bounds.py [--cases edits,cold] [--rounds 3] [--edits 12]

edits  Edit-to-paint (as bench/ui_latency.py times it) of the floor app (st.text_input + st.write), on Streamlit's
       defaults and in the lab's runner settings, beside the same app plus what a head pick on the Step page must
       redraw at the least: a 9 × 9 heatmap with its 81 numbers (the step's own figure, viz.walkthrough, drawn in place
       by the lab's chart component: Plotly.react), a 9 × 9 formula (st.latex, the step's viz.walkthrough_latex), or
       both; each edit gives them new numbers. The apps are measured edit by edit in turn, on fresh pages each round.
cold   Process start to the page painted and quiet, for a fresh `streamlit run` server (the lab's runner settings) of
       the floor app; of the floor app importing torch first, as the lab's first page must (it runs the model); of
       the floor app with one small plotly chart (st.plotly_chart: Streamlit's 4.7 MB plotly.js chunk, the one the
       lab's charts load too); of that app importing torch first; and then of the lab itself as bench/ui_latency.py
       times it (the app command, to a painted /attention link). `--rounds` cold starts of each, in turn.

Prints p50 / p90 per app, each edit case's p50 ÷ the floor's p50, and the load average before and after. For the
record only: figures vary by ±20 % or more on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
from contextlib import ExitStack
from pathlib import Path

from ui_latency import DONE_JS, MARKDOWN_SHOWS, QUIET_MS, T0_JS, cold_start, percentile, script_server

from attention_lab.paths import APP_ROOT
from devtools.harness import chromium, new_page

INPUT_BOX = """
import streamlit as st
text = st.text_input("Input", "a b c")
st.write(text)
"""
# What a head pick on step 4 must redraw at the least, on new numbers each edit (seeded by the input).
STEP_PARTS = """
import zlib
import numpy as np
from viz import walkthrough as figures
from viz import walkthrough_latex as tex
rng = np.random.default_rng(zlib.crc32(text.encode()))
scores = rng.normal(size=(9, 9))
tokens = [f"w{i}" for i in range(9)]
"""
FORMULA = "st.latex(tex.scaling(scores, scores / 2, 4, 1.0, True, highlight_row=0, size=9))\n"
HEATMAP = """
from ui.charts import show_chart
show_chart(figures.matrix_heatmap(scores / 2, tokens, tokens, "Scaled scores", highlight_row=0), "bound",
           name="bound", theme="streamlit")
"""
EDIT_APPS = {  # name → script
    "floor": INPUT_BOX,
    "floor + heatmap": INPUT_BOX + STEP_PARTS + HEATMAP,
    "floor + formula": INPUT_BOX + STEP_PARTS + FORMULA,
    "floor + heatmap + formula": INPUT_BOX + STEP_PARTS + FORMULA + HEATMAP,
}
PLOTLY_CHART = """
import plotly.graph_objects as go
st.plotly_chart(go.Figure(go.Heatmap(z=[[1, 2, 3], [4, 5, 6], [7, 8, 9]])))
"""
COLD_APPS = {
    "floor": INPUT_BOX,
    "floor + import torch": "import torch\n" + INPUT_BOX,
    "floor + a plotly chart": INPUT_BOX + PLOTLY_CHART,
    "floor + a plotly chart + import torch": "import torch\n" + INPUT_BOX + PLOTLY_CHART,
}
SHOWN = "a b c"  # what the input box starts with, and st.write shows


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def app_folder(parent: Path, name: str, script: str) -> Path:
    """The app written as app.py in a folder of its own, beside the lab's static/ (the chart component's script) and
    its .streamlit/config.toml (the lab's runner and static serving settings); the script's path."""
    folder = parent / name.replace(" ", "").replace("+", "_")
    (folder / ".streamlit").mkdir(parents=True)
    (folder / "app.py").write_text(script)
    (folder / "static").symlink_to(APP_ROOT / "static")
    shutil.copy(APP_ROOT / ".streamlit" / "config.toml", folder / ".streamlit" / "config.toml")
    return folder / "app.py"


def wait_shown(page, text: str) -> None:
    page.wait_for_function(DONE_JS, arg=[MARKDOWN_SHOWS, text, QUIET_MS], timeout=120_000, polling=25)


def edit_ms(page, text: str) -> float:
    """Type `text` into Input, press Enter; ms from the keydown to the last DOM change before the page showed it,
    painted and quiet."""
    box = page.get_by_label("Input", exact=True)
    box.fill(text)
    page.evaluate(T0_JS)
    box.press("Enter")
    wait_shown(page, text)
    return page.evaluate("window.__lab.lastMutation - window.__t0")


def edits(browser, rounds: int, n_edits: int) -> None:
    """Every edit app (and the floor on Streamlit's defaults) edit by edit in turn, a fresh page of each per round."""
    with tempfile.TemporaryDirectory(prefix="attention-lab-bounds-") as tmp, ExitStack() as stack:
        urls = {name: stack.enter_context(script_server(app_folder(Path(tmp), name, script)))[0]
                for name, script in EDIT_APPS.items()}  # fmt: skip
        defaults = app_folder(Path(tmp), "defaults", INPUT_BOX)
        (defaults.parent / ".streamlit" / "config.toml").unlink()  # Streamlit's defaults
        urls = {"floor, Streamlit's defaults": stack.enter_context(script_server(defaults))[0], **urls}
        times: dict[str, list[float]] = {name: [] for name in urls}
        for r in range(rounds):
            pages = {}
            for name, url in urls.items():
                pages[name] = new_page(browser)
                pages[name].goto(url)
                wait_shown(pages[name], SHOWN)
                edit_ms(pages[name], f"warm {r}")  # plotly's chunk, KaTeX's fonts: not counted
            for i in range(n_edits):
                for name, page in pages.items():
                    times[name].append(edit_ms(page, f"edit {r} {i}"))
            for page in pages.values():
                page.context.close()
    floor = statistics.median(times["floor"])
    default_floor = statistics.median(times["floor, Streamlit's defaults"])
    print(
        f"Edit-to-paint, {rounds} rounds of {n_edits} edits; ratios to the floor in the lab's settings "
        f"({floor:.0f} ms) and to the floor on Streamlit's defaults ({default_floor:.0f} ms, issue 15's):"
    )
    for name, values in times.items():
        p50 = statistics.median(values)
        print(
            f"  {name:<30} p50 {p50:5.0f} ms  p90 {percentile(values, 0.9):5.0f} ms  "
            f"÷ lab floor {p50 / floor:5.2f}  ÷ default floor {p50 / default_floor:5.2f}  n={len(values)}"
        )


def cold(browser, rounds: int) -> None:
    """Each cold app started fresh `rounds` times, in turn: process start → the page painted and quiet."""
    lab = "the lab: attention-lab, /attention"
    times: dict[str, list[float]] = {name: [] for name in [*COLD_APPS, lab]}
    with tempfile.TemporaryDirectory(prefix="attention-lab-bounds-") as tmp:
        scripts = {name: app_folder(Path(tmp), name, script) for name, script in COLD_APPS.items()}
        for _ in range(rounds):
            for name, script in scripts.items():
                page = new_page(browser)
                with script_server(script) as (url, started):
                    page.goto(url)
                    wait_shown(page, SHOWN)
                    times[name].append(page.evaluate("performance.timeOrigin + window.__lab.lastMutation") / 1000
                                       - started)  # fmt: skip
                page.context.close()
            times[lab].append(cold_start(browser, {}, APP_ROOT, app_command=True).attention)
    print(f"Cold start, process start → painted and quiet, {rounds} each:")
    for name, values in times.items():
        shown = " / ".join(f"{v:.2f}" for v in values)
        print(f"  {name:<40} {shown} s  (median {statistics.median(values):.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default="edits,cold", help="comma-separated: edits, cold")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--edits", type=int, default=12, help="timed edits per app and round")
    args = parser.parse_args()
    cases = set(args.cases.split(","))
    print(f"load average before: {load_average()}")
    with chromium() as browser:
        if "edits" in cases:
            edits(browser, args.rounds, args.edits)
        if "cold" in cases:
            cold(browser, args.rounds)
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
