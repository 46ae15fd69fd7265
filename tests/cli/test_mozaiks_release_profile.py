"""The default profile is the published release mozaiks 0.2.0: its name, label and alias, and
``type: runtime`` sources read from the runtime context the user supplies, all through the CLI."""

from __future__ import annotations

import json
from typing import Any

import pytest

from flowctx_tui.cli import main
from tests.conftest import WriteWorkspace

RUNTIME_CONTRACT = """
definitions:
  run_build_binding:
    type: object
    description: Server-verified target and build lineage
    source: {type: runtime, required: true}
  tenant_hint:
    type: string
    source: {type: runtime}
  note:
    type: string
    source: {type: state, default: hi}
agents: {}
"""
AGENTS = """
agents:
  - {name: A, system_message: Hello., structured_outputs_required: false}
"""
ORCH = """
schema_version: mozaiks.orchestrator.v1
workflow_name: W
workflow_startup_mode: AgentDriven
"""


def _matrix(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["matrix", *args, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_default_profile_is_the_release_and_mozaiks_is_its_alias(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": "definitions: {}\nagents: {}\n",
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )
    _, doc = _matrix(capsys, str(root))
    assert doc["runtime"] == "mozaiks 0.2.0 (2026-10)"
    _, aliased = _matrix(capsys, str(root), "--runtime", "mozaiks")
    assert aliased["runtime"] == "mozaiks 0.2.0 (2026-10)"
    assert main(["matrix", str(root), "--runtime", "mozaiks-0.1"]) == 2
    err = capsys.readouterr().err
    assert "known runtimes: mozaiks-0.2.0 (alias mozaiks), mozaiks-2026-01, spec" in err


def test_a_required_runtime_source_without_runtime_context_refuses_the_load(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": RUNTIME_CONTRACT,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )
    _, doc = _matrix(capsys, str(root))
    row = {r["name"]: r for r in doc["variables"]}
    # mozaiks 0.2.0, mozaiksai/core/workflow/context/variables.py: the runtime's own message
    assert row["run_build_binding"]["error"] == (
        "Required runtime context 'run_build_binding' is missing for 'W'"
    )
    assert doc["refused"]["reason"].startswith(
        "Required runtime context 'run_build_binding' is missing for 'W'"
    )
    assert row["tenant_hint"]["value"] is None
    # what can still be resolved is still shown
    assert row["note"]["value"] == "hi"
    assert main(["check", str(root)]) == 1
    out = capsys.readouterr().out
    assert "workflows/W/context_variables.yaml:2:3: " in out
    assert "Required runtime context 'run_build_binding' is missing for 'W'" in out


def test_runtime_context_from_the_command_line_flowctx_yaml_and_json(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": RUNTIME_CONTRACT,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )
    code, doc = _matrix(
        capsys, str(root), "--runtime-context", 'run_build_binding={"app_id": "a1"}'
    )
    row = {r["name"]: r for r in doc["variables"]}
    assert code == 0 and doc["refused"] is None
    assert row["run_build_binding"]["value"] == {"app_id": "a1"}
    assert row["run_build_binding"]["origin"] == "runtime context (--runtime-context)"
    _, doc = _matrix(
        capsys, str(root), "--runtime-context", '{"run_build_binding": 1, "tenant_hint": "t"}'
    )
    row = {r["name"]: r for r in doc["variables"]}
    assert (row["run_build_binding"]["value"], row["tenant_hint"]["value"]) == (1, "t")
    (root / "flowctx.yaml").write_text(
        "runtime_context:\n  run_build_binding: {app_id: y}\n", encoding="utf-8"
    )
    _, doc = _matrix(capsys, str(root), "--runtime-context", "tenant_hint=plain text")
    row = {r["name"]: r for r in doc["variables"]}
    assert row["run_build_binding"]["value"] == {"app_id": "y"}
    assert row["run_build_binding"]["origin"] == "runtime context (flowctx.yaml)"
    assert row["tenant_hint"]["value"] == "plain text"
    assert main(["matrix", str(root), "--runtime-context", "novalue"]) == 2
    assert "--runtime-context expects KEY=VALUE" in capsys.readouterr().err


def test_the_older_runtime_refuses_runtime_sources_and_names_the_one_that_reads_them(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": RUNTIME_CONTRACT,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )
    main(["check", str(root), "--runtime", "mozaiks-2026-01"])
    out = capsys.readouterr().out
    assert "source type 'runtime' is refused by runtime mozaiks-2026-01" in out
    assert "runtime mozaiks-0.2.0 reads it" in out


IDENTITY_CONTRACT = """
definitions:
  app_id:
    type: string
    source: {type: config, default: declared-app}
  workflow_name:
    type: string
    source: {type: state, default: other}
  user_id:
    type: string
    source: {type: state, default: nobody}
  region:
    type: string
    source: {type: config, env_var: REGION_UNSET, required: true}
agents: {}
"""


def test_the_run_sets_its_identity_over_declared_values(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    # mozaiks 0.2.0 run_workflow_orchestration: after the load, workflow_name, app_id,
    # chat_id and user_id are set from the run (the launch's ids, over the host's fields)
    contract = IDENTITY_CONTRACT.replace(
        "  region:\n    type: string\n    source: {type: config, env_var: REGION_UNSET, "
        "required: true}\n",
        "",
    )
    root = workspace(
        {
            "workflows/W/context_variables.yaml": contract,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )
    launch = ["--launch", json.dumps({"app_id": "app-launch"})]
    context = ["--runtime-context", json.dumps({"user_id": "host-user", "app_id": "host-app"})]
    _, doc = _matrix(capsys, str(root), *launch, *context)
    values = {v["name"]: v["value"] for v in doc["variables"]}
    assert values["app_id"] == "app-launch"  # the launch's id wins over the host's
    assert values["user_id"] == "host-user"
    assert values["workflow_name"] == "W"
    origin = {v["name"]: v["origin"] for v in doc["variables"]}
    assert origin["user_id"] == "run identity (runtime context)"
    # the documented contract knows no run identity: the declarations stand
    _, doc = _matrix(capsys, str(root), *launch, *context, "--runtime", "spec")
    values = {v["name"]: v["value"] for v in doc["variables"]}
    assert (values["user_id"], values["workflow_name"]) == ("nobody", "other")


def test_a_launch_value_does_not_save_a_load_that_raises(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    # _resolve_config raises for a required, unset config before any caller value applies
    root = workspace(
        {
            "workflows/W/context_variables.yaml": IDENTITY_CONTRACT,
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )
    _, doc = _matrix(capsys, str(root), "--launch", json.dumps({"region": "eu"}))
    assert doc["refused"]["stage"] == "context"
    assert "Required config variable 'region' is not set" in doc["refused"]["reason"]


def test_a_data_entity_the_runtime_skips_is_marked_absent(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    # variables.py _create_data_entity_manager: no database or collection, no key at all
    root = workspace(
        {
            "workflows/W/context_variables.yaml": (
                "definitions:\n"
                "  orders: {type: object, source: {type: data_entity, collection: orders}}\n"
                "  repo: {type: object, source: {type: data_entity, database_name: db, "
                "collection: repos}}\n"
                "agents: {}\n"
            ),
            "workflows/W/orchestrator.yaml": ORCH,
            "workflows/W/agents.yaml": AGENTS,
        }
    )
    _, doc = _matrix(capsys, str(root))
    rows = {v["name"]: v for v in doc["variables"]}
    assert (rows["orders"]["absent"], rows["orders"]["value"]) == (True, None)
    assert (rows["repo"]["absent"], rows["repo"]["value"]) == (
        False,
        {"kind": "data_entity", "name": "repo"},
    )
