"""Next token: a GPT's distribution of the next token, sampling step by step, what the new token looked at."""

from ui.navigation import require_entry
from ui.next_token.page import render
from ui.state import current
from views import NextTokenView

require_entry()
render(current(NextTokenView))
