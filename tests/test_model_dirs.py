"""`attention-lab --model-dir PATH`: the folders are checked before any server starts, then handed to every server
through $ATTENTION_LAB_EXTRA_MODELS (absolute, after any already there); a folder that cannot be opened, two of one
name or one named like a shipped model stop the command with the reason and start nothing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from attention_lab import cli
from attention_lab.model_dirs import EXTRA_MODELS_ENV
from devtools.hf_folders import write_bert_folder, write_gpt2_folder
from model.io.model_dir import model_name, snapshot_of


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("model-dirs")
    return {"gpt2": write_gpt2_folder(root / "tiny-gpt2"), "bert": write_bert_folder(root / "tiny-bert")}


@pytest.fixture
def execs(monkeypatch):
    """What attention-lab would exec (instead of running it), with $ATTENTION_LAB_EXTRA_MODELS unset first."""
    done: dict = {"argv": None}
    monkeypatch.setenv(EXTRA_MODELS_ENV, "")  # recorded, so the value the command writes is undone after the test
    monkeypatch.delenv(EXTRA_MODELS_ENV)
    monkeypatch.setattr(cli.os, "chdir", lambda path: None)
    monkeypatch.setattr(cli.os, "execv", lambda exe, argv: done.__setitem__("argv", argv))
    return done


def offered() -> list[str]:
    return os.environ.get(EXTRA_MODELS_ENV, "").split(os.pathsep)


def test_each_folder_goes_to_the_server_by_its_absolute_path(execs, folders, capsys):
    relative = os.path.relpath(folders["gpt2"])  # the servers run in the app's folder, not the caller's
    cli.main(["--model-dir", relative, f"--model-dir={folders['bert']}", "--server.port", "8502"])
    assert offered() == [str(folders["gpt2"]), str(folders["bert"])]
    assert "--model-dir" not in " ".join(execs["argv"]) and execs["argv"][-2:] == ["--server.port", "8502"]
    out = capsys.readouterr().out
    assert "tiny-gpt2: gpt2," in out and "tiny-bert: bert," in out


def test_folders_already_in_the_environment_stay_first(execs, folders, monkeypatch):
    monkeypatch.setenv(EXTRA_MODELS_ENV, "/bench/model")
    cli.main(["--model-dir", str(folders["gpt2"])])
    assert offered() == ["/bench/model", str(folders["gpt2"])]


def test_every_server_of_servers_n_gets_them(execs, folders, monkeypatch):
    from attention_lab.cluster import launch

    called = []

    def serve(count: int, options: list[str]) -> int:
        called.append((count, options, offered()))
        return 0

    monkeypatch.setattr(launch, "serve", serve)
    with pytest.raises(SystemExit):
        cli.main(["--servers", "2", "--model-dir", str(folders["gpt2"]), "--theme.base", "dark"])
    assert called == [(2, ["--theme.base", "dark"], [str(folders["gpt2"])])]  # the launcher's servers inherit it


def refused(args: list[str]) -> str:
    with pytest.raises(SystemExit) as stopped:
        cli.main(args)
    return str(stopped.value.code)


def test_a_folder_that_cannot_be_opened_stops_the_command(execs, folders, tmp_path):
    pickled = tmp_path / "pickled"
    shutil.copytree(folders["gpt2"], pickled)
    (pickled / "model.safetensors").rename(pickled / "pytorch_model.bin")
    message = refused(["--model-dir", str(folders["gpt2"]), "--model-dir", str(pickled),
                       "--model-dir", str(tmp_path / "nowhere")])  # fmt: skip
    assert "no server was started" in message
    assert f"--model-dir {pickled}: " in message and "pytorch_model.bin, a Python pickle" in message
    assert f"--model-dir {tmp_path / 'nowhere'}: " in message
    assert execs["argv"] is None and EXTRA_MODELS_ENV not in os.environ


def test_two_models_of_one_name_or_a_shipped_name_are_refused(execs, folders, tmp_path):
    twin = tmp_path / "twin" / "tiny-gpt2"
    shutil.copytree(folders["gpt2"], twin)
    assert "called 'tiny-gpt2', as " in refused(["--model-dir", str(folders["gpt2"]), "--model-dir", str(twin)])
    shipped = tmp_path / "reverse"
    shutil.copytree(folders["gpt2"], shipped)
    assert "called 'reverse', as a shipped model is" in refused(["--model-dir", str(shipped)])
    assert execs["argv"] is None


def test_the_option_needs_a_path(execs):
    assert "--model-dir needs the path of a model folder" in refused(["--model-dir"])


def test_a_hugging_face_cache_folder_opens_its_snapshot_under_the_model_s_name(tmp_path, folders):
    repo = tmp_path / "hub" / "models--openai-community--gpt2"
    shutil.copytree(folders["gpt2"], repo / "snapshots" / "0123abc")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abc\n")
    assert snapshot_of(repo) == repo / "snapshots" / "0123abc"
    assert model_name(snapshot_of(repo)) == "gpt2" and model_name(folders["bert"]) == "tiny-bert"
    assert snapshot_of(folders["gpt2"]) == folders["gpt2"]
