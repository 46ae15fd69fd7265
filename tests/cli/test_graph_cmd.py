"""``flowctx graph`` end to end through main(): every format, the scenario options, a saved
scenario, ``--from`` and ``--file``, bad input, masking."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.core.test_routing_graph import (
    CONTRACT,
    DB_URL,
    FLOW,
    HANDOFFS,
    RULES,
    TOKEN,
    mermaid_problems,
)


@pytest.fixture
def root(workspace, monkeypatch) -> Path:
    monkeypatch.setenv("SERVICE_TOKEN", TOKEN)
    monkeypatch.setenv("DEPLOY_ENVIRONMENT", "staging")
    monkeypatch.setenv("DB_URL", DB_URL)
    return workspace(
        {
            "workflows/Flow/context_variables.yaml": CONTRACT,
            "workflows/Flow/flow.yaml": FLOW,
            "workflows/Rules/context_variables.yaml": CONTRACT,
            "workflows/Rules/transition_graph.yaml": RULES,
            "workflows/Rules/handoffs.yaml": HANDOFFS,
            "workflows/Bare/context_variables.yaml": CONTRACT,
        }
    )


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main(["graph", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_draws_boxes_and_marks_the_winner(root, capsys):
    code, out, err = run(capsys, root, "-w", "Flow", "--data", '{"userApproval": true}')
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("flowctx graph: workflow Flow, runtime mozaiks")
    assert lines[1] == "scenario: --data"
    assert "workflows/Flow/flow.yaml (MemberJunction flow)" in lines
    assert any(line.startswith("┌─ AwaitApproval · Prompt ─") for line in lines)
    winner = next(line for line in lines if "→ Approved" in line)
    assert winner.startswith("│★ 2. → Approved  path p20: data.userApproval === true")
    # the winner's line leaves its box heavy
    assert winner.split()[-2] == "true" and "┝━" in winner


def test_the_default_scenario_marks_other_winners(root, capsys):
    code, out, _ = run(capsys, root, "-w", "Flow")
    assert code == 0
    assert "scenario: default (the resolved context variables only)" in out
    assert any(line.startswith("│★ 3. → Rejected  path p0") for line in out.splitlines())


def test_mermaid_and_dot_formats(root, capsys):
    code, out, err = run(capsys, root, "-w", "Rules", "--format", "mermaid")
    assert code == 0, err
    assert out.startswith("flowchart TD\n  %% flowctx graph: workflow Rules")
    assert mermaid_problems(out.rstrip("\n")) == []
    assert '  subgraph tg0_file["workflows/Rules/transition_graph.yaml"]' in out
    assert '  tg0_InterviewAgent ==>|"★ 2. after_turn"| tg0_user' in out
    code, out, _ = run(capsys, root, "-w", "Rules", "--format", "dot", "--file", "handoffs")
    assert code == 0
    assert out.startswith('digraph "Rules" {') and "cluster_0" in out and "cluster_1" not in out
    # mozaiks 0.2.0 never opens handoffs.yaml: no edge of it is the route taken
    assert "NOT READ: runtime mozaiks-0.2.0 never reads handoffs.yaml" in out
    assert (
        '"ho0_ReviewAgent" -> "ho0_terminate" [label="3. after_work [skipped]", style=dashed]'
        in out
    )
    assert "penwidth" not in out
    code, out, _ = run(
        capsys,
        root,
        "-w",
        "Rules",
        "--format",
        "dot",
        "--file",
        "handoffs",
        "--runtime",
        "mozaiks-2026-01",
    )
    assert code == 0
    assert '"ho0_ReviewAgent" -> "ho0_terminate" [label="★ 3. after_work", penwidth=3' in out


def test_tool_called_and_context_options_move_the_winner(root, capsys):
    code, out, _ = run(
        capsys, root, "-w", "Rules", "--format", "mermaid", "--file", "transition_graph",
        "--tool-called", "request_revision", "--context", '{"interview_complete": true}',
    )  # fmt: skip
    assert code == 0
    assert "%% scenario: --context, --tool-called" in out
    assert '  tg_PlannerAgent ==>|"★ 1. tool_called: request_revision"| tg_InterviewAgent' in out
    assert (
        '  tg_InterviewAgent ==>|"★ 1. context_equals: interview_complete == True"| tg_PlannerAgent'
    ) in out


def test_a_saved_scenario_is_applied(root, capsys):
    folder = root / ".flowctx" / "scenarios" / "Flow"
    folder.mkdir(parents=True)
    (folder / "approve.json").write_text(
        json.dumps({"format": "flowctx-scenario/1", "data": {"userApproval": True}}),
        encoding="utf-8",
    )
    code, out, err = run(capsys, root, "-w", "Flow", "--scenario", "approve", "--width", "120")
    assert code == 0, err
    assert "scenario: saved scenario 'approve'" in out
    assert any(line.startswith("│★ 2. → Approved") for line in out.splitlines())
    code, _, err = run(capsys, root, "-w", "Flow", "--scenario", "aprove")
    assert code == 2
    assert "no scenario named 'aprove'" in err and "did you mean 'approve'" in err


def test_from_keeps_what_is_reachable(root, capsys):
    code, out, _ = run(
        capsys, root, "-w", "Rules", "--from", "plannerAGENT", "--file", "transition_graph"
    )
    assert code == 0
    tops = [line.split("─ ", 1)[1].split(" ")[0] for line in out.splitlines() if "┌─" in line]
    assert tops == ["PlannerAgent", "InterviewAgent", "user", "terminate"]
    code, _, err = run(capsys, root, "-w", "Rules", "--from", "Planer")
    assert code == 2
    assert "no step or agent named 'Planer'" in err and "did you mean 'PlannerAgent'" in err


def test_bad_input_is_a_message(root, capsys):
    code, _, err = run(capsys, root, "-w", "Bare")
    assert code == 2 and "has no routing file" in err
    code, _, err = run(capsys, root, "-w", "Flow", "--data", "{oops")
    assert code == 2 and "--data:1:2: invalid JSON" in err
    code, _, err = run(capsys, root, "-w", "Flow", "--file", "handoffs")
    assert code == 2 and "has no handoffs.yaml routing file" in err
    (root / "workflows/Flow/flow.yaml").write_text("steps: [\n", encoding="utf-8")
    code, _, err = run(capsys, root, "-w", "Flow")
    # located at the '[' the file ends inside; the file is not called missing
    assert code == 2 and "workflows/Flow/flow.yaml:1:8: YAML syntax error" in err
    assert "has no routing file flowctx could read" in err


def test_secrets_stay_masked_in_every_format(root, capsys):
    for fmt in ("text", "mermaid", "dot"):
        code, out, err = run(capsys, root, "-w", "Rules", "--format", fmt, "--width", "200")
        assert code == 0, err
        assert TOKEN not in out + err
        assert "let-me-in-please" not in out and "hunter2-pw" not in out
        assert "service_token == ***" in out


def test_help_lists_graph(capsys):
    assert main(["--help"]) == 0
    assert "graph      draw a workflow's routing files as a graph" in capsys.readouterr().out


def test_colour_only_on_a_terminal(root, capsys):
    from flowctx_core.routing import load_routes
    from flowctx_core.routing.graph import build_graphs
    from flowctx_core.routing.graph_render import to_text
    from flowctx_core.session import open_session
    from flowctx_tui.cli.graph_cmd import paint
    from flowctx_tui.cli.terminal import safe_text

    code, out, _ = run(capsys, root, "-w", "Flow")  # captured: not a terminal
    assert code == 0 and "\x1b[" not in out
    session = open_session(root, env={})
    graphs = build_graphs(load_routes(session.load("Flow")), session.matrix("Flow"))
    painted = safe_text(to_text(graphs, width=100, paint=paint))
    assert "\x1b[1;32m★\x1b[0m" in painted and "\x1b[31mfalse\x1b[0m" in painted
    # the same picture underneath the colours
    assert painted.replace("\x1b[0m", "").count("\x1b[") > 10
    plain_text = to_text(graphs, width=100)
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", painted) == plain_text
