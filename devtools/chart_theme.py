"""Record how Streamlit's own chart themes a figure, light and dark, into static/chart_theme.json.

    python -m devtools.chart_theme [--out static/chart_theme.json]

A figure drawn with `st.plotly_chart(theme="streamlit")` is themed in the browser by Streamlit's chart code: the
colour placeholders of its default template ("#000001"…) become the theme's colours, and the theme's fonts, grid and
margins are merged into the template's layout. The lab's in-place chart (static/chart.js) draws the walkthrough's
figures the same way from this file: for each colour scheme, the background colour a component sees
(`--st-background-color`, to tell the schemes apart), the placeholders' colours and the themed default template.
They are read here from Streamlit's own chart in headless Chromium, not rewritten by hand, so a new Streamlit is one
command away; tests/browser/test_chart_theme.py checks the lab's charts against Streamlit's chart again.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from .harness import APP_ROOT, chromium, streamlit_server

SCHEMES = ("light", "dark")  # Streamlit follows the browser's prefers-color-scheme unless the app fixes a theme
PLACEHOLDERS = [f"#0000{n:02d}" for n in range(1, 41) if n != 31]  # Streamlit 1.67's PlotlyChart chunk: 31 unused
OUT = APP_ROOT / "static" / "chart_theme.json"

# A chart in Streamlit's theme whose layout.meta lists every placeholder (so the browser hands back their colours),
# and a component that records the theme's background colour as a lab chart's element sees it.
PROBE_APP = f"""
import plotly.graph_objects as go
import streamlit as st

st.plotly_chart(go.Figure(layout={{"meta": {PLACEHOLDERS!r}}}), theme="streamlit", key="probe")
st.components.v2.component("theme_probe", isolate_styles=False, js='''
export default function ({{ parentElement }}) {{
  window.__background = getComputedStyle(parentElement).getPropertyValue("--st-background-color").trim();
}}
''')(key="background")
"""
THEMED_JS = """() => {
  const gd = document.querySelector('[data-testid="stPlotlyChart"] .js-plotly-plot');
  return gd && gd.layout.template && window.__background
    ? {meta: gd.layout.meta, template: gd.layout.template, background: window.__background} : null;
}"""


def record() -> dict:
    """Each colour scheme's background, placeholder colours and themed template, from Streamlit's chart."""
    schemes = []
    with tempfile.TemporaryDirectory() as folder, chromium() as browser:
        (Path(folder) / "app.py").write_text(PROBE_APP)
        with streamlit_server(root=Path(folder)) as url:
            for scheme in SCHEMES:
                page = browser.new_page(color_scheme=scheme)
                page.goto(url)
                themed = page.wait_for_function(THEMED_JS, timeout=60_000).json_value()
                colours = dict(zip(PLACEHOLDERS, themed["meta"], strict=True))
                schemes.append(
                    {"name": scheme, "background": themed["background"], "colours": colours,
                     "template": themed["template"]}
                )  # fmt: skip
                page.close()
    import streamlit

    return {"streamlit": streamlit.__version__, "schemes": schemes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
