"""Read the repository's Dockerfile and .dockerignore the way Docker does, for the checks in the deploy tests."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout

DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"


@dataclass(frozen=True)
class Instruction:
    keyword: str  # upper case: FROM, RUN, USER, ...
    arguments: str  # the rest, continuation lines joined

    def exec_form(self) -> list[str] | None:
        """The JSON array of an exec-form CMD/ENTRYPOINT/HEALTHCHECK CMD, else None."""
        text = self.arguments
        if self.keyword == "HEALTHCHECK":
            _, _, text = f" {text}".partition(" CMD ")
        text = text.strip()
        return json.loads(text) if text.startswith("[") else None


def instructions(path: Path = DOCKERFILE) -> list[Instruction]:
    """The instructions in order; comments dropped, lines ending in a backslash joined to the next."""
    result, pending = [], ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        keyword, _, arguments = (pending + line).partition(" ")
        result.append(Instruction(keyword.upper(), " ".join(arguments.split())))
        pending = ""
    assert not pending, f"{path.name} ends inside a continued line"
    return result


def pip_installs(run: Instruction) -> list[list[str]]:
    """The argument lists of every `pip install` in a RUN (commands split on && and ;)."""
    commands = re.split(r"&&|;", run.arguments)
    found = []
    for command in commands:
        words = shlex.split(command)
        for i in range(len(words) - 1):
            if words[i] == "pip" and words[i + 1] == "install":
                found.append(words[i + 2 :])
    return found


def requirement_pin(name: str, requirements: Path = ROOT / "requirements.txt") -> str:
    """The exact `name==version` line of requirements.txt."""
    pins = [line.split("#")[0].strip() for line in requirements.read_text().splitlines()]
    matching = [pin for pin in pins if re.fullmatch(rf"{re.escape(name)}==[\w.+-]+", pin)]
    assert len(matching) == 1, f"requirements.txt pins {name} {len(matching)} times"
    return matching[0]


def ignore_patterns(path: Path = DOCKERIGNORE) -> list[re.Pattern]:
    """The .dockerignore patterns as regexes over slash-separated paths (Go's filepath.Match plus `**`)."""
    patterns = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        assert not line.startswith("!"), "exceptions (!) are not read here"
        regex = ""
        for part in re.split(r"(\*\*/?|\*|\?)", line.strip("/")):
            regex += {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}.get(part, re.escape(part))
        patterns.append(re.compile(regex))
    return patterns


def ignored(relative: str, patterns: list[re.Pattern]) -> bool:
    """Whether Docker leaves the file out of the build context: a pattern matches it or one of its folders."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(p.fullmatch(prefix) for p in patterns for prefix in prefixes)
