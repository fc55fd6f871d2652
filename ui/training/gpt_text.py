"""Train page, GPT family: the lines under the progress bar and the outcome, in the reader's language."""

from __future__ import annotations

from services.training import JobView
from services.training.gpt_job import GPTResult

from ..i18n import N_, _
from .queue import about


def _latest(view: JobView) -> str:
    """The run's latest measure: the held-out loss of a text run, the best induction score of an induction run."""
    progress = view.gpt
    if progress is None:
        return ""
    if progress.scores:
        return _("best induction score {score}").format(score=f"{progress.scores[-1][1].best_induction:.2f}")
    if progress.held_out:
        return _("held-out loss {loss} nats per character").format(loss=f"{progress.held_out[-1][1]:.3f}")
    return ""


def gpt_progress_text(view: JobView) -> str:
    """Step, time, time left at most, and the latest measure."""
    parts = [_("Step {step} of at most {total} · {seconds} s").format(
        step=f"{view.step:,}", total=f"{view.total_steps:,}", seconds=f"{view.seconds:.1f}")]  # fmt: skip
    if 0 < view.step < view.total_steps:
        parts.append(
            _("at most {time} left").format(time=about(view.seconds / view.step * (view.total_steps - view.step)))
        )
    if latest := _latest(view):
        parts.append(latest)
    return " · ".join(parts)


def gpt_ended_text(view: JobView) -> str:
    """How the run ended: stopped, or done after how many steps, with its latest measure."""
    words = {"step": f"{view.step:,}", "total": f"{view.total_steps:,}", "seconds": f"{view.seconds:.1f}"}
    line = (
        _("Stopped at step {step} of at most {total} · {seconds} s").format(**words)
        if view.status == "stopped"
        else _("Done after {step} steps (at most {total}) · {seconds} s").format(**words)
    )
    latest = _latest(view)
    return f"{line} · {latest}" if latest else line


def gpt_outcome(view: JobView, result: object, name: str) -> str:
    """The result line: how it ended, and that the model is now in this session's list."""
    assert isinstance(result, GPTResult)  # a GPT job's result
    words = {"steps": f"{result.steps:,}", "seconds": f"{result.seconds:.1f}", "name": name}
    if view.status == "stopped":
        reason = _(view.reason or N_("stopped"))
        head = _("Stopped ({reason}) after {steps} steps in {seconds} s.").format(reason=reason, **words)
    else:
        head = _("Finished after {steps} steps in {seconds} s.").format(**words)
    if result.held_out_loss is not None:
        head += " " + _("Held-out loss on the whole held-out text: {loss} nats per character.").format(
            loss=f"{result.held_out_loss:.3f}")  # fmt: skip
    formed = view.gpt.formed if view.gpt else None
    if formed is not None:
        head += " " + _("The induction head formed at step {step} ({seconds} s).").format(
            step=f"{formed.step:,}", seconds=f"{formed.seconds:.1f}")  # fmt: skip
    return head + " " + _("**{name}** is now in the sidebar's model list — for you only: use it on every page.").format(
        name=name)  # fmt: skip
