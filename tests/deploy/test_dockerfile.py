"""The Dockerfile and .dockerignore, read as Docker reads them: what a hadolint-style review would check, and that
the image gets the torch pin of requirements.txt, a non-root user, a health check and every file the app needs.

(No Docker daemon runs where these tests run, so the image itself is not built here; docs/deploy.md says how.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .dockerfile import ignore_patterns, ignored, instructions, pip_installs, requirement_pin

ROOT = Path(__file__).resolve().parents[2]  # the checkout
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
# What the running app reads: its code, the shipped models, the catalogs, Streamlit's config (upload limit).
APP_FILES = (
    "app.py", "serve.py", "requirements.txt", ".streamlit/", "attention_lab/", "model/", "ui/", "viz/", "services/",
    "pages/", "locales/",
)  # fmt: skip


def of(keyword: str) -> list:
    return [i for i in instructions() if i.keyword == keyword]


def test_one_stage_on_a_slim_python_3_11():
    (base,) = of("FROM")
    assert re.fullmatch(r"python:3\.11-slim(-\w+)?", base.arguments), base


def test_torch_is_the_cpu_wheel_of_the_requirements_pin_and_installed_before_the_rest():
    installs = [args for run in of("RUN") for args in pip_installs(run)]
    torch_pin = requirement_pin("torch")
    torch_at = next(i for i, args in enumerate(installs) if any(a.startswith("torch") for a in args))
    assert installs[torch_at] == ["--index-url", CPU_INDEX, torch_pin], installs[torch_at]
    assert ["-r", "requirements.txt"] in installs[torch_at + 1 :], installs


def test_the_server_runs_as_a_user_made_in_the_image_never_root():
    order = [i.keyword for i in instructions()]
    users = of("USER")
    assert users, "no USER: the server would run as root"
    user = users[-1].arguments.split(":")[0]
    assert user not in ("root", "0"), user
    assert max(i for i, k in enumerate(order) if k == "USER") < order.index("CMD")
    assert any(re.search(rf"\buseradd\b.*\s{re.escape(user)}(\s|$)", run.arguments) for run in of("RUN")), user


def test_it_serves_streamlit_on_all_interfaces_on_the_exposed_port_with_a_health_check():
    (exposed,) = of("EXPOSE")
    port = exposed.arguments
    (cmd,) = of("CMD")
    words = cmd.exec_form()
    assert words[:5] == ["python", "-m", "streamlit", "run", "serve.py"], words  # app.py, warmed before healthy
    settings = dict(zip(words[5::2], words[6::2], strict=True))
    assert settings["--server.address"] == "0.0.0.0" and settings["--server.port"] == port == "8501", settings
    assert settings["--server.headless"] == "true", settings
    (health,) = of("HEALTHCHECK")
    check = health.exec_form()
    assert check[:2] == ["python", "-c"] and f"http://127.0.0.1:{port}/_stcore/health" in check[2], check
    assert "--start-period" in health.arguments  # the server needs seconds to import torch before it is healthy


def test_no_latest_tags_no_sudo_no_cache_left_by_pip():
    text = " ".join(i.arguments for i in instructions())
    assert ":latest" not in text and "sudo " not in text
    (env,) = of("ENV")
    assert "PIP_NO_CACHE_DIR=1" in env.arguments  # no pip cache in the image's layers


# Run in a copy of the build context: every page in Chinese (the catalog is read too) must run without an exception.
EVERY_PAGE = """
from pathlib import Path
from streamlit.testing.v1 import AppTest
for page in sorted(Path("pages").glob("*.py")):
    at = AppTest.from_file("app.py", default_timeout=120)
    at.query_params.update(lang="zh")
    at.run()
    at.switch_page(str(page)).run()
    assert not at.exception, (page, [e.value for e in at.exception])
    headings = " ".join(str(e.value) for e in [*at.title, *at.header, *at.subheader, *at.markdown])
    assert any("\u4e00" <= c <= "\u9fff" for c in headings), (page, headings[:200])  # Chinese: the catalog was read
    print(page.stem)
"""


def tracked_files() -> list[str]:
    return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()


def test_every_page_runs_from_the_build_context_alone(tmp_path):
    patterns = ignore_patterns()
    for name in tracked_files():
        if not ignored(name, patterns) and (ROOT / name).is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, tmp_path / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-c", EVERY_PAGE], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == sorted(p.stem for p in (ROOT / "pages").glob("*.py")), run.stdout


def test_the_build_context_holds_every_file_the_app_reads_and_not_the_tests():
    tracked = tracked_files()
    patterns = ignore_patterns()
    needed = [f for f in tracked if f.startswith(APP_FILES)]
    assert len(needed) > 100 and any(f.endswith("model.safetensors") for f in needed)
    assert [f for f in needed if ignored(f, patterns)] == []
    dev_files = ("devtools/harness.py", "tests/conftest.py", "bench/forward.py", ".git/HEAD", "ui/__pycache__/x.pyc")
    for left_out in (*dev_files, "Dockerfile"):
        assert ignored(left_out, patterns), left_out
