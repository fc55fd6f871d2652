"""The attention-lab command and where it finds the app: in a checkout the checkout itself, and the build's list
of app files (setup.py) covers what the app reads through attention_lab.paths."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from attention_lab import cli
from attention_lab.paths import APP_ROOT

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def execs(monkeypatch):
    """The command attention-lab would exec and the folder it would be in, instead of running it."""
    done: dict[str, Path | list[str] | None] = {"cwd": None, "argv": None}
    monkeypatch.setattr(cli.os, "chdir", lambda path: done.__setitem__("cwd", Path(path)))
    monkeypatch.setattr(cli.os, "execv", lambda exe, argv: done.__setitem__("argv", argv))
    return done


def test_a_checkout_serves_its_own_files():
    assert APP_ROOT == ROOT
    for name in ("app.py", "serve.py", "pages/home.py", ".streamlit/config.toml", "lessons", "locales"):
        assert (APP_ROOT / name).exists(), name


def test_no_arguments_serve_the_app_as_scripts_app_sh_did(execs):
    cli.main([])
    assert execs["cwd"] == APP_ROOT  # Streamlit reads .streamlit/config.toml from its working folder
    assert execs["argv"] == [
        sys.executable, "-m", "streamlit", "run", "serve.py", "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip


def test_streamlit_options_pass_through(execs):
    cli.main(["--server.port", "8502"])
    assert execs["argv"][-2:] == ["--server.port", "8502"]


def test_train_is_python_m_model_train_in_the_callers_folder(execs):
    cli.main(["train", "--task", "reverse", "--steps", "10"])
    assert execs["cwd"] is None
    assert execs["argv"] == [sys.executable, "-m", "model.train", "--task", "reverse", "--steps", "10"]


def test_help_lists_both_commands(execs, capsys):
    cli.main(["--help"])
    out = capsys.readouterr().out
    assert "attention-lab train" in out and "streamlit run serve.py" in out and str(APP_ROOT) in out
    assert execs["argv"] is None


def test_an_unknown_command_is_an_error(execs):
    with pytest.raises(SystemExit, match="unknown command 'serv'"):
        cli.main(["serv"])
    assert execs["argv"] is None


def test_the_wheel_gets_every_file_the_app_reads_from_app_root():
    patterns = next(
        ast.literal_eval(node.value)
        for node in ast.parse((ROOT / "setup.py").read_text()).body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "APP_FILES"
    )
    shipped = {path for pattern in patterns for path in ROOT.glob(pattern)}
    for needed in ["app.py", "serve.py", ".streamlit/config.toml", "lessons/attention-basics.json",
                   "locales/zh_CN/LC_MESSAGES/messages.po", "bench/results/rnn_vs_transformer.json",
                   "static/chart.js"]:  # fmt: skip
        assert ROOT / needed in shipped, needed
    assert set((ROOT / "pages").glob("*.py")) <= shipped


def test_one_server_is_the_plain_command(execs):
    cli.main(["--servers", "1", "--server.port", "8502"])
    assert execs["argv"][:5] == [sys.executable, "-m", "streamlit", "run", "serve.py"]
    assert "--servers" not in execs["argv"] and execs["argv"][-2:] == ["--server.port", "8502"]


@pytest.mark.parametrize("args", [["--servers"], ["--servers", "0"], ["--servers=x"], ["--servers", "17"],
                                  ["--servers", "-2"], ["--servers", "2.5"]])  # fmt: skip
def test_a_bad_server_count_is_a_message(execs, args):
    with pytest.raises(SystemExit) as exited:
        cli.main(args)
    assert "--servers takes a whole number from 1 to 16" in str(exited.value.code)
    assert execs["argv"] is None


def test_several_servers_go_to_the_launcher_with_the_other_options(execs, monkeypatch):
    from attention_lab.cluster import launch

    called = []

    def serve(count, options) -> int:
        called.append((count, options))
        return 0

    monkeypatch.setattr(launch, "serve", serve)
    with pytest.raises(SystemExit) as exited:
        cli.main(["--server.port", "9000", "--servers=3", "--theme.base", "dark"])
    assert exited.value.code == 0 and execs["argv"] is None
    assert called == [(3, ["--server.port", "9000", "--theme.base", "dark"])]
