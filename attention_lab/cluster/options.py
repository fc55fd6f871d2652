"""The launcher's view of `streamlit run` options: the public address and port are the balancer's, every other
option goes to each app server."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PORT = 8501  # Streamlit's
PUBLIC = ("--server.port", "--server.address")  # the balancer's, not each server's


@dataclass(frozen=True)
class Public:
    """Where the class connects: the balancer's address ("" = every interface, as Streamlit's default) and port."""

    address: str = ""
    port: int = DEFAULT_PORT

    @property
    def bind(self) -> str:
        return f"{self.address}:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.address or 'localhost'}:{self.port}"


def take_options(options: list[str], names: set[str]) -> tuple[dict[str, str], list[str]]:
    """({name: value} of the options named, written `--name value` or `--name=value`; the other options in order).
    ValueError for a named option missing its value; the last of a repeated one wins."""
    found: dict[str, str] = {}
    rest: list[str] = []
    items = iter(options)
    for item in items:
        name, eq, value = item.partition("=")
        if name not in names:
            rest.append(item)
            continue
        value = value if eq else next(items, "")
        if not value:
            raise ValueError(f"{name} needs a value")
        found[name] = value
    return found, rest


def split_public(options: list[str]) -> tuple[Public, list[str]]:
    """(the public address and port, the other options); `--server.port 8502` and `--server.port=8502` alike.
    ValueError with a message for a port that is not a number from 1 to 65535, or an option missing its value."""
    found, rest = take_options(options, set(PUBLIC))
    port = found.get("--server.port", str(DEFAULT_PORT))
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"--server.port must be a number from 1 to 65535, not {port!r}")
    return Public(found.get("--server.address", ""), int(port)), rest
