"""Drive the real app in headless Chromium: start `streamlit run`, open pages, wait for reruns.

Shared by the browser tests and bench/ui_latency.py, so both judge "finished" the same way.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
]

# Installed before any page script runs: counts finished reruns and timestamps the last DOM change,
# so a test can wait for "a new rerun finished, and the page has been quiet for a moment". A run is
# counted from each mutation's old value (running → anything), so even a rerun that starts and ends
# between two observer callbacks (a fast st.fragment) is counted.
OBSERVER_JS = """
(() => {
  window.__lab = {runs: 0, lastMutation: performance.now()};
  const watch = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) { setTimeout(watch, 20); return; }
    new MutationObserver((records) => {
      window.__lab.lastMutation = performance.now();
      for (const r of records) {
        if (r.type === 'attributes' && r.attributeName === 'data-test-script-state'
            && r.oldValue === 'running') window.__lab.runs += 1;
      }
    }).observe(app, {subtree: true, childList: true, attributes: true, attributeOldValue: true,
                     characterData: true});
  };
  watch();
})();
"""

SETTLED_JS = """
([runsBefore, quietMs]) => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || !window.__lab) return false;
  if (window.__lab.runs <= runsBefore) return false;
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-stale="true"]')) return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  for (const chart of document.querySelectorAll('[data-testid="stPlotlyChart"]')) {
    if (!chart.querySelector('svg.main-svg')) return false;
  }
  return performance.now() - window.__lab.lastMutation >= quietMs;
}
"""


def chromium_available() -> bool:
    return Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(timeout: float = 60.0, env: dict | None = None):
    """Run `streamlit run app.py` headless on a free port; yield its base URL; stop it afterwards."""
    port = free_port()
    log = tempfile.NamedTemporaryFile("w+", prefix="streamlit-", suffix=".log", delete=False)  # noqa: SIM115
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
        "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited early:\n{Path(log.name).read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not become healthy in {timeout} s")
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        Path(log.name).unlink(missing_ok=True)


@contextmanager
def chromium():
    """A Playwright Chromium browser (the system one at CHROMIUM)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser, viewport=(1400, 1000)):
    """A page in a fresh context with the rerun observer installed and console errors collected."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.add_init_script(OBSERVER_JS)
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    return page


def runs(page) -> int:
    return page.evaluate("window.__lab ? window.__lab.runs : 0")


def wait_settled(page, runs_before: int, quiet_ms: int = 300, timeout_ms: int = 60_000) -> None:
    """Wait until a rerun after `runs_before` has finished and the page has been quiet for quiet_ms."""
    page.wait_for_function(SETTLED_JS, arg=[runs_before, quiet_ms], timeout=timeout_ms, polling=25)


def open_page(page, url: str, timeout_ms: int = 60_000) -> None:
    """Go to url and wait for the first complete run."""
    page.goto(url)
    wait_settled(page, 0, timeout_ms=timeout_ms)


def exceptions_on(page) -> list[str]:
    """Text of every Streamlit exception box on the page."""
    return [e.inner_text() for e in page.query_selector_all('[data-testid="stException"]')]
