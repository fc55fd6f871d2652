"""The runs of one input with some heads switched off, beside the run with every head on: what knockout.py's panel
makes and view.py's figures draw (so view.py needs no import of the panel). No Streamlit."""

from __future__ import annotations

from dataclasses import dataclass

from model import Trace
from model.analysis.attention import attention_layers
from model.analysis.knockout import HeadsOff, weight_change


@dataclass(frozen=True)
class Knockout:
    """The runs of one input with some heads switched off, beside the run with every head on."""

    heads_off: HeadsOff
    code: str  # the link code, "e1.3,c2.1"
    word: str  # the file-name word: "off-e1.3-c2.1", "off-all", "off-7-heads" (model.knockout.file_word)
    intact: Trace  # the page's trace, every head on
    off: Trace  # heads off, the decoder reading the same input as `intact`

    def change(self, kind: str):
        """(L, H, Lq, Lk) weights with heads off − with every head on; None when the runs read other tokens."""
        if self.off.tokens("tgt") != self.intact.tokens("tgt"):
            return None
        return weight_change(attention_layers(self.off, kind), attention_layers(self.intact, kind))
