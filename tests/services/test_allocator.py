"""services.allocator: glibc takes the thresholds; other C libraries are left alone."""

from __future__ import annotations

import platform
from pathlib import Path

import pytest

from services import allocator


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt thresholds exist only in glibc")
def test_glibc_accepts_the_thresholds():
    assert allocator.keep_freed_memory() is True


def test_other_c_libraries_are_left_alone(monkeypatch):
    monkeypatch.setattr(platform, "libc_ver", lambda: ("musl", "1.2"))
    assert allocator.keep_freed_memory() is False


def test_once_asks_the_c_library_only_the_first_time(monkeypatch):
    calls = []
    monkeypatch.setattr(allocator, "keep_freed_memory", lambda: calls.append(1) or True)
    allocator.keep_freed_memory_once.cache_clear()
    try:
        assert allocator.keep_freed_memory_once() is True and allocator.keep_freed_memory_once() is True
        assert calls == [1]
    finally:
        allocator.keep_freed_memory_once.cache_clear()


def test_importing_the_model_package_leaves_the_allocator_alone():
    """The thresholds are the app server's and the worker's choice, made explicitly: `import model` sets nothing."""
    source = (Path(__file__).resolve().parents[2] / "model" / "__init__.py").read_text()
    assert "allocator" not in source and "keep_freed_memory" not in source
