"""Why a lesson file was refused: an English template (marked N_) plus its parameters, and the slide it concerns.

ui/ shows the slide's number (when there is one) and `explain(exc)`; `str(exc)` is the English sentence. Text that
came from the file is cut short and made printable before it is echoed (`shown`).
"""

from __future__ import annotations

from model.errors import LabError
from services.i18n_marker import N_
from views import ViewError

SHOWN_CHARS = 40


def shown(value: object) -> str:
    """A name or value from the file, safe to echo in a message: printable and at most SHOWN_CHARS characters."""
    text = "".join(ch for ch in str(value) if ch.isprintable())
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


class LessonError(LabError):
    """A lesson file that cannot be used; `slide` is the 1-based number of the slide at fault, or None."""

    EMPTY = N_("The lesson file is empty.")
    TOO_LARGE = N_("The lesson file is too large: {size} KB, at most {limit} KB.")
    NOT_TEXT = N_("The lesson file is not text (UTF-8 JSON). Is it a lesson's .json file?")
    NOT_JSON = N_("The lesson file is not valid JSON: the problem is at line {line}, column {column}.")
    TOO_DEEP = N_("The lesson file is nested deeper than a lesson ever is (more than {limit} levels).")
    NOT_FINITE = N_("The lesson file holds “{value}”: numbers in a lesson must be finite.")
    HUGE_NUMBER = N_("The lesson file holds a number with {digits} digits; numbers in a lesson are small.")
    DUPLICATE = N_("“{field}” appears twice in the same object.")
    NOT_LESSON = N_("A lesson is a JSON object with “format”, “title” and “slides”.")
    WRONG_FORMAT = N_("This is not an Attention Lab lesson: “format” must be “{expected}”, not “{found}”.")
    MISSING = N_("“{field}” is missing.")
    UNKNOWN_FIELD = N_("“{field}” is not part of a lesson; allowed here: {allowed}.")
    NOT_OBJECT = ViewError.NOT_MAPPING
    NOT_LIST = N_("“slides” must be a list of slides.")
    SLIDE_COUNT = N_("A lesson has 1 to {limit} slides; this one has {count}.")
    UNKNOWN_PAGE = ViewError.UNKNOWN_PAGE
    UNKNOWN_KEY = ViewError.UNKNOWN_KEY
    FULL = N_("This lesson already has {limit} slides, the most a lesson holds.")
    NOT_WHOLE = ViewError.NOT_WHOLE
    NOT_STEP = ViewError.NOT_STEP
    NOT_NUMBER = ViewError.NOT_NUMBER
    NOT_FLAG = ViewError.NOT_FLAG
    NOT_CHOICE = ViewError.NOT_CHOICE
    NOT_TEXT_FIELD = ViewError.NOT_TEXT
    TOO_LONG = ViewError.TOO_LONG
    BAD_CHARACTERS = ViewError.BAD_CHARACTERS
    NO_LANGUAGE = N_(
        "“{field}” needs its text in both English (“en”) and Chinese (“zh”); “{language}” is missing or empty."
    )
    UNKNOWN_LANGUAGE = N_("“{field}” holds the language “{language}”; a lesson is written in “en” and “zh”.")

    def __init__(self, template: str, *, slide: int | None = None, **params: object) -> None:
        super().__init__(template, **params)
        self.slide = slide
