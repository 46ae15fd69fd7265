"""``flowctx [PATH]`` argument handling: bad input is a message and exit code 2, no app."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowctx_tui.cli import main


def test_a_missing_workspace_is_reported(tmp_path: Path, capsys):
    assert main([str(tmp_path / "nowhere")]) == 2
    assert "no such directory" in capsys.readouterr().err


def test_an_unknown_workflow_lists_the_ones_there(workspace, capsys):
    root = workspace({"workflows/Alpha/context_variables.yaml": "definitions: {}\n"})
    assert main([str(root), "--workflow", "Beta"]) == 2
    err = capsys.readouterr().err
    assert "no workflow named 'Beta'" in err and "Alpha" in err


def test_a_bad_key_map_is_reported_with_file_line_col(workspace, tmp_path: Path, capsys):
    root = workspace({"workflows/Alpha/context_variables.yaml": "definitions: {}\n"})
    keys = tmp_path / "keys.yaml"
    keys.write_text("app.relaod: f5\n")
    assert main([str(root), "--keymap", str(keys)]) == 2
    err = capsys.readouterr().err
    assert f"{keys}:1:1:" in err and "did you mean 'app.reload'" in err


def test_help_names_the_app_options(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["app", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for option in ("--keymap", "--no-watch", "--workflow", "--mongo-uri", "--screenshot-dir"):
        assert option in out
