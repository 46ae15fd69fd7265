"""The one PATH rule, for every sub-command: PATH when given; else the workspace around the
current directory; else the bundled demo, said on standard error. A file that is not one of a
workflow's own files is refused as a file."""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

import pytest

from flowctx_tui.cli import COMMANDS, app_cmd, main
from flowctx_tui.cli.workspace_args import demo_path

DEMO_NOTE = "using the bundled demo"

#: each sub-command that opens a workspace, with arguments that name workflow {wf}
COMMAND_ARGS = {
    "matrix": ["-w", "{wf}"],
    "check": ["-w", "{wf}"],
    "prompt": ["-w", "{wf}"],
    "routes": ["-w", "{wf}", "--from", "AwaitApproval"],
    "trace": ["-w", "{wf}", "--from", "AwaitApproval", "--turn", "*"],
    "trigger": ["-w", "{wf}", "--user", "approve"],
    "authority": ["{}", "{}", "-w", "{wf}"],
    # compared with the demo folder: a base every test's workspace can be read against
    "diff": ["--base", str(demo_path()), "-w", "{wf}"],
    "graph": ["-w", "{wf}"],
    "test": ["-w", "{wf}"],
}


def test_every_workspace_command_is_covered() -> None:
    # a new sub-command must join the rule (eval reads no workspace, schema takes no PATH;
    # app is tested below; serve runs until stopped: tests/cli/test_serve_cmd.py; lsp takes
    # no PATH: each file the editor opens names its workspace, tests/lsp; init's PATH is the
    # folder it writes a workspace into: tests/cli/test_init_cmd.py; completion reads no
    # workspace: tests/cli/test_completion_cmd.py, nor does config: tests/cli/test_config_cmd.py)
    assert set(COMMANDS) - {
        "eval",
        "schema",
        "app",
        "serve",
        "lsp",
        "init",
        "completion",
        "config",
    } == set(COMMAND_ARGS)


@pytest.fixture(autouse=True)
def _plain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("FLOWCTX_", "MOZAIKS_", "CONTEXT_")):
            monkeypatch.delenv(name, raising=False)


@pytest.fixture
def mine(tmp_path: Path) -> Path:
    """A copy of the demo whose Approvals workflow is called MyApprovals: only this workspace
    has that name, so a command that finds it opened this workspace."""
    root = tmp_path / "mine"
    shutil.copytree(demo_path(), root)
    (root / "workflows" / "Approvals").rename(root / "workflows" / "MyApprovals")
    return root


def run(
    capsys: pytest.CaptureFixture[str], command: str, workflow: str, *path: str
) -> tuple[int, str, str]:
    args = [a.replace("{wf}", workflow) for a in COMMAND_ARGS[command]]
    args = [*path, *args]  # PATH first, in every command (authority's BEFORE AFTER follow it)
    code = main([command, *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def _used(command: str, out: str, workflow: str, err: str = "") -> bool:
    if command == "test":
        # the demo's test files name Approvals: a copy that renamed it runs none of them
        return workflow in out or f"no test case for workflow '{workflow}'" in err
    if command == "check":
        # the summary (it ran), which ends naming the runtime profile
        return "warning(s) [runtime " in out.splitlines()[-1]
    return workflow in out


@pytest.mark.parametrize("command", COMMAND_ARGS)
def test_without_path_the_workspace_around_the_current_directory(
    command: str, mine: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for where in (mine, mine / "workflows", mine / "data"):
        monkeypatch.chdir(where)
        code, out, err = run(capsys, command, "MyApprovals")
        assert code in (0, 1), err
        assert _used(command, out, "MyApprovals", err), out
        assert DEMO_NOTE not in err


@pytest.mark.parametrize("command", COMMAND_ARGS)
def test_outside_any_workspace_a_command_refuses_unless_told_demo(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A CI step run in the wrong folder fails (exit 2) instead of checking the demo."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, command, "Approvals")
    assert code == 2 and out == "", out
    assert err.strip() == (
        "flowctx: no workspace at or above the current directory (no workflows/ folder): give "
        "a PATH, or --demo for the bundled demo workspace"
    ), err
    # --demo: the bundled demo, said by the command itself
    code, out, err = run(capsys, command, "Approvals", "--demo")
    assert code in (0, 1), err
    assert _used(command, out, "Approvals", err), out
    # the demo has no MyApprovals: the name is looked up in the demo, not elsewhere
    code, _, err = run(capsys, command, "MyApprovals", "--demo")
    assert code == 2 and "no workflow named" in err
    # --demo and a PATH name two workspaces
    code, _, err = run(capsys, command, "Approvals", "--demo", str(tmp_path))
    assert code == 2 and "--demo and a PATH" in err


@pytest.mark.parametrize("command", COMMAND_ARGS)
def test_a_given_path_wins_over_the_current_directory(
    command: str, mine: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(mine)
    code, out, err = run(capsys, command, "Approvals", str(demo_path()))
    assert code in (0, 1), err
    assert _used(command, out, "Approvals", err)
    assert DEMO_NOTE not in err


@pytest.mark.parametrize("command", COMMAND_ARGS)
def test_a_file_is_refused_unless_it_is_a_workflow_file(
    command: str, mine: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "afile.txt"
    afile.write_text("not a workspace\n")
    code, out, err = run(capsys, command, "MyApprovals", str(afile))
    assert (code, out) == (2, "")
    assert err.strip() == (
        f"flowctx: {afile}: is a file, not a workspace (give the workspace folder, its "
        "workflows/ folder, one workflow folder or its context_variables.yaml)"
    )
    # what a pre-commit hook passes: a workflow's own file
    contract = mine / "workflows" / "MyApprovals" / "context_variables.yaml"
    code, out, err = run(capsys, command, "MyApprovals", str(contract))
    assert code in (0, 1), err
    assert _used(command, out, "MyApprovals", err)


def _app(*args: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    app_cmd.configure(parser)
    return parser.parse_args([*args, "--no-watch"])


def test_the_app_follows_the_same_rule(
    mine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(mine / "workflows" / "MyApprovals")
    app = app_cmd.build_app(_app())
    assert (app.session.root, app.workflow) == (mine.resolve(), "MyApprovals")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    monkeypatch.chdir(outside)
    app = app_cmd.build_app(_app())
    assert app.session.root == demo_path().resolve()
    # the app shows its workspace in the status line; no note is left under it
    assert capsys.readouterr().err == ""
