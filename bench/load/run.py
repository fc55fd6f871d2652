"""Capacity of one app server, measured by Locust users that speak Streamlit's protocol (docs/capacity.md).

    python bench/load/run.py capacity  [--step-users 10 --step-seconds 60 --max-users 300 --think 5,15]
    python bench/load/run.py training  [--explorers 10 --jobs 0,2,4 --repeats 2 --seconds 120]
    python bench/load/run.py follow    [--students 10,30,100 --repeats 2 --seconds 150 --step-every 10
                                        --page step-by-step|attention|lesson|next-token --keep DIR]
    python bench/load/run.py cost      [--edits 30 --rounds 3 --compare runner.postScriptGC=false]

capacity  explorers on /attention, ramped in steps on a fresh server until a step's p90 rerun latency passes
          1 s; per step: users, reruns, p50/p90, the server process's CPU (cores) and RSS
training  `--explorers` explorers, and K trainers on /train for K in --jobs (interleaved, --repeats rounds,
          each on the same fresh server); the explorers' p50/p90 per K and the ratio to K = 0
follow    a teacher on --page starts a class and every --step-every s clicks Next (step-by-step) or types a new
          input (attention) or writes the most likely token (next-token: gpt-en, or, where it is not shipped, an
          untrained GPT of its default size offered as a bench model); N students follow (for N in --students,
          interleaved, --repeats rounds on one fresh server); follow latency p50/p90 (teacher's change sent → the
          student's rerun finished showing it), counted from the time the last student had joined (a round whose
          teacher stopped before that: the whole round, its follows marked *; devtools/load/follow_round.py); and
          how often the server ran the model (devtools/count_runs.py: LoadedModel.run/predict and LoadedGPT.trace
          calls) per input the class saw; --keep DIR keeps each round's raw samples
cost      the server CPU seconds one rerun costs (one session, edits 1 s apart, so nothing queues), on a server
          with Streamlit's defaults and one with the --compare options, edits interleaved between the two
Each scenario starts its own `streamlit run app.py` (as the tests do; `--set runner.postScriptGC=false` adds
`streamlit run` options), warms it with one session, then runs
`python -m locust` headless against it; the exact Locust command is printed. Nothing else heavy should run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import torch

from devtools.harness import server_flags, streamlit_process
from devtools.load import samples as sampling
from devtools.load.classroom import GPT_ENV
from devtools.load.follow_round import HEADER, WHILE_JOINING, fmt, read_round, row_cells
from devtools.load.pages import change_focus, edit_input, open_attention
from devtools.load.protocol import StreamlitSession
from model import available_pretrained, save_checkpoint
from model.analysis.gpt_texts import gpt_texts
from model.gpt import GPT, GPT_TASKS, CharVocab, GPTConfig, LoadedGPT
from ui.extra_models import EXTRA_MODELS_ENV

ROOT = Path(__file__).resolve().parents[2]

EXPLORING = {"edit input", "layer/head"}
LOCUSTFILE = ROOT / "bench" / "load" / "locustfile.py"
RAMP = ROOT / "bench" / "load" / "ramp.py"


def warm(url: str) -> None:
    """A session on each measured page (and one edit), so the first measured sessions do not pay for imports and
    model loading."""
    session, _ = open_attention(url, timeout=300)
    edit_input(session, random.Random(0))
    session.close()
    for path in ("step-by-step", "train"):
        with StreamlitSession(url, path, "lang=en", timeout=300):
            pass


def run_locust(
    url: str, pids: list[int], args: list[str], files=(LOCUSTFILE,), spy: Path | None = None
) -> tuple[list[dict], float]:
    """`python -m locust` headless against url with these arguments; its samples and the cores it used. `pids`: the
    app server processes, whose CPU and RSS Locust samples. With `spy`, py-spy samples each server meanwhile (every
    thread, idle ones too) into that file (collapsed stacks; FILE.PID for each server past the first)."""
    with tempfile.NamedTemporaryFile(suffix=".jsonl", delete=False) as f:
        out = Path(f.name)
    cmd = [
        sys.executable, "-m", "locust", "-f", ",".join(str(p.relative_to(ROOT)) for p in files), "--headless",
        "--only-summary", "--loglevel", "WARNING", "--host", url, *[f"--server-pid={pid}" for pid in pids],
        "--samples", str(out), *args,
    ]  # fmt: skip
    print("$", shlex.join(cmd), flush=True)
    started = time.monotonic()
    proc = psutil.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
    spies = []
    if spy is not None:
        spies = [spy_on(pid, spy if i == 0 else spy.with_name(f"{spy.name}.{pid}")) for i, pid in enumerate(pids)]
    cpu, loads = 0.0, []
    while proc.poll() is None:
        with contextlib.suppress(psutil.Error):
            cpu = sum(proc.cpu_times()[:2])
        loads.append(os.getloadavg()[0])
        time.sleep(1.0)
    for spying in spies:
        spying.send_signal(signal.SIGINT)  # py-spy writes what it sampled and exits
        spying.wait(timeout=60)
    print(f"  machine load average during the run: {min(loads):.1f}–{max(loads):.1f}", flush=True)
    if proc.returncode not in (0, 1):  # 1: some requests failed (they are counted in the figures)
        raise RuntimeError(f"locust exited with {proc.returncode}")
    rows = sampling.read(out)
    rows.append({"name": "load", "t": math.inf, "min": min(loads), "max": max(loads)})
    out.unlink()
    return rows, cpu / (time.monotonic() - started)


def spy_on(pid: int, out: Path) -> subprocess.Popen:
    """py-spy record of the server: 50 samples a second of every thread (waiting ones too), without pausing it."""
    cmd = ["py-spy", "record", "--pid", str(pid), "--rate", "50", "--idle", "--threads", "--nonblocking",
           "--format", "raw", "--output", str(out)]  # fmt: skip
    print("$", shlex.join(cmd), flush=True)
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def server_options(options) -> tuple[str, ...]:
    return server_flags(options.set)


def row(cells) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


# ---- capacity: a step ramp of explorers ----
def capacity(options) -> None:
    with streamlit_process(timeout=300, options=server_options(options)) as (url, proc):
        warm(url)
        args = [
            "--step-users", str(options.step_users), "--step-seconds", str(options.step_seconds),
            "--max-users", str(options.max_users), "-r", str(options.spawn_rate),
            "--settle", str(options.settle), "--stop-p90", str(options.limit), "--think", options.think, "Explorer",
        ]  # fmt: skip
        samples, load_cores = run_locust(url, [proc.pid], args, files=(LOCUSTFILE, RAMP))
    steps = [s for s in samples if s["name"] == "step"]
    ends = [s["t"] for s in steps[1:]] + [max(s["t"] for s in samples)]
    print(f"\nExplorers on /attention (think {options.think} s); load generator used {load_cores:.2f} cores")
    print(row(["users", "reruns", "failed", "p50 ms", "p90 ms", "server cores", "server RSS MB"]))
    print(row(["---"] * 7))
    best = None
    for step, end in zip(steps, ends, strict=True):
        w = sampling.window(samples, EXPLORING, step["t"] + options.settle, end, step["users"])
        print(row([w.users, w.count, w.failures, fmt(w.p50_ms), fmt(w.p90_ms), fmt(w.server_cores, 2),
                   fmt(w.server_rss_mb)]))  # fmt: skip
        if w.p90_ms <= options.limit * 1000 and not w.failures:
            best = w
    if best is not None:
        print(f"\nLargest step with p90 ≤ {options.limit} s: {best.users} sessions on one server process, "
              f"which used {best.server_cores:.2f} cores → {best.users / max(best.server_cores, 1e-9):.0f} "
              f"sessions per core busy")  # fmt: skip


# ---- training: explorers while K students train ----
def training(options) -> None:
    jobs = [int(k) for k in options.jobs.split(",")]
    results: dict[int, list] = {k: [] for k in jobs}
    with streamlit_process(timeout=300, options=server_options(options)) as (url, proc):
        warm(url)
        for _ in range(options.repeats):
            for k in jobs:
                users = options.explorers + k
                classes = ["Explorer", "Trainer"] if k else ["Explorer"]
                args = [
                    "-u", str(users), "-r", str(options.spawn_rate), "-t", f"{options.seconds}s", "--think",
                    options.think, "--trainers", str(k), "--train-steps", str(options.train_steps), *classes,
                ]  # fmt: skip
                samples, _ = run_locust(url, [proc.pid], args)
                start = min(s["t"] for s in samples) + options.settle
                end = max(s["t"] for s in samples)
                w = sampling.window(samples, EXPLORING, start, end, options.explorers)
                runs = [s for s in samples if s["name"] == "train run" and s["ok"]]
                results[k].append((w, len(runs)))
                time.sleep(options.pause)  # trainers' sessions have closed; their jobs stop
    print(f"\n{options.explorers} explorers (think {options.think} s) while K students train")
    print(row(["K", "round", "reruns", "failed", "p50 ms", "p90 ms", "p90 ÷ K=0", "server cores",
               "worker cores", "training runs finished"]))  # fmt: skip
    print(row(["---"] * 10))
    for i in range(options.repeats):
        base = results[jobs[0]][i][0].p90_ms if jobs[0] == 0 else math.nan
        for k in jobs:
            w, finished = results[k][i]
            print(row([k, i + 1, w.count, w.failures, fmt(w.p50_ms), fmt(w.p90_ms), fmt(w.p90_ms / base, 2),
                       fmt(w.server_cores, 2), fmt(w.worker_cores, 2), finished]))  # fmt: skip


# ---- follow: a class of N students ----
def model_runs(path: Path, pids: list[int]) -> int:
    """The servers' model runs so far (each one's counter writes them once a second)."""
    time.sleep(1.5)
    return sum(sum(json.loads(Path(f"{path}.{pid}").read_text()).values()) for pid in pids)


def app_servers(proc: subprocess.Popen, servers: int) -> list[tuple[int, str]]:
    """(pid, base URL) of each app server: the process itself, or the ones the app command's launcher started."""
    if servers == 1:
        return [(proc.pid, "")]
    found = []
    for child in psutil.Process(proc.pid).children():
        line = child.cmdline()
        if "run" in line and "--server.port" in line:
            found.append((child.pid, f"http://127.0.0.1:{line[line.index('--server.port') + 1]}"))
    assert len(found) == servers, found
    return found


def follow(options) -> None:
    sizes = [int(n) for n in options.students.split(",")]
    results: dict[int, list] = {n: [] for n in sizes}
    counter = Path(tempfile.mkdtemp(prefix="model-runs-")) / "counts"
    env = {"ATTENTION_LAB_COUNT_RUNS": str(counter)}
    if options.profile:
        options.profile.mkdir(parents=True, exist_ok=True)
        env["ATTENTION_LAB_TIMELINE"] = str(options.profile.resolve() / "timeline")
    if options.page == "next-token":
        env |= class_gpt(counter.parent)
    server = streamlit_process(
        timeout=300,
        env=env,
        options=server_options(options) + (("--servers", str(options.servers)) if options.servers > 1 else ()),
        module="devtools.count_runs",  # `streamlit run` that counts its model runs into counter.PID
        app_command=options.servers > 1,  # `attention-lab --servers N`: N servers behind HAProxy, rooms in Redis
    )
    with server as (url, proc):
        servers = app_servers(proc, options.servers)
        pids = [pid for pid, _ in servers]
        for _pid, direct in servers:
            warm(direct or url)  # each server, straight: the balancer would send every warm-up to one
        for _ in range(options.repeats):
            for n in sizes:
                args = [
                    "-u", str(n + 1), "-r", str(options.spawn_rate), "-t", f"{options.seconds}s", "--step-every",
                    str(options.step_every), "--class-page", options.page, "--last-change",
                    str(options.seconds - options.quiet_end), "Teacher", *(["Student"] if n else []),
                ]  # fmt: skip
                spy = options.profile / f"py-spy-{options.page}-{n}.txt" if options.profile else None
                runs_before = model_runs(counter, pids)
                samples, load_cores = run_locust(url, pids, args, spy=spy)
                runs = model_runs(counter, pids) - runs_before
                if options.keep:  # the round's raw samples, as read_round reads them
                    options.keep.mkdir(parents=True, exist_ok=True)
                    kept = options.keep / f"follow-{options.page}-{n}-{len(results[n]) + 1}.jsonl"
                    kept.write_text("".join(json.dumps(s) + "\n" for s in samples))
                results[n].append(read_round(samples, n, options.settle, runs, load_cores))
                time.sleep(options.pause)
    shutil.rmtree(counter.parent, ignore_errors=True)
    actions = {
        "attention": "types a new input",
        "next-token": f"writes the most likely token ({os.environ.get(GPT_ENV)})",
    }
    action = actions.get(options.page, "clicks Next")
    served = f"{options.servers} app servers behind HAProxy" if options.servers > 1 else "one app server process"
    print(f"\nA class on /{options.page} following a teacher who {action} every {options.step_every:g} s ({served})")
    print(row(HEADER))
    print(row(["---"] * len(HEADER)))
    for n in sizes:
        for i, r in enumerate(results[n]):
            print(row(row_cells(n, i + 1, r)))
    if any(r.while_joining for rounds in results.values() for r in rounds):
        print(WHILE_JOINING)
    print(
        "runs per input: the server's model runs (LoadedModel.run/predict, LoadedGPT.trace calls) ÷ the inputs the "
        "class saw (the teacher's changes + the first); N + 1 would mean every session ran the model itself. Worst "
        "lag: how late the load generator's 0.1 s sleep woke at worst (its greenlets queued before it)"
    )


def class_gpt(folder: Path) -> dict[str, str]:
    """The GPT a class on /next-token uses: gpt-en when it is shipped here; otherwise an untrained GPT of GPTConfig's
    default size over the English atlas texts' characters, written into `folder` and offered to the server as a bench
    model (the environment it needs is returned; the Locust process reads the model's name from GPT_ENV)."""
    if "gpt-en" in available_pretrained():
        os.environ[GPT_ENV] = "gpt-en"
        return {}
    vocab = CharVocab.from_text("".join(gpt_texts("en")))
    torch.manual_seed(0)
    lm = LoadedGPT(GPT(GPTConfig(vocab_size=len(vocab))), vocab, "gpt-en-untrained", GPT_TASKS["shakespeare"])
    os.environ[GPT_ENV] = lm.name
    print(f"gpt-en is not shipped here: the class uses {lm.name}, {lm.config}", flush=True)
    return {EXTRA_MODELS_ENV: str(save_checkpoint(lm, folder / lm.name))}


# ---- cost: server CPU per rerun ----
def rerun_cost(session, server: psutil.Process, action) -> tuple[float, float]:
    """(server CPU seconds, latency seconds) of one rerun; the CPU is read after the server went quiet."""
    before = sum(server.cpu_times()[:2])
    run = action(session)
    time.sleep(1.0)  # the server finishes sending and the script thread ends
    return sum(server.cpu_times()[:2]) - before, run.latency


def cost(options) -> None:
    rng = random.Random(0)
    actions = {"edit input": lambda s: edit_input(s, rng), "layer/head": lambda s: change_focus(s, rng)}
    compare = options.compare or ["runner.postScriptGC=false"]
    setups = {"as set": server_flags(options.set), " ".join(compare): server_flags(options.set + compare)}
    figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with contextlib.ExitStack() as stack:
        servers = {name: stack.enter_context(streamlit_process(timeout=300, options=flags))
                   for name, flags in setups.items()}  # fmt: skip
        sessions = {}
        for name, (url, _proc) in servers.items():
            warm(url)
            sessions[name] = stack.enter_context(StreamlitSession(url, "attention", "model=reverse&lang=en"))
        for _ in range(options.rounds):
            for name, (_url, proc) in servers.items():
                server = psutil.Process(proc.pid)
                for i in range(options.edits):
                    label = "layer/head" if i % 4 == 3 else "edit input"
                    figures.setdefault((name, label), []).append(rerun_cost(sessions[name], server, actions[label]))
    print("\nServer CPU per rerun, one session on /attention?model=reverse (medians; p90 of the latency)")
    print(row(["server", "rerun", "count", "server CPU ms", "latency p50 ms", "latency p90 ms"]))
    print(row(["---"] * 6))
    for (name, label), values in figures.items():
        cpu, latency = [c for c, _ in values], [lat for _, lat in values]
        print(
            row(
                [
                    name,
                    label,
                    len(values),
                    fmt(sampling.percentile(cpu, 50) * 1000),
                    fmt(sampling.percentile(latency, 50) * 1000),
                    fmt(sampling.percentile(latency, 90) * 1000),
                ]
            )
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="scenario", required=True)
    cap = sub.add_parser("capacity")
    cap.add_argument("--step-users", type=int, default=10)
    cap.add_argument("--step-seconds", type=float, default=60.0)
    cap.add_argument("--max-users", type=int, default=300)
    cap.add_argument("--spawn-rate", type=float, default=2.0)
    cap.add_argument("--settle", type=float, default=20.0)
    cap.add_argument("--limit", type=float, default=1.0, help="p90 limit in seconds")
    cap.add_argument("--think", default="5,15")
    tr = sub.add_parser("training")
    tr.add_argument("--explorers", type=int, default=10)
    tr.add_argument("--jobs", default="0,2,4")
    tr.add_argument("--repeats", type=int, default=2)
    tr.add_argument("--seconds", type=int, default=120)
    tr.add_argument("--settle", type=float, default=20.0)
    tr.add_argument("--spawn-rate", type=float, default=2.0)
    tr.add_argument("--think", default="5,15")
    tr.add_argument("--train-steps", type=int, default=0)
    tr.add_argument("--pause", type=float, default=5.0)
    fo = sub.add_parser("follow")
    fo.add_argument("--students", default="10,30,100")
    fo.add_argument("--repeats", type=int, default=2)
    fo.add_argument("--seconds", type=int, default=150)
    fo.add_argument("--step-every", type=float, default=10.0)
    fo.add_argument("--spawn-rate", type=float, default=5.0)
    fo.add_argument("--settle", type=float, default=5.0)
    fo.add_argument("--pause", type=float, default=5.0)
    fo.add_argument("--page", default="step-by-step", choices=["step-by-step", "attention", "lesson", "next-token"])
    fo.add_argument("--quiet-end", type=float, default=15.0, help="the teacher's last s without a change")
    fo.add_argument("--profile", type=Path, default=None, help="py-spy and a run timeline of the server, into DIR")
    fo.add_argument("--keep", type=Path, default=None, help="each round's raw samples (JSON lines), into DIR")
    fo.add_argument("--servers", type=int, default=1,
                    help="N > 1: `attention-lab --servers N` (N servers behind HAProxy, rooms in Redis)")  # fmt: skip
    co = sub.add_parser("cost")
    co.add_argument("--edits", type=int, default=20, help="reruns per server per round (one in four a layer/head)")
    co.add_argument("--rounds", type=int, default=3)
    co.add_argument("--compare", action="append", default=[], metavar="KEY=VALUE")
    for scenario in (cap, tr, fo, co):
        scenario.add_argument(
            "--set",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="a `streamlit run` option for the server, e.g. runner.postScriptGC=false",
        )
    options = parser.parse_args(argv)
    print(f"server options: {' '.join(server_options(options)) or '(defaults)'}")
    {"capacity": capacity, "training": training, "follow": follow, "cost": cost}[options.scenario](options)


if __name__ == "__main__":
    main()
