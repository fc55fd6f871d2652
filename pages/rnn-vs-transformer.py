"""RNN + attention vs the Transformer: the story the seeds tell (a fixed vector, then Bahdanau attention, then the
Transformer) in five parts: two alignments, the RNN decoder step by step, the bottleneck, the seeds' claims measured,
and gradients through time."""

from ui.i18n import _
from ui.inputs import source_text
from ui.models import selected_model
from ui.navigation import require_entry
from ui.presenter import page_header
from ui.rnn.align import alignment_section
from ui.rnn.bottleneck import bottleneck_section
from ui.rnn.claims import claims_section
from ui.rnn.decoder import decoder_section
from ui.rnn.gradients import gradients_section
from ui.rnn.pairs import describe, pair_for
from ui.rnn.parts import ALIGN, BOTTLENECK, CLAIMS, DECODER, part_picker

require_entry()

page_header(
    _("RNN + attention vs the Transformer"),
    _(
        "Before the Transformer, a sequence-to-sequence model was two recurrent networks (RNN, GRU or LSTM): the "
        "**encoder** read the input one token at a time, and the **decoder** wrote the output from the encoder's last "
        "state, one fixed vector for the whole sentence. **Attention** (Bahdanau, 2015) let the decoder look back at "
        "every encoder state at every step; the Transformer (2017) kept the attention and dropped the recurrence."
    ),
    markdown=True,
    keep=True,
)

part = part_picker()
if part in (ALIGN, DECODER):
    loaded = selected_model()
    pair = pair_for(loaded)
    describe(pair)
    text = source_text(loaded=loaded)
    if part == ALIGN:
        alignment_section(pair, text)
    else:
        decoder_section(pair.rnn, text)
elif part == BOTTLENECK:
    bottleneck_section(selected_model().task.name)
elif part == CLAIMS:
    claims_section()
else:
    gradients_section()
