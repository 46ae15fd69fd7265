"""Sources that are not values at load: computed and external (pending), build_context
(pending without the provider), and data_entity (a placeholder for the write manager)."""

from __future__ import annotations

import pytest

from flowctx_core.model.matrix import Matrix, Row
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  score:
    type: integer
    source: {type: computed, computation: score_answers, inputs: [answers], default: 5}
  weather:
    type: object
    source: {type: external, service: weather_api, operation: forecast}
  rates:
    type: object
    source: {type: external}
  catalog:
    type: object
    source: {type: build_context}
  artifacts:
    type: object
    source: {type: data_entity, database_name: appdb, collection: artifacts}
  drafts:
    type: object
    source: {type: data_entity, collection: drafts}
agents:
  A: {variables: [score, weather, rates, catalog, artifacts, drafts]}
"""


@pytest.fixture
def matrix(workspace: WriteWorkspace) -> Matrix:
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    return open_session(root, env={}).matrix("W")


def row(m: Matrix, name: str) -> Row:
    r = m.row(name)
    assert r is not None, name
    return r


def test_computed_is_pending_and_ignores_its_default(matrix: Matrix) -> None:
    r = row(matrix, "score")
    assert (r.value, r.status, r.origin) == (None, "pending", "computed (pending)")
    assert [(s.step, s.outcome) for s in r.trace] == [("load", "skipped"), ("default", "skipped")]
    assert "populated later by tools or agents" in r.trace[0].detail
    assert r.trace[1].detail == "the runtime ignores default for computed"


def test_external_is_pending_and_names_its_service(matrix: Matrix) -> None:
    r = row(matrix, "weather")
    assert (r.value, r.status, r.origin) == (None, "pending", "external (pending)")
    assert r.trace[0].detail == (
        "None at load: populated later by integration tools (service weather_api.forecast)"
    )
    bare = row(matrix, "rates")
    assert bare.trace[0].detail == "None at load: populated later by integration tools"


def test_build_context_is_pending_without_the_provider(matrix: Matrix) -> None:
    r = row(matrix, "catalog")
    assert (r.value, r.status) == (None, "pending")
    assert r.trace[0].step == "load" and r.trace[0].outcome == "skipped"
    assert "build-context" in r.trace[0].detail


def test_data_entity_is_a_placeholder_for_the_manager(matrix: Matrix) -> None:
    r = row(matrix, "artifacts")
    # the marker the newest loader stores in the context (the manager is kept beside it)
    assert r.value == {"kind": "data_entity", "name": "artifacts"}
    assert (r.status, r.origin) == ("resolved", "data_entity appdb.artifacts")
    assert [(s.step, s.outcome) for s in r.trace] == [("manager", "used")]
    # no database name (own or the contract's): the runtime warns and sets nothing
    no_db = row(matrix, "drafts")
    assert (no_db.value, no_db.status, no_db.origin) == (None, "pending", "absent (no manager)")
    assert no_db.warnings == (
        "no database_name: the runtime logs 'Skipping data_entity drafts' and sets nothing "
        "(the key is absent from the context)",
    )


def test_every_row_is_shown_once_in_declaration_order(matrix: Matrix) -> None:
    declared = [r.name for r in matrix.rows if r.source != "runtime"]
    assert declared == ["score", "weather", "rates", "catalog", "artifacts", "drafts"]


def test_the_status_and_outcome_vocabulary(workspace: WriteWorkspace) -> None:
    root = workspace(
        {
            "workflows/W/context_variables.yaml": """
            definitions:
              from_env: {type: string, source: {type: config, env_var: REGION, default: eu}}
              from_default: {type: string, source: {type: config, default: d}}
              from_fallback:
                type: string
                source: {type: data_reference, database_name: db, collection: none}
              later: {type: string, source: {type: computed}}
              broken: {type: string, source: {type: config, env_var: UNSET_HERE, required: true}}
            agents: {}
            """,
            "fb.json": {"global": {"from_fallback": "fb"}},
        }
    )
    env = {"REGION": "us", "MOZAIKS_CONTEXT_FALLBACKS_FILE": "fb.json"}
    m = open_session(root, env=env).matrix("W", launch={"app_id": "a"})
    got = {r.name: (r.status, r.origin) for r in m.rows if r.source != "runtime"}
    assert got == {
        "from_env": ("resolved", "env REGION (process env)"),
        "from_default": ("default", "default"),
        "from_fallback": ("fallback", "fb.json global.from_fallback"),
        "later": ("pending", "computed (pending)"),
        "broken": ("error", "required, missing"),
    }
    outcomes = {s.outcome for r in m.rows for s in r.trace}
    assert outcomes == {"used", "shadowed", "missing", "skipped", "error"}
