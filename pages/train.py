"""Train a Transformer or an RNN with attention from random weights, in the server's worker pool, and watch its
loss fall and its attention form."""

import streamlit as st

from ui.i18n import _
from ui.navigation import require_entry
from ui.presenter import controls, page_header
from ui.training.attention import snapshot_panel
from ui.training.panels import current_job, live_panel, progress_panel, result_panel, start_job, stop_button
from ui.training.settings import architecture_choice, settings_form
from ui.training.upload import upload_panel

require_entry()

bar = page_header(
    _("Train a model"),
    _(
        "Start from random weights and press **Start**: the loss falls, the held-out accuracy climbs, and the "
        "attention turns from noise into the pattern the task needs — the anti-diagonal of *reverse*, the "
        "crossing lines of *translate*. Train a Transformer, or an RNN encoder–decoder with attention to compare. "
        "The defaults train *reverse* in well under a minute on a laptop CPU."
    ),
    markdown=True,
)

status = st.container()  # Stop and the place in line or the progress bar, above the form: seen on a small screen
with controls(bar, _("Settings")):
    settings = settings_form(architecture_choice())
if settings is not None:
    start_job(*settings)

job = current_job()
if job is None:
    st.info(_("Choose the settings above and press **▶ Start training**."))
else:
    with status:
        stop_button(job)
        progress_panel(job)
    live_panel(job)
    if not job.running:
        result_panel(job)
        snapshot_panel(job)

with st.expander(_("Upload a model you trained before")):
    upload_panel()
