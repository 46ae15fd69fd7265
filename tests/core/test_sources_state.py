"""``state`` sources: the default, coerced, is the load value; triggers act at run time."""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.model.matrix import Matrix, Row
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  interview_complete:
    type: boolean
    source:
      type: state
      default: "no"
      triggers:
        - {type: agent_text, agent: InterviewAgent, match: {equals: done}}
        - {type: user_text, match: {contains: approve}}
        - {type: ui_response, tool: submit_form, response_key: answers.complete}
  attempts:
    type: int
    source: {type: state, default: "3"}
  plan:
    type: object
    source: {type: state, default: {steps: [], owner: null}}
  note:
    type: string
    source: {type: state}
  level:
    type: integer
    source: {type: state, default: high}
  session_token:
    type: integer
    source: {type: state, default: tok-abc}
agents:
  InterviewAgent: {variables: [interview_complete, attempts, plan, note]}
"""


@pytest.fixture
def matrix(workspace: WriteWorkspace) -> Matrix:
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    return open_session(root, env={}).matrix("W")


def row(m: Matrix, name: str) -> Row:
    r = m.row(name)
    assert r is not None, name
    return r


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("interview_complete", False),
        ("attempts", 3),
        ("plan", {"steps": [], "owner": None}),
        ("note", None),
    ],
)
def test_the_default_is_the_load_value(matrix: Matrix, name: str, value: Any) -> None:
    r = row(matrix, name)
    assert r.value == value
    assert type(r.value) is type(value)
    assert (r.status, r.origin, r.source) == ("default", "state default", "state")
    assert r.trace[0].step == "default" and r.trace[0].outcome == "used"


def test_canonical_type_is_shown(matrix: Matrix) -> None:
    assert row(matrix, "attempts").type == "integer"


def test_triggers_are_listed_as_acting_at_run_time(matrix: Matrix) -> None:
    r = row(matrix, "interview_complete")
    assert [(s.step, s.outcome) for s in r.trace] == [("default", "used"), ("triggers", "skipped")]
    assert r.trace[1].detail == (
        "3 trigger(s) (agent_text, ui_response, user_text) act at run time"
    )
    assert len(row(matrix, "attempts").trace) == 1


def test_failed_coercion_keeps_the_raw_default_and_warns(matrix: Matrix) -> None:
    r = row(matrix, "level")
    assert r.value == "high"
    assert r.warnings == ("cannot coerce 'high' to integer; the raw value is kept",)


def test_a_secret_default_is_kept_out_of_the_warning(matrix: Matrix) -> None:
    r = row(matrix, "session_token")
    assert r.secret
    assert r.warnings and "tok-abc" not in r.warnings[0]
