"""``flowctx trace`` on MemberJunction agents: the whole 5.51.3 run, step by step, in the same
generic step shape as a Mozaiks trace."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flowctx_tui.cli import main
from flowctx_tui.cli.workspace_args import demo_path
from tests.mj_files import agent, path, step, write

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mj-metadata"


def trace(capsys: Any, *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["trace", *args, "--format", "json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return code, json.loads(out)


def test_the_demo_run_goes_through_the_approval(capsys: Any) -> None:
    code, doc = trace(
        capsys,
        str(demo_path()),
        "-w",
        "ApprovalFlow",
        "--payload",
        '{"amount": 50}',
        "--data",
        '{"userApproval": true}',
        "--turn",
        'Validate={"success": true, "outputs": {"Valid": true}}',
        "--turn",
        'AwaitApproval={"reply": {"note": "ok"}}',
        "--turn",
        "Approved",
    )
    assert code == 0 and doc["runtime"] == "memberjunction-5.51.3"
    assert doc["path"] == ["Validate", "AwaitApproval", "Approved"]
    assert doc["outcome"] == "ended" and doc["reason"] == "Flow completed - no more paths to follow"
    assert [s["rule"] for s in doc["steps"]] == [1, 2, None]
    # the output mapping put the action's Valid into the payload, the reply merged in
    assert doc["payload"] == {"amount": 50, "validation": {"valid": True}, "note": "ok"}
    first = doc["steps"][0]
    assert set(first) >= {
        "turn",
        "source",
        "winner",
        "rule",
        "location",
        "reason",
        "ended",
        "failed",
    }


def test_a_failed_action_takes_the_fallback_and_an_unscripted_step_stops(capsys: Any) -> None:
    _, doc = trace(
        capsys, str(demo_path()), "-w", "ApprovalFlow", "--turn", 'Validate={"success": false}'
    )
    assert doc["path"] == ["Validate", "Rejected"] and doc["outcome"] == "uncovered"


def test_the_corpus_runs_into_steps_that_fail_once_entered(capsys: Any) -> None:
    code, doc = trace(
        capsys,
        str(CORPUS),
        "-w",
        "Schema Documentation Sweep",
        "--turn",
        "Find undocumented fields",
    )
    assert code == 1 and doc["outcome"] == "failed" and doc["run_failed"]
    assert doc["path"][-1] == "Approve the proposed descriptions"
    assert doc["reason"] == "Unknown step type: Human"


def test_a_prompt_reply_can_end_the_run_as_a_chat(tmp_path: Path, capsys: Any) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step("Ask", "Prompt", start=True, paths=[path("Next")]),
                step("Next"),
            ],
        ),
    )
    code, doc = trace(
        capsys,
        str(root),
        "-w",
        "A",
        "--turn",
        'Ask={"reply": {"taskComplete": true, "message": "done"}}',
    )
    assert code == 0 and doc["outcome"] == "ended" and doc["steps"][-1]["closed"] == "chat"


def test_a_turn_for_another_step_is_noted(capsys: Any) -> None:
    _, doc = trace(capsys, str(demo_path()), "-w", "ApprovalFlow", "--turn", "Rejected")
    assert doc["outcome"] == "uncovered"
    assert "turn 1 is for 'Rejected', but the run enters 'Validate'" in doc["notes"]
