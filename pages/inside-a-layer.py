"""Inside a layer: the residual stream, what each sublayer adds, LayerNorm statistics, FFN activity."""

from ui.layers.page import render
from ui.navigation import require_entry
from ui.state import current
from views import InsideLayerView

require_entry()
render(current(InsideLayerView))
