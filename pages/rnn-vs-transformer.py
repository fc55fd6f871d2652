"""RNN + attention vs the Transformer: the story of attention (a fixed vector, then Bahdanau attention, then the
Transformer) in five parts: two alignments, the RNN decoder step by step, the bottleneck, the textbooks' claims
measured, and gradients through time."""

from ui.navigation import require_entry
from ui.rnn.page import render
from ui.state import current
from views import RnnView

require_entry()
render(current(RnnView))
