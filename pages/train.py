"""Train a Transformer from random weights and watch its loss fall and its attention form."""

import streamlit as st

from ui.i18n import _
from ui.navigation import require_entry
from ui.presenter import controls, page_header
from ui.training.attention import live_attention, snapshot_panel
from ui.training.panels import current_job, progress_panel, result_panel, settings_form, start_job, stop_button
from ui.training.upload import upload_panel

require_entry()

bar = page_header(
    _("Train a Transformer"),
    _(
        "Start from random weights and press **Start**: the loss falls, the held-out accuracy climbs, and the "
        "attention heads turn from noise into the pattern the task needs — the anti-diagonal of *reverse*, the "
        "crossing lines of *translate*. The defaults train *reverse* in well under a minute on a laptop CPU."
    ),
    markdown=True,
)

with controls(bar, _("Settings")):
    settings = settings_form()
if settings is not None:
    start_job(*settings)

job = current_job()
stop_button(job)
if job is None:
    st.info(_("Choose the settings above and press **▶ Start training**."))
else:
    progress_panel(job)
    live_attention(job)
    if not job.running:
        result_panel(job)
        st.subheader(_("Watch the attention form"))
        snapshot_panel(job)

with st.expander(_("Upload a model you trained before")):
    upload_panel()
