"""Toy tasks generated in code, by name."""

from .base import N_, Task, TaskClass
from .digits import CopyTask, ReverseTask, SortTask
from .translate import TranslateTask
from .translate_zh import TranslateZhTask
from .vocab import BOS_ID, EOS_ID, PAD_ID, SPECIALS, UNK_ID, Encoded, Vocabulary

TASKS: dict[str, TaskClass] = {t.name: t for t in (CopyTask, ReverseTask, SortTask, TranslateTask, TranslateZhTask)}


def get_task(name: str) -> Task:
    """A new task object by name; an unknown name gives a ValueError listing the known ones."""
    try:
        return TASKS[name]()
    except KeyError:
        raise ValueError(f"unknown task {name!r}; choose one of: {', '.join(TASKS)}.") from None


__all__ = [
    "BOS_ID", "EOS_ID", "N_", "PAD_ID", "SPECIALS", "TASKS", "UNK_ID", "Encoded", "Task", "TaskClass", "Vocabulary",
    "get_task",
]  # fmt: skip
