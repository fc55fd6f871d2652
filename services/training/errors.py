"""What a student reads when training cannot start or does not finish: English templates marked N_ with their
params (model.errors.LabError), so ui/ shows them in the reader's language with `explain(error)`."""

from __future__ import annotations

from model.errors import N_, LabError

# Why a job stopped (JobView.reason), besides the reason the page passes to stop().
REASON_SESSION_ENDED = N_("the browser session ended")
REASON_NO_HEARTBEAT = N_("the page was left (no heartbeat)")
REASON_SHUTDOWN = N_("the server shut down")


class TrainingError(LabError):
    """Training could not start, or a job ended without finishing."""


class TrainingLimitError(TrainingError):
    """A limit of the server was reached; nothing was started."""


class OwnerBusyError(TrainingLimitError):
    def __init__(self) -> None:
        super().__init__(
            N_("You already have a training run going or waiting for a worker. Stop it before you start another.")
        )


class QueueFullError(TrainingLimitError):
    def __init__(self, limit: int) -> None:
        super().__init__(
            N_("The line of training runs waiting for a worker is full (at most {limit}). Try again in a minute."),
            limit=limit,
        )  # fmt: skip


class TooManyStepsError(TrainingLimitError):
    def __init__(self, steps: int, limit: int) -> None:
        super().__init__(N_("A run may take at most {limit} steps; you asked for {steps}."), steps=steps, limit=limit)


class PoolClosedError(TrainingError):
    def __init__(self) -> None:
        super().__init__(N_("Training is not available: the server is shutting down."))


class WorkerCrashedError(TrainingError):
    def __init__(self, code: int | None) -> None:
        super().__init__(
            N_("The training worker stopped unexpectedly (exit code {code}), so this run was lost. "
               "Press Start to try again."),
            code="?" if code is None else code,
        )  # fmt: skip


class TimeLimitError(TrainingError):
    def __init__(self, seconds: float) -> None:
        super().__init__(
            N_("The run took longer than the limit of {seconds} s and was ended. Try fewer steps or a smaller model."),
            seconds=int(seconds) if float(seconds).is_integer() else round(seconds, 1),
        )  # fmt: skip


class WorkersCannotStartError(TrainingError):
    def __init__(self) -> None:
        super().__init__(
            N_("The training workers could not start, so training is not available right now. "
               "Please tell whoever runs this server.")
        )  # fmt: skip


class JobFailedError(TrainingError):
    def __init__(self, error: str) -> None:
        super().__init__(N_("Training failed: {error}"), error=error)


def error_from_worker(template: object, params: object) -> TrainingError:
    """Rebuild an error a worker reported; anything malformed becomes a plain failure, never an exception."""
    if isinstance(template, str) and isinstance(params, dict) and all(isinstance(k, str) for k in params):
        try:
            return TrainingError(template, **params)
        except (AttributeError, KeyError, IndexError, ValueError):  # placeholders that params do not fill
            pass
    return JobFailedError(str(template))
