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

// Streamlit's chart theme (a figure sent with theme "streamlit"), as Streamlit's own chart applies it in the browser:
// static/chart_theme.json holds, per colour scheme, the colours of the template's placeholders and the themed default
// template, read from Streamlit's chart by devtools/chart_theme.py. The server sends such a figure without its
// template (it is Streamlit's default one); the scheme is the one whose background this chart's element has.
// Streamlit hands a component its data again when its theme changes (light ↔ dark), so a chart is themed anew then.
let themesLoaded = null;

function loadThemes() {
  if (themesLoaded === null) {
    themesLoaded = fetch(new URL("app/static/chart_theme.json", document.baseURI)).then((response) => {
      if (!response.ok) throw new Error(`chart_theme.json: HTTP ${response.status}`);
      return response.json();
    });
    themesLoaded.catch(() => {
      themesLoaded = null;
    });
  }
  return themesLoaded;
}

function schemeOf(themes, element) {
  const background = getComputedStyle(element).getPropertyValue("--st-background-color").trim().toLowerCase();
  return themes.schemes.find((scheme) => scheme.background.toLowerCase() === background) || themes.schemes[0];
}

const PLACEHOLDER = /#0000[0-9]{2}/g;

function themed(figure, scheme) {
  const text = JSON.stringify(figure).replace(PLACEHOLDER, (found) => scheme.colours[found] || found);
  const out = JSON.parse(text);
  const layout = (out.layout = out.layout || {});
  layout.template = structuredClone(scheme.template);
  if (layout.font && layout.font.color !== undefined) {
    // as Streamlit's chart: a figure with its own font colour keeps it in sankey and icicle text
    for (const type of ["icicle", "sankey"]) {
      for (const trace of layout.template.data[type] || []) {
        if (trace.textfont) delete trace.textfont.color;
      }
    }
  }
  if (layout.title !== undefined && layout.title !== null) {
    const title = typeof layout.title === "string" ? { text: layout.title } : layout.title;
    layout.title = { ...title, text: `<b>${typeof title.text === "string" ? title.text : ""}</b>` };
  }
  return out;
}

function figureToDraw({ figure, theme }, parentElement) {
  if (theme !== "streamlit") return Promise.resolve(figure);
  return loadThemes().then((themes) => themed(figure, schemeOf(themes, parentElement)));
}

const charts = new WeakMap(); // the element Streamlit gives a chart → {box, plot, latest, drawn, frame, watcher}

// A title of several lines over tick labels drawn above the plot (the overview's head names) gets its top margin from
// the server (viz/fit.py), which fits a figure to the width it expects; on a narrower screen plotly turns those
// labels upright, taller than the server made room for, and they ran into the title's last line (a phone, in
// Chinese). Measured here after each draw on a phone's screen (at most `phoneWidth` px wide: ui/phone.py's NARROW; a
// measurement forces the page's layout, which a wider screen, laid out as the server expects, is spared): the margin
// and the height grow by the overlap, so the plot keeps its size. A phone turned to landscape (or a window widened
// past a phone's) gets the server's margin and height back on its resize.
const TITLE_GAP = 4; // px left between a title's last line and the labels under it, once they overlapped

function labelsAbove(layout) {
  return Object.keys(layout).some((key) => /^xaxis\d*$/.test(key) && layout[key] && layout[key].side === "top");
}

function titleOverlap(plot) {
  const layout = plot._fullLayout;
  if (!layout || !labelsAbove(layout)) return 0;
  const title = plot.querySelector(".gtitle");
  const size = layout._size;
  if (!title || !size) return 0;
  const titleBox = title.getBoundingClientRect();
  if (titleBox.height === 0) return 0;
  const plotTop = plot.querySelector(".main-svg").getBoundingClientRect().top + size.t;
  let labelsTop = Infinity;
  for (const label of plot.querySelectorAll(".xaxislayer-above .xtick text")) {
    const box = label.getBoundingClientRect();
    if (box.height > 0 && box.bottom <= plotTop + 1) labelsTop = Math.min(labelsTop, box.top);
  }
  return labelsTop === Infinity ? 0 : Math.ceil(titleBox.bottom - labelsTop);
}

function clearTitle(Plotly, chart) {
  if (!(window.innerWidth <= chart.phoneWidth)) return serverLayout(Plotly, chart);
  const overlap = titleOverlap(chart.plot);
  if (overlap <= 0) return null; // a title close to its labels but clear of them is left as the server laid it out
  const layout = chart.plot._fullLayout;
  const grow = overlap + TITLE_GAP;
  chart.grown = true;
  return Plotly.relayout(chart.plot, { "margin.t": layout.margin.t + grow, height: layout.height + grow });
}

// The margin and height the server sent, for a chart clearTitle grew on a phone's screen that is now wider.
function serverLayout(Plotly, chart) {
  if (!chart.grown) return null;
  chart.grown = false;
  return Plotly.relayout(chart.plot, { "margin.t": chart.sent.top, height: chart.sent.height });
}

function sentLayout(figure) {
  const layout = figure.layout || {};
  const top = layout.margin && layout.margin.t !== undefined ? layout.margin.t : null; // null: plotly's default
  return { top, height: layout.height !== undefined ? layout.height : null };
}

function chartIn(parentElement) {
  let chart = charts.get(parentElement);
  if (chart === undefined) {
    const box = document.createElement("div"); // found as [data-testid="labChart"] (attention_lab/chart.py: CHARTS)
    box.dataset.testid = "labChart";
    const plot = document.createElement("div"); // plotly's own element (.js-plotly-plot once drawn)
    box.appendChild(plot);
    parentElement.appendChild(box);
    chart = { box, plot, latest: 0, drawn: false, frame: 0, grown: false, sent: null, near: true, waiting: null };
    // Only a new width is redrawn: the box's height is the plot's own, and it changes with every draw (a chart drawn
    // afresh grows from nothing). Plotly's resize waits 100 ms before it lays the plot out again, so answering those
    // changes too redrew each new chart of an edit a second time, ~100 ms after its draw (docs/capacity.md).
    chart.width = null; // null: not observed yet (the first observation, made after the first draw, is the baseline)
    chart.watcher = new ResizeObserver((entries) => {
      const width = entries[entries.length - 1].contentRect.width;
      const known = chart.width;
      chart.width = width;
      if (known === null || width === known || !chart.drawn || chart.frame) return;
      chart.frame = requestAnimationFrame(() => {
        chart.frame = 0;
        if (chart.plot.offsetWidth > 0) {
          window.Plotly.Plots.resize(chart.plot).then(() => clearTitle(window.Plotly, chart));
        }
      });
    });
    chart.watcher.observe(box);
    chart.sight = new IntersectionObserver(
      (entries) => {
        chart.near = entries[entries.length - 1].isIntersecting;
        if (chart.near) drawWaiting(chart);
      },
      { root: scrollerOf(parentElement), rootMargin: NEAR },
    );
    chart.sight.observe(box);
    charts.set(parentElement, chart);
  }
  return chart;
}

// A chart already drawn but out of sight (further than NEAR from what its scroller shows: below the fold, in a closed
// expander) keeps its figure until it comes near, and only the newest figure sent meanwhile is drawn then: an edit
// draws the charts the reader can see, not every chart of the page (docs/capacity.md, "Charts out of sight"). It is
// dimmed while it waits, for a reader who scrolls to it faster than it draws (~30 ms). Printing draws every waiting
// chart first.
const NEAR = "200px 0px"; // a few turns of a mouse wheel above and below

// The element that scrolls the chart (Streamlit's main area, a dialog's body): the margin of an IntersectionObserver
// applies to its root only, so a chart inside a scroller observed against the window would get none.
function scrollerOf(element) {
  for (let node = element.parentElement; node; node = node.parentElement) {
    if (/(auto|scroll)/.test(getComputedStyle(node).overflowY)) return node;
  }
  return null; // the window
}

function draw(chart, data, sent, plotlyUrl, parentElement) {
  const payload = decoded(data);
  Promise.all([loadPlotly(plotlyUrl), figureToDraw(payload, parentElement)])
    .then(([Plotly, figure]) => {
      if (sent !== chart.latest) return null; // a newer figure came while plotly.js (or the theme) loaded
      return Plotly.react(chart.plot, { ...figure, config: payload.config }).then(() => {
        if (sent === chart.latest) inSight(chart);
        chart.drawn = true;
        chart.grown = false; // the figure just drawn has the server's layout
        chart.sent = sentLayout(figure);
        return clearTitle(Plotly, chart);
      });
    })
    .catch((error) => {
      inSight(chart);
      chart.plot.textContent = String(error);
    });
}

function drawWaiting(chart) {
  const waiting = chart.waiting;
  if (waiting === null) return;
  chart.waiting = null; // taken: marked waiting (and dimmed) until its draw is done
  draw(chart, ...waiting);
}

function outOfSight(chart, waiting) {
  chart.waiting = waiting;
  chart.box.dataset.waiting = "true";
  chart.box.style.opacity = "0.35";
}

function inSight(chart) {
  if (chart.box.dataset.waiting === undefined) return;
  delete chart.box.dataset.waiting;
  chart.box.style.opacity = "";
}

window.addEventListener("beforeprint", () => {
  for (const element of document.querySelectorAll('[data-testid="labChart"][data-waiting]')) {
    const chart = charts.get(element.parentElement);
    if (chart) drawWaiting(chart);
  }
});

// `sent` numbers the figures in the order Streamlit handed them over (the component's loader counts them before it
// waits for this module), so a figure whose draw arrives after a newer one's is dropped, not drawn over it.
export function drawChart({ data, parentElement }, plotlyUrl, sent, phoneWidth) {
  const chart = chartIn(parentElement);
  chart.phoneWidth = phoneWidth;
  if (sent > chart.latest) {
    chart.latest = sent;
    const waiting = [data, sent, plotlyUrl, parentElement];
    if (chart.drawn && !chart.near) {
      outOfSight(chart, waiting);
    } else {
      chart.waiting = null;
      draw(chart, ...waiting);
    }
  }
  // Streamlit also calls a draw's cleanup when a newer figure replaced it before this module had loaded, with the
  // element still in the page: only an element that has left the page takes its chart with it.
  return () => {
    if (parentElement.isConnected) return;
    chart.watcher.disconnect();
    chart.sight.disconnect();
    if (window.Plotly) window.Plotly.purge(chart.plot);
    chart.box.remove();
    charts.delete(parentElement);
  };
}
