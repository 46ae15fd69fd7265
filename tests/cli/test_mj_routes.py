"""``flowctx routes`` on MemberJunction MetadataSync agents: what the 5.51.3 run does next.

One test per finding of issue 33 (the numbers are the issue's), each through ``main()`` over
real files written in ``tmp_path`` the way MJ authors keep them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flowctx_tui.cli import main
from tests.mj_files import agent, path, step, write

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mj-metadata"


def routes(capsys: Any, root: Path, *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["routes", str(root), *args, "--format", "json"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, json.loads(out)["decisions"][0]


def approvals(tmp_path: Path) -> Path:
    """flowctx's old demo as MJ authors would write it: Validate (an Action) routed on
    ``stepResult.step === 'Success'``, with an unconditional fallback to Rejected."""
    return write(
        tmp_path,
        agent(
            "Approvals",
            [
                step(
                    "Validate",
                    start=True,
                    paths=[
                        path("AwaitApproval", "stepResult.step === 'Success'", 10),
                        path("Rejected", None, 0),
                    ],
                ),
                step("AwaitApproval", "Prompt"),
                step("Rejected"),
            ],
        ),
    )


# 1 ---------------------------------------------------------------------------------------
def test_1_after_an_action_step_the_result_is_retry_so_a_success_path_is_never_taken(
    tmp_path: Path, capsys: Any
) -> None:
    root = approvals(tmp_path)
    code, d = routes(capsys, root, "-w", "Approvals", "--from", "Validate")
    assert code == 0
    assert d["winner"] == "Rejected"
    first = d["candidates"][0]
    assert first["condition"] == "stepResult.step === 'Success'" and first["outcome"] == "false"
    # the step's result as 5.51.3 stores it is what the condition saw
    assert d["attempts"][0]["step_result_step"] == "Retry"
    main(["check", str(root)])
    out = capsys.readouterr().out
    assert "'Validate' is an Action step: 5.51.3 stores its result with step 'Retry'" in out
    # the warning is located at the Condition string in the JSON
    line = out.splitlines()[0]
    text = (root / "metadata/agents/.agents.json").read_text().splitlines()
    row, col = (int(x) for x in line.split(":")[1:3])
    assert text[row - 1][col - 1 :].startswith('"stepResult.step')


def test_1_a_prompt_step_gives_success_and_its_reply_shapes_the_result(
    tmp_path: Path, capsys: Any
) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step(
                    "Ask",
                    "Prompt",
                    start=True,
                    paths=[path("Yes", "stepResult.result.ok === true")],
                ),
                step("Yes"),
            ],
        ),
    )
    reply = {"Success": True, "step": "Success", "result": {"ok": True}, "rawResult": "{}"}
    code, d = routes(capsys, root, "-w", "A", "--from", "Ask", "--step-result", json.dumps(reply))
    assert (code, d["winner"]) == (0, "Yes")
    code, d = routes(capsys, root, "-w", "A", "--from", "Ask")  # default: an empty reply
    assert d["winner"] is None and d["ended"] and not d["failed"]
    assert d["message"] == "Flow completed - no more paths to follow"


# 2 ---------------------------------------------------------------------------------------
def test_2_flow_context_holds_ids_so_a_name_never_matches(tmp_path: Path, capsys: Any) -> None:
    cond = "flowContext.completedSteps.includes('Validate')"
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step("Validate", start=True, paths=[path("Seen", cond, 5), path("Other", None, 0)]),
                step("Seen"),
                step("Other"),
            ],
        ),
    )
    _, d = routes(capsys, root, "-w", "A", "--from", "Validate")
    assert d["winner"] == "Other"
    assert d["candidates"][0]["outcome"] == "false"
    main(["check", str(root), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert any("flowContext holds step ids, not names" in p["message"] for p in doc["problems"])


def test_2_the_current_step_id_is_what_flow_context_compares(tmp_path: Path, capsys: Any) -> None:
    sid = "AAAAAAAA-2222-4333-8444-55555555555B"
    rec = step(
        "Validate",
        start=True,
        paths=[path("Seen", f"flowContext.currentStepId === '{sid.lower()}'")],
    )
    rec["primaryKey"] = {"ID": sid}
    root = write(tmp_path, agent("A", [rec, step("Seen")]))
    # the id as written is upper case; the condition's literal is lower case: no match
    _, d = routes(capsys, root, "-w", "A", "--from", "Validate")
    assert d["winner"] is None and d["ended"]


# 3 ---------------------------------------------------------------------------------------
def test_3_the_starting_step_is_the_first_active_one_in_locale_compare_order(
    tmp_path: Path, capsys: Any
) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step("Step 2", start=True),
                step("Step 10", start=1),
                step("a start", start=True, Status="Pending"),
            ],
        ),
    )
    code, d = routes(capsys, root, "-w", "A")
    # "Step 10" sorts before "Step 2" (not numeric); the Pending one is not a candidate
    assert (code, d["winner"], d["source"]) == (0, "Step 10", None)
    main(["check", str(root)])
    out = capsys.readouterr().out
    assert "starting step 'Step 2' never runs" in out


def test_3_lowercase_sorts_before_uppercase_and_none_fails_the_run(
    tmp_path: Path, capsys: Any
) -> None:
    root = write(
        tmp_path,
        agent("A", [step("B start", start=True), step("b start", start=True)]),
        agent("None", [step("x", start=False)]),
    )
    _, d = routes(capsys, root, "-w", "A")
    assert d["winner"] == "b start"
    code, d = routes(capsys, root, "-w", "None")
    assert code == 1 and d["failed"] and d["winner"] is None
    assert d["message"] == (
        "Agent terminated after 10 consecutive failed steps. Last error: No current step in "
        "flow state after action execution"
    )


def test_3_an_agent_without_status_is_pending_and_never_runs(tmp_path: Path, capsys: Any) -> None:
    root = write(tmp_path, agent("A", [step("S", start=True)], status=None))
    code, d = routes(capsys, root, "-w", "A")
    assert code == 1 and d["failed"] and d["winner"] is None
    assert d["message"] == "Agent 'A' is not active. Current status: Pending"
    assert "Status is omitted" in d["reason"]


# 4 ---------------------------------------------------------------------------------------
def test_4_a_failed_step_without_a_path_fails_the_run_and_failed_paths_recover(
    tmp_path: Path, capsys: Any
) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step(
                    "Work",
                    start=True,
                    paths=[
                        path("Recover", "stepResult.step === 'Failed'", 5),
                        path("Next", "stepResult.step === 'Retry'", 1),
                    ],
                ),
                step("Plain", paths=[path("Next", "stepResult.step === 'Retry'")]),
                step("Recover"),
                step("Next"),
            ],
        ),
    )
    failed = json.dumps({"step": "Failed", "errorMessage": "boom"})
    _, d = routes(capsys, root, "-w", "A", "--from", "Work", "--step-result", failed)
    assert d["winner"] == "Recover"
    code, d = routes(capsys, root, "-w", "A", "--from", "Plain", "--step-result", failed)
    assert code == 1 and d["failed"] and d["message"] == "boom"


def test_4_a_missing_destination_is_retried_until_ten_failures(tmp_path: Path, capsys: Any) -> None:
    gone = path("x", None, 5)
    gone["fields"]["DestinationStepID"] = "00000000-0000-4000-8000-000000000000"
    root = write(tmp_path, agent("A", [step("Work", start=True, paths=[gone]), step("Other")]))
    code, d = routes(capsys, root, "-w", "A", "--from", "Work")
    assert code == 1 and d["failed"]
    assert d["message"].startswith(
        "Agent terminated after 10 consecutive failed steps. Last error: Destination step not found"
    )
    assert len(d["attempts"]) == 10


def test_4_an_inactive_destination_hands_back_and_a_recovery_path_wins(
    tmp_path: Path, capsys: Any
) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step(
                    "Work",
                    start=True,
                    paths=[
                        path("Off", "stepResult.step !== 'Failed'", 9),
                        path("Recover", "stepResult.step === 'Failed'", 1),
                    ],
                ),
                step("Off", Status="Disabled"),
                step("Recover"),
            ],
        ),
    )
    code, d = routes(capsys, root, "-w", "A", "--from", "Work")
    # first decision: Off is Disabled and Recover's condition is false → a failed decision;
    # handed back with the step's result now Failed, the recovery path is valid
    assert (code, d["winner"]) == (0, "Recover")
    assert [a["outcome"] for a in d["attempts"]] == ["retry-failed", "enter"]


# 5 ---------------------------------------------------------------------------------------
def test_5_ties_take_the_files_order_and_check_warns(tmp_path: Path, capsys: Any) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step("S", start=True, paths=[path("First", "true", 3), path("Second", None, 3)]),
                step("First"),
                step("Second"),
            ],
        ),
    )
    _, d = routes(capsys, root, "-w", "A", "--from", "S")
    assert d["winner"] == "First"
    main(["check", str(root)])
    assert "the database's row order decides" in capsys.readouterr().out


# 6 ---------------------------------------------------------------------------------------
def test_6_a_whitespace_condition_is_evaluated_false(tmp_path: Path, capsys: Any) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step("S", start=True, paths=[path("Blank", "   ", 5), path("Empty", "", 1)]),
                step("Blank"),
                step("Empty"),
            ],
        ),
    )
    _, d = routes(capsys, root, "-w", "A", "--from", "S")
    assert [c["outcome"] for c in d["candidates"]] == ["false", "always"]
    assert d["winner"] == "Empty"
    main(["check", str(root)])
    assert "a condition of only whitespace is evaluated" in capsys.readouterr().out


# 7 ---------------------------------------------------------------------------------------
def test_7_on_a_revisit_conditions_see_the_last_new_steps_result(
    tmp_path: Path, capsys: Any
) -> None:
    a = step(
        "A",
        start=True,
        paths=[
            path("Done", "stepResult !== null && stepResult.step === 'Failed'", 5),
            path("B", None, 0),
        ],
    )
    a["primaryKey"] = {"ID": "A0000000-0000-4000-8000-000000000001"}
    b = step("B", paths=[path("A")])
    b["primaryKey"] = {"ID": "B0000000-0000-4000-8000-000000000002"}
    root = write(tmp_path, agent("X", [a, b, step("Done")]))
    failed = json.dumps({"step": "Failed", "errorMessage": "x"})
    _, first = routes(capsys, root, "-w", "X", "--from", "A", "--step-result", failed)
    assert first["winner"] == "Done"
    fc = json.dumps(
        {
            "executionPath": [a["primaryKey"]["ID"], b["primaryKey"]["ID"]],
            "completedSteps": [a["primaryKey"]["ID"], b["primaryKey"]["ID"]],
        }
    )
    _, again = routes(
        capsys, root, "-w", "X", "--from", "A", "--step-result", failed, "--flow-context", fc
    )
    # A is not re-appended to executionPath: stepResult is B's result (none given here)
    assert again["winner"] == "B"


# 8 ---------------------------------------------------------------------------------------
def test_8_a_loop_with_a_prompt_body_is_entered_and_fails(tmp_path: Path, capsys: Any) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step("S", start=True, paths=[path("Loop")]),
                step(
                    "Loop",
                    "While",
                    LoopBodyType="Prompt",
                    Configuration={"condition": "payload.n < 3", "itemVariable": "item"},
                ),
                step(
                    "Each",
                    "ForEach",
                    LoopBodyType="Action",
                    ActionID="@lookup:MJ: Actions.Name=A",
                    Configuration={"collectionPath": "payload.items"},
                ),
            ],
        ),
    )
    code, d = routes(capsys, root, "-w", "A", "--from", "S")
    assert (code, d["winner"], d["failed"]) == (0, "Loop", False)
    assert d["entered_failure"] == "Prompt loop bodies not yet fully supported"
    main(["check", str(root)])
    out = capsys.readouterr().out
    assert "loop 'Each' has no itemVariable: BaseAgent refuses to run the loop" in out


# 9 ---------------------------------------------------------------------------------------
def test_9_a_human_step_is_entered_and_fails_with_unknown_step_type(
    tmp_path: Path, capsys: Any
) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step("S", start=True, paths=[path("Approve")]),
                step("Approve", "Human"),
            ],
        ),
    )
    code, d = routes(capsys, root, "-w", "A", "--from", "S")
    assert (code, d["winner"]) == (0, "Approve")
    assert d["entered_failure"] == "Unknown step type: Human"
    # from the Human step: its failure has no recovery path, so the run fails
    code, d = routes(capsys, root, "-w", "A", "--from", "Approve")
    assert code == 1 and d["failed"] and d["message"] == "Unknown step type: Human"
    assert main(["check", str(root)]) == 0  # a warning, not a refusal
    assert "5.51.3 has no step type 'Human'" in capsys.readouterr().out


# 10 --------------------------------------------------------------------------------------
def test_10_action_input_mapping_resolves_payload_data_context_and_static(
    tmp_path: Path, capsys: Any
) -> None:
    mapping = {
        "Who": "payload.user.name",
        "Flag": "data.flag",
        "Key": "context.apiKey",
        "Fixed": "static:a:b",
        "Lit": "plain text",
        "Gone": "payload.nope",
    }
    root = write(tmp_path, agent("A", [step("S", start=True, ActionInputMapping=mapping)]))
    args = [
        "-w",
        "A",
        "--payload",
        '{"user": {"name": "Ann"}}',
        "--data",
        '{"flag": true}',
        "--context",
        '{"apiKey": "sk-secret-123456"}',
    ]
    _, d = routes(capsys, root, *args)
    params = d["action_params"]
    assert params["Who"] == "Ann" and params["Flag"] is True and params["Fixed"] == "a:b"
    assert params["Lit"] == "plain text" and params["Gone"] == {"$undefined": True}
    assert params["Key"] == "***"  # context may hold keys: masked unless --reveal
    _, d = routes(capsys, root, *args, "--reveal")
    assert d["action_params"]["Key"] == "sk-secret-123456"
    # without params.data, "data.flag" is passed as the literal text
    _, d = routes(capsys, root, "-w", "A")
    assert d["action_params"]["Flag"] == "data.flag"


# the interface held-out cases use ------------------------------------------------------------
def test_routes_on_the_corpus_with_the_runtime_named(capsys: Any) -> None:
    code, d = routes(
        capsys,
        CORPUS,
        "-w",
        "Demo Flow Agent",
        "--runtime",
        "memberjunction-5.51.3",
        "--from",
        "Step 1: Get NVIDIA Stock Price",
        "--payload",
        '{"stockPrice": 400}',
    )
    assert (code, d["winner"], d["ended"], d["failed"]) == (
        0,
        "Step 2(b): Web Search",
        False,
        False,
    )
    code, d = routes(capsys, CORPUS, "-w", "Content Pipeline", "--from", "Draft the piece")
    assert d["winner"] == "Review against brand rules"
    assert d["entered_failure"] == "Prompt loop bodies not yet fully supported"


def test_routes_refuses_a_mozaiks_runtime_and_unknown_names(capsys: Any) -> None:
    assert main(["routes", str(CORPUS), "-w", "BLA", "--runtime", "mozaiks"]) == 2
    assert "memberjunction-5.51.3" in capsys.readouterr().err
    assert main(["routes", str(CORPUS), "-w", "Demo Loop Agent"]) == 2
    assert "is not a flow agent: its type is Loop" in capsys.readouterr().err
    assert main(["routes", str(CORPUS), "-w", "BLA", "--from", "Nope"]) == 2
    assert "steps: Assemble Prompt, Execute Prompt" in capsys.readouterr().err


def test_the_demo_is_mixed_mozaiks_workflows_and_mj_metadata(capsys: Any) -> None:
    from flowctx_tui.cli.workspace_args import demo_path

    demo = demo_path()
    ok = json.dumps({"step": "Retry", "priorStepResult": [{"success": True}]})
    code, d = routes(
        capsys,
        demo,
        "-w",
        "ApprovalFlow",
        "--from",
        "Validate",
        "--step-result",
        ok,
        "--payload",
        '{"validation": {"valid": true}}',
    )
    assert (code, d["winner"]) == (0, "AwaitApproval")
    # the same step under the stepResult an author might expect: 5.51.3 never gives it
    code, d = routes(capsys, demo, "-w", "ApprovalFlow", "--from", "Validate")
    assert d["winner"] == "Rejected"
    # the Mozaiks workflows of the same folder are still Mozaiks
    main(["routes", str(demo), "-w", "Triage", "--from", "user", "--format", "json"])
    assert json.loads(capsys.readouterr().out)["runtime"].startswith("mozaiks")
    code = main(["check", str(demo), "-w", "ApprovalFlow", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["workflows"] == ["ApprovalFlow"]


def test_8_a_while_condition_sees_only_payload_results_and_errors(
    tmp_path: Path, capsys: Any
) -> None:
    root = write(
        tmp_path,
        agent(
            "A",
            [
                step(
                    "Loop",
                    "While",
                    start=True,
                    LoopBodyType="Action",
                    ActionID="@lookup:MJ: Actions.Name=Poll",
                    Configuration={
                        "condition": "data.keepGoing && payload.n < 3",
                        "itemVariable": "i",
                    },
                ),
            ],
        ),
    )
    main(["check", str(root)])
    out = capsys.readouterr().out
    assert "its condition reads 'data', but a While condition sees only payload, results" in out
    # the loop itself is entered: its body is an action
    _, d = routes(capsys, root, "-w", "A")
    assert d["winner"] == "Loop" and d["entered_failure"] is None


def test_the_runtime_option_picks_mj_in_a_mixed_folder(capsys: Any) -> None:
    from flowctx_tui.cli.workspace_args import demo_path

    code = main(
        ["check", str(demo_path()), "--runtime", "memberjunction-5.51.3", "--format", "json"]
    )
    doc = json.loads(capsys.readouterr().out)
    assert code == 0 and doc["workflows"] == ["ApprovalFlow"]
    assert main(["check", str(demo_path() / "workflows"), "--runtime", "memberjunction"]) == 2
    assert "judges MemberJunction agent metadata" in capsys.readouterr().err
