"""Runtime-injected schema keys: present even when not declared (REFERENCE.md 3)."""

from __future__ import annotations

from typing import Any

from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.workspace import load_workflow
from flowctx_core.resolve import resolve
from flowctx_core.session import open_session
from flowctx_core.snapshot import load_snapshot
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  flag: {type: boolean, source: {type: state, default: true}}
agents:
  A: {variables: [flag]}
"""

SEEDS = {
    "seed/crm/accounts.json": [{"name": "Acme", "tier": "gold", "_note": "x"}, {"name": "B"}],
    "seed/crm/contacts.json": [{"email": "a@b.c", "account": "Acme"}],
}


def run(
    workspace: WriteWorkspace, env: dict[str, str], extra: dict[str, Any] | None = None
) -> Matrix:
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT, **SEEDS, **(extra or {})})
    return open_session(root, env=env).matrix("W")


def injected(m: Matrix) -> dict[str, Any]:
    return {r.name: r.value for r in m.rows if r.source == "runtime"}


def test_the_two_capability_keys_are_always_there(workspace: WriteWorkspace) -> None:
    m = run(workspace, {})
    assert injected(m) == {"database_schema_available": False, "database_schema_db": None}
    r = m.row("database_schema_available")
    assert r is not None
    assert (r.status, r.origin, r.type) == ("resolved", "runtime-injected", "boolean")
    assert r.trace[0].detail == "CONTEXT_INCLUDE_SCHEMA is not true"


def test_schema_db_without_include_stays_off(workspace: WriteWorkspace) -> None:
    m = run(workspace, {"CONTEXT_SCHEMA_DB": "crm"})
    assert injected(m) == {"database_schema_available": False, "database_schema_db": None}


def test_include_without_a_schema_db_adds_nothing_more(workspace: WriteWorkspace) -> None:
    m = run(workspace, {"CONTEXT_INCLUDE_SCHEMA": "true"})
    assert injected(m) == {"database_schema_available": False, "database_schema_db": None}
    r = m.row("database_schema_db")
    assert r is not None and r.trace[0].detail == "CONTEXT_SCHEMA_DB is not set"


def test_include_and_schema_db_add_overview_and_first_documents(
    workspace: WriteWorkspace,
) -> None:
    m = run(workspace, {"CONTEXT_INCLUDE_SCHEMA": "yes", "CONTEXT_SCHEMA_DB": "crm"})
    values = injected(m)
    assert values["database_schema_available"] is True
    assert values["database_schema_db"] == "crm"
    # mozaiks 0.2.0, mozaiksai/core/workflow/context/variables.py _get_database_schema_async
    assert values["schema_overview"] == (
        "DATABASE: crm\nTOTAL COLLECTIONS: 2\n\n"
        "ACCOUNTS:\n  Fields:\n    - name: str\n    - tier: str\n    - _note: str\n\n"
        "CONTACTS:\n  Fields:\n    - email: str\n    - account: str\n"
    )
    first = values["collections_first_docs_full"]
    assert set(first) == {"accounts", "contacts"}
    assert first["accounts"]["name"] == "Acme"
    assert first["contacts"]["email"] == "a@b.c"


def test_the_overview_is_cut_at_the_configured_length(workspace: WriteWorkspace) -> None:
    env = {
        "CONTEXT_INCLUDE_SCHEMA": "1",
        "CONTEXT_SCHEMA_DB": "crm",
        "CONTEXT_SCHEMA_TRUNCATE_CHARS": "25",
    }
    # the cut says how much it dropped, as the runtime writes it
    assert injected(run(workspace, env))["schema_overview"] == (
        "DATABASE: crm\nTOTAL COLLE... [truncated 137 chars]"
    )


def test_the_default_cut_is_4000_characters(workspace: WriteWorkspace) -> None:
    wide = {f"field_{i:04d}": i for i in range(600)}
    env = {"CONTEXT_INCLUDE_SCHEMA": "on", "CONTEXT_SCHEMA_DB": "big"}
    m = run(workspace, env, {"seed/big/wide.json": [wide]})
    overview = injected(m)["schema_overview"]
    assert len(overview) == 4000 + len("... [truncated 9252 chars]")
    assert overview.startswith("DATABASE: big\nTOTAL COLLECTIONS: 1\n\nWIDE:\n  Fields:\n")
    assert overview.endswith("... [truncated 9252 chars]")
    bad = run(workspace, {**env, "CONTEXT_SCHEMA_TRUNCATE_CHARS": "lots"})
    assert injected(bad)["schema_overview"] == overview


def test_no_database_means_not_available(workspace: WriteWorkspace) -> None:
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    snap = load_workflow(root, "W")
    env = {"CONTEXT_INCLUDE_SCHEMA": "true", "CONTEXT_SCHEMA_DB": "crm"}
    m = resolve(
        load_snapshot(snap.root, env, workflows=[], preloaded=[snap]),
        ResolveInputs(env=env, database=None),
    )
    values = injected(m)
    assert values["database_schema_available"] is False
    assert values["schema_overview"] is None
    assert values["collections_first_docs_full"] == {}


def test_a_declared_variable_of_the_same_name_wins(workspace: WriteWorkspace) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": """
            definitions:
              database_schema_available:
                type: boolean
                source: {type: config, default: "true"}
            agents: {}
            """,
        }
    )
    m = open_session(root, env={}).matrix("W")
    rows = [r for r in m.rows if r.name == "database_schema_available"]
    assert len(rows) == 1
    assert (rows[0].source, rows[0].value) == ("config", True)
    assert m.row("database_schema_db") is not None
