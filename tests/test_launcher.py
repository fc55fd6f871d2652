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
    """What attention-lab would run, instead of running it: the command it would exec (argv), or the arguments it
    would give Streamlit's own `streamlit` command in this process (serve), the folder it would be in, and whether
    it started warming the first page's imports."""
    import streamlit.web.cli

    done = {"cwd": None, "argv": None, "serve": None, "warmed": False}
    monkeypatch.setattr(cli.os, "chdir", lambda path: done.__setitem__("cwd", Path(path)))
    monkeypatch.setattr(cli.os, "execv", lambda exe, argv: done.__setitem__("argv", argv))
    monkeypatch.setattr(cli, "warm_in_background", lambda: done.__setitem__("warmed", True))
    monkeypatch.setattr(
        streamlit.web.cli, "main", lambda args, prog_name: done.__setitem__("serve", [prog_name, *args])
    )
    return done


def test_a_checkout_serves_its_own_files():
    assert APP_ROOT == ROOT
    for name in ("app.py", "pages/home.py", ".streamlit/config.toml", "lessons", "locales"):
        assert (APP_ROOT / name).exists(), name


def test_no_arguments_serve_the_app_as_scripts_app_sh_did(execs):
    cli.main([])
    assert execs["cwd"] == APP_ROOT  # Streamlit reads .streamlit/config.toml from its working folder
    assert execs["serve"] == [
        "streamlit", "run", "app.py", "--server.headless", "true", "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    assert execs["warmed"] and execs["argv"] is None  # in this process, the imports warming meanwhile


def test_streamlit_options_pass_through(execs):
    cli.main(["--server.port", "8502"])
    assert execs["serve"][-2:] == ["--server.port", "8502"]


def test_warming_imports_the_first_pages_layers_and_never_fails():
    from attention_lab.warm import FIRST_PAGE_IMPORTS, warm_imports

    assert warm_imports(FIRST_PAGE_IMPORTS) == []
    assert all(name in sys.modules for name in FIRST_PAGE_IMPORTS)
    assert not any(name == "ui" or name.startswith(("ui.", "streamlit")) for name in FIRST_PAGE_IMPORTS)
    assert warm_imports(("torch", "no_such_module_here")) == ["no_such_module_here"]  # reported, not raised


def test_train_is_python_m_model_train_in_the_callers_folder(execs):
    cli.main(["train", "--task", "reverse", "--steps", "10"])
    assert execs["cwd"] is None and execs["serve"] is None and not execs["warmed"]
    assert execs["argv"] == [sys.executable, "-m", "model.train", "--task", "reverse", "--steps", "10"]


def test_help_lists_both_commands(execs, capsys):
    cli.main(["--help"])
    out = capsys.readouterr().out
    assert "attention-lab train" in out and "streamlit run app.py" in out and str(APP_ROOT) in out
    assert execs["argv"] is None and execs["serve"] is None


def test_an_unknown_command_is_an_error(execs):
    with pytest.raises(SystemExit, match="unknown command 'serv'"):
        cli.main(["serv"])
    assert execs["argv"] is None and execs["serve"] is None


def test_the_wheel_gets_every_file_the_app_reads_from_app_root():
    patterns = next(
        ast.literal_eval(node.value)
        for node in ast.parse((ROOT / "setup.py").read_text()).body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "APP_FILES"
    )
    shipped = {path for pattern in patterns for path in ROOT.glob(pattern)}
    for needed in ["app.py", ".streamlit/config.toml", "lessons/attention-basics.json",
                   "locales/zh_CN/LC_MESSAGES/messages.po", "bench/results/rnn_vs_transformer.json"]:  # fmt: skip
        assert ROOT / needed in shipped, needed
    assert set((ROOT / "pages").glob("*.py")) <= shipped
