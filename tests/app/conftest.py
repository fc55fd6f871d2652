"""AppTest runs the app in this process, where app.py sets torch to one intra-op thread; the tests' own
reference runs use the same count (tests/conftest.py sets it for every test process), so both sum in the same order
(two threads differ in the last bit).

Training: the Train page submits to the server's pool (services.training.get_pool), which the `train_pool`
fixture makes first, from ATTENTION_LAB_TRAIN_WORKERS=1, so a second session waits in line."""

from collections.abc import Iterator

import pytest

from services.training import TrainingPool, get_pool


@pytest.fixture(scope="session")
def app_pool() -> TrainingPool:
    """The app's own pool, made here with one worker from the environment the way the server makes it."""
    with pytest.MonkeyPatch.context() as env:
        env.setenv("ATTENTION_LAB_TRAIN_WORKERS", "1")
        pool = get_pool()
    assert pool.settings.workers == 1, "the app's training pool was made before the train_pool fixture"
    return pool  # shut down when the process exits (get_pool registers it)


@pytest.fixture
def train_pool(app_pool: TrainingPool) -> Iterator[TrainingPool]:
    """The app's pool for one test: limits it changes are restored, and jobs it leaves are stopped."""
    settings = app_pool.settings
    yield app_pool
    for job in app_pool.active_jobs():
        job.stop()
        job.join(10)
    app_pool.settings = settings
