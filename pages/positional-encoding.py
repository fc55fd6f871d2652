"""Positional encoding: the sinusoidal table, the encoding the loaded model adds, and what breaks without it."""

from ui.navigation import require_entry
from ui.positional.page import render
from ui.state import current
from views import PositionalView

require_entry()
render(current(PositionalView))
