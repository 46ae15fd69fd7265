"""Every "did you mean" of ``flowctx check`` carries its suggestion as data (``Diagnostic.fix``),
the correction editors offer as a quick fix: replacing the fix's ``old`` text on the problem's
line (or the list below it) with ``new`` makes the problem go away."""

from __future__ import annotations

from pathlib import Path

from flowctx_core.base.diagnostics import Fix
from flowctx_core.check import workspace_report
from flowctx_core.session import open_session
from tests.conftest import write_tree

CONTRACT = """\
definitions:
  llm_model:
    type: strng
    description: the model
    source: {type: config, env_vr: LLM_MODEL, default: x}
  ready:
    type: boolean
    source: {type: stat, default: false}
  level:
    type: intger
    source: {type: state, default: 1}
  mode:
    type: string
    source:
      type: data_reference
      collection: c
      database_name: d
      refresh_strategy: onse
agents:
  Writer:
    variables:
      - ready
      - llm_modl
  Reviewer:
    variables: [level, mode, llm_model]
"""
PROFILE = """\
runtim: mozaiks
runtime: mozaiks-0.2.1
checks:
  exposure.not-exposd: ignore
"""
GRAPH = """\
transition_rules:
  - source_agent: Writer
    target_agent: Reviwer
    transition_type: condition
    condition_type: context_equals
    condition_key: redy
    condition_value: true
  - source_agent: Reviewer
    target_agent: user
    transition_type: after_trun
  - source_agent: Reviewer
    target_agent: Writer
    transition_type: condition
    condition_type: tool_called
    tool_name: go
    transition_target: AgentTargt
transition_rulez: []
"""
FLOW = """\
agent: F
steps:
  - {name: Start, type: Action, starting: true}
  - {name: Done, type: Action}
paths:
  - {from: Start, to: Dne, priority: 1}
  - {from: Start, to: Done, priority: 0, condition: "paylod.ok === true"}
  - {from: Done, to: Start, priority: 0, condition: "payload.retry = true"}
"""


REGISTRY = """\
context_id: pack
applies_to_workflows: [W]
assets: []
pack: {id: pack, version: 1.4}
"""
BRIEF = """\
transitions:
  - source_agent: Writer
    target: Reviewer
    transition_type: after_turn
"""


def test_a_fix_check_knows_beside_did_you_mean(tmp_path: Path) -> None:
    """A key spelt as the other routing shape spells it, an unquoted pack version."""
    root = write_tree(
        tmp_path / "ws",
        {
            "workflows/W/context_variables.yaml": "definitions: {}\nagents: {Writer: {}}\n",
            "workflows/W/transition_graph.yaml": BRIEF,
            "build_context/pack/context.yaml": REGISTRY,
        },
    )
    found = {p.fix for p in _problems(root) if p.fix is not None}
    assert Fix("source_agent", "source") in found
    assert Fix("1.4", "'1.4'") in found


def _workspace(root: Path) -> Path:
    return write_tree(
        root,
        {
            "flowctx.yaml": PROFILE,
            "workflows/W/context_variables.yaml": CONTRACT,
            "workflows/W/transition_graph.yaml": GRAPH,
            "workflows/W/orchestrator.yaml": "name: W\n",
            "workflows/F/context_variables.yaml": "definitions: {}\n",
            "workflows/F/flow.yaml": FLOW,
        },
    )


def _problems(root: Path):
    return workspace_report(open_session(root, env={})).problems


def test_every_did_you_mean_carries_its_fix_and_the_fix_clears_it(tmp_path: Path) -> None:
    root = _workspace(tmp_path / "ws")
    found = [p for p in _problems(root) if "did you mean" in p.message]
    assert len(found) >= 15, [p.format() for p in found]
    bare = [p.format() for p in found if p.fix is None]
    assert bare == []
    assigns = [p.fix for p in found if "assigns" in p.message]
    assert assigns == [Fix("payload.retry = true", "payload.retry === true")]
    for p in found:
        assert p.fix is not None
        if "assigns" not in p.message:  # that one suggests the operator, the fix the whole
            assert f"did you mean '{p.fix.new}'" in p.message
    # applying every fix where it points clears every did-you-mean (a definition that
    # validates once its key is right can show the next one: a few rounds)
    from flowctx_tui.lsp.quickfix import locate

    for _round in range(3):
        for p in sorted(found, key=lambda p: (p.file, -p.line, -p.column)):
            assert p.fix is not None, p.format()
            path = root / p.file
            rows = path.read_text().split("\n")
            line, column = (p.fix.line - 1, 0) if p.fix.line else (p.line - 1, p.column - 1)
            at = locate(rows, line, column, p.fix.old)
            assert at is not None, p.format()
            line, start, end = at
            rows[line] = rows[line][:start] + p.fix.new + rows[line][end:]
            path.write_text("\n".join(rows))
        found = [p for p in _problems(root) if "did you mean" in p.message]
    assert [p.format() for p in found] == []


def test_check_json_gives_the_fix(tmp_path: Path, capsys) -> None:
    import json

    from flowctx_tui.cli import main

    root = _workspace(tmp_path / "ws")
    main(["check", str(root), "--format", "json"])
    problems = json.loads(capsys.readouterr().out)["problems"]
    fixed = [p for p in problems if "fix" in p]
    assert {"old": "redy", "new": "ready"} in [p["fix"] for p in fixed]
    assert all("did you mean" in p["message"] for p in fixed)
    assert all("fix" in p for p in problems if "did you mean" in p["message"])


def test_a_terminate_target_rule_is_fixed_at_its_target_agent(tmp_path: Path) -> None:
    from flowctx_tui.lsp.quickfix import locate

    graph = """\
transition_rules:
  - source_agent: Writer
    target_agent: Writer
    transition_type: after_turn
    transition_target: TerminateTarget
  - source_agent: Writer
    target_agent: Writer
    transition_type: after_turn
"""
    root = write_tree(
        tmp_path / "ws",
        {
            "workflows/W/context_variables.yaml": "definitions: {}\nagents: {Writer: {}}\n",
            "workflows/W/transition_graph.yaml": graph,
        },
    )
    found = [p for p in _problems(root) if "needs target_agent: terminate" in p.message]
    assert len(found) == 1 and found[0].fix is not None
    fix = found[0].fix
    # the problem is at transition_target (line 5), the text to change on target_agent's line
    assert (found[0].line, fix.old, fix.new, fix.line) == (5, "Writer", "terminate", 3)
    path = root / "workflows/W/transition_graph.yaml"
    rows = path.read_text().split("\n")
    at = locate(rows, fix.line - 1, 0, fix.old)
    assert at == (2, 18, 24)
    line, start, end = at
    rows[line] = rows[line][:start] + fix.new + rows[line][end:]
    path.write_text("\n".join(rows))
    assert not [p for p in _problems(root) if "needs target_agent" in p.message]
