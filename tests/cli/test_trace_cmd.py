"""``flowctx trace``: a whole run turn by turn, through ``main()`` on real files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from flowctx_tui.cli.workspace_args import demo_path

FIXTURE = Path(__file__).parents[1] / "fixtures" / "appgenerator_routing"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["trace", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def appgen(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    return root


def test_the_main_success_path_from_the_initial_user_entry(appgen, capsys) -> None:
    code, out, err = run(
        capsys, str(appgen), "--context", '{"coding_participation": "autonomous"}',
        "--turn",
        'AppPlanAgent={"app_plan_outcome": "ready", "app_task_batch_status": "completed"}',
        "--turn", "AssemblyAgent", "--turn", "AppValidationAgent",
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "AppGenerator: trace from AppPlanAgent [runtime mozaiks 0.2.0 (2026-10)]"
    # initial_agent: user is resolved through the graph with the starting context
    assert "initial_agent user resolves through the graph to AppPlanAgent" in lines[1]
    assert lines[2] == (
        "   1. AppPlanAgent → AssemblyAgent  rule 3 "
        "(workflows/AppGenerator/transition_graph.yaml:80:3)"
    )
    assert "path: AppPlanAgent → AssemblyAgent → AppValidationAgent" in out
    assert out.rstrip().endswith(
        "ended (workflow_complete): rule 1 (line 98) is the first rule that matches: after_turn "
        "always holds; the run ends (workflow_complete)"
    )


def test_json_steps_have_one_generic_shape(appgen, capsys) -> None:
    code, out, _ = run(
        capsys, str(appgen), "--from", "AppPlanAgent", "--format", "json",
        "--turn", '*={"app_plan_outcome": "needs_revision"}', "--turn", "*",
        "--turn", '*={"set": {"app_plan_outcome": "blocked"}}',
    )  # fmt: skip
    assert code == 1  # workflow_failed: the runtime reports the run as failed
    doc = json.loads(out)
    assert doc["path"] == ["AppPlanAgent", "AppPlanAgent", "AppPlanAgent"]
    assert (doc["outcome"], doc["closed"], doc["run_failed"]) == ("ended", "workflow_failed", True)
    assert doc["max_turns"] == 25
    first, _, last = doc["steps"]
    assert set(first) == {
        "turn", "source", "winner", "rule", "location", "file", "kind", "reason", "ended",
        "failed", "closed",
    }  # fmt: skip
    assert (first["source"], first["winner"], first["rule"]) == ("AppPlanAgent", "AppPlanAgent", 1)
    assert (last["winner"], last["ended"], last["closed"]) == ("terminate", True, "workflow_failed")


def test_max_turns_and_an_uncovered_turn(appgen, capsys) -> None:
    code, out, _ = run(
        capsys, str(appgen), "--from", "AppPlanAgent", "--max-turns", "2",
        "--context", '{"app_plan_outcome": "needs_revision"}', "--turn", "*", "--turn", "*",
        "--turn", "*",
    )  # fmt: skip
    assert code == 1
    assert "max_turns (max_turns): turn 2 reached max_turns (2) with AppPlanAgent next" in out
    code, out, _ = run(
        capsys, str(appgen), "--from", "AppPlanAgent",
        "--context", '{"app_plan_outcome": "needs_revision"}', "--turn", "*",
    )  # fmt: skip
    assert code == 0
    assert out.rstrip().endswith(
        "uncovered: the script does not say what AppPlanAgent's turn (2) does"
    )
    code, out, _ = run(
        capsys, str(appgen), "--from", "AppPlanAgent", "--turn", "InterviewAgent",
    )  # fmt: skip
    assert "uncovered: turn 1 of the script is InterviewAgent's, but AppPlanAgent speaks" in out


def test_tools_are_called_in_order(appgen, capsys) -> None:
    graph = appgen / "workflows" / "AppGenerator" / "transition_graph.yaml"
    graph.write_text(
        graph.read_text()
        + "".join(
            f"- source_agent: AssemblyAgent\n  target_agent: {target}\n"
            f"  transition_type: condition\n  condition_type: tool_called\n  tool_name: {tool}\n"
            for tool, target in (("go_b", "AppPlanAgent"), ("go_c", "InterviewAgent"))
        )
    )
    _code, out, _ = run(
        capsys, str(appgen), "--from", "AssemblyAgent", "--format", "json",
        "--turn", '*={"tools": ["go_c", "go_b"]}',
    )  # fmt: skip
    assert json.loads(out)["path"] == ["AssemblyAgent", "InterviewAgent"]


def test_a_script_file_and_its_located_problems(appgen, capsys, tmp_path) -> None:
    script = tmp_path / "run.yaml"
    script.write_text(
        "from: AppPlanAgent\ncontext: {app_plan_outcome: ready}\nturns:\n"
        "  - agent: AppPlanAgent\n    set: {app_task_batch_status: partial}\n"
        "  - agent: AssemblyAgent\n"
    )
    code, out, _ = run(capsys, str(appgen), "--script", str(script))
    assert code == 0
    assert "path: AppPlanAgent → AssemblyAgent → AppValidationAgent" in out
    script.write_text("turns:\n  - agent: A\n    tool: [x]\n")
    code, out, err = run(capsys, str(appgen), "--script", str(script))
    assert code == 2 and out == ""
    assert f"{script}:3:5" in err and "tool" in err


def test_bad_turns_are_usage_errors(appgen, capsys) -> None:
    code, _, err = run(capsys, str(appgen), "--turn", "=x")
    assert code == 2 and "--turn needs the speaker's name" in err
    code, _, err = run(capsys, str(appgen), "--turn", 'A={"tools": "go"}')
    assert code == 2 and "'tools' must be a list of tool names" in err
    code, _, err = run(capsys, str(appgen), "--turn", "A={nope")
    assert code == 2 and "--turn A" in err


def test_a_refused_graph_is_reported_from_every_start(capsys) -> None:
    # the demo's Triage graph does not compile (a routing key with no writer): the run never
    # starts, whoever is asked to speak first
    for start in ("TriageAgent", "user"):
        code, out, _ = run(capsys, str(demo_path()), "-w", "Triage", "--from", start, "--turn", "*")
        assert code == 1, start
        assert out.startswith("REFUSED: runtime mozaiks-0.2.0 would not compile"), start


def test_a_test_case_can_expect_a_path(appgen, capsys) -> None:
    tests = appgen / ".flowctx" / "tests"
    tests.mkdir(parents=True)
    (tests / "runs.yaml").write_text(
        "workflow: AppGenerator\ncases:\n"
        "  - name: a revision loops once, then the blocked plan ends the run\n"
        "    turns:\n"
        "      - {agent: AppPlanAgent, set: {app_plan_outcome: needs_revision}}\n"
        "      - agent: AppPlanAgent\n"
        "        set: {app_plan_outcome: ready, app_task_batch_status: completed}\n"
        "      - {agent: AssemblyAgent}\n"
        "    expect:\n      path: [AppPlanAgent, AppPlanAgent, AssemblyAgent, AppValidationAgent]\n"
        "  - name: without turns each step changes nothing\n"
        "    context: {app_plan_outcome: needs_revision}\n"
        "    expect:\n      path: [AppPlanAgent, AppPlanAgent, AppPlanAgent]\n"
        "  - name: a wrong expectation fails with the path taken\n"
        "    expect:\n      path: [AppPlanAgent, AssemblyAgent]\n"
        "  - name: an unknown start is a located problem\n"
        "    expect:\n      path: [AppPlanAgnt, AssemblyAgent]\n"
    )
    code = main(["test", str(appgen)])
    out = capsys.readouterr().out
    assert code == 2, out
    assert "PASS  AppGenerator: a revision loops once" in out
    assert "PASS  AppGenerator: without turns each step changes nothing" in out
    assert "FAIL  AppGenerator: a wrong expectation fails with the path taken" in out
    assert "expected path AppPlanAgent → AssemblyAgent" in out
    assert "got path AppPlanAgent → terminate" not in out
    assert "got path AppPlanAgent; ended (workflow_failed)" in out
    assert (
        ".flowctx/tests/runs.yaml:20:13: cases[3].expect.path: path: no step or agent named "
        "'AppPlanAgnt' has routes in AppGenerator (did you mean 'AppPlanAgent'?)" in out
    )


def test_a_run_the_runner_would_not_start(appgen, capsys) -> None:
    orch = appgen / "workflows" / "AppGenerator" / "orchestrator.yaml"
    orch.write_text(orch.read_text().replace("initial_agent: user\n", ""))
    code, out, _ = run(capsys, str(appgen), "--turn", "*")
    assert code == 1
    assert "refused: orchestrator.yaml names no initial_agent" in out
    code, out, _ = run(capsys, str(appgen), "--from", "GhostAgent", "--turn", "*")
    assert code == 1
    assert "refused: initial agent 'GhostAgent' is not an agent of agents.yaml" in out
    # user re-entry that resolves to no agent: the runner refuses too
    orch.write_text(orch.read_text() + "initial_agent: user\n")
    code, out, _ = run(
        capsys, str(appgen), "--context",
        '{"interview_outcome": "ready", "app_assembly_status": "ok"}', "--turn", "*",
    )  # fmt: skip
    assert code == 1
    assert "refused: initial_agent user resolves to terminate through the graph" in out


def test_every_json_key_is_documented(appgen, capsys) -> None:
    import re

    page = (Path(__file__).parents[2] / "docs" / "commands" / "trace.md").read_text()
    documented = {
        k for row in re.findall(r"^\| (.+?) \|", page, re.M) for k in re.findall(r"`(\w+)`", row)
    }
    _, out, _ = run(
        capsys, str(appgen), "--from", "AppPlanAgent", "--format", "json", "--turn", "*"
    )
    doc = json.loads(out)
    assert set(doc) <= documented, set(doc) - documented
    assert set(doc["steps"][0]) <= documented, set(doc["steps"][0]) - documented
