"""Why a value cannot be a view's: an English template (marked N_) and its parameters, the same templates for
the URL, the class room and the lesson file (ui/ translates them with gettext; str(error) is the English text)."""

from __future__ import annotations

from model.errors import N_, LabError

SHOWN_CHARS = 40


def shown(value: object) -> str:
    """A name or value from outside, safe to echo in a message: printable and at most SHOWN_CHARS characters."""
    text = "".join(ch for ch in str(value) if ch.isprintable())
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


class ViewError(LabError):
    """A setting a view cannot hold; `field` names it as its channel does (a URL parameter, a room or lesson id)."""

    NOT_MAPPING = N_("“{field}” must be a JSON object.")
    UNKNOWN_PAGE = N_("There is no page “{page}” a slide can show; use one of: {pages}.")
    UNKNOWN_KEY = N_("“{key}” is not a setting of the page “{page}”; its settings are: {keys}.")
    NOT_WHOLE = N_("“{field}” must be a whole number from {low} to {high}.")
    NOT_STEP = N_("“{field}” must be a multiple of {step} from {low} to {high}.")
    NOT_NUMBER = N_("“{field}” must be a number from {low} to {high}.")
    NOT_FLAG = N_("“{field}” must be true or false.")
    NOT_CHOICE = N_("“{field}” must be one of: {options}.")
    NOT_TEXT = N_("“{field}” must be text.")
    TOO_LONG = N_("“{field}” is too long: {length} characters, at most {limit}.")
    BAD_CHARACTERS = N_("“{field}” holds control characters or characters that are not valid text.")
    NOT_GRID = N_("“{field}” must be a square grid of 0s and 1s, {low} to {high} rows, written like 10/11.")
    LINK_VALUE = N_("This link's {param}={value} cannot be shown: {reason} The page opens with its default instead.")
