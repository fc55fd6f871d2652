"""A class in headless Chromium: follow latency with 1, 5 and 10 students, and the teacher's own edit-to-paint.

    python bench/classroom.py [--students 0 1 5 10] [--changes 14]

One app server (rooms in process). A teacher page starts a class and opens /step-by-step (the worked
example); N student pages, each in its own browser context, join with the link and follow. The teacher
then steps with PageDown 1 → 8 and PageUp back (--changes steps in all). For every change:
  follow   from the teacher's keypress to each student's page showing the new step's heading, painted
           (the first animation frame after the DOM change: a requestAnimationFrame callback in the page)
  teacher  from the keypress to the teacher's own page showing it, painted (edit-to-paint); with N = 0
           nobody follows, which is the baseline the goal compares with
Every page reads the same clock (Date.now()), so the figures need no clock sync. Prints p50 / p90 in ms
per N, and the teacher's p50/p90 with 10 students ÷ with none. Goals (issue 9): follow p90 ≤ 2 s at 10
students; teacher edit-to-paint with 10 following ≤ 1.5 × none. Figures vary by ±20 % or more on a shared
machine: compare within one run, and say what else was running.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from devtools.classroom import STEP_HEADING, close_dialog, go_to, join, start_class, wait_for_step
from devtools.harness import chromium, new_page, streamlit_server

# Stamps, in window.__painted[step], the time the page first shows "Step {step} of 8" and has painted it.
WATCH_JS = """
(selector) => {
  window.__painted = {};
  const look = () => {
    for (const h of document.querySelectorAll(selector)) {
      const m = /Step (\\d+) of 8/.exec(h.innerText || '');
      if (m && !(m[1] in window.__painted)) {
        const step = m[1];
        window.__painted[step] = -1;
        requestAnimationFrame(() => { window.__painted[step] = Date.now(); });
      }
    }
  };
  new MutationObserver(look).observe(document.documentElement, {subtree: true, childList: true, characterData: true});
  look();
}
"""
RESET_JS = "(step) => { delete window.__painted[String(step)]; }"
PAINTED_JS = "(step) => window.__painted[String(step)] ?? null"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def run_class(browser, app_url: str, n_students: int, changes: int) -> tuple[list[float], list[float]]:
    """One class of n_students; returns (follow latencies, teacher edit-to-paint), in ms."""
    teacher = new_page(browser, (1280, 720))
    students = [new_page(browser, (1280, 720)) for _ in range(n_students)]
    try:
        code, _ = start_class(teacher, app_url)
        close_dialog(teacher)
        for student in students:
            join(student, app_url, code)
        go_to(teacher, "Step by step", "Attention, step by step")
        for page in (teacher, *students):
            wait_for_step(page, 1, 60)
            page.evaluate(WATCH_JS, STEP_HEADING)
        time.sleep(2)  # let every page go quiet
        follow, own = [], []
        step = 1
        for i in range(changes):
            forward = (i // 7) % 2 == 0
            step += 1 if forward else -1
            for page in (teacher, *students):
                page.evaluate(RESET_JS, step)
            pressed = teacher.evaluate("Date.now()")
            teacher.keyboard.press("PageDown" if forward else "PageUp")
            deadline = time.monotonic() + 60
            stamps: dict[int, float] = {}
            while len(stamps) < 1 + n_students and time.monotonic() < deadline:
                for index, page in enumerate((teacher, *students)):
                    if index not in stamps:
                        painted = page.evaluate(PAINTED_JS, step)
                        if painted is not None and painted > 0:
                            stamps[index] = painted
                time.sleep(0.02)
            if len(stamps) < 1 + n_students:
                print(f"  step {step}: {1 + n_students - len(stamps)} page(s) never showed it within 60 s")
            own.append(stamps.get(0, float("nan")) - pressed)
            follow += [stamps[i] - pressed for i in range(1, 1 + n_students) if i in stamps]
            time.sleep(0.8)  # a teacher talks between clicks
        return follow, own
    finally:
        for page in (teacher, *students):
            page.context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, nargs="+", default=[0, 1, 5, 10])
    parser.add_argument("--changes", type=int, default=14)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    teacher_p = {}
    with streamlit_server() as app_url, chromium() as browser:
        warm = new_page(browser)  # the first visit imports torch and plotly: keep it out of the figures
        warm.goto(f"{app_url}/step-by-step")
        wait_for_step(warm, 1, 120)
        warm.context.close()
        for n in args.students:
            follow, own = run_class(browser, app_url, n, args.changes)
            own_ok = [t for t in own if t == t]
            teacher_p[n] = (statistics.median(own_ok), percentile(own_ok, 0.9))
            p50, p90 = teacher_p[n]
            line = f"students {n:>2}: teacher edit-to-paint p50 {p50:6.0f} ms  p90 {p90:6.0f} ms"
            if follow:
                line += f"  |  follow p50 {statistics.median(follow):6.0f} ms  p90 {percentile(follow, 0.9):6.0f} ms"
                line += f"  ({len(follow)} paints)"
            print(line, flush=True)
    if 0 in teacher_p and 10 in teacher_p:
        p50 = teacher_p[10][0] / teacher_p[0][0]
        p90 = teacher_p[10][1] / teacher_p[0][1]
        print(f"teacher edit-to-paint, 10 following ÷ none: p50 {p50:.2f}×  p90 {p90:.2f}×  (goal ≤ 1.5×)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
