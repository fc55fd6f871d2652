"""Where the browser finds the lab's charts, whichever way they were drawn (tests, benches, ui.phone's CSS)."""

from __future__ import annotations

# Every chart of the page in CSS: drawn in place (ui/in_place_chart.py, static/chart.js) or by st.plotly_chart (a
# chart in Streamlit's theme). Its plotly element inside is `.js-plotly-plot`, drawn once it holds an `svg.main-svg`.
CHARTS = ':is([data-testid="labChart"], [data-testid="stPlotlyChart"])'
# Every chart of the page, drawn or still to come: CHARTS, and the element Streamlit mounts an in-place chart's
# component into, which is in the page before static/chart.js has loaded and made the chart inside it. A wait for
# "every chart drawn" must count these: on a loaded machine the page can be quiet for a while between the two (seen:
# a lesson slide judged settled with none of its charts yet in the page).
CHARTS_TO_DRAW = f'{CHARTS}, [data-testid="stBidiComponentRegular"]'
# A chart already drawn whose newer figure waits until the chart comes near the screen (static/chart.js marks its box
# data-waiting, and dims it, until that figure is drawn).
WAITING_CHARTS = '[data-testid="labChart"][data-waiting]'
