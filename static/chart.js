// The lab's chart (ui/in_place_chart.py): draws a plotly figure into the element Streamlit gives it and, when the
// next run sends a new figure for the same chart, redraws that same element in place with Plotly.react
// (st.plotly_chart mounts a new chart, drawn from scratch, for every changed figure).

// plotly.js is the copy inside Streamlit's own chart chunk (the one st.plotly_chart loads; it sets window.Plotly
// when it runs), served by Streamlit with its other bundles: cached for a year, never compressed per request. Its URL
// comes from the server (ui/in_place_chart.py), which knows the chunk's hashed name.
let plotlyLoaded = null;

function loadPlotly(url) {
  if (plotlyLoaded === null) {
    plotlyLoaded = window.Plotly
      ? Promise.resolve(window.Plotly)
      : import(url).then(() => {
          if (!window.Plotly) throw new Error(`${url} did not provide plotly.js`);
          return window.Plotly;
        });
    plotlyLoaded.catch(() => {
      plotlyLoaded = null; // the next chart tries again
    });
  }
  return plotlyLoaded;
}

function decoded(data) {
  return JSON.parse(new TextDecoder().decode(data)); // the figure's JSON, sent as bytes
}

const charts = new WeakMap(); // the element Streamlit gives a chart → {box, plot, latest, drawn, frame, watcher}

function chartIn(parentElement) {
  let chart = charts.get(parentElement);
  if (chart === undefined) {
    const box = document.createElement("div"); // found as [data-testid="labChart"] (attention_lab/chart.py: CHARTS)
    box.dataset.testid = "labChart";
    const plot = document.createElement("div"); // plotly's own element (.js-plotly-plot once drawn)
    box.appendChild(plot);
    parentElement.appendChild(box);
    chart = { box, plot, latest: 0, drawn: false, frame: 0 };
    chart.watcher = new ResizeObserver(() => {
      if (!chart.drawn || chart.frame) return;
      chart.frame = requestAnimationFrame(() => {
        chart.frame = 0;
        if (chart.plot.offsetWidth > 0) window.Plotly.Plots.resize(chart.plot);
      });
    });
    chart.watcher.observe(box);
    charts.set(parentElement, chart);
  }
  return chart;
}

// `sent` numbers the figures in the order Streamlit handed them over (the component's loader counts them before it
// waits for this module), so a figure whose draw arrives after a newer one's is dropped, not drawn over it.
export function drawChart({ data, parentElement }, plotlyUrl, sent) {
  const chart = chartIn(parentElement);
  if (sent > chart.latest) {
    chart.latest = sent;
    const { figure, config } = decoded(data);
    loadPlotly(plotlyUrl)
      .then((Plotly) => {
        if (sent !== chart.latest) return null; // a newer figure came while plotly.js loaded
        return Plotly.react(chart.plot, { ...figure, config }).then(() => {
          chart.drawn = true;
        });
      })
      .catch((error) => {
        chart.plot.textContent = String(error);
      });
  }
  // Streamlit also calls a draw's cleanup when a newer figure replaced it before this module had loaded, with the
  // element still in the page: only an element that has left the page takes its chart with it.
  return () => {
    if (parentElement.isConnected) return;
    chart.watcher.disconnect();
    if (window.Plotly) window.Plotly.purge(chart.plot);
    chart.box.remove();
    charts.delete(parentElement);
  };
}
