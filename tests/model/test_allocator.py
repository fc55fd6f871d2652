"""model.allocator: glibc takes the thresholds; other C libraries are left alone."""

from __future__ import annotations

import platform

import pytest

from model import allocator


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt thresholds exist only in glibc")
def test_glibc_accepts_the_thresholds():
    assert allocator.keep_freed_memory() is True


def test_other_c_libraries_are_left_alone(monkeypatch):
    monkeypatch.setattr(platform, "libc_ver", lambda: ("musl", "1.2"))
    assert allocator.keep_freed_memory() is False
