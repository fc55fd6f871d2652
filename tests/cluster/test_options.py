"""The launcher's split of `streamlit run` options into the balancer's public address and port, and the rest."""

from __future__ import annotations

import pytest

from attention_lab.cluster.options import Public, split_public


@pytest.mark.parametrize(
    ("options", "public", "rest"),
    [
        ([], Public("", 8501), []),
        (["--server.port", "8502"], Public("", 8502), []),
        (["--server.port=8502", "--theme.base", "dark"], Public("", 8502), ["--theme.base", "dark"]),
        (["--server.address", "0.0.0.0", "--server.port", "80"], Public("0.0.0.0", 80), []),
        (["--server.headless", "true", "--server.address=127.0.0.1"], Public("127.0.0.1", 8501),
         ["--server.headless", "true"]),
    ],
)  # fmt: skip
def test_the_public_address_is_the_balancers_and_the_rest_goes_to_every_server(options, public, rest):
    assert split_public(options) == (public, rest)


def test_urls_and_binds():
    assert (Public().bind, Public().url) == (":8501", "http://localhost:8501")
    assert (Public("127.0.0.1", 9).bind, Public("127.0.0.1", 9).url) == ("127.0.0.1:9", "http://127.0.0.1:9")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--server.port"], "--server.port needs a value"),
        (["--server.port="], "--server.port needs a value"),
        (["--server.address"], "--server.address needs a value"),
        (["--server.port", "0"], "from 1 to 65535, not '0'"),
        (["--server.port", "65536"], "not '65536'"),
        (["--server.port", "80; rm -rf /"], "not '80; rm -rf /'"),
    ],
)
def test_a_bad_public_option_is_a_message(options, message):
    with pytest.raises(ValueError) as raised:
        split_public(options)
    assert message in str(raised.value)
