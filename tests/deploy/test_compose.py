"""deploy/compose.yaml and deploy/haproxy.cfg describe one deployment: Redis, two or more app servers that use it,
and HAProxy, given the very haproxy.cfg the balancer test runs, in front of exactly those servers."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from .dockerfile import instructions

ROOT = Path(__file__).resolve().parents[2]  # the checkout

DEPLOY = ROOT / "deploy"
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
HAPROXY_CFG = (DEPLOY / "haproxy.cfg").read_text()
# `server <name> "${<VAR>}" cookie <value>` lines of the config.
SERVER_LINE = re.compile(r'^\s*server\s+(\S+)\s+"\$\{(\w+)\}"\s+.*\bcookie\s+(\S+)', re.MULTILINE)


def app_services() -> dict[str, dict]:
    return {name: s for name, s in SERVICES.items() if "ATTENTION_LAB_REDIS_URL" in s.get("environment", {})}


def balancer() -> dict:
    (service,) = [s for s in SERVICES.values() if str(s.get("image", "")).startswith("haproxy:")]
    return service


def test_two_or_more_app_servers_built_from_the_dockerfile_share_the_redis_service():
    apps = app_services()
    assert len(apps) >= 2, list(SERVICES)
    for name, app in apps.items():
        assert (DEPLOY / app["build"]["context"] / app["build"]["dockerfile"]).resolve() == ROOT / "Dockerfile", name
        url = urlsplit(app["environment"]["ATTENTION_LAB_REDIS_URL"])
        assert url.scheme == "redis" and str(SERVICES[url.hostname]["image"]).startswith("redis:"), name
        assert url.hostname in app["depends_on"], name
    secrets = {app["environment"]["STREAMLIT_SERVER_COOKIE_SECRET"] for app in apps.values()}
    assert len(secrets) == 1 and "?" in secrets.pop()  # one shared secret, required to be set (never a default)


def test_the_balancer_runs_the_tested_config_in_front_of_exactly_the_app_servers_with_a_cookie_each():
    service = balancer()
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in service["volumes"]
    servers = SERVER_LINE.findall(HAPROXY_CFG)
    env = service["environment"]
    (port,) = [i.arguments for i in instructions() if i.keyword == "EXPOSE"]
    assert sorted(env[variable] for _, variable, _ in servers) == sorted(f"{name}:{port}" for name in app_services())
    cookies = [cookie for _, _, cookie in servers]
    assert len(set(cookies)) == len(cookies) == len(app_services())
    assert re.search(r"^\s*cookie\s+\S+\s+insert\b", HAPROXY_CFG, re.MULTILINE)  # sticky: the balancer sets it
    assert re.search(r"^\s*option httpchk GET /_stcore/health$", HAPROXY_CFG, re.MULTILINE)
    listen = env["HAPROXY_BIND"].rsplit(":", 1)[1]
    assert any(p.endswith(f":{listen}") for p in service["ports"]), service["ports"]
