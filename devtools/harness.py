"""Drive the real app in headless Chromium: start `streamlit run`, open pages, wait for reruns.

Shared by the browser tests, the benchmarks (bench/ui_latency.py, ...) and scripts/screenshots.py, so all judge
"finished" the same way.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

from attention_lab.chart import CHARTS_TO_DRAW
from attention_lab.cluster.processes import free_port, stop_process, wait_healthy
from attention_lab.command import SERVER_MODULE_ENV
from attention_lab.paths import APP_ROOT

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

# Installed before any page script runs. It counts finished script runs in two ways and timestamps the
# last DOM change, so a test can wait for "a new run finished, and the page has been quiet for a moment":
# - `runs`: stApp's data-test-script-state leaving "running" (counted from each mutation's old value, so a
#   run that starts and ends between two observer callbacks still counts). A fast run (the Home page, say)
#   may never set "running" at all, so this alone can miss a run.
# - `finished`: ScriptFinished messages on Streamlit's websocket (ForwardMsg field 6, read off the
#   protobuf's top-level fields), which every run and fragment run sends, however fast; a run stopped
#   early because a new one replaced it is not counted.
OBSERVER_JS = """
(() => {
  const lab = window.__lab = {runs: 0, finished: 0, lastMutation: performance.now()};
  const varint = (bytes, pos) => {
    let value = 0, shift = 0, byte;
    do { byte = bytes[pos++]; value += (byte & 0x7f) * 2 ** shift; shift += 7; } while (byte & 0x80);
    return [value, pos];
  };
  const isScriptFinished = (buffer) => {
    const bytes = new Uint8Array(buffer);
    let pos = 0;
    while (pos < bytes.length) {
      let key, length;
      [key, pos] = varint(bytes, pos);
      const field = Math.floor(key / 8), wire = key % 8;
      if (field === 6 && wire === 0) return varint(bytes, pos)[0] !== 2;  // 2: stopped early for a new run
      if (wire === 0) [, pos] = varint(bytes, pos);
      else if (wire === 2) { [length, pos] = varint(bytes, pos); pos += length; }
      else if (wire === 1) pos += 8;
      else if (wire === 5) pos += 4;
      else return false;
    }
    return false;
  };
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (event.data instanceof ArrayBuffer && isScriptFinished(event.data)) {
          lab.finished += 1;
          lab.finishedAt = performance.now();
        }
      });
    }
  };
  const watch = () => {
    if (!document.documentElement) { setTimeout(watch, 20); return; }
    new MutationObserver((records) => {
      lab.lastMutation = performance.now();
      for (const r of records) {
        if (r.type === 'attributes' && r.attributeName === 'data-test-script-state'
            && r.oldValue === 'running') lab.runs += 1;
      }
    }).observe(document.documentElement, {subtree: true, childList: true, attributes: true,
                                          attributeOldValue: true, characterData: true});
  };
  watch();
})();
"""

SETTLED_JS = """
([before, quietMs]) => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || !window.__lab) return false;
  if (window.__lab.runs <= before.runs && window.__lab.finished <= before.finished) return false;
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-stale="true"]')) return false;
  if (document.querySelector('[data-testid="stSkeleton"]')) return false;
  for (const chart of document.querySelectorAll('CHARTS_TO_DRAW')) {
    if (!chart.querySelector('svg.main-svg')) return false;
  }
  return performance.now() - window.__lab.lastMutation >= quietMs;
}
""".replace("CHARTS_TO_DRAW", CHARTS_TO_DRAW)

# What the page looks like to SETTLED_JS, for the message of a wait that timed out.
STATE_JS = """
(before) => {
  const app = document.querySelector('[data-testid="stApp"]');
  const charts = [...document.querySelectorAll('CHARTS_TO_DRAW')];
  const lab = window.__lab || {};
  return {
    url: location.href, before, runs: lab.runs, finished: lab.finished,
    scriptState: app ? app.getAttribute('data-test-script-state') : 'no stApp',
    stale: document.querySelectorAll('[data-stale="true"]').length,
    skeletons: document.querySelectorAll('[data-testid="stSkeleton"]').length,
    chartsWithoutSvg: charts.filter((c) => !c.querySelector('svg.main-svg')).length,
    quietForMs: Math.round(performance.now() - lab.lastMutation),
    title: document.querySelector('h1')?.innerText || '',
  };
}
""".replace("CHARTS_TO_DRAW", CHARTS_TO_DRAW)


SERVER_LOGS: dict[str, Path] = {}  # base URL -> log file of each running server, for failure reports


def server_log_tail(chars: int = 4000) -> str:
    """The end of every running server's log (what a failed browser test should show)."""
    return "\n".join(f"--- {url}\n{path.read_text(errors='replace')[-chars:]}" for url, path in SERVER_LOGS.items())


def chromium_available() -> bool:
    return Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)


def server_pid(url: str) -> int:
    """The `streamlit run` process serving url (found by its --server.port)."""
    port = url.rsplit(":", 1)[1].encode()
    for proc in Path("/proc").iterdir():
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(args) and port in args:
            return int(proc.name)
    raise RuntimeError(f"no streamlit process on port {port.decode()}")


@contextmanager
def streamlit_server(timeout: float = 60.0, env: dict | None = None, root: Path = APP_ROOT, app_command: bool = False):
    """Run `streamlit run app.py` (or, with `app_command`, the app command) headless on a free port (of the checkout
    at `root`); yield its base URL; stop it afterwards."""
    with streamlit_process(timeout, env, root=root, app_command=app_command) as (url, _proc):
        yield url


def server_flags(settings: list[str]) -> tuple[str, ...]:
    """["key=value", …] → ("--key", "value", …) for `streamlit run`."""
    pairs = [item.split("=", 1) for item in settings]
    return tuple(part for key, value in pairs for part in (f"--{key}", value))


@contextmanager
def streamlit_process(
    timeout: float = 60.0,
    env: dict | None = None,
    options: tuple[str, ...] = (),
    module: str = "streamlit",
    root: Path = APP_ROOT,
    app_command: bool = False,
):
    """As streamlit_server, yielding (base URL, the server's Popen); `options` are more `streamlit run` flags;
    `module` is what `python -m` runs with `run app.py …` (devtools.count_runs: a server that counts model runs);
    `root`: the checkout whose app.py is served and imported (bench/ui_latency.py --compare: another version);
    `app_command`: serve through the README's app command instead (`python -m attention_lab`), with the same flags."""
    port = free_port()
    if Path(root) != APP_ROOT:  # its own packages first, not this checkout's
        env = {**(env or {}), "PYTHONPATH": str(root)}
    log = tempfile.NamedTemporaryFile("w+", prefix="streamlit-", suffix=".log", delete=False)  # noqa: SIM115
    flags = [
        "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none", *options,
    ]  # fmt: skip
    launch = ["attention_lab"] if app_command else [module, "run", str(Path(root) / "app.py")]
    if app_command and module != "streamlit":  # each app server the command starts runs as `python -m module run`
        env = {**(env or {}), SERVER_MODULE_ENV: module}
    cmd = [sys.executable, "-m", *launch, *flags]
    proc = subprocess.Popen(cmd, cwd=root, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, timeout, lambda: Path(log.name).read_text()[-3000:], "streamlit")
        SERVER_LOGS[url] = Path(log.name)
        yield url, proc
    finally:
        SERVER_LOGS.pop(url, None)
        stop_process(proc, grace=30)  # the app command with --servers stops its own servers first
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


def new_page(browser, viewport=(1400, 1000), color_scheme: str = "light"):
    """A page in a fresh context with the rerun observer installed and console errors collected; `color_scheme` is
    the one the browser prefers ("dark": Streamlit follows it)."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, color_scheme=color_scheme)
    context.add_init_script(OBSERVER_JS)
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    page.on("pageerror", lambda e: page.console_errors.append(str(e)))
    page.on("crash", lambda _: page.console_errors.append("the page crashed (renderer gone)"))
    return page


def runs(page) -> dict:
    """The page's run counters now (pass them to wait_settled after an action)."""
    return page.evaluate("({runs: window.__lab?.runs ?? 0, finished: window.__lab?.finished ?? 0})")


def wait_settled(page, before: dict | None, quiet_ms: int = 300, timeout_ms: int = 60_000) -> None:
    """Wait until a run after `before` (from runs(); None: any run) has finished and the page has been quiet
    for quiet_ms; on timeout, fail with what the page looked like."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    before = before or {"runs": 0, "finished": 0}
    try:
        page.wait_for_function(SETTLED_JS, arg=[before, quiet_ms], timeout=timeout_ms, polling=25)
    except PlaywrightTimeout as exc:
        try:
            state = page.evaluate(STATE_JS, before)
        except Exception as inner:  # the page may be gone: say so rather than hide the timeout
            state = f"page state unavailable: {inner}"
        raise AssertionError(f"the page did not settle in {timeout_ms} ms: {state}") from exc


def open_page(page, url: str, timeout_ms: int = 60_000) -> None:
    """Go to url and wait for the first complete run."""
    page.goto(url)
    wait_settled(page, None, timeout_ms=timeout_ms)


def exceptions_on(page) -> list[str]:
    """Text of every Streamlit exception box on the page."""
    return [e.inner_text() for e in page.query_selector_all('[data-testid="stException"]')]


# What can stop a click on the page: open dialogs (a modal makes the rest of the page inert) and elements made inert
# outside a collapsed expander (whose content is inert by design), for a failed click's message.
BLOCKERS_JS = """() => ({
  dialogs: [...document.querySelectorAll('[role="dialog"]')].map((e) => e.innerText.slice(0, 120)),
  inert: [...document.querySelectorAll('[inert]')].filter((e) => !e.matches('[data-testid="stExpanderDetails"]'))
    .map((e) => `${e.tagName.toLowerCase()}${e.dataset.testid ? `[${e.dataset.testid}]` : ''}`).slice(0, 12),
})"""


def click_or_explain(page, locator, timeout_ms: int = 30_000) -> None:
    """Click `locator`; if the click times out, fail with what was open on the page and what was inert (once, at load
    ~8, a teacher's radio stayed inert for 30 s after a class's join dialog had been closed; not reproduced since)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.click(timeout=timeout_ms)
    except PlaywrightTimeout as exc:
        raise AssertionError(f"the click did not land: {page.evaluate(BLOCKERS_JS)}") from exc
