"""``flowctx authority PATH BEFORE AFTER``: violations, masking, exit codes, input forms."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  billing_plan:
    type: string
    authority_class: immutable_runtime_authority
    source: {type: state, default: free}
  capability_packs:
    type: array
    source: {type: build_context}
  draft:
    type: string
    source: {type: state}
agents:
  A: {variables: [billing_plan, draft]}
"""

BEFORE = {"app_id": "app-1", "user_id": "u1", "github_token": "ghp_before", "draft": "x"}


def _root(workspace: WriteWorkspace) -> Path:
    return workspace({"workflows/AppGenerator/context_variables.yaml": CONTRACT})


def test_clean_hook_exits_0(workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]) -> None:
    root = _root(workspace)
    after = {**BEFORE, "draft": "edited by the hook"}
    code = main(["authority", str(root), json.dumps(BEFORE), json.dumps(after)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith(
        "ok: before_chat left immutable runtime authority of AppGenerator unchanged "
        "(protected keys: app_id, user_id, github_token)"
    )


def test_each_violation_is_printed_masked_and_exits_1(
    workspace: WriteWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    after = {
        "app_id": "app-2",
        "github_token": "ghp_after",
        "draft": "x",
        "billing_plan": "pro",
        "capability_packs": [],
    }
    before_file = tmp_path / "before.json"
    before_file.write_text(json.dumps(BEFORE), encoding="utf-8")
    code = main(["authority", str(root), str(before_file), json.dumps(after), "-w", "AppGenerator"])
    out = capsys.readouterr().out
    assert code == 1
    assert out.splitlines() == [
        "FAILED: before_chat touched 5 protected key(s) of AppGenerator; the runtime fails this "
        "run before any agent starts",
        '  app_id: changed: "app-1" -> "app-2"  [runtime identity, scope or permission]',
        '  user_id: removed (was "u1")  [runtime identity, scope or permission]',
        '  github_token: changed: "***" -> "***"  [name contains \'token\' (secret handle)]',
        '  billing_plan: added: "pro"  [declared authority_class: immutable_runtime_authority]',
        "  capability_packs: added: []  [build_context variable (callers cannot write it)]",
        "protected keys present: app_id, user_id, github_token, billing_plan, capability_packs",
    ]
    assert "ghp_" not in out


def test_json_output_and_reveal(
    workspace: WriteWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    after_file = tmp_path / "after.json"
    after_file.write_text(json.dumps({**BEFORE, "github_token": "ghp_after"}), encoding="utf-8")
    args = ["authority", str(root), json.dumps(BEFORE), f"@{after_file}", "--format", "json"]
    assert main(args) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] is False
    assert doc["violations"] == [
        {
            "key": "github_token",
            "kind": "changed",
            "reason": "name contains 'token' (secret handle)",
            "before": "***",
            "after": "***",
        }
    ]
    assert main([*args, "--reveal"]) == 1
    revealed = json.loads(capsys.readouterr().out)
    assert revealed["violations"][0]["after"] == "ghp_after"


@pytest.mark.parametrize(
    ("before", "message"),
    [
        ('{"app_id": ', "BEFORE:1:12: invalid JSON for BEFORE: Expecting value"),
        ("[1, 2]", "BEFORE must be a JSON object (the launch context), not an array"),
        ("no_such_file.json", "BEFORE: neither a file nor inline JSON (17 characters, not shown)"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str], before: str, message: str
) -> None:
    root = _root(workspace)
    assert main(["authority", str(root), before, "{}"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert "Traceback" not in captured.err


def test_an_unknown_workflow_exits_2(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    assert main(["authority", str(root), "{}", "{}", "--workflow", "Nope"]) == 2
    assert "no workflow named 'Nope'" in capsys.readouterr().err


def test_path_comes_first_and_the_old_order_still_works_when_unambiguous(
    workspace: WriteWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    after = json.dumps({**BEFORE, "billing_plan": "enterprise"})
    code = main(["authority", str(root), json.dumps(BEFORE), after])
    out, err = capsys.readouterr()
    assert code == 1 and "billing_plan" in out and err == ""
    # BEFORE AFTER PATH, as the command took it before: a folder last, JSON first
    code = main(["authority", json.dumps(BEFORE), after, str(root)])
    out, err = capsys.readouterr()
    assert code == 1 and "billing_plan" in out
    assert err.startswith("flowctx: authority takes PATH first now")
    # a workflow's own file names the workspace as a folder does, in either place
    contract = root / "workflows" / "AppGenerator" / "context_variables.yaml"
    code = main(["authority", json.dumps(BEFORE), json.dumps(BEFORE), str(contract)])
    assert code == 0 and capsys.readouterr().out.startswith("ok: before_chat left")
    # two JSON files and a third that names no workspace: read PATH first, and said so
    before_file = tmp_path / "before.json"
    before_file.write_text(json.dumps(BEFORE))
    code = main(["authority", str(before_file), str(before_file), str(before_file)])
    _, err = capsys.readouterr()
    assert code == 2 and "before.json: is a file, not a workspace" in err
