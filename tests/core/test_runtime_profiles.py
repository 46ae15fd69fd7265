"""Runtime profiles: chosen per workspace or per call, carried by the snapshot, and each one
reproducing its runtime's contract rules (names, discovery, shapes)."""

from __future__ import annotations

import pytest

from flowctx_core.check import check_workspace
from flowctx_core.model.profiles import DEFAULT_PROFILE, PROFILES, UnknownRuntime, get_profile
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace

FILE = "workflows/W/context_variables.yaml"


def test_the_shipped_profiles_name_what_they_reproduce() -> None:
    assert DEFAULT_PROFILE == "mozaiks-0.2.0"
    assert list(PROFILES) == ["mozaiks-0.2.0", "mozaiks-2026-01", "spec"]
    older = get_profile("mozaiks-2026-01")
    assert (older.repository, older.commit[:7], older.date) == (
        "BlocUnited-LLC/mozaiks-ai",
        "169b287",
        "2026-01-17",
    )
    assert get_profile(None).label == "mozaiks 0.2.0 (2026-10)"
    with pytest.raises(UnknownRuntime, match=r"unknown runtime 'mozaik' \(did you mean"):
        get_profile("mozaik")


def test_flowctx_yaml_chooses_the_runtime_and_a_call_overrides_it(
    workspace: WriteWorkspace,
) -> None:
    root = workspace(
        {
            FILE: "definitions:\n  flag: {type: boolean, source: {type: config, env_var: F, "
            "default: true}}\nagents: {}\n",
            "flowctx.yaml": "runtime: spec\n",
        }
    )
    assert open_session(root, env={}).runtime.name == "spec"
    assert open_session(root, env={}).matrix("W").row("flag").value is True  # type: ignore[union-attr]
    shipped = open_session(root, env={}, runtime="mozaiks")
    assert shipped.matrix("W").row("flag").value is None  # type: ignore[union-attr]


def test_an_unknown_runtime_in_flowctx_yaml_is_a_located_error(
    workspace: WriteWorkspace,
) -> None:
    root = workspace({FILE: "definitions: {}\nagents: {}\n", "flowctx.yaml": "runtime: spek\n"})
    session = open_session(root, env={})
    assert session.runtime.name == "mozaiks-0.2.0"
    assert [d.format() for d in session.profile.diagnostics] == [
        "flowctx.yaml:1:10: runtime: unknown runtime 'spek' (did you mean 'spec'?); known "
        "runtimes: mozaiks-0.2.0 (alias mozaiks), mozaiks-2026-01, spec"
    ]


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("structured_output", "'structured_output' is reserved runtime vocabulary"),
        ("ag:turn", "names starting 'ag:' are reserved by AG2"),
        ("a2a:peer", "names starting 'a2a:' are reserved by AG2"),
    ],
)
def test_reserved_names_refuse_the_workflow(workspace: WriteWorkspace, name: str, why: str) -> None:
    root = workspace(
        {
            FILE: f'definitions:\n  "{name}": {{type: object, source: {{type: state}}}}\n'
            f'agents:\n  A: {{variables: ["{name}"]}}\n'
        }
    )
    snap = open_session(root, env={}).load("W")
    messages = [d.format() for d in snap.diagnostics]
    assert f"{FILE}:2:3: definitions.{name}: '{name}': {why}; the runtime rejects it" in messages
    assert any(f"agent 'A' lists '{name}': {why}" in m for m in messages)
    assert snap.refused is not None and snap.refused.line == 2
    # the documented contract says nothing of reserved names
    assert open_session(root, env={}, runtime="spec").load("W").diagnostics == ()


def test_discovery_needs_an_orchestrator_file(workspace: WriteWorkspace) -> None:
    root = workspace(
        {
            "workflows/Real/orchestrator.yaml": "workflow_name: Real\n",
            "workflows/Real/context_variables.yaml": "definitions: {}\nagents: {}\n",
            "workflows/Bare/context_variables.yaml": "definitions: {}\nagents: {}\n",
            "workflows/extended_orchestration/extension_registry.json": "{}",
        }
    )
    session = open_session(root, env={})
    # a folder with neither a marker nor a contract is not a workflow
    assert session.workflows() == ["Bare", "Real"]
    problems = [d.format() for d in check_workspace(session)]
    assert (
        "workflows/Bare/context_variables.yaml: warning: the runtime does not discover "
        "'Bare' as a workflow: its folder has no orchestrator.yaml [runtime mozaiks-0.2.0]"
    ) in problems
    assert not any("extended_orchestration" in p for p in problems)
    # the documented contract lists every folder
    assert open_session(root, env={}, runtime="spec").workflows() == [
        "Bare",
        "extended_orchestration",
        "Real",
    ]


def test_data_sources_the_adapter_skips_are_warned(workspace: WriteWorkspace) -> None:
    root = workspace(
        {
            FILE: "definitions:\n"
            "  ref: {type: object, source: {type: data_reference, collection: c}}\n"
            "  ent: {type: object, source: {type: data_entity, database_name: db}}\n"
            "agents:\n  A: {variables: [ref, ent]}\n"
        }
    )
    problems = [d.format() for d in check_workspace(open_session(root, env={}))]
    assert (
        f"{FILE}:2:23: warning: definitions.ref.source: no database_name: the runtime's Mongo "
        "adapter skips the fetch and returns None, so only the default or the fallbacks file "
        "can give a value [runtime mozaiks-0.2.0]"
    ) in problems
    assert (
        f"{FILE}:3:23: warning: definitions.ent.source: no collection: the runtime logs "
        "'Skipping data_entity ent' and sets nothing; the key is absent [runtime mozaiks-0.2.0]"
    ) in problems


def test_check_fails_on_reserved_names_and_an_undeclared_condition_key(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    from flowctx_tui.cli import main

    contract = (
        "definitions:\n"
        "  structured_output: {type: object, source: {type: state}}\n"
        '  "ag:turn": {type: integer, source: {type: state, default: 0}}\n'
        "  done: {type: boolean, source: {type: state, default: false}}\n"
        "agents:\n"
        "  A: {variables: [done]}\n"
        "  B: {variables: []}\n"
    )
    graph = (
        "transition_rules:\n"
        "  - source_agent: A\n"
        "    transition_type: condition\n"
        "    condition_type: context_equals\n"
        "    condition_key: finished\n"
        "    condition_value: true\n"
        "    target_agent: B\n"
    )
    root = workspace(
        {
            FILE: contract,
            "workflows/W/transition_graph.yaml": graph,
            "workflows/W/orchestrator.yaml": "workflow_name: W\n",
        }
    )
    assert main(["check", str(root)]) == 1
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if ": warning:" not in line]
    # contracts.py: require_application_context_name_allowed rejects both names
    assert any(
        line.startswith(f"{FILE}:2:3: definitions.structured_output:")
        and "reserved runtime vocabulary" in line
        for line in lines
    ), out
    assert any(
        line.startswith(f"{FILE}:3:3: definitions.ag:turn:") and "reserved by AG2" in line
        for line in lines
    ), out
    # network_graph.py: a condition_key the contract does not declare fails graph compilation
    assert any(
        line.startswith("workflows/W/transition_graph.yaml:5:20: ")
        and "'finished' is not declared" in line
        for line in lines
    ), out
    assert "REFUSED" in out
    # the documented contract has no reserved names and no graph compiler
    main(["check", str(root), "--runtime", "spec"])
    spec_out = capsys.readouterr().out
    assert "reserved" not in spec_out


def test_the_default_profile_is_the_published_release() -> None:
    shipped = get_profile(None)
    assert shipped.label == "mozaiks 0.2.0 (2026-10)"
    assert shipped.to_json()["release"] == "0.2.0"
    assert get_profile("mozaiks") is shipped
    assert "release" not in get_profile("mozaiks-2026-01").to_json()


@pytest.mark.parametrize(
    ("runtime", "expected"),
    [
        (
            "mozaiks-2026-01",
            "source type 'runtime' is refused by runtime mozaiks-2026-01: its contract model "
            "(BlocUnited-LLC/mozaiks-ai 169b287) accepts only config, data_reference, "
            "data_entity, computed, state, external, file,",
        ),
        ("spec", "source type 'runtime' is not documented"),
    ],
)
def test_a_runtime_source_is_refused_by_the_profiles_whose_code_does_not_read_it(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str], runtime: str, expected: str
) -> None:
    from flowctx_tui.cli import main

    root = workspace(
        {
            FILE: "definitions:\n  binding:\n    type: object\n    source: {type: runtime}\n"
            "agents: {}\n",
            "workflows/W/orchestrator.yaml": "workflow_name: W\n",
        }
    )
    code = main(["check", str(root), "--runtime", runtime])
    out = capsys.readouterr().out
    assert code == 1
    line = next(x for x in out.splitlines() if "source.type" in x)
    assert line.startswith(f"{FILE}:4:20: definitions.binding.source.type: {expected}")
    if runtime != "spec":
        assert line.endswith("runtime mozaiks-0.2.0 reads it")


def test_a_persisted_default_of_the_wrong_type_is_a_warning_where_the_runtime_guards_it(
    workspace: WriteWorkspace, capsys: pytest.CaptureFixture[str]
) -> None:
    from flowctx_tui.cli import main

    contract = """definitions:
  plan:
    type: object
    source: {type: state, default: []}
  quiet:
    type: object
    persisted: false
    source: {type: state, default: []}
  setting:
    type: object
    source: {type: config, default: []}
  user_id:
    type: integer
    source: {type: state, default: "u1"}
  review_gate:
    type: Boolean
    source: {type: config, default: 1}
  retries:
    type: integer
    source: {type: state, default: "3"}
agents:
  A: {variables: [plan, quiet, setting, user_id, review_gate, retries]}
"""
    root = workspace(
        {
            FILE: contract,
            "workflows/W/orchestrator.yaml": "schema_version: mozaiks.orchestrator.v1\n"
            "workflow_name: W\nworkflow_startup_mode: AgentDriven\n",
            "workflows/W/agents.yaml": "agents:\n  - {name: A, system_message: Hi., "
            "structured_outputs_required: false}\n",
        }
    )
    assert main(["check", str(root)]) == 0
    out = capsys.readouterr().out
    flagged = [x.split(": warning: ")[0] for x in out.splitlines() if "persistence guard" in x]
    # plan: state, persisted by default. review_gate (a quality-named key, persisted even from
    # config) and retries are persisted, but the loader coerces their defaults first (1 is
    # true, "3" is 3: mozaiks 0.2.0, variables.py _coerce_value), so the guard accepts them.
    # quiet says persisted: false; setting is tool-only (config); user_id is immutable runtime
    # authority: none of those is persisted
    assert flagged == [f"{FILE}:4:27"]
    assert (
        "the default is a list, the contract declares type 'object', which needs a mapping" in out
    )
    assert main(["check", str(root), "--runtime", "spec"]) == 0
    assert "persistence guard" not in capsys.readouterr().out
