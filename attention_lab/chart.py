"""Where the browser finds the lab's charts, whichever way they were drawn (tests, benches, ui.phone's CSS)."""

from __future__ import annotations

# Every chart of the page in CSS: drawn in place (ui/in_place_chart.py, static/chart.js) or by st.plotly_chart (a
# chart in Streamlit's theme). Its plotly element inside is `.js-plotly-plot`, drawn once it holds an `svg.main-svg`.
CHARTS = ':is([data-testid="labChart"], [data-testid="stPlotlyChart"])'
