"""``flowctx test`` on MemberJunction agents: cases judged by the 5.51.3 step machine."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from flowctx_tui.cli import main
from flowctx_tui.cli.workspace_args import demo_path

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mj-metadata"


def test_the_demo_agents_cases_pass(capsys: Any) -> None:
    assert main(["test", str(demo_path() / "metadata")]) == 0
    out = capsys.readouterr().out
    assert "6 passed, 0 failed" in out


def test_cases_on_the_corpus_pass_fail_and_locate_problems(tmp_path: Path, capsys: Any) -> None:
    root = tmp_path / "repo"
    shutil.copytree(CORPUS / "MemberJunction+MJ", root)
    tests = root / ".flowctx" / "tests"
    tests.mkdir(parents=True)
    (tests / "pipeline.yaml").write_text(
        "workflow: Content Pipeline\n"
        "cases:\n"
        "  - name: the draft is reviewed\n"
        "    expect: {route: {from: Draft the piece, to: Review against brand rules}}\n"
        "  - name: an approved draft closes as approved (it cannot, the loop fails)\n"
        "    payload: {brandOK: true}\n"
        "    expect: {route: {from: Draft the piece, to: 'Close out: approved'}}\n"
        "  - name: a Mozaiks-only expectation\n"
        "    expect: {values: {x: 1}}\n"
        "  - name: a step that is not there\n"
        "    expect: {route: {from: Nope, ends: true}}\n"
    )
    code = main(["test", str(root), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    statuses = [c["status"] for c in doc["cases"]]
    assert code == 2 and statuses == ["PASS", "FAIL", "ERROR", "ERROR"]
    assert doc["runtime"] == "memberjunction-5.51.3"
    code = main(["test", str(root), "-k", "reviewed"])
    assert code == 0 and "1 passed, 0 failed" in capsys.readouterr().out
    assert main(["test", str(root), "--coverage"]) == 2
    assert "for Mozaiks workflows" in capsys.readouterr().err


def test_a_verdict_read_from_the_context_is_withheld_unless_revealed(
    tmp_path: Path, capsys: Any
) -> None:
    root = tmp_path / "demo"
    shutil.copytree(demo_path() / "metadata", root)
    (root / ".flowctx" / "tests" / "approval-flow.yaml").write_text(
        "workflow: ApprovalFlow\n"
        "cases:\n"
        "  - name: production escalates (but Escalate is disabled)\n"
        "    payload: {amount: 20000}\n"
        "    context: {environment: production, apiKey: sk-live-0123456789}\n"
        "    expect:\n"
        "      route: {from: AwaitApproval, to: Rejected}\n"
        "      condition: {expression: \"context.environment === 'production'\", value: true}\n"
    )
    assert main(["test", str(root)]) == 0
    out = capsys.readouterr().out
    assert "WITHHELD" in out and "sk-live" not in out
    assert main(["test", str(root), "--reveal"]) == 0
    assert "1 passed" in capsys.readouterr().out
