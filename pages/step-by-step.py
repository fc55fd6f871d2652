"""Step by step: scaled dot-product and multi-head attention with the real numbers in the formulas."""

from ui.navigation import require_entry
from ui.state import current
from ui.walkthrough.page import render
from views import StepByStepView

require_entry()
render(current(StepByStepView))
