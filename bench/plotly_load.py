"""How long a fresh page of the app takes to load and start plotly.js, then draw a first heatmap: Streamlit's own chart
chunk (what the in-place chart loads, ui/plotly_bundle.py) against any other plotly.js build given with --bundle.

    python bench/plotly_load.py [--bundle plotly-cartesian.min.js] [--rounds 5]

Each round opens the app's home page (no chart) in a fresh browser context, so nothing is cached, then loads each
build in turn from the app's origin and draws one 10 × 10 heatmap with cell numbers. A --bundle file is served by
the browser itself (a routed URL): only the browser's parse and start are measured, not how a server sends it
(docs/capacity.md: the lab's /app/static/ gzips on every request). Prints p50, min and max per build, and the load
average. For the record only: figures vary by ±20 % or more on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path

from devtools.harness import chromium, new_page, open_page, streamlit_server
from ui.plotly_bundle import plotly_chunk_path

ROUTED = "/lab-bench-plotly.js"
LOAD_AND_DRAW_JS = """async ([src, classic]) => {
  const t0 = performance.now();
  if (classic) {
    await new Promise((done, failed) => {
      const script = document.createElement('script');
      script.src = src; script.onload = done; script.onerror = failed;
      document.head.appendChild(script);
    });
  } else {
    await import(src);
  }
  const loaded = performance.now() - t0;
  const box = document.createElement('div');
  box.style.width = '500px'; box.style.height = '400px';
  document.body.appendChild(box);
  const z = Array.from({length: 10}, (_, i) => Array.from({length: 10}, (_, j) => i * j));
  const t1 = performance.now();
  await window.Plotly.newPlot(box, [{type: 'heatmap', z, texttemplate: '%{z}'}], {title: {text: 'x'}});
  return [loaded, performance.now() - t1, window.Plotly.version];
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bundle", type=Path, help="another plotly.js build (a script that sets window.Plotly)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    chunk = plotly_chunk_path()
    if chunk is None:
        raise SystemExit("This Streamlit has no single PlotlyChart chunk to measure.")
    builds = {"streamlit chunk": (chunk, False)}
    body = args.bundle.read_bytes() if args.bundle else b""
    if args.bundle:
        builds[args.bundle.name] = (ROUTED.lstrip("/"), True)
    times: dict[str, list[tuple[float, float, str]]] = {name: [] for name in builds}
    with streamlit_server() as url, chromium() as browser:
        for _ in range(args.rounds):
            for name, (path, classic) in builds.items():
                page = new_page(browser)
                if body:
                    page.route(f"**{ROUTED}", lambda route: route.fulfill(body=body, content_type="text/javascript"))
                open_page(page, url + "/")
                loaded, drawn, version = page.evaluate(LOAD_AND_DRAW_JS, [f"{url}/{path}", classic])
                times[name].append((float(loaded), float(drawn), str(version)))
                page.context.close()
    for name, rows in times.items():
        loads, draws = [r[0] for r in rows], [r[1] for r in rows]
        print(f"{name:28s} plotly.js {rows[0][2]:8s} load+start p50 {statistics.median(loads):6.0f} ms "
              f"(min {min(loads):.0f}, max {max(loads):.0f})  first heatmap p50 {statistics.median(draws):4.0f} ms  "
              f"n={len(rows)}")  # fmt: skip
    print("load average", tuple(round(x, 2) for x in os.getloadavg()))


if __name__ == "__main__":
    main()
