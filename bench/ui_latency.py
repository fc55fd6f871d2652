"""Edit-to-paint latency of the Attention page in headless Chromium, and the app's cold start.

    python bench/ui_latency.py [--edits 20] [--cases reverse,step,cold] [--rounds 3] [--compare DIR]

Each browser case runs in English and in Chinese (?lang=en / ?lang=zh), edit by edit in turn, so the two
languages see the same machine load and their ratio tells what translation costs.

Edit-to-paint: from the Enter keypress in `Input` to the rerun finished and the charts on screen painted, i.e. the
last DOM change in the app before it went quiet for 300 ms (the quiet window is not counted). "Finished"
is judged like devtools/harness.py's wait_settled, plus a check that the page shows the new input
(see DONE_JS). Cases:
  default  the default model (translate) and sentences like its example, in each language
  large    64 source tokens (and a 64-token target) on an untrained 4+4-layer × 8-head model, written to
           a temporary folder and offered to the app through ATTENTION_LAB_EXTRA_MODELS
  floor    a one-box app (st.text_input + st.write) on the same machine in the same run, for scale: Streamlit's
           defaults; the one-person cases (reverse, step) measure it again in the lab's runner settings (LAB_RUNNER)
  next     the Step-by-step page's Next button through steps 1 → 8, numbers from the worked example and
           from the model (click to the new step painted and quiet; no goal, for the record)
  cold     process start to the first complete paint of a shared /attention link, the server started as the
           README's app command starts it (attention-lab), --rounds times; and on each fresh server the first
           visitor's /attention paint against a second visitor's (goal: first <= 1.5x second)
  reverse  issue 15's one-person goal: `--rounds` fresh pages of /attention?model=reverse, each a warm-up edit and
           --edits typed inputs of digits; p50 ÷ the floor's p50 (goal ≤ 3) and p90 ÷ p50 (goal ≤ 1.3); and, after
           the last two edits of each page, a scroll down to the charts an edit left out of sight (static/chart.js
           draws them as they come near): from the scroll to them drawn and quiet
  step     the same ratios on /step-by-step?source=model: Next (steps 1 → 8), and a layer and a head picked
  next-token  the same ratios on /next-token with a GPT (gpt-en when it is shipped, else an untrained GPT of the same
           default size offered through ATTENTION_LAB_EXTRA_MODELS): a typed prompt (edit to the written text and
           the charts painted), and Sample (click to the appended token's run painted and quiet)
  minilm   (--cases minilm) /attention with MiniLM at 16 and 64 tokens beside translate at 16 and 64 (goal: minilm
           at 64 <= 1.5x translate at 64), and an untrained toy Transformer of max_len 129 at 16 and 128 source
           tokens, teacher-forced on a target as long (goal: 128 <= 2x 16); edits interleaved, one server
Each edit is also split at the ScriptFinished message: "server" is Enter → the script's run finished (the server's
work and the network), the rest of the edit-to-paint is the browser drawing what came.
--compare DIR measures the app of another checkout (say `git worktree add /tmp/before main`) in the same run,
case by case and edit by edit in turn with this one, so a before/after ratio sees the same machine load; the order
of the checkouts rotates from round to round (the last one measured in a round tends to come out faster).
Prints p50 / p90 in ms. Figures vary by ±20 % or more on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote_plus

from attention_lab.chart import CHARTS_TO_DRAW, WAITING_CHARTS
from attention_lab.paths import APP_ROOT
from devtools.harness import (
    chromium,
    free_port,
    new_page,
    open_page,
    streamlit_server,
)
from model import ModelConfig, Seq2SeqTransformer, available_pretrained, get_task, save_checkpoint
from model.gpt import GPT, GPT_TASKS, CharVocab, GPTConfig, LoadedGPT
from model.runner import LoadedModel
from ui.catalogs import read_catalog

LARGE_NAME = "bench-4x8"
LARGE_TOKENS = 64
LANGS = ("en", "zh")
_ZH = read_catalog("zh_CN")


def words(message: str, lang: str) -> str:
    """The app's words for `message` in `lang` (its catalog), so the bench finds the same controls in both."""
    if lang != "zh":
        return message
    entry = _ZH.get(message)
    if entry is None:  # (None.string failed here before)
        raise KeyError(f"{message!r} is not in the zh_CN catalog")
    assert isinstance(entry.string, str)  # a message without plural forms (a plural's string is a tuple)
    return entry.string


FLOOR_APP = """
import streamlit as st
text = st.text_input("Input", "a b c")
st.write(text)
"""


# The lab's .streamlit/config.toml turns Streamlit's gc.collect(2) after every run off (docs/capacity.md, "One server");
# the floor app runs on Streamlit's defaults, as issue 15 names it ("Streamlit's floor app"), and once more with it off.
LAB_RUNNER = ("--runner.postScriptGC", "false")


@contextmanager
def script_server(script: Path, settings: tuple[str, ...] = ()):
    """`streamlit run` of `script` in its folder (that folder's .streamlit/config.toml, if any, plus `settings`:
    "--runner.postScriptGC", "false", …), headless on a free port; yields (its URL, the time it was started)."""
    port = free_port()
    cmd = [sys.executable, "-m", "streamlit", "run", script.name, "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
           "--server.fileWatcherType", "none", *settings]  # fmt: skip
    started = time.time()
    proc = subprocess.Popen(cmd, cwd=script.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1):
                    break
            except OSError:
                time.sleep(0.05)
        yield url, started
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def floor_server(folder: Path, settings: tuple[str, ...] = ()):
    """`streamlit run` of the one-box floor app (Streamlit's defaults, plus `settings`); yields its URL."""
    script = folder / "floor_app.py"
    script.write_text(FLOOR_APP)
    with script_server(script, settings) as (url, _started):
        yield url


# Done = the page shows the new input (a check run in the page), the script is not running, nothing is stale,
# every chart has its SVG, and the app's DOM has been quiet for QUIET_MS. The check on the page's content
# replaces the harness's run counters: the floor app's reruns were seen never to set data-test-script-state
# to "running" in the DOM at all (run and finish inside one React commit).
QUIET_MS = 300
DONE_JS = """
([check, arg, quietMs]) => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || !window.__lab || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (document.querySelector('[data-stale="true"], [data-testid="stSkeleton"]')) return false;
  for (const chart of document.querySelectorAll('CHARTS_TO_DRAW')) {
    if (!chart.querySelector('svg.main-svg')) return false;
  }
  if (!new Function('arg', check)(arg)) return false;
  return performance.now() - window.__lab.lastMutation >= quietMs;
}
""".replace("CHARTS_TO_DRAW", CHARTS_TO_DRAW)
# The page's line of source tokens (or word pieces) over the charts shows the edit's tokens: the check on what the
# reader sees (the head view this read before is below the fold, and static/chart.js draws a chart out of sight only
# when it comes near the screen). The line's label is in the page's language; its chips are code spans.
TOKENS_SHOW = """
  return Array.from(document.querySelectorAll('[data-testid="stMarkdown"]')).some((m) => m.querySelector('code')
    && (' ' + m.innerText.replace(/\\s+/g, ' ').trim()).endsWith(' ' + arg.join(' ')));
"""
MARKDOWN_SHOWS = """
  return Array.from(document.querySelectorAll('[data-testid="stMarkdown"]')).some((m) => m.innerText.trim() === arg);
"""


def write_untrained(folder: Path, name: str, tokens: int, layers: int, heads: int) -> Path:
    """An untrained copy-task model of layers + layers and `heads` heads that takes `tokens` source tokens."""
    task = get_task("copy")
    config = ModelConfig(
        src_vocab_size=len(task.src_vocab), tgt_vocab_size=len(task.tgt_vocab), d_model=64, n_heads=heads,
        n_encoder_layers=layers, n_decoder_layers=layers, d_ff=128, max_len=tokens + 1,
    )  # fmt: skip
    return save_checkpoint(LoadedModel(Seq2SeqTransformer(config), task, name=name), folder / name)


def write_large_model(folder: Path) -> Path:
    """An untrained 4+4-layer, 8-head copy-task model that takes 64 source tokens."""
    return write_untrained(folder, LARGE_NAME, LARGE_TOKENS, 4, 8)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# An action is timed from the page's own event of it: the Enter's keydown, the pointerdown of a click (the timer set
# here is a fallback). Playwright's click first waits for the element to hold still over two animation frames
# (~50 ms here), which its press on a focused box does not; timed from the call, a click cost that much more than
# the floor's Enter (until 2026-11-27 evening).
T0_JS = """(() => {
  window.__t0 = performance.now();
  const mark = (event) => { window.__t0 = event.timeStamp; };
  for (const type of ['keydown', 'pointerdown']) document.addEventListener(type, mark, {capture: true, once: true});
})()"""


def edit_latency_ms(page, text: str, check: str, expected, label: str = "Input") -> float:
    """Type `text` into the box labelled `label`, press Enter, wait until the page shows it, painted and quiet;
    ms from Enter to the last DOM change."""
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    page.evaluate(T0_JS)
    box.press("Enter")
    page.wait_for_function(DONE_JS, arg=[check, expected, QUIET_MS], timeout=60_000, polling=25)
    return page.evaluate("window.__lab.lastMutation - window.__t0")


def measure_edits(page, url: str, inputs: list[str], check: str, expect) -> list[float]:
    """Open url, make one uncounted warm-up edit (plotly's lazy chunks, caches), then time the others."""
    open_page(page, url)
    return [edit_latency_ms(page, text, check, expect(text)) for text in inputs][1:]


def measure_edits_by_language(browser, url: str, inputs: list[str], check: str, expect) -> dict[str, list[float]]:
    """measure_edits in each language, one edit in each in turn (a page per language; first edits uncounted)."""
    pages = {lang: new_page(browser) for lang in LANGS}
    for lang, page in pages.items():
        open_page(page, f"{url}{'&' if '?' in url else '?'}lang={lang}")
    times: dict[str, list[float]] = {lang: [] for lang in LANGS}
    for text in inputs:
        for lang, page in pages.items():
            times[lang].append(edit_latency_ms(page, text, check, expect(text), words("Input", lang)))
    for page in pages.values():
        page.context.close()
    return {lang: values[1:] for lang, values in times.items()}


STEP_SHOWS = """
  return Array.from(document.querySelectorAll('h3')).some((h) => h.innerText.startsWith(arg));
"""


def next_clicks_ms(page, url: str, rounds: int, lang: str = "en") -> list[float]:
    """Click Next from step 1 to 8, `rounds` times; ms from each click to the new step painted and quiet."""
    times = []
    heading = words("Step {step} of {n} · {name}", lang).split("{name}")[0].rstrip(" ·")  # the step's own part
    for _ in range(rounds):
        open_page(page, f"{url}&lang={lang}")
        for step in range(2, 9):
            page.evaluate(T0_JS)
            page.get_by_role("button", name=words("Next ▶", lang)).click()
            shows = heading.format(step=step, n=8)
            page.wait_for_function(DONE_JS, arg=[STEP_SHOWS, shows, QUIET_MS], timeout=60_000, polling=25)
            times.append(page.evaluate("window.__lab.lastMutation - window.__t0"))
    return times


def source_tokens(text: str) -> list[str]:
    return [*text.split(), "<eos>"]


def report(name: str, values: list[float], goal: str) -> None:
    print(
        f"{name:<34} p50 {statistics.median(values):7.0f} ms   p90 {percentile(values, 0.9):7.0f} ms   "
        f"min {min(values):6.0f}   max {max(values):6.0f}   n={len(values)}   goal {goal}"
    )


# An action's two times: Enter (or click) → the run's ScriptFinished message, and → the last DOM change.
SPLIT_JS = "[window.__lab.finishedAt - window.__t0, window.__lab.lastMutation - window.__t0]"
START_JS = f"{T0_JS}; window.__lab.finishedAt = null; window.__lab.finished"
FINISHED = "return window.__lab.finished > arg;"  # a check: a run after the action has finished


@dataclass
class Timed:
    """Edit-to-paint of one case, each split at the run's ScriptFinished (ms)."""

    server: list[float] = field(default_factory=list)
    paint: list[float] = field(default_factory=list)

    def add(self, split: list[float]) -> None:
        self.server.append(split[0])
        self.paint.append(split[1])


def typed_edit(page, text: str, timed: Timed) -> None:
    """Type `text` into Input, press Enter, wait until the source tokens show it, painted and quiet; add its times."""
    box = page.get_by_label("Input", exact=True)
    box.fill(text)
    page.evaluate(START_JS)
    box.press("Enter")
    page.wait_for_function(DONE_JS, arg=[TOKENS_SHOW, source_tokens(text), QUIET_MS], timeout=60_000, polling=25)
    timed.add(page.evaluate(SPLIT_JS))


# Scroll the main area down by half a screen (to the charts under the overview, which an edit left waiting out of
# sight), from the time the scroll starts.
SCROLL_DOWN_JS = """
() => {
  const main = document.querySelector('[data-testid="stMain"]');
  window.__t0 = performance.now();
  main.scrollBy(0, main.clientHeight / 2);
}
"""
# Every chart on screen is drawn with its newest figure (none waits), and the page has been quiet.
ON_SCREEN_DRAWN = """
([quietMs]) => {
  for (const chart of document.querySelectorAll('WAITING_CHARTS')) {
    const box = chart.getBoundingClientRect();
    if (box.bottom > 0 && box.top < window.innerHeight) return false;
  }
  return performance.now() - window.__lab.lastMutation >= quietMs;
}
""".replace("WAITING_CHARTS", WAITING_CHARTS)


def scrolled_ms(page) -> float:
    """Scroll to the charts under the overview after an edit; ms from the scroll to those charts drawn and quiet (0
    when nothing on the new screen had to be drawn), then back to the top."""
    page.evaluate(SCROLL_DOWN_JS)
    page.wait_for_function(ON_SCREEN_DRAWN, arg=[QUIET_MS], timeout=60_000, polling=25)
    took = page.evaluate("Math.max(0, window.__lab.lastMutation - window.__t0)")
    page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")
    return took


def reverse_rounds(browser, url: str, texts: list[list[str]], scrolls: list[float]) -> Timed:
    """Each round: a fresh /attention?model=reverse page, its first edit a warm-up, then the others timed; after the
    last two, a scroll down to the charts below (their time added to `scrolls`)."""
    timed, warm = Timed(), Timed()
    for round_texts in texts:
        page = new_page(browser)
        open_page(page, f"{url}/attention?model=reverse")
        for i, text in enumerate(round_texts):
            typed_edit(page, text, warm if i == 0 else timed)
            if i >= len(round_texts) - 2:
                scrolls.append(scrolled_ms(page))
        page.context.close()
    return timed


def step_actions(browser, url: str, rounds: int) -> dict[str, Timed]:
    """On /step-by-step?source=model: Next through steps 1 → 8, then each layer and a few heads picked, `rounds`
    times on a fresh page; each action timed to a new run finished and the page painted and quiet."""
    out = {"Next": Timed(), "layer pick": Timed(), "head pick": Timed()}

    def act(page, what: str, do) -> None:
        before = page.evaluate(START_JS)
        do(page)
        page.wait_for_function(DONE_JS, arg=[FINISHED, before, QUIET_MS], timeout=60_000, polling=25)
        out[what].add(page.evaluate(SPLIT_JS))

    def pick(page, what: str, label: str, option: str) -> None:
        """Open the selectbox's menu, then time the pick from the click on the option (the edit; opening the menu
        is not: until 2026-11-27 evening it was timed from the click that opens the menu)."""
        page.get_by_test_id("stSelectbox").filter(has_text=label).click()
        choice = page.get_by_role("option", name=option, exact=True)
        choice.wait_for()
        act(page, what, lambda _page: choice.click())

    for _ in range(rounds):
        page = new_page(browser)
        open_page(page, f"{url}/step-by-step?source=model&model=reverse&step=4")
        for layer in ("2", "1"):
            pick(page, "layer pick", "Layer", layer)
        for head in ("head 2", "head 3", "head 4", "head 1"):
            pick(page, "head pick", "Head", head)
        open_page(page, f"{url}/step-by-step?source=model&model=reverse")
        for _step in range(7):
            act(page, "Next", lambda p: p.get_by_role("button", name="Next ▶").click())
        page.context.close()
    return out


GPT_NAME = "gpt-en"
BENCH_GPT = "bench-gpt"  # the untrained stand-in while gpt-en is not shipped
GPT_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ,.;:!?'-\n"
# The written text's box shows the prompt (the check of an edit to the prompt)
WRITTEN_SHOWS = """
  const box = document.querySelector('.st-key-nt_written_text [data-testid="stMarkdown"]');
  return !!box && box.innerText.replace(/\\u00a0/g, ' ').trim() === arg;
"""


def gpt_model(folder: Path) -> tuple[str, dict]:
    """The GPT the next-token case opens, and the server environment that offers it: gpt-en when it is shipped, else an
    untrained GPT of GPTConfig's default size (as gpt-en's cost per token) written to `folder`."""
    if GPT_NAME in available_pretrained():
        return GPT_NAME, {}
    vocab = CharVocab.from_text(GPT_CHARS)
    loaded = LoadedGPT(GPT(GPTConfig(vocab_size=len(vocab))), vocab, name=BENCH_GPT, task=GPT_TASKS["shakespeare"])
    return BENCH_GPT, {"ATTENTION_LAB_EXTRA_MODELS": str(save_checkpoint(loaded, folder / BENCH_GPT))}


def next_token_actions(browser, url: str, model: str, prompts: list[str], samples: int) -> dict[str, Timed]:
    """On /next-token: each prompt typed (the first a warm-up), then Sample clicked `samples` times (the first a
    warm-up); each timed to its run finished and the page painted and quiet."""
    out, warm = {"prompt typed": Timed(), "Sample": Timed()}, Timed()
    page = new_page(browser)
    open_page(page, f"{url}/next-token?model={model}")
    for i, text in enumerate(prompts):
        box = page.get_by_label("Prompt", exact=True)
        box.fill(text)
        page.evaluate(START_JS)
        box.press("Enter")
        page.wait_for_function(DONE_JS, arg=[WRITTEN_SHOWS, text, QUIET_MS], timeout=60_000, polling=25)
        (warm if i == 0 else out["prompt typed"]).add(page.evaluate(SPLIT_JS))
    button = page.get_by_role("button", name="Sample", exact=True)
    for i in range(samples + 1):
        before = page.evaluate(START_JS)
        button.click()
        page.wait_for_function(DONE_JS, arg=[FINISHED, before, QUIET_MS], timeout=60_000, polling=25)
        (warm if i == 0 else out["Sample"]).add(page.evaluate(SPLIT_JS))
    page.context.close()
    return out


def report_ratio(name: str, timed: Timed, floor: float) -> None:
    """A case's p50 and p90, its server part, and its ratios to the floor app and of p90 to p50 (issue 15's goals)."""
    p50, p90 = statistics.median(timed.paint), percentile(timed.paint, 0.9)
    print(
        f"{name:<40} p50 {p50:5.0f} ms  p90 {p90:5.0f} ms  (server {statistics.median(timed.server):4.0f})  "
        f"÷ floor {p50 / floor:4.2f} (goal ≤ 3)  p90/p50 {p90 / p50:4.2f} (goal ≤ 1.3)  n={len(timed.paint)}"
    )


def rotated(items: list, by: int) -> list:
    """`items` starting at its `by`-th (mod its length): round r measures the checkouts in a rotated order. In a fixed
    order the one measured last in each round came out faster (2026-11-27: a change measured last looked 13-20 %
    faster in two runs, and 2-7 % when measured first), so each takes each place in turn."""
    if not items:
        return items
    by %= len(items)
    return items[by:] + items[:by]


def one_person(browser, roots: dict[str, Path], cases: set[str], edits: int, rounds: int) -> None:
    """Issue 15's goals for one person: the reverse edits and the Step-by-step actions against the floor app, for
    each checkout in `roots`, in turn, in one run."""
    rng = random.Random(0)
    texts = [[" ".join(rng.choice("0123456789") for _ in range(rng.randint(6, 9))) for _ in range(edits + 1)]
             for _ in range(rounds)]  # fmt: skip
    words = ("to", "be", "or", "not", "that", "is", "the", "question", "whether", "nobler", "mind", "suffer")
    prompts = [[" ".join(rng.choice(words) for _ in range(rng.randint(3, 6))) for _ in range(edits + 1)]
               for _ in range(rounds)]  # fmt: skip
    results: dict[tuple[str, str], Timed] = {}
    scrolls: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="attention-lab-floor-") as tmp, ExitStack() as servers:
        gpt, env = gpt_model(Path(tmp)) if "next-token" in cases else ("", {})
        urls = {name: servers.enter_context(streamlit_server(env=env, root=root)) for name, root in roots.items()}
        floor_url = servers.enter_context(floor_server(Path(tmp)))
        lab_floor_url = servers.enter_context(floor_server(Path(tmp), LAB_RUNNER))
        floor: list[float] = []
        lab_floor: list[float] = []
        for r in range(rounds):  # round by round, so every checkout and the floor see the same machine load
            for name, url in rotated(list(urls.items()), r):
                if "reverse" in cases:
                    timed = reverse_rounds(browser, url, texts[r : r + 1], scrolls.setdefault(name, []))
                    results.setdefault((name, "reverse"), Timed()).server.extend(timed.server)
                    results[name, "reverse"].paint.extend(timed.paint)
                if "step" in cases:
                    for what, timed in step_actions(browser, url, 1).items():
                        results.setdefault((name, what), Timed()).server.extend(timed.server)
                        results[name, what].paint.extend(timed.paint)
                if "next-token" in cases:
                    for what, timed in next_token_actions(browser, url, gpt, prompts[r], edits).items():
                        results.setdefault((name, f"next-token {what}"), Timed()).server.extend(timed.server)
                        results[name, f"next-token {what}"].paint.extend(timed.paint)
            page = new_page(browser)
            floor += measure_edits(page, floor_url, [f"edit {r} {i}" for i in range(edits + 1)], MARKDOWN_SHOWS, str)
            page.context.close()
            page = new_page(browser)
            lab_floor += measure_edits(page, lab_floor_url, [f"edit {r} {i}" for i in range(edits + 1)], MARKDOWN_SHOWS,
                                       str)  # fmt: skip
            page.context.close()
    floor_p50 = statistics.median(floor)
    print(f"one person (issue 15), {rounds} rounds × {edits} edits; load average {os.getloadavg()}")
    report("floor: text_input + st.write", floor, "(for scale)")
    report("floor, postScriptGC off as the lab", lab_floor, "(for scale: the same app in the lab's runner settings)")
    for (name, what), timed in results.items():
        label = {"reverse": "/attention?model=reverse, typed"}.get(what, f"/step-by-step {what}")
        label = f"/{what} ({gpt})" if what.startswith("next-token") else label
        report_ratio(f"[{name}] {label}", timed, floor_p50)
    scale = floor_p50 / statistics.median(lab_floor)
    print(f"(÷ the floor in the lab's runner settings instead: each ratio above × {scale:.2f})")
    for name, values in scrolls.items():
        report(f"[{name}] scroll to the charts below an edit", values, "(for the record: charts drawn as they come)")


@dataclass(frozen=True)
class ColdStart:
    """One fresh server's start (s): process start to the first paint of a shared /attention link, and, on that
    server, the first visitor's /attention paint and then a second visitor's (each from its page load to the page
    painted and quiet, in a browser context of its own)."""

    attention: float
    first: float
    second: float


def visit_s(page, url: str) -> float:
    """Seconds from going to `url` to the page's last DOM change before it settled."""
    opened = time.time()
    open_page(page, url)
    return page.evaluate("performance.timeOrigin + window.__lab.lastMutation") / 1000 - opened


def cold_start(browser, env: dict, root: Path = APP_ROOT, app_command: bool = False) -> ColdStart:
    """A shared /attention link opened on a fresh server (a class opening the teacher's link), then by a second
    visitor. `app_command`: the server started as the README's app command starts it (attention-lab)."""
    first, second = new_page(browser), new_page(browser)
    start = time.time()
    with streamlit_server(env=env, root=root, app_command=app_command) as url:
        healthy = time.time()
        first_s = visit_s(first, f"{url}/attention")
        attention = healthy + first_s - start
        second_s = visit_s(second, f"{url}/attention")
    for page in (first, second):
        page.context.close()
    return ColdStart(attention, first_s, second_s)


LONG_NAME, LONG_TOKENS = "bench-128", 128
# words MiniLM reads as one piece each, so n − 2 of them make n tokens with [CLS] and [SEP]
PLAIN_WORDS = ("the", "cat", "dog", "sat", "on", "a", "mat", "in", "park", "after", "school", "with", "her", "old",
               "friend", "and", "they", "ran", "to", "see", "big", "red", "house", "near", "river", "now")  # fmt: skip


def write_long_model(folder: Path) -> Path:
    """An untrained 2+2-layer, 4-head copy-task model that takes 128 source tokens (max_len 129, new in issue 17)."""
    return write_untrained(folder, LONG_NAME, LONG_TOKENS, 2, 4)


def minilm_pieces(text: str) -> list[str]:
    from model import load_pretrained

    return load_pretrained("minilm").tokenize(text).tokens


def minilm_case(browser, url: str, edits: int) -> dict[str, list[float]]:
    """Edit-to-paint on /attention, edit by edit in turn across the cases (the same machine load for all): MiniLM
    and translate at 16 and 64 tokens, and the long toy model at 16 and 128 source tokens."""
    rng = random.Random(17)
    translate_words = [w for w in get_task("translate").src_vocab.itos if not w.startswith("<")]
    digits = "0123456789"

    def plain(n: int) -> str:
        return " ".join(rng.choice(PLAIN_WORDS) for _ in range(n - 2))  # + [CLS] and [SEP] = n tokens

    cases = {  # name → (url, inputs, expected head-view keys)
        "minilm, 16 tokens": (f"{url}/attention?model=minilm", [plain(16) for _ in range(edits + 1)], minilm_pieces),
        "minilm, 64 tokens": (f"{url}/attention?model=minilm", [plain(64) for _ in range(edits + 1)], minilm_pieces),
        "translate, 16 tokens": (f"{url}/attention?model=translate",
                                 [" ".join(rng.choices(translate_words, k=15)) for _ in range(edits + 1)],
                                 source_tokens),
        "translate, 64 tokens": (f"{url}/attention?model=translate",
                                 [" ".join(rng.choices(translate_words, k=63)) for _ in range(edits + 1)],
                                 source_tokens),
    }  # fmt: skip
    model = quote_plus(LONG_NAME)  # a folder the server offers: in the picker under its name
    for n in (16, LONG_TOKENS):
        target = quote_plus(" ".join(rng.choice(digits) for _ in range(n - 1)))
        inputs = [" ".join(rng.choice(digits) for _ in range(n - 1)) for _ in range(edits + 1)]
        cases[f"toy max_len 129, {n} tokens"] = (f"{url}/attention?model={model}&target={target}", inputs,
                                                 source_tokens)  # fmt: skip
    pages = {name: new_page(browser) for name in cases}
    for name, page in pages.items():
        open_page(page, cases[name][0])
    times: dict[str, list[float]] = {name: [] for name in cases}
    for i in range(edits + 1):
        for name, page in pages.items():
            _, inputs, expect = cases[name]
            times[name].append(edit_latency_ms(page, inputs[i], TOKENS_SHOW, expect(inputs[i])))
    for page in pages.values():
        page.context.close()
    return {name: values[1:] for name, values in times.items()}  # the first edit of each warms up


def minilm_main(browser, edits: int) -> None:
    """The minilm case's figures, with the load average before and after."""
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory(prefix="attention-lab-bench-") as tmp:
        env = {"ATTENTION_LAB_EXTRA_MODELS": str(write_long_model(Path(tmp)))}
        with streamlit_server(env=env) as url:
            times = minilm_case(browser, url, edits)
    print(f"edit-to-paint on /attention, {edits} edits each, interleaved (shared 2-core machine: figures are noisy)")
    for name, values in times.items():
        report(name, values, "")
    p50 = {name: statistics.median(values) for name, values in times.items()}
    print(f"minilm 64 / translate 64 p50 ratio {p50['minilm, 64 tokens'] / p50['translate, 64 tokens']:.2f} "
          "(goal <= 1.5)")  # fmt: skip
    print(f"minilm 16 / translate 16 p50 ratio {p50['minilm, 16 tokens'] / p50['translate, 16 tokens']:.2f}")
    long, short = p50[f"toy max_len 129, {LONG_TOKENS} tokens"], p50["toy max_len 129, 16 tokens"]
    print(f"toy 128 / toy 16 tokens p50 ratio {long / short:.2f} (goal <= 2)")
    print(f"load average after: {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument(
        "--cases",
        default="edits,reverse,step,cold",
        help="comma-separated: edits (default, large, next, floor), reverse, step, next-token, cold, minilm",
    )
    parser.add_argument("--rounds", type=int, default=3, help="fresh pages per checkout in reverse and step")
    parser.add_argument(
        "--compare",
        type=Path,
        action="append",
        default=[],
        help="another checkout to measure in the same run (reverse, step, cold)",
    )
    args = parser.parse_args()
    cases = set(args.cases.split(","))
    roots = {"this": APP_ROOT} | {str(root): root.resolve() for root in args.compare}
    with chromium() as browser:
        if "edits" in cases:
            edits(browser, args.edits)
        if cases & {"reverse", "step", "next-token"}:
            one_person(browser, roots, cases, min(args.edits, 8) if args.edits == 20 else args.edits, args.rounds)
        if "minilm" in cases:
            minilm_main(browser, args.edits)
        if "cold" in cases:
            cold_starts(browser, roots, args.rounds)


def cold_starts(browser, roots: dict[str, Path], rounds: int) -> None:
    """Cold starts of each checkout's server, started as the README's app command starts it (attention-lab), round by
    round in turn, then the median of each."""
    times: dict[str, list[ColdStart]] = {}
    for r in range(rounds):
        for name, root in rotated(list(roots.items()), r):
            cold = cold_start(browser, {}, root, app_command=True)
            times.setdefault(name, []).append(cold)
            print(
                f"[{name}] cold start: process start -> shared /attention link painted {cold.attention:5.2f} s; "
                f"first visitor {cold.first:5.2f} s, second visitor {cold.second:5.2f} s, "
                f"first / second {cold.first / cold.second:4.2f} (goal <= 1.5); load {os.getloadavg()}"
            )
    for name, values in times.items():
        first = statistics.median(c.first for c in values)
        second = statistics.median(c.second for c in values)
        print(
            f"[{name}] cold start median of {rounds}: {statistics.median(c.attention for c in values):5.2f} s; "
            f"first visitor {first:5.2f} s, second {second:5.2f} s, first / second {first / second:4.2f} (goal <= 1.5)"
        )


def edits(browser, n_edits: int) -> None:
    """The default, large, next and floor cases (each in both languages where it says)."""
    rng = random.Random(0)
    translate = get_task("translate")
    sentences = [s for s, _ in translate.sample(400, seed=1) if 7 <= len(s.split()) <= 9][: n_edits + 1]
    digits = [" ".join(rng.choice("0123456789") for _ in range(LARGE_TOKENS)) for _ in range(n_edits + 1)]
    target = quote_plus(" ".join(rng.choice("0123456789") for _ in range(LARGE_TOKENS)))

    with tempfile.TemporaryDirectory(prefix="attention-lab-bench-") as tmp:
        env = {"ATTENTION_LAB_EXTRA_MODELS": str(write_large_model(Path(tmp)))}
        with streamlit_server(env=env) as url:
            default = measure_edits_by_language(browser, f"{url}/attention", sentences, TOKENS_SHOW, source_tokens)
            page = new_page(browser)
            model = quote_plus(LARGE_NAME)  # a folder the server offers: in the picker under its name
            large_url = f"{url}/attention?model={model}&target={target}"
            large = measure_edits(page, large_url, digits, TOKENS_SHOW, source_tokens)
            page.context.close()
            steps = {}
            for source in ("example", "model"):
                for lang in LANGS:
                    page = new_page(browser)
                    steps[source, lang] = next_clicks_ms(page, f"{url}/step-by-step?source={source}", 3, lang)
                    page.context.close()
        with floor_server(Path(tmp)) as url:
            page = new_page(browser)
            floor = measure_edits(page, url, [f"edit {i}" for i in range(n_edits + 1)], MARKDOWN_SHOWS, str)
            page.context.close()

    print(f"edit-to-paint on /attention, {n_edits} edits each (shared 2-core machine: figures are noisy); "
          f"load average {os.getloadavg()}")  # fmt: skip
    for lang in LANGS:
        report(f"default model + input, lang={lang}", default[lang], "p50 <= 300, p90 <= 450")
    ratio = statistics.median(default["zh"]) / statistics.median(default["en"])
    print(f"zh / en p50 ratio {ratio:.2f} (translation's cost; noise alone moves it by several per cent)")
    report(f"{LARGE_TOKENS} tokens, 4+4 layers x 8 heads", large, "p50 <= 900")
    report("floor: text_input + st.write", floor, "(for scale)")
    for (source, lang), values in steps.items():
        report(f"step-by-step Next, {source}, lang={lang}", values, "(no goal)")
    print(f"default (en) / floor p50 ratio {statistics.median(default['en']) / statistics.median(floor):.2f}")


if __name__ == "__main__":
    main()
