"""ui/streamlit_private/config.py: Streamlit's options read without its config lock give what Streamlit's own
get_option gives, see a set_option at once, and fail the same way for an unknown key."""

from __future__ import annotations

import threading

import pytest
from streamlit import config

from ui.streamlit_private import config as config_reads

KEYS = ("global.minCachedMessageSize",)


@pytest.fixture
def installed(monkeypatch):
    """The lock-free read installed for this test only (Streamlit's own restored afterwards)."""
    monkeypatch.setattr(config, "get_option", config_reads._read_without_lock)


def test_every_option_reads_as_streamlits_own(installed):
    defaults = config_reads._read_without_lock.__defaults__
    assert defaults is not None
    locked = defaults[0]
    assert locked is not config_reads._read_without_lock
    names = list(config.get_config_options())
    assert len(names) > 100
    for key in names:
        assert config.get_option(key) == locked(key), key


def test_a_set_option_is_read_at_once(installed):
    before = config.get_option("server.maxUploadSize")
    try:
        config.set_option("server.maxUploadSize", before + 7)
        assert config.get_option("server.maxUploadSize") == before + 7
    finally:
        config.set_option("server.maxUploadSize", before)


def test_an_unknown_key_is_streamlits_error(installed):
    with pytest.raises(RuntimeError, match=r'Config key "no\.suchOption" not defined'):
        config.get_option("no.suchOption")


def read_while_the_lock_is_held(read) -> list:
    """What `read(KEYS[0])` answered within 2 s while another thread held Streamlit's config lock."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with config._config_lock:
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    answered: list = []
    try:
        held.wait(30)
        reader = threading.Thread(target=lambda: answered.append(read(KEYS[0])), daemon=True)
        reader.start()
        reader.join(2)
        return list(answered)
    finally:
        release.set()
        holder.join(30)


def test_a_read_does_not_wait_for_the_lock_where_streamlits_own_does():
    expected = config.get_option(KEYS[0])
    assert read_while_the_lock_is_held(config_reads._read_without_lock) == [expected]
    assert read_while_the_lock_is_held(config.get_option) == []  # Streamlit's waits for the lock


def test_installed_once_into_streamlits_config(monkeypatch):
    monkeypatch.setattr(config, "get_option", config.get_option)  # restored after the test
    config_reads.read_options_without_lock_once.cache_clear()
    assert config_reads.read_options_without_lock_once() is True
    assert config.get_option is config_reads._read_without_lock
    config_reads.read_options_without_lock_once.cache_clear()


def test_not_installed_over_apptests_mock(monkeypatch):
    from streamlit.testing.v1.util import patch_config_options

    monkeypatch.setattr(config, "get_option", config.get_option)
    config_reads.read_options_without_lock_once.cache_clear()
    with patch_config_options({"global.appTest": True}):
        assert config_reads.read_options_without_lock_once() is False
        assert config.get_option("global.appTest") is True  # the mock's override still answers
    config_reads.read_options_without_lock_once.cache_clear()
