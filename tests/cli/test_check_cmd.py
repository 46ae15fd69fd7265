"""``flowctx check``: every problem as ``file:line:col: message``; exit 0 clean, 1 not, 2 on
unusable arguments; never a traceback."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

#: check names the runtime profile it judged against at the end of its summary
TAG = " [runtime mozaiks (BlocUnited-LLC/mozaiks 1c46341, 2026-12)]"

CLEAN = """
definitions:
  approved:
    type: boolean
    source: {type: state, default: false}
  region:
    type: string
    source: {type: config, default: eu}
agents:
  Reviewer: {variables: [approved, region]}
"""

BROKEN = """
definitions:
  approved:
    type: boolean
    source: {type: state, default: false, triggers: [{type: user_text}]}
  limits:
    type: object
    source: {type: data_reference, colection: limits}
  region:
	type: string
"""

MISEXPOSED = """
definitions:
  approved:
    type: boolean
    source: {type: state}
  orphan:
    type: string
    source: {type: state}
agents:
  Reviewer: {variables: [approved, ghost]}
  Idle: {variables: []}
"""

LOCATED = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$")


@pytest.fixture(autouse=True)
def _plain_env(monkeypatch: pytest.MonkeyPatch) -> None:
    # the developer's own runtime settings must not change what these tests see
    for name in list(os.environ):
        if name == "REGION" or name.startswith(("FLOWCTX_", "MOZAIKS_", "CONTEXT_")):
            monkeypatch.delenv(name, raising=False)


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    code = main(["check", *args])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err


def test_a_clean_workspace_exits_0(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({"workflows/Approvals/context_variables.yaml": CLEAN})
    code, out, err = check(capsys, str(root))
    assert code == 0
    assert out == ["ok: 1 workflow(s), 0 error(s), 0 warning(s)" + TAG]
    assert err == ""


def test_each_problem_is_one_located_line_and_the_exit_is_1(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/Approvals/context_variables.yaml": CLEAN,
            "workflows/Broken/context_variables.yaml": MISEXPOSED,
        }
    )
    code, out, _ = check(capsys, str(root))
    assert code == 1
    problems, summary = out[:-1], out[-1]
    assert summary == "FAILED: 2 workflow(s), 1 error(s), 2 warning(s)" + TAG
    for line in problems:
        m = LOCATED.match(line)
        assert m, line
        assert m["file"] == "workflows/Broken/context_variables.yaml"
    f = "workflows/Broken/context_variables.yaml"
    assert problems == [
        f"{f}:9:14: REFUSED: runtime mozaiks would not load this workflow's context",
        f"{f}:5:3: warning: definitions.orphan: variable 'orphan' is not exposed to any agent",
        f"{f}:9:14: agents.Reviewer.variables: agent 'Reviewer' exposes undeclared "
        "variable(s) 'ghost'",
        f"{f}:10:3: warning: agents.Idle: agent 'Idle' exposes no variables",
    ]


def test_malformed_yaml_is_located_not_a_traceback(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace({"workflows/Broken/context_variables.yaml": BROKEN})
    code, out, err = check(capsys, str(root))
    assert code == 1
    assert out[0] == (
        "workflows/Broken/context_variables.yaml:9:1: REFUSED: runtime mozaiks would not load "
        "this workflow's context"
    )
    assert out[1] == (
        "workflows/Broken/context_variables.yaml:9:1: YAML syntax error: found character "
        "that cannot start any token (a tab: YAML does not allow tabs for indentation)"
    )
    assert "Traceback" not in err


def test_contract_errors_at_their_lines(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    text = BROKEN.replace("  region:\n\ttype: string\n", "agents: {A: {variables: [approved]}}\n")
    root = workspace({"workflows/Broken/context_variables.yaml": text})
    code, out, _ = check(capsys, str(root), "--quiet")
    assert code == 1
    f = "workflows/Broken/context_variables.yaml"
    assert out == [
        f"{f}:4:54: REFUSED: runtime mozaiks would not load this workflow's context",
        f"{f}:4:54: definitions.approved.source.triggers[0]: a user_text trigger needs 'match'",
        f"{f}:7:36: definitions.limits.source.colection: unknown field "
        "(did you mean 'collection'?)",
        "FAILED: 1 workflow(s), 2 error(s), 1 warning(s)" + TAG,
    ]


def test_warnings_alone_pass_unless_strict(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    text = CLEAN + "  Idle: {variables: []}\n"
    root = workspace({"workflows/Approvals/context_variables.yaml": text})
    code, out, _ = check(capsys, str(root))
    assert code == 0
    assert out[-1] == "ok: 1 workflow(s), 0 error(s), 1 warning(s)" + TAG
    code, out, _ = check(capsys, str(root), "--strict")
    assert code == 1
    assert out[-1] == "FAILED: 1 workflow(s), 0 error(s), 1 warning(s)" + TAG
    code, out, _ = check(capsys, str(root), "--quiet")
    assert out == ["ok: 1 workflow(s), 0 error(s), 1 warning(s)" + TAG]


def test_a_workflow_folder_checks_only_that_workflow(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/Approvals/context_variables.yaml": CLEAN,
            "workflows/Broken/context_variables.yaml": BROKEN,
        }
    )
    code, out, _ = check(capsys, str(root / "workflows" / "Approvals"))
    assert (code, out) == (0, ["ok: 1 workflow(s), 0 error(s), 0 warning(s)" + TAG])
    code, out, _ = check(capsys, str(root), "--workflow", "Approvals")
    assert code == 0
    code, _, _ = check(capsys, str(root / "workflows"))
    assert code == 1


def test_file_sources_are_checked(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": """
            definitions:
              keys: {type: string, source: {type: file, path: certs/server.pem, required: true}}
              policy: {type: object, source: {type: file, path: data/absent.json, required: true}}
            agents: {A: {variables: [keys, policy]}}
            """,
        }
    )
    code, out, _ = check(capsys, str(root))
    assert code == 1
    f = "workflows/W/context_variables.yaml"
    assert out[:2] == [
        f"{f}:2:51: definitions.keys.source.path: refused: 'server.pem' has the secret-file "
        "suffix .pem",
        f"{f}:3:53: definitions.policy.source.path: file 'data/absent.json' not found",
    ]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["{missing}"], "no such directory"),
        (["{empty}"], "not a workspace"),
        (["{ws}", "--workflow", "Nope"], "no workflow named Nope"),
    ],
)
def test_unusable_arguments_exit_2(
    workspace: WriteWorkspace,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    words: str,
) -> None:
    root = workspace({"workflows/Approvals/context_variables.yaml": CLEAN})
    (tmp_path / "empty").mkdir()
    filled = [
        a.replace("{ws}", str(root))
        .replace("{missing}", str(tmp_path / "missing"))
        .replace("{empty}", str(tmp_path / "empty"))
        for a in args
    ]
    code, out, err = check(capsys, *filled)
    assert code == 2
    assert out == []
    assert err.startswith("flowctx: ") and words in err
    assert "Traceback" not in err


@pytest.mark.parametrize("args", [[], ["{ws}", "--bogus"]])
def test_bad_flags_exit_2(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    root = workspace({"workflows/Approvals/context_variables.yaml": CLEAN})
    with pytest.raises(SystemExit) as exc:
        main(["check", *[a.replace("{ws}", str(root)) for a in args]])
    assert exc.value.code == 2
    assert "usage: flowctx check" in capsys.readouterr().err


def test_the_installed_script(workspace: WriteWorkspace, tmp_path: Path) -> None:
    root = workspace(
        {
            "workflows/Broken/context_variables.yaml": BROKEN,
            "workflows/Approvals/context_variables.yaml": CLEAN,
        }
    )
    script = shutil.which("flowctx")
    command = (
        [script]
        if script
        else [sys.executable, "-c", "from flowctx_tui.cli import main; raise SystemExit(main())"]
    )
    env = {k: v for k, v in os.environ.items() if k != "FLOWCTX_MONGO_URI"}
    done = subprocess.run(
        [*command, "check", str(root)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stdout.splitlines()[1].startswith(
        "workflows/Broken/context_variables.yaml:9:1: YAML syntax error"
    )
