"""Train a Transformer or an RNN with attention from random weights, in the server's worker pool, and watch its
loss fall and its attention form."""

from ui.navigation import require_entry
from ui.state import current
from ui.training.page import render
from views import TrainView

require_entry()
render(current(TrainView))
