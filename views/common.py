"""What every page's view holds: the model, the input, the language and the presenter view."""

from __future__ import annotations

from dataclasses import dataclass

from .controls import Choice, Flag, Text, control

DEFAULT_MODEL = "translate"
LANGUAGES = ("en", "zh")
MAX_INPUT_CHARS = 2000  # the input box's limit; a lesson holds shorter inputs (services.lessons)
MAX_MODEL_NAME = 128


@dataclass(frozen=True)
class Common:
    """The shared part of every view. `input` None: the model's own example. A class room carries no language
    (each student reads in their own), a lesson neither (it holds both) nor the presenter view (the lesson page
    has its own)."""

    model: str = control(Text(MAX_MODEL_NAME), DEFAULT_MODEL)
    input: str | None = control(Text(MAX_INPUT_CHARS, none_ok=True), None, key="text", url="text")
    lang: str = control(Choice(LANGUAGES), "en", room=False, lesson=False)
    present: bool = control(Flag(), False, lesson=False)
