"""The launcher's view of `streamlit run` options: the public address and port are the balancer's, every other
option goes to each app server."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PORT = 8501  # Streamlit's
PUBLIC = {"--server.port": "port", "--server.address": "address"}


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


def split_public(options: list[str]) -> tuple[Public, list[str]]:
    """(the public address and port, the other options); `--server.port 8502` and `--server.port=8502` alike.
    ValueError with a message for a port that is not a number from 1 to 65535, or an option missing its value."""
    found: dict[str, str] = {}
    rest: list[str] = []
    items = iter(options)
    for item in items:
        name, eq, value = item.partition("=")
        if name not in PUBLIC:
            rest.append(item)
            continue
        if not eq:
            value = next(items, "")
        if not value:
            raise ValueError(f"{name} needs a value")
        found[PUBLIC[name]] = value
    port = found.get("port", str(DEFAULT_PORT))
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"--server.port must be a number from 1 to 65535, not {port!r}")
    return Public(found.get("address", ""), int(port)), rest
