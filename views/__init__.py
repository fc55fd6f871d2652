"""Views as data: one frozen dataclass per page, each field one control (its spec, default and names).

The URL, the class room, the lesson file and the exports read these classes; `codec` turns a view into each one's
form and back through the one check in `validate`. Nothing here imports Streamlit.
"""

from .attention import AttentionView
from .base import Field, PageView, build, fields, get, key_of, replace, values
from .codec import LinkProblem, check_mapping, fit, from_mapping, from_params, to_mapping, to_params
from .common import DEFAULT_MODEL, Common
from .controls import Choice, Control, Flag, Grid, Number, Text, Whole
from .errors import ViewError
from .layers import InsideLayerView
from .lesson import DEFAULT_LESSON, LessonView
from .next_token import NextTokenView
from .pages import SLIDE_PAGES, VIEWS, view_class
from .plain import HomeView, TrainView
from .positional import PositionalView
from .rnn import RnnView
from .walkthrough import StepByStepView

__all__ = [
    "DEFAULT_LESSON", "DEFAULT_MODEL", "SLIDE_PAGES", "VIEWS", "AttentionView", "Choice", "Common", "Control",
    "Field", "Flag", "Grid", "HomeView", "InsideLayerView", "LessonView", "LinkProblem", "NextTokenView", "Number",
    "PageView", "PositionalView", "RnnView", "StepByStepView", "Text", "TrainView", "ViewError", "Whole", "build",
    "check_mapping", "fields", "fit", "from_mapping", "from_params", "get", "key_of", "replace", "to_mapping",
    "to_params", "values", "view_class",
]  # fmt: skip
