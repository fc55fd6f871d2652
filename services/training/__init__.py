"""The training worker pool: training runs in worker processes, never in the serving process.

    pool = get_pool()                                   # the server's pool (ATTENTION_LAB_TRAIN_* settings)
    job = pool.submit(session_id, task, model_config, train_config, name=..., alive=...)
    job.view()          # JobView: status queued|running|done|stopped|failed, position and wait while queued, ...
    job.stop("stopped by you"); job.result.loaded      # the model trained so far, rebuilt from safetensors bytes

Settings (environment variables; see settings.py): ATTENTION_LAB_TRAIN_WORKERS (cores − 1, at least 1),
ATTENTION_LAB_TRAIN_QUEUE (20), ATTENTION_LAB_TRAIN_MAX_STEPS (20000), ATTENTION_LAB_TRAIN_TIME_LIMIT (1800 s).
Imports model/ only; never Streamlit.
"""

from .errors import (
    REASON_NO_HEARTBEAT,
    REASON_SESSION_ENDED,
    REASON_SHUTDOWN,
    OwnerBusyError,
    PoolClosedError,
    QueueFullError,
    TimeLimitError,
    TooManyStepsError,
    TrainingError,
    TrainingLimitError,
    WorkerCrashedError,
    WorkersCannotStartError,
)
from .handle import JobHandle, JobView
from .pool import TrainingPool, get_pool
from .settings import PoolSettings
from .snapshots import Snapshot

__all__ = [
    "REASON_NO_HEARTBEAT",
    "REASON_SESSION_ENDED",
    "REASON_SHUTDOWN",
    "JobHandle",
    "JobView",
    "OwnerBusyError",
    "PoolClosedError",
    "PoolSettings",
    "QueueFullError",
    "Snapshot",
    "TimeLimitError",
    "TooManyStepsError",
    "TrainingError",
    "TrainingLimitError",
    "TrainingPool",
    "WorkerCrashedError",
    "WorkersCannotStartError",
    "get_pool",
]
