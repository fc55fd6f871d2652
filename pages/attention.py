"""Attention: every layer and head for one input, one head large, a BertViz-style head view, summaries."""

from ui.attention.page import render
from ui.navigation import require_entry
from ui.state import current
from views import AttentionView

require_entry()
render(current(AttentionView))
