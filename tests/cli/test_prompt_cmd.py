"""``flowctx prompt``: the per-agent prompt preview, masking, build context, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  factory_name:
    type: string
    source: {type: config, default: Mozaiks}
  github_token:
    type: string
    source: {type: config, default: ghp-default-secret}
  current_task:
    type: object
    source: {type: state, default: {pattern_id: star}}
  capability_packs:
    type: array
    source: {type: build_context}
agents:
  InterviewAgent: {variables: [factory_name, github_token, capability_packs]}
  BuilderAgent: {variables: [current_task]}
"""

REGISTRY = """
context_id: patterns
applies_to_workflows: [W]
pack: {id: patterns, version: "1.0", status: active}
assets:
  - path: book.yaml
    kind: catalog
    projections:
      - id: selected
        records: patterns
        recipients: [BuilderAgent]
        render: selected_record
        selected_by: current_task.pattern_id
        marker: PATTERNS
projections:
  context_variables:
    capability_packs: {from: capability_packs}
"""

BOOK = """
patterns:
  - {id: star, name: Star}
  - {id: pipeline, name: Pipeline}
"""


def _root(workspace: WriteWorkspace) -> Path:
    return workspace(
        {
            "workflows/W/context_variables.yaml": CONTRACT,
            "build_context/patterns/context.yaml": REGISTRY,
            "build_context/patterns/book.yaml": BOOK,
        }
    )


def test_preview_masks_secrets_and_lists_what_is_withheld(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    # the documented projections (the runtime's middleware-driven injection is tested below)
    assert main(["prompt", str(root), "--agent", "InterviewAgent", "--runtime", "spec"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1:7] == [
        "== InterviewAgent",
        "not shown: capability_packs (build-context values are tool-only, never shown to the "
        "model)",
        "-- appended to the base prompt (2 variable(s)):",
        "FACTORY_NAME: Mozaiks",
        "GITHUB_TOKEN: ***",
        "note: no prompt projections: build context off: MOZAIKS_LAUNCH_CONTEXT_PROVIDER is not "
        "set (--build-context turns it on); no registry root (MOZAIKS_BUILD_CONTEXT_PATH and "
        "MOZAIKS_APP_WORKSPACE_PATH are not set)",
    ]
    assert "ghp-default-secret" not in out


def test_reveal_and_raw(workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]) -> None:
    root = _root(workspace)
    assert main(["prompt", str(root), "-a", "InterviewAgent", "--raw", "--reveal"]) == 0
    # mozaiks 0.2.0 renders every listed variable, the build_context one included
    assert capsys.readouterr().out == (
        "FACTORY_NAME: Mozaiks\nGITHUB_TOKEN: ghp-default-secret\nCAPABILITY_PACKS: None\n"
    )


def test_build_context_option_inserts_the_selected_record(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    args = ["prompt", str(root), "--agent", "BuilderAgent", "--build-context", "--runtime", "spec"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert (
        "-- inserted at marker PATTERNS:\n"
        "   from build_context/patterns/context.yaml:8:9 selected (selected_record) "
        "id='star' from current_task.pattern_id\n"
        "[PATTERNS]\nid: star\nname: Star\n[/PATTERNS]\n" in out
    )
    assert (
        "note: build context on: --build-context option (FLOWCTX_BUILD_CONTEXT=on); registry "
        "root: the workspace's build_context/ (--build-context default)" in out
    )
    launch = json.dumps({"current_task": {"pattern_id": "pipeline"}})
    assert main([*args, "--raw", "--launch", launch]) == 0
    assert capsys.readouterr().out == (
        "[PATTERNS]\nid: pipeline\nname: Pipeline\n[/PATTERNS]\n\n"
        "CURRENT_TASK: {'pattern_id': 'pipeline'}\n"
    )


def test_build_context_path_is_relative_to_the_current_directory(
    workspace: WriteWorkspace,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = _root(workspace)
    moved = tmp_path / "elsewhere"
    (root / "build_context").rename(moved)
    monkeypatch.chdir(tmp_path)
    args = [
        "prompt", str(root), "-a", "BuilderAgent", "--raw", "--build-context=elsewhere",
        "--runtime", "spec",
    ]  # fmt: skip
    assert main(args) == 0
    assert capsys.readouterr().out.startswith("[PATTERNS]\nid: star\n")


def test_every_agent_as_json(workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]) -> None:
    root = _root(workspace)
    assert main(["prompt", str(root), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [a["agent"] for a in doc["agents"]] == ["InterviewAgent", "BuilderAgent"]
    interview = doc["agents"][0]
    assert interview["lines"] == [
        "FACTORY_NAME: Mozaiks",
        "GITHUB_TOKEN: ***",
        "CAPABILITY_PACKS: None",
    ]
    assert interview["exposed"] == ["factory_name", "github_token", "capability_packs"]
    assert interview["withheld"] == []


def test_an_unknown_agent_exits_2(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["prompt", str(_root(workspace)), "--agent", "Builder"]) == 2
    err = capsys.readouterr().err
    assert "no agent named 'Builder' in W (did you mean 'BuilderAgent'?)" in err


def test_an_invalid_registry_exits_1_and_says_where(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _root(workspace)
    reg = root / "build_context" / "patterns" / "context.yaml"
    reg.write_text(reg.read_text().replace("status: active", "status: on"), encoding="utf-8")
    assert main(["prompt", str(root), "-a", "BuilderAgent", "--build-context"]) == 1
    out = capsys.readouterr().out
    assert "build_context/patterns/context.yaml:3:46: pack.status: Input should be" in out
    assert "[PATTERNS]" not in out


def test_on_the_bundled_demo(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["prompt", "--demo", "-w", "AppGenerator", "--agent", "PatternAgent", "--raw"]) == 0
    out = capsys.readouterr().out
    # the runtime's injection (the demo's middleware.yaml runs it for PatternAgent), headed
    # by the projection's heading in upper case, appended after the variable block (the
    # middleware runs on the message the exposures extended)
    assert out.startswith("LLM_MODEL: None\n")
    assert "'}\n\n[AG2 NETWORK PATTERNBOOK]\n- pipeline. Pipeline\n" in out
    # LLM_MODEL is declared and unset in the demo: the runtime's prompt says None
    assert "LLM_MODEL: None" in out


def test_the_packaged_factory_app_registries_come_first_and_blocks_follow_the_variables(
    workspace: WriteWorkspace, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # mozaiks 0.2.0 (context/projection.py _candidate_build_context_roots) reads its packaged
    # factory_app/build_context before the workspace's; the prompt middleware runs on the
    # message the variable block already extended, so each block is appended after it
    root = _root(workspace)
    for name, text in {
        "workflows/W/orchestrator.yaml": (
            "schema_version: mozaiks.orchestrator.v1\nworkflow_name: W\n"
            "workflow_startup_mode: AgentDriven\n"
        ),
        "workflows/W/agents.yaml": (
            "agents:\n  - {name: BuilderAgent, system_message: Build., "
            "structured_outputs_required: false}\n"
        ),
        "workflows/W/middleware.yaml": (
            "prompt_middleware:\n  - agent: all\n    function: "
            "mozaiksai.core.workflow.context.projection.inject_build_context_projections\n"
        ),
    }.items():
        (root / name).write_text(text, encoding="utf-8")
    packaged = tmp_path / "site" / "factory_app" / "build_context" / "book"
    packaged.mkdir(parents=True)
    (packaged / "context.yaml").write_text(
        REGISTRY.replace("context_id: patterns", "context_id: packaged")
        .replace("id: patterns, version", "id: packaged, version")
        .replace("selected_by: current_task.pattern_id", "selected_by: current_task.none"),
        encoding="utf-8",
    )
    (packaged / "book.yaml").write_text(BOOK, encoding="utf-8")
    args = ["prompt", str(root), "-a", "BuilderAgent", "--raw"]
    assert main(args) == 0
    assert capsys.readouterr().out == (
        "CURRENT_TASK: {'pattern_id': 'star'}\n\n[BUILD CONTEXT DETAIL]\n- star. Star\n"
    )
    factory = f"MOZAIKS_FACTORY_APP_PATH={tmp_path / 'site' / 'factory_app'}"
    assert main([*args, "--env", factory]) == 0
    assert capsys.readouterr().out == (
        "CURRENT_TASK: {'pattern_id': 'star'}\n\n"
        "[BUILD CONTEXT DETAIL]\nNo selected catalog record for id=None.\n\n"
        "[BUILD CONTEXT DETAIL]\n- star. Star\n"
    )
    # a workspace file may not point flowctx at a folder outside it
    (root / "flowctx.yaml").write_text(f"env:\n  {factory.replace('=', ': ', 1)}\n")
    assert main(args) == 0
    assert "No selected catalog record" not in capsys.readouterr().out
