"""Whether this script run is a fragment's own run (the app around it does not run) or the app's."""

from __future__ import annotations

from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx


def fragment_run() -> bool:
    """True in a fragment's own run: Streamlit lists the fragments it reruns; a full run of the app lists none."""
    context = get_script_run_ctx()
    return bool(context is not None and context.fragment_ids_this_run)
