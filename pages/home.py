"""Landing page: what the lab is, and a link to each page."""

from ui.home.page import render
from ui.navigation import require_entry
from ui.state import current
from views import HomeView

require_entry()
render(current(HomeView))
