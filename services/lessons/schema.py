"""The lesson format "attention-lab-lesson/1": its limits and which pages and models a slide can name.

A slide's `state` is the view of its page (views/): the settings by their ids (`model`, `input`, `step`, `wt_kind`,
…), holding option ids (never a translated label), numbers as the page counts them (`step` and `query` from 1;
`layer`, `head`, `wt_layer`, `wt_head` from 0) and flags; views.check_mapping checks them. A file names only shipped
Transformers: a session's own models do not travel. docs/lessons.md describes the format.
"""

from __future__ import annotations

from dataclasses import dataclass

from model import PRETRAINED
from model.io.pretrained import PACKAGED_ARCH, PRETRAINED_ARCH
from views import SLIDE_PAGES

FORMAT = "attention-lab-lesson/1"
LANGUAGES = ("en", "zh")
LESSON_FIELDS = ("format", "title", "slides")
SLIDE_FIELDS = ("page", "state", "title", "text")
PAGES = SLIDE_PAGES  # the pages a slide can show
# the models a file may name: the shipped Transformers (the toy encoder–decoders and the GPTs), and MiniLM (a slide on
# it says how to add it when it is absent)
SLIDE_ARCHS = ("transformer", "gpt")
TRANSFORMERS = tuple(name for name in PRETRAINED if PRETRAINED_ARCH[name] in SLIDE_ARCHS) + tuple(PACKAGED_ARCH)


@dataclass(frozen=True)
class Limits:
    """How large a lesson may be. Depth counts nested objects and lists: lesson → slides → slide → state = 4."""

    max_bytes: int = 256 * 1024
    max_depth: int = 4
    max_slides: int = 40
    max_title_chars: int = 120
    max_text_chars: int = 1200
    max_input_chars: int = 300
    max_number_digits: int = 15


LIMITS = Limits()
