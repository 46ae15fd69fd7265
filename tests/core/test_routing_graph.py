"""The routing graph of each routing file kind, and its Mermaid, DOT and box drawing, over real
workspaces in tmp_path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from flowctx_core.model.scenarios import Scenario
from flowctx_core.routing import load_routes
from flowctx_core.routing.graph import RoutingGraph, build_graphs, layer_order
from flowctx_core.routing.graph_draw import BOX, draw, plain
from flowctx_core.routing.graph_render import mermaid_text, to_dot, to_mermaid, to_text
from flowctx_core.session import open_session

CONTRACT = """
definitions:
  environment:
    type: string
    source: {type: config, env_var: DEPLOY_ENVIRONMENT, default: staging}
  service_token:
    type: string
    source: {type: config, env_var: SERVICE_TOKEN}
  db_url:
    type: string
    source: {type: config, env_var: DB_URL, default: "postgres://app:hunter2-pw@db/app"}
  interview_complete:
    type: boolean
    source: {type: state, default: false}
  plan_approved:
    type: boolean
    source: {type: state, default: true}
agents:
  PlannerAgent: {variables: [plan_approved]}
"""
FLOW = """
steps:
  - {name: Validate, type: Action, starting: true}
  - {name: AwaitApproval, type: Prompt}
  - {name: Approved, type: Action}
  - {name: Rejected, type: Action}
  - {name: Escalate, type: Sub-Agent, status: Disabled}
paths:
  - {from: Validate, to: AwaitApproval, priority: 10, condition: "stepResult.step === 'Success'"}
  - {from: Validate, to: Rejected, priority: 0}
  - {from: AwaitApproval, to: Rejected, priority: 0}
  - {from: AwaitApproval, to: Approved, priority: 20, condition: "data.userApproval === true"}
  - {from: AwaitApproval, to: Escalate, priority: 30,
     condition: "context.environment === 'staging'"}
  - {from: Approved, to: Archive, priority: 0}
"""
RULES = """
transition_rules:
  - source_agent: InterviewAgent
    target_agent: PlannerAgent
    transition_type: condition
    condition_type: context_equals
    condition_key: interview_complete
    condition_value: true
  - source_agent: InterviewAgent
    target_agent: user
    transition_type: after_turn
  - source_agent: PlannerAgent
    target_agent: InterviewAgent
    transition_type: condition
    condition_type: tool_called
    tool_name: request_revision
  - source_agent: PlannerAgent
    target_agent: terminate
    transition_type: condition
    condition_type: context_equals
    condition_key: service_token
    condition_value: let-me-in-please
  - source_agent: PlannerAgent
    target_agent: PlannerAgent
    transition_type: condition
    condition_type: context_expression
    context_expression: "${db_url} == 'postgres://app:hunter2-pw@db/app'"
"""
TRANSITIONS = """
transitions:
  - source: PatternAgent
    transition_type: condition
    condition_type: context_expression
    condition: "${plan_approved}"
    target: {type: StayTarget}
  - source: PatternAgent
    transition_type: after_turn
    target: ReviewAgent
"""
HANDOFFS = """
handoff_rules:
  - source_agent: ReviewAgent
    target_agent: user
    handoff_type: condition
    condition: The user asked for changes.
    condition_type: llm
  - source_agent: ReviewAgent
    target_agent: PlannerAgent
    handoff_type: condition
    condition: "${interview_complete} == True"
    condition_type: expression
    condition_scope: pre
  - source_agent: ReviewAgent
    target_agent: end
    handoff_type: after_work
"""
TOKEN = "tok-graph-5d1c0b"
DB_URL = "postgres://app:hunter2-pw@db/app"


@pytest.fixture
def root(workspace) -> Path:
    return workspace(
        {
            "workflows/Flow/context_variables.yaml": CONTRACT,
            "workflows/Flow/flow.yaml": FLOW,
            "workflows/Rules/context_variables.yaml": CONTRACT,
            "workflows/Rules/transition_graph.yaml": RULES,
            "workflows/Rules/handoffs.yaml": HANDOFFS,
            "workflows/Brief/context_variables.yaml": CONTRACT,
            "workflows/Brief/transition_graph.yaml": TRANSITIONS,
        }
    )


def graphs(
    root: Path, workflow: str, scenario: Scenario | None = None, runtime: str | None = None
) -> list[RoutingGraph]:
    # an env_var declared: the runtime reads only the environment, never the default
    env = {"SERVICE_TOKEN": TOKEN, "DEPLOY_ENVIRONMENT": "staging", "DB_URL": DB_URL}
    session = open_session(root, env=env, runtime=runtime)
    snapshot = session.load(workflow)
    matrix = session.matrix(workflow)
    return list(build_graphs(load_routes(snapshot), matrix, scenario, env=session.effective_env()))


def edge_map(graph: RoutingGraph) -> dict[tuple[str, str], object]:
    return {(e.source, e.target): e for e in graph.edges}


def test_flow_steps_are_nodes_paths_are_edges_in_priority_order(root):
    (graph,) = graphs(root, "Flow")
    assert graph.kind == "flow" and graph.file == "workflows/Flow/flow.yaml"
    assert graph.start == "Validate"
    names = [n.name for n in graph.nodes]
    assert names[:5] == ["Validate", "AwaitApproval", "Approved", "Rejected", "Escalate"]
    # a destination that is not a step is a node of its own: the run fails there
    assert graph.node("Archive").kind == "missing"
    assert graph.node("Escalate").detail == "Sub-Agent · Disabled"
    assert graph.node("Validate").detail == "Action · starting"
    out = graph.edges_from("AwaitApproval")
    assert [(e.order, e.target, e.priority) for e in out] == [
        (1, "Escalate", 30),
        (2, "Approved", 20),
        (3, "Rejected", 0),
    ]
    assert out[0].label == "path p30: context.environment === 'staging'"
    assert out[2].label == "path p0"


def test_flow_winner_follows_the_scenario(root):
    (default,) = graphs(root, "Flow")
    # Escalate's condition holds but the step is Disabled: the next valid path wins
    assert default.edges_from("AwaitApproval")[0].outcome == "true"
    assert not default.edges_from("AwaitApproval")[0].winner
    assert default.winner_from("AwaitApproval").target == "Rejected"
    assert default.winner_from("Validate").target == "Rejected"
    (approved,) = graphs(
        root, "Flow", Scenario(data={"userApproval": True}, step_result={"step": "Success"})
    )
    assert approved.winner_from("AwaitApproval").target == "Approved"
    assert approved.winner_from("Validate").target == "AwaitApproval"
    # the first valid path leads nowhere: no winner, and the node says the run fails
    assert approved.winner_from("Approved") is None
    assert approved.node("Approved").outcome.startswith("✗ ")
    assert "does not exist" in approved.node("Approved").outcome
    assert approved.node("Rejected").outcome == "■ no path leaves 'Rejected': the flow ends"


def test_transition_rules_kinds_targets_and_tool_called(root):
    tg, ho = graphs(root, "Rules")
    assert (tg.kind, ho.kind) == ("transition_graph", "handoffs")
    assert tg.node("user").kind == "user" and tg.node("terminate").kind == "end"
    kinds = [(e.source, e.kind) for e in tg.edges]
    assert kinds == [
        ("InterviewAgent", "context_equals"),
        ("InterviewAgent", "after_turn"),
        ("PlannerAgent", "tool_called"),
        ("PlannerAgent", "context_equals"),
        ("PlannerAgent", "context_expression"),
    ]
    assert tg.edges[0].label == "context_equals: interview_complete == True"
    assert tg.edges[2].label == "tool_called: request_revision"
    assert tg.winner_from("InterviewAgent").target == "user"
    (called,) = [
        g
        for g in graphs(root, "Rules", Scenario(tools_called=("request_revision",)))
        if g.kind == "transition_graph"
    ]
    assert called.winner_from("PlannerAgent").target == "InterviewAgent"
    # evaluation stops at the first match, as in the runtime
    assert [e.outcome for e in called.edges_from("PlannerAgent")][1:] == ["skipped", "skipped"]
    edited = graphs(root, "Rules", Scenario(context_overrides={"interview_complete": True}))
    assert edited[0].winner_from("InterviewAgent").target == "PlannerAgent"


def test_no_rule_matching_ends_the_run(root):
    tg = graphs(root, "Rules", Scenario(context_overrides={"db_url": "other"}))[0]
    assert tg.winner_from("PlannerAgent") is None
    assert tg.node("PlannerAgent").outcome == (
        "■ no rule holds: the run ends (no_transition_matched)"
    )


def test_transitions_shape_stay_target_is_a_self_loop(root):
    (graph,) = graphs(root, "Brief")
    stay = graph.edges_from("PatternAgent")[0]
    assert (stay.target, stay.kind, stay.winner) == ("PatternAgent", "context_expression", True)
    (off,) = graphs(root, "Brief", Scenario(context_overrides={"plan_approved": False}))
    assert off.winner_from("PatternAgent").target == "ReviewAgent"


def test_handoffs_are_not_read_by_the_default_runtime(root):
    ho = graphs(root, "Rules")[1]
    assert ho.unread and "NOT READ" in ho.title
    assert not any(e.winner for e in ho.edges)
    assert {e.outcome for e in ho.edges} == {"skipped"}
    assert ho.node("ReviewAgent").outcome.startswith("NOT READ: runtime mozaiks-0.2.0")
    assert "NOT READ" in to_mermaid([ho]) and "==>" not in to_mermaid([ho])


def test_handoffs_phases_llm_and_after_work(root):
    # the runtime of January 2026 read handoffs.yaml
    ho = graphs(root, "Rules", runtime="mozaiks-2026-01")[1]
    out = ho.edges_from("ReviewAgent")
    # pre-scope expressions first, then the model's choices, then after_work
    assert [(e.kind, e.target, e.outcome) for e in out] == [
        ("expression pre", "PlannerAgent", "false"),
        ("llm", "user", "not evaluable"),
        ("after_work", "terminate", "always"),
    ]
    assert out[2].winner and ho.node("terminate").kind == "end"


def test_secrets_never_reach_a_label(root):
    tg = graphs(root, "Rules")[0]
    labels = [e.label for e in tg.edges]
    everything = "\n".join([*labels, to_mermaid([tg]), to_dot([tg]), to_text([tg], width=120)])
    # a context_equals on a secret variable: the value it compares with is masked
    assert "context_equals: service_token == ***" in labels
    assert "let-me-in-please" not in everything
    # a URI password in an expression's literal is masked; so is the known secret value
    assert "hunter2-pw" not in everything
    assert TOKEN not in everything


def test_literals_compared_with_a_secret_looking_name_are_masked(workspace):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/flow.yaml": """
            steps: [{name: A, type: Action}, {name: B, type: Action}]
            paths:
              - {from: A, to: B, condition: "context.apiKey === 'sk-live-998877' && data.n > 1"}
            """,
        }
    )
    (graph,) = graphs(root, "W")
    assert graph.edges[0].condition == "context.apiKey === '***' && data.n > 1"


def test_reachable_keeps_what_a_run_can_reach(root):
    tg = graphs(root, "Rules")[0]
    part = tg.reachable("InterviewAgent")
    assert {n.name for n in part.nodes} == {
        "InterviewAgent",
        "PlannerAgent",
        "user",
        "terminate",
    }
    assert tg.reachable("terminate").edges == ()


def test_layer_order_is_breadth_first_from_the_start_with_the_end_last(root):
    tg = graphs(root, "Rules")[0]
    assert layer_order(tg) == ["InterviewAgent", "PlannerAgent", "user", "terminate"]


# --- Mermaid ---------------------------------------------------------------------------------

ID = r"[A-Za-z][A-Za-z0-9_]*"
LABEL = r'"[^"]*"'
NODE = re.compile(
    rf"^ *{ID}(\[{LABEL}\]|\({LABEL}\)|\[/{LABEL}/\]|\(\[{LABEL}\]\)|\{{\{{{LABEL}\}}\}})$"
)
EDGE = re.compile(rf"^ *{ID} (-->|==>|-\.->)\|{LABEL}\| {ID}$")
OTHER = re.compile(
    rf"^(flowchart TD| *%% .*|  subgraph {ID}\[{LABEL}\]|  end|  linkStyle [0-9,]+ .+"
    rf"|  classDef fx_\w+ .+|  class [A-Za-z0-9_,]+ fx_\w+)$"
)
KEYWORDS = {"end", "subgraph", "graph", "flowchart", "style", "class", "classDef", "click"}


def mermaid_problems(text: str) -> list[str]:
    """Lines that are not one of the statements flowctx writes, and node ids that clash."""
    bad = [
        line
        for line in text.splitlines()
        if not (NODE.match(line) or EDGE.match(line) or OTHER.match(line))
    ]
    ids = re.findall(rf"^ *({ID})[\[\(\{{]", text, re.M)
    bad += [f"keyword id {i}" for i in ids if i in KEYWORDS]
    bad += [f"duplicate id {i}" for i in ids if ids.count(i) > 1]
    return bad


def test_mermaid_marks_winners_thick_and_coloured(root):
    tg, ho = graphs(root, "Rules")
    text = to_mermaid([tg], ["flowctx graph: test"])
    assert text.startswith("flowchart TD\n  %% flowctx graph: test\n")
    assert '  tg_InterviewAgent ==>|"★ 2. after_turn"| tg_user' in text.splitlines()
    assert (
        '  tg_InterviewAgent -.->|"1. context_equals: interview_complete == True #91;false#93;"| '
        "tg_PlannerAgent" in text.splitlines()
    )
    edges = [line for line in text.splitlines() if re.match(rf" *{ID} (-->|==>|-\.->)", line)]
    winners = [str(i) for i, line in enumerate(edges) if "==>" in line]
    assert f"  linkStyle {','.join(winners)} stroke:#2b8a3e,stroke-width:3px" in text
    assert mermaid_problems(text) == []
    both = to_mermaid([tg, ho])
    assert '  subgraph tg0_file["workflows/Rules/transition_graph.yaml"]' in both
    assert mermaid_problems(both) == []


def test_mermaid_survives_hostile_names(workspace):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/flow.yaml": """
            steps:
              - {name: 'end', type: Action, starting: true}
              - {name: 'say "hi" [now]; #1 | <b>', type: Action}
              - {name: 'say "hi" (now)', type: Action}
              - {name: 'étape', type: Action}
            paths:
              - {from: 'end', to: 'say "hi" [now]; #1 | <b>', condition: "data.x === '%%;|\\"'"}
              - {from: 'end', to: 'say "hi" (now)', priority: 5, condition: "data.tag === `a{b}`"}
              - {from: 'end', to: 'étape', priority: -1}
            """,
        }
    )
    (graph,) = graphs(root, "W")
    text = to_mermaid([graph])
    assert mermaid_problems(text) == []
    assert "step_end[" in text and "step_say__hi___now____1____b_[" in text
    assert "step_say__hi___now_[" in text and "step__tape[" in text
    assert "#34;" in text and "#60;b#62;" in text and "#124;" in text
    assert "%%;" not in text.split("\n", 1)[1]


def test_mermaid_text_escapes_what_mermaid_parses():
    assert mermaid_text('a "b" #c; |d| <e> & `f` {g} [h] %') == (
        "a #34;b#34; #35;c#59; #124;d#124; #60;e#62; #38; #96;f#96; #123;g#125; #91;h#93; #37;"
    )
    assert mermaid_text("★ · → ok: 'x' === 1 && !y") == "★ · → ok: 'x' === 1 #38;#38; !y"


# --- DOT and the drawing ---------------------------------------------------------------------


def test_dot_clusters_winners_and_escaping(root):
    tg, ho = graphs(root, "Rules")
    text = to_dot([tg, ho])
    assert text.startswith('digraph "Rules" {')
    assert 'subgraph "cluster_0" {' in text and 'subgraph "cluster_1" {' in text
    assert (
        '"tg0_InterviewAgent" -> "tg0_user" [label="★ 2. after_turn", penwidth=3, '
        'color="#2b8a3e", fontcolor="#2b8a3e"];'
    ) in text
    assert '"ho1_ReviewAgent" -> "ho1_user" [label="2. llm: The user asked for changes. ' in text
    assert "style=dashed" in text
    assert text.rstrip().endswith("}")
    assert text.count("{") == text.count("}")


def test_drawing_has_a_box_per_node_and_a_line_per_edge(root):
    (graph,) = graphs(root, "Flow", Scenario(data={"userApproval": True}))
    rows = draw(graph, 90)
    text = plain(rows)
    lines = text.splitlines()
    assert all(len(line) <= 90 for line in lines)
    tops = [line for line in lines if line.startswith("┌")]
    assert [t.split("─ ", 1)[1].split(" ")[0] for t in tops] == layer_order(graph)
    # every node with an edge into it gets an arrow on its top border
    entered = {e.target for e in graph.edges}
    assert sum(1 for t in tops if "◀" in t) == len(entered)
    starred = [line for line in lines if line.startswith("│★")]
    winners = [e.target for e in graph.edges if e.winner]
    assert [s.split("→ ")[1].split()[0] for s in starred] == winners
    # the winners' lines are heavy, the others light
    assert "┝" in text and "━" in text and "├" in text
    heavy = {c for key, c in BOX.items() if 2 in key}
    for line in lines:
        if line.startswith("│★"):
            assert line.split("│", 2)[2][0] in heavy


def test_drawing_lines_connect(root):
    """Every line character's arms meet a neighbour's (nothing dangles mid-air)."""
    for workflow in ("Flow", "Rules", "Brief"):
        for graph in graphs(root, workflow):
            lines = plain(draw(graph, 100)).splitlines()
            width = max(map(len, lines))
            grid = [line.ljust(width) for line in lines]
            arms = {c: k for k, c in BOX.items()}
            right = grid[0].index("┐")
            for r, line in enumerate(grid):
                for c, ch in enumerate(line):
                    if c <= right + 1 or ch not in arms:
                        continue
                    up, down, left, rgt = arms[ch]
                    if up:
                        assert r > 0 and arms.get(grid[r - 1][c], (0, 0, 0, 0))[1], (r, c)
                    if down:
                        assert arms.get(grid[r + 1][c], (0, 0, 0, 0))[0], (r, c)
                    if rgt:
                        assert joins(grid[r], c, +1, arms), (r, c)
                    if left:
                        assert grid[r][c - 1] in "◀┝├" or joins(grid[r], c, -1, arms), (r, c)


def joins(row: str, col: int, step: int, arms: dict[str, tuple[int, ...]]) -> bool:
    """The horizontal line from ``col`` meets a line end beside it, or jumps a lane that
    crosses it (drawn unbroken, without side arms) and meets one just past it."""
    side = 2 if step > 0 else 3
    nearest = arms.get(row[col + step], (0, 0, 0, 0))
    if nearest[side]:
        return True
    crossing = nearest[0] and nearest[1] and not nearest[2] and not nearest[3]
    return bool(crossing and arms.get(row[col + 2 * step], (0, 0, 0, 0))[side])


def test_control_characters_never_reach_the_drawing(workspace):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/flow.yaml": """
            steps:
              - {name: "A\\e[31mred", type: Action, starting: true}
              - {name: "two\\nlines", type: Action}
            paths:
              - {from: "A\\e[31mred", to: "two\\nlines", condition: "data.x === '\\t\\e[2J'"}
            """,
        }
    )
    (graph,) = graphs(root, "W")
    text = plain(draw(graph, 80))
    assert "\x1b" not in text and "\t" not in text
    lines = text.splitlines()
    assert lines[0].startswith("┌─ A�[31mred · Action · starting ─")
    # the newline in a name does not break its box: one top border per node
    assert sum(1 for line in lines if line.startswith("┌")) == 2
    assert any(line.startswith("┌─ two�lines ") for line in lines)
    assert "\x1b" not in to_text([graph]) and "\x1b" not in to_mermaid([graph])
