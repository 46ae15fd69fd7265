"""The user's settings file (the first hour's item 14): ``flowctx config --path/--show``, a
default runtime and a keymap read from it, and the theme the app keeps across runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowctx_tui.cli import main


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_the_path_follows_xdg_and_flowctx_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("FLOWCTX_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert run(["config", "--path"], capsys)[1].strip() == str(
        tmp_path / "xdg" / "flowctx" / "config.yaml"
    )
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/ignored")  # the XDG spec ignores it
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert run(["config", "--path"], capsys)[1].strip() == str(
        tmp_path / "home" / ".config" / "flowctx" / "config.yaml"
    )


def test_show_reports_settings_and_located_mistakes(
    _own_settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["config", "--show"], capsys)
    assert code == 0 and "(not written yet)" in out
    _own_settings.write_text("theme: nord\nruntime: spec\nthem: x\n")
    code, out, err = run(["config", "--format", "json"], capsys)
    doc = json.loads(out)
    assert (doc["theme"], doc["runtime"], doc["exists"]) == ("nord", "spec", True)
    assert code == 1
    assert f"{_own_settings}:3:1: them: unknown setting (did you mean 'theme'?)" in err


def test_the_default_runtime_applies_where_neither_argument_nor_workspace_names_one(
    _own_settings: Path, workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({"workflows/W/context_variables.yaml": "definitions: {}\nagents: {}\n"})
    _own_settings.write_text("runtime: spec\n")
    _, out, _ = run(["check", str(root), "--format", "json"], capsys)
    assert json.loads(out)["runtime"].startswith("spec")
    # the command line wins, and so does the workspace's flowctx.yaml
    _, out, _ = run(["check", str(root), "--format", "json", "--runtime", "mozaiks"], capsys)
    assert json.loads(out)["runtime"].startswith("mozaiks 0.2.0")
    (root / "flowctx.yaml").write_text("runtime: mozaiks-2026-01\n")
    _, out, _ = run(["check", str(root), "--format", "json"], capsys)
    assert json.loads(out)["runtime"].startswith("mozaiks-2026-01")
