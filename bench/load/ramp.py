"""A step ramp for Locust: `--step-users` more users every `--step-seconds`, up to `--max-users`; it stops after
the first step whose p90 of the explorers' reruns passed `--stop-p90` seconds (0: never).

    locust -f bench/load/locustfile.py,bench/load/ramp.py --headless --host URL --step-users 10 ... Explorer

Each step start is written to the samples ({"name": "step", "users": n, "t": ...}); bench/load/run.py cuts the
samples there and leaves out each step's first `--settle` seconds (users still starting, pages opening).
"""

from __future__ import annotations

import time
from argparse import Namespace

from locust import LoadTestShape, events

from devtools.load.samples import SAMPLES, window

EXPLORING = {"edit input", "layer/head"}


@events.init_command_line_parser.add_listener
def _options(parser) -> None:
    parser.add_argument("--step-users", type=int, default=10, help="users added per step")
    parser.add_argument("--step-seconds", type=float, default=60.0, help="length of a step")
    parser.add_argument("--max-users", type=int, default=100, help="the last step's users")
    parser.add_argument("--settle", type=float, default=20.0, help="seconds at each step's start left out")
    parser.add_argument("--stop-p90", type=float, default=0.0, help="stop after a step whose p90 passed this (s)")


class StepRamp(LoadTestShape):
    """Step k (k = 1, 2, …) runs k × step-users users for step-seconds (started at Locust's -r per second)."""

    step = 0
    step_started = 0.0

    def tick(self) -> tuple[int, float] | None:
        options = self._options()
        step = int(self.get_run_time() // options.step_seconds) + 1
        if step != self.step:
            if self.step and options.stop_p90 and self._p90(options) > options.stop_p90 * 1000:
                return None
            self.step, self.step_started = step, time.time()
            SAMPLES.append({"t": self.step_started, "users": step * options.step_users, "name": "step"})
        users = step * options.step_users
        return (users, options.spawn_rate) if users <= options.max_users else None

    def _options(self) -> Namespace:
        """The command line's options: Locust gives the shape its runner, and the runner its options, before a tick."""
        if self.runner is None or self.runner.environment.parsed_options is None:
            raise RuntimeError("the step ramp ticked before Locust gave it a runner with parsed options")
        return self.runner.environment.parsed_options

    def _p90(self, options: Namespace) -> float:
        return window(SAMPLES, EXPLORING, self.step_started + options.settle, time.time()).p90_ms
