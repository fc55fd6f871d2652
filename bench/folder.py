"""Opening a GPT-2 folder, and edit-to-paint with it, against gpt-en in the same run (issue 44 §5).

    python bench/folder.py [--edits 8] [--rounds 2] [--tokens 64] [--profile DIR]

The folder is a random GPT-2 of GPT-2 small's shape (124 M parameters, a BPE of 50,257 tokens), made by transformers
from its config and saved with save_pretrained (devtools/hf_folders.py; nothing is downloaded). One server is started
as the README says, `attention-lab --model-dir FOLDER`, and measured in headless Chromium:
  open      load_folder in this process (s); then on the server, the first /attention?model=FOLDER paint and a second
            visitor's, beside the same for gpt-en (s, from the page load to painted and quiet)
  edits     a typed input of --tokens tokens on /attention and a typed prompt on /next-token, for the folder's GPT-2
            and for gpt-en (--tokens characters: its tokens), edit by edit in turn across the four pages (the same
            machine load for all); Enter → the run finished and the page painted and quiet (bench/ui_latency.py's
            DONE_JS), split at the run's ScriptFinished ("server") — goal: the GPT-2 ≤ 2× gpt-en on the same page
With --profile DIR, py-spy samples the server during the edits (DIR/server.txt, collapsed stacks) and the busiest
frames are printed. Figures vary by ±20 % or more on a shared machine: the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote

from ui_latency import DONE_JS, FINISHED, QUIET_MS, SPLIT_JS, START_JS, Timed, percentile, visit_s  # beside this script

from devtools.harness import chromium, new_page, open_page, streamlit_process
from devtools.hf_folders import GPT2_SMALL, write_gpt2_folder
from model import load_folder, load_pretrained

FOLDER_NAME = "gpt2-small-random"
WORDS = ("the", "king", "and", "queen", "of", "a", "sea", "night", "to", "be", "or", "not", "that", "is", "question",
         "whether", "nobler", "mind", "suffer", "slings", "arrows", "fortune", "take", "arms", "against")  # fmt: skip
PAGES = ("attention", "next-token")
BOX = {"attention": "Prompt", "next-token": "Prompt"}  # the input box's label on each page (a GPT's)


def gpt2_text(lm, tokens: int, rng: random.Random) -> str:
    """Made-up English of exactly `tokens` tokens for the folder's BPE (words drawn until the text is long enough,
    then cut at a token and checked to read back as as many)."""
    while True:
        ids = lm.vocab.encode(" ".join(rng.choice(WORDS) for _ in range(tokens * 2)))[0][:tokens]
        text = lm.vocab.decode(ids).strip()
        if len(lm.tokenize(text).ids) == tokens:
            return text


def char_text(tokens: int, rng: random.Random) -> str:
    """English of exactly `tokens` characters (gpt-en reads one token per character)."""
    text = ""
    while len(text) < tokens:
        text += rng.choice(WORDS) + " "
    return text[:tokens].strip().ljust(tokens, "e")


def typed(page, label: str, text: str, timed: Timed) -> None:
    """Type `text`, press Enter, wait for a run after it to finish and the page to be painted and quiet."""
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    before = page.evaluate(START_JS)
    box.press("Enter")
    page.wait_for_function(DONE_JS, arg=[FINISHED, before, QUIET_MS], timeout=180_000, polling=25)
    timed.add(page.evaluate(SPLIT_JS))


def report(name: str, timed: Timed) -> float:
    p50 = statistics.median(timed.paint)
    print(f"  {name:<34} p50 {p50:6.0f} ms  p90 {percentile(timed.paint, 0.9):6.0f} ms  "
          f"(server p50 {statistics.median(timed.server):5.0f})  n={len(timed.paint)}")  # fmt: skip
    return p50


def busiest(collapsed: Path, top: int = 18) -> None:
    """The frames py-spy saw most often in the server's stacks (inclusive: a frame counted once per sample)."""
    counts: Counter[str] = Counter()
    total = 0
    for line in collapsed.read_text(errors="replace").splitlines():
        stack, _, n = line.rpartition(" ")
        if not n.isdigit():
            continue
        total += int(n)
        for frame in set(stack.split(";")):
            counts[frame] += int(n)
    print(f"py-spy: {total} samples of the server's threads; the busiest frames (share of all samples):")
    for frame, samples in counts.most_common(top):
        print(f"  {100 * samples / max(total, 1):5.1f} %  {frame[:150]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2, help="fresh pages per case; each page's first edit warms up")
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--profile", type=Path, help="py-spy the server during the edits into this folder")
    args = parser.parse_args()
    print(f"load average at the start {os.getloadavg()} (a shared 2-core machine: figures are noisy)")
    with tempfile.TemporaryDirectory(prefix="attention-lab-folder-bench-") as tmp:
        started = time.perf_counter()
        folder = write_gpt2_folder(Path(tmp) / FOLDER_NAME, GPT2_SMALL)
        print(f"made {FOLDER_NAME} with transformers: {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        lm = load_folder(folder)
        params = sum(p.numel() for p in lm.model.parameters())
        print(f"open: load_folder {time.perf_counter() - started:.2f} s in this process ({params / 1e6:.1f} M "
              "parameters)")  # fmt: skip
        rng = random.Random(0)
        n = (args.edits + 1) * args.rounds
        texts = {FOLDER_NAME: [gpt2_text(lm, args.tokens, rng) for _ in range(n)],
                 "gpt-en": [char_text(args.tokens, rng) for _ in range(n)]}  # fmt: skip
        assert len(load_pretrained("gpt-en").tokenize(texts["gpt-en"][0]).ids) == args.tokens
        del lm
        with chromium() as browser:
            started = time.time()
            with streamlit_process(180, options=("--model-dir", str(folder)), app_command=True) as (url, proc):
                print(f"server (attention-lab --model-dir) healthy after {time.time() - started:.1f} s; "
                      f"load {os.getloadavg()}")  # fmt: skip
                for model in (FOLDER_NAME, "gpt-en"):
                    first, second = new_page(browser), new_page(browser)
                    one = visit_s(first, f"{url}/attention?model={quote(model)}")
                    two = visit_s(second, f"{url}/attention?model={quote(model)}")
                    print(f"open: first /attention?model={model} painted in {one:5.2f} s, a second visitor {two:5.2f}"
                          " s")  # fmt: skip
                    first.context.close()
                    second.context.close()
                spy = None
                if args.profile:
                    args.profile.mkdir(parents=True, exist_ok=True)
                    spy = subprocess.Popen(["py-spy", "record", "-p", str(proc.pid), "-r", "50", "-f", "raw", "-o",
                                            str(args.profile / "server.txt"), "--nonblocking"],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
                results = edits(browser, url, texts, args.edits, args.rounds)
                if spy is not None:
                    spy.send_signal(2)  # SIGINT: py-spy writes its file and ends
                    spy.wait(60)
    print(f"edit-to-paint, {args.tokens} tokens, {args.rounds} rounds × {args.edits} edits; load {os.getloadavg()}")
    p50 = {key: report(f"/{key[1]} {key[0]}", timed) for key, timed in results.items()}
    for page in PAGES:
        ratio = p50[FOLDER_NAME, page] / p50["gpt-en", page]
        print(f"  /{page}: {FOLDER_NAME} ÷ gpt-en p50 {ratio:4.2f} (goal ≤ 2)")
    if args.profile and (args.profile / "server.txt").exists():
        busiest(args.profile / "server.txt")


def edits(browser, url: str, texts: dict[str, list[str]], n_edits: int, rounds: int) -> dict[tuple[str, str], Timed]:
    """Each round: a fresh page per (model, page), then the edits in turn across them (each page's first uncounted)."""
    out: dict[tuple[str, str], Timed] = {(m, p): Timed() for m in texts for p in PAGES}
    for r in range(rounds):
        pages = {}
        for model, page in out:
            pages[model, page] = new_page(browser)
            open_page(pages[model, page], f"{url}/{page}?model={quote(model)}", timeout_ms=180_000)
        for i in range(n_edits + 1):
            for (model, page), tab in pages.items():
                timed = out[model, page] if i else Timed()
                typed(tab, BOX[page], texts[model][r * (n_edits + 1) + i], timed)
        for tab in pages.values():
            tab.context.close()
    return out


if __name__ == "__main__":
    main()
