"""Routing as mozaiks 0.2.0 compiles it, through ``flowctx`` as a user runs it: every condition
rule before any ``after_turn`` fallback (the shipped AppGenerator's main path), the tool a
turn routes on, files the runtime never opens, and what is masked."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from flowctx_tui.cli.workspace_args import demo_path
from tests.differential.mozaiks_oracle import cache_dir

FIXTURE = Path(__file__).parents[1] / "fixtures" / "appgenerator_routing"
READY = '{"app_plan_outcome":"ready","app_task_batch_status":"completed"}'


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _shipped_factory_app() -> Path | None:
    """The wheel's factory_app when the test cache holds the installed release."""
    found = sorted((cache_dir() / "venv").glob("lib/python*/site-packages/factory_app"))
    return found[0] if found and (found[0] / "workflows" / "AppGenerator").is_dir() else None


@pytest.fixture
def appgen(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    return root


def test_conditions_are_tried_before_an_after_turn_written_above_them(appgen, capsys) -> None:
    code, out, err = run(
        capsys, "routes", str(appgen), "-w", "AppGenerator", "--from", "AppPlanAgent",
        "--context", READY,
    )  # fmt: skip
    assert code == 0, err
    assert (
        "winner: AssemblyAgent (rule 3 (line 80) is the first rule that matches: its condition "
        "holds)" in out
    )
    # the fallback written third is listed (and numbered) last, with why
    lines = out.splitlines()
    fallback = next(i for i, line in enumerate(lines) if line.startswith("   5. → terminate"))
    assert "transition_graph.yaml:75:3" in lines[fallback]
    assert (
        "this after_turn fallback is tried after every condition rule of AppPlanAgent"
        in (lines[fallback + 1])
    )
    # no second numbering scheme beside the one test files use
    assert "transition_rules[" not in out
    # JSON: the same order and winner
    code, out, _ = run(
        capsys, "routes", str(appgen), "-w", "AppGenerator", "--from", "AppPlanAgent",
        "--context", READY, "--format", "json",
    )  # fmt: skip
    (decision,) = json.loads(out)["decisions"]
    assert decision["winner"] == "AssemblyAgent"
    assert [c["index"] for c in decision["candidates"]] == [9, 10, 12, 13, 11]


def test_check_notes_each_rule_whose_runtime_order_differs(appgen, capsys) -> None:
    code, out, _ = run(capsys, "check", str(appgen))
    assert code == 0, out
    assert (
        "workflows/AppGenerator/transition_graph.yaml:75:3: warning: transition_rules[11]: "
        "runtime order differs from file order: this after_turn fallback is tried after every "
        "condition rule of AppPlanAgent, also those below it (line 80, 87)" in out
    )
    assert "transition_graph.yaml:80:3: warning" in out and "transition_graph.yaml:87:3" in out
    code, out, _ = run(capsys, "check", str(appgen), "--format", "json")
    orders = [p for p in json.loads(out)["problems"] if p["code"] == "routing.order"]
    assert [(p["line"], p["severity"]) for p in orders] == [
        (75, "warning"),
        (80, "warning"),
        (87, "warning"),
    ]
    # the agents come from agents.yaml: no false 'not an agent' warning
    assert "is not an agent of" not in out


def test_test_and_suggest_reach_the_main_success_path(appgen, capsys) -> None:
    tests = appgen / ".flowctx" / "tests"
    tests.mkdir(parents=True)
    (tests / "plan.yaml").write_text(
        "workflow: AppGenerator\ncases:\n"
        "  - name: a ready plan with a completed batch goes to assembly\n"
        f"    context: {READY}\n"
        "    expect:\n      route: {from: AppPlanAgent, to: AssemblyAgent}\n"
        "  - name: a blocked plan ends the run\n"
        "    expect:\n      route: {from: AppPlanAgent, rule: 2}\n"
    )
    code, out, _ = run(capsys, "test", str(appgen), "--suggest")
    assert code == 0, out
    assert "2 passed, 0 failed" in out
    assert "unreachable" not in out and "no witness found" not in out


def test_the_graph_draws_the_runtime_winner(appgen, capsys) -> None:
    code, out, _ = run(
        capsys, "graph", str(appgen), "-w", "AppGenerator", "--context", READY,
        "--format", "mermaid",
    )  # fmt: skip
    assert code == 0
    assert '==>|"★ 3. context_equals' in out and "AssemblyAgent" in out


def test_the_shipped_appgenerator_routes_to_assembly(capsys) -> None:
    factory = _shipped_factory_app()
    if factory is None:
        pytest.skip(
            f"mozaiks 0.2.0 is not installed under {cache_dir()} (the differential makes it)"
        )
    code, out, _ = run(
        capsys, "routes", str(factory), "-w", "AppGenerator", "--from", "AppPlanAgent",
        "--context", READY,
    )  # fmt: skip
    assert code == 0
    assert "winner: AssemblyAgent (rule 3 (line 90)" in out


def test_tool_calls_are_routed_in_the_order_they_were_made(appgen, capsys) -> None:
    graph = appgen / "workflows" / "AppGenerator" / "transition_graph.yaml"
    graph.write_text(
        graph.read_text()
        + "".join(
            f"- source_agent: AssemblyAgent\n  target_agent: {target}\n"
            f"  transition_type: condition\n  condition_type: tool_called\n  tool_name: {tool}\n"
            for tool, target in (("go_b", "AppPlanAgent"), ("go_c", "InterviewAgent"))
        )
    )
    code, out, _ = run(
        capsys, "routes", str(appgen), "-w", "AppGenerator", "--from", "AssemblyAgent",
        "--tool-called", "go_c", "--tool-called", "go_b",
    )  # fmt: skip
    assert code == 0, out
    # the first graph tool called is the one the turn routes on, not the rule written first
    assert "winner: InterviewAgent" in out
    assert "the runtime routes on 'go_c'" in out
    code, out, _ = run(
        capsys, "routes", str(appgen), "-w", "AppGenerator", "--from", "AssemblyAgent",
        "--tool-called", "go_b", "--tool-called", "go_c",
    )  # fmt: skip
    assert "winner: AppPlanAgent" in out


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    return root


def _flip_interview_rule(root: Path) -> None:
    graph = root / "workflows" / "AppGenerator" / "transition_graph.yaml"
    text = graph.read_text()
    assert "condition_value: true\n" in text
    graph.write_text(text.replace("condition_value: true\n", "condition_value: false\n", 1))


def test_handoffs_never_pass_a_test_under_the_release(demo, capsys) -> None:
    _flip_interview_rule(demo)
    code, out, _ = run(capsys, "test", str(demo), "-k", "interview is complete")
    assert code == 1, out
    assert "FAIL  AppGenerator: the interview is complete, so the planner takes over" in out
    assert "handoff_rules[0] holds" not in out
    # under a runtime that read handoffs.yaml, the legacy rule still routes
    code, out, _ = run(
        capsys, "test", str(demo), "-k", "interview is complete", "--runtime", "mozaiks-2026-01"
    )
    assert "PASS  AppGenerator: the interview is complete" in out


def test_handoffs_are_never_covered_nor_drawn_as_taken(demo, capsys) -> None:
    _, out, _ = run(capsys, "test", str(demo), "--coverage", "--format", "json")
    doc = json.loads(out)
    kinds = {r["file_kind"] for r in doc["coverage"]["rules"]}
    assert "handoffs" not in kinds
    _, out, _ = run(capsys, "graph", str(demo), "-w", "AppGenerator", "--format", "dot")
    assert "NOT READ: runtime mozaiks-0.2.0 never reads handoffs.yaml" in out
    handoff_edges = [line for line in out.splitlines() if '"ho1_' in line and "->" in line]
    assert handoff_edges and not any("penwidth" in line for line in handoff_edges)
    _code, out, _ = run(capsys, "graph", str(demo), "-w", "AppGenerator")
    assert "NOT READ" in out


def test_diff_lists_a_verdict_that_only_handoffs_kept(demo, capsys) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")

    def git(*args: str) -> None:
        subprocess.run(
            ["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *args],
            cwd=demo, check=True, capture_output=True,
        )  # fmt: skip

    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "base")
    _flip_interview_rule(demo)
    _code, out, _ = run(capsys, "diff", str(demo), "--base", "HEAD")
    assert "the interview is complete, so the planner takes over" in out


def test_a_value_typed_for_a_plain_variable_is_shown(demo, capsys) -> None:
    code, out, _ = run(
        capsys, "routes", str(demo), "-w", "AppGenerator", "--from", "ReviewAgent",
        "--context", '{"deploy_choice":"production"}',
    )  # fmt: skip
    assert code == 0
    assert "${deploy_choice} -> 'production'" in out
    assert "***" not in out
    # a secret-looking name typed by the user is masked, and says why
    code, out, _ = run(
        capsys, "routes", str(demo), "-w", "AppGenerator", "--from", "ReviewAgent",
        "--context", '{"deploy_choice":"production","api_token":"tok-typed-12345"}',
    )  # fmt: skip
    assert "tok-typed-12345" not in out


def test_a_folder_the_runtime_reads_as_a_mozaiks_workflow_is_answered_as_one(capsys) -> None:
    # the demo's Approvals folder holds orchestrator.yaml (so mozaiks 0.2.0 discovers it) and a
    # MemberJunction flow.yaml, but no transition_graph.yaml: every agent turn ends the run
    code, out, err = run(
        capsys, "routes", str(demo_path()), "-w", "Approvals", "--from", "ApproverAgent"
    )
    assert code == 0, err
    assert out.splitlines() == [
        "Approvals: no rule leaves 'ApproverAgent' (the workflow has no transition_graph.yaml): "
        "the run ends (TerminateTarget, reason no_transition_matched)",
        "note: runtime mozaiks-0.2.0 reads this folder as a Mozaiks workflow (it holds "
        "orchestrator.yaml); its flow.yaml is a MemberJunction flow agent's, which that runtime "
        "never reads",
    ]
    # a name that is no agent and no step is still a typo
    code, _, err = run(capsys, "routes", str(demo_path()), "-w", "Approvals", "--from", "Nobody")
    assert code == 2 and "no step or agent" in err


def test_a_graph_refusal_is_reported_from_every_source_user_included(capsys) -> None:
    for source in ("TriageAgent", "user"):
        _, out, _ = run(capsys, "routes", str(demo_path()), "-w", "Triage", "--from", source)
        assert out.startswith(
            "REFUSED: runtime mozaiks-0.2.0 would not compile this workflow's graph (graph "
            "compile): workflows/Triage/transition_graph.yaml:3:5"
        ), source
        _code, out, _ = run(
            capsys, "routes", str(demo_path()), "-w", "Triage", "--from", source, "--format", "json"
        )
        assert json.loads(out)["refused"]["stage"] == "graph", source


def test_the_packaged_projection_root_is_named_when_flowctx_cannot_read_it(
    demo: Path, tmp_path: Path, capsys
) -> None:
    # mozaiks 0.2.0 reads its installed factory_app/build_context before the workspace's: when
    # flowctx cannot find that package, the prompt says the projection may lack its catalog
    code, out, _ = run(capsys, "prompt", str(demo), "-w", "AppGenerator", "-a", "PatternAgent")
    assert code == 0
    assert "note: mozaiks 0.2.0 also reads its installed factory_app/build_context" in out
    assert "set MOZAIKS_FACTORY_APP_PATH to the installed factory_app folder" in out
    # pointed at one (the release's own when the test cache holds it), the note goes and the
    # packaged registries are read first
    factory = _shipped_factory_app()
    if factory is None:
        factory = tmp_path / "site" / "factory_app"
        (factory / "build_context").mkdir(parents=True)
    code, out, _ = run(
        capsys, "prompt", str(demo), "-w", "AppGenerator", "-a", "PatternAgent",
        "--env", f"MOZAIKS_FACTORY_APP_PATH={factory}",
    )  # fmt: skip
    assert code == 0
    assert "flowctx cannot find that package here" not in out


def test_agents_come_from_agents_yaml_under_the_release(appgen, capsys) -> None:
    # AssemblyAgent and AppValidationAgent are defined in agents.yaml only, as in the shipped
    # AppGenerator: no false warning, no wrong rename
    code, out, _ = run(capsys, "check", str(appgen))
    assert code == 0 and "is not an agent of" not in out
    graph = appgen / "workflows" / "AppGenerator" / "transition_graph.yaml"
    graph.write_text(
        graph.read_text().replace(
            "target_agent: AppValidationAgent\n", "target_agent: AppValidatonAgent\n", 1
        )
    )
    code, out, _ = run(capsys, "check", str(appgen))
    assert (
        "target agent 'AppValidatonAgent' is not an agent of "
        "workflows/AppGenerator/agents.yaml (did you mean 'AppValidationAgent'?)" in out
    )
