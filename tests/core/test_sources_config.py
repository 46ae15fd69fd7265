"""``config`` sources: env var, default, required, coercion, with the trace in order."""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.model.matrix import Matrix, Row
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace

CONTRACT = """
definitions:
  feature_flag:
    type: boolean
    source: {type: config, env_var: FEATURE_FLAG, default: "no"}
  max_items:
    type: integer
    source: {type: config, env_var: MAX_ITEMS, default: "25"}
  region:
    type: string
    source: {type: config, env_var: REGION}
  api_url:
    type: string
    source: {type: config, env_var: API_URL, required: true}
  tier:
    type: string
    source: {type: config, env_var: TIER, required: true, default: free}
  constant:
    type: integer
    source: {type: config, default: 3.9}
  openai_api_key:
    type: integer
    source: {type: config, env_var: OPENAI_API_KEY}
agents:
  A: {variables: [feature_flag, max_items, region, api_url, tier, constant]}
"""


def matrix(workspace: WriteWorkspace, env: dict[str, str], runtime: str = "spec") -> Matrix:
    """Resolved under the documented contract unless a runtime is named: most tests here pin
    what both agree on, or the documented fall back to the default."""
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    return open_session(root, env=env, runtime=runtime).matrix("W")


def row(m: Matrix, name: str) -> Row:
    r = m.row(name)
    assert r is not None, name
    return r


def steps(r: Row) -> list[tuple[str, str]]:
    return [(s.step, s.outcome) for s in r.trace]


def test_env_var_wins_and_the_default_is_shadowed(workspace: WriteWorkspace) -> None:
    m = matrix(workspace, {"FEATURE_FLAG": "yes", "API_URL": "https://api"})
    r = row(m, "feature_flag")
    assert (r.value, r.status, r.origin) == (True, "resolved", "env FEATURE_FLAG (process env)")
    assert steps(r) == [("env", "used"), ("default", "shadowed")]
    assert r.trace[0].detail == "env FEATURE_FLAG (process env)"
    assert r.type == "boolean" and r.source == "config"
    assert r.agents == ("A",)


def test_missing_env_var_uses_the_coerced_default(workspace: WriteWorkspace) -> None:
    m = matrix(workspace, {"API_URL": "x"})
    flag, items = row(m, "feature_flag"), row(m, "max_items")
    assert (flag.value, flag.status, flag.origin) == (False, "default", "default")
    assert (items.value, items.status) == (25, "default")
    assert steps(items) == [("env", "missing"), ("default", "used")]
    assert items.trace[0].detail == "env MAX_ITEMS is not set"


def test_no_env_and_no_default_is_none(workspace: WriteWorkspace) -> None:
    r = row(matrix(workspace, {"API_URL": "x"}), "region")
    assert (r.value, r.status) == (None, "missing")
    assert steps(r) == [("env", "missing"), ("default", "missing")]
    assert r.error is None


def test_no_env_var_declared_skips_the_environment(workspace: WriteWorkspace) -> None:
    r = row(matrix(workspace, {"API_URL": "x", "CONSTANT": "9"}), "constant")
    assert (r.value, r.status) == (3, "default")  # int(3.9)
    assert steps(r) == [("env", "skipped"), ("default", "used")]


def test_required_and_missing_is_an_error_naming_the_variable(workspace: WriteWorkspace) -> None:
    m = matrix(workspace, {})
    r = row(m, "api_url")
    assert r.status == "error"
    assert r.value is None
    assert r.error == "Required config variable 'api_url' is not set (env API_URL)"
    assert steps(r) == [("env", "missing"), ("required", "error")]


def test_required_with_a_default_uses_the_default(workspace: WriteWorkspace) -> None:
    r = row(matrix(workspace, {}), "tier")
    assert (r.value, r.status, r.error) == ("free", "default", None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("TRUE", True), (" on ", True), ("Yes", True), ("0", False), ("nope", False)],
)
def test_boolean_from_the_environment(workspace: WriteWorkspace, raw: str, expected: bool) -> None:
    r = row(matrix(workspace, {"FEATURE_FLAG": raw, "API_URL": "x"}), "feature_flag")
    assert r.value is expected


@pytest.mark.parametrize(("raw", "expected"), [("42", 42), (" 7 ", 7), ("-1", -1)])
def test_integer_from_the_environment(workspace: WriteWorkspace, raw: str, expected: Any) -> None:
    r = row(matrix(workspace, {"MAX_ITEMS": raw, "API_URL": "x"}), "max_items")
    assert r.value == expected and r.warnings == ()


def test_failed_integer_keeps_the_raw_value_and_warns(workspace: WriteWorkspace) -> None:
    r = row(matrix(workspace, {"MAX_ITEMS": "4.5", "API_URL": "x"}), "max_items")
    assert (r.value, r.status) == ("4.5", "resolved")
    # a value of the process's own environment is not quoted (on a CI runner it may be a
    # secret under any name); flowctx.yaml's are the workspace's own (tests/cli/test_check_cmd)
    assert r.warnings == ("cannot coerce the str value to integer; the raw value is kept",)


def test_an_empty_env_value_is_still_set(workspace: WriteWorkspace) -> None:
    m = matrix(workspace, {"REGION": "", "FEATURE_FLAG": "", "API_URL": "x"})
    assert row(m, "region").value == ""
    assert row(m, "region").status == "resolved"
    assert row(m, "feature_flag").value is False


def test_a_secret_value_never_appears_in_a_coercion_warning(workspace: WriteWorkspace) -> None:
    r = row(matrix(workspace, {"OPENAI_API_KEY": "sk-live-123", "API_URL": "x"}), "openai_api_key")
    assert r.secret
    assert r.value == "sk-live-123"  # the core keeps real values; display masks them
    assert r.warnings and all("sk-live-123" not in w for w in r.warnings)
    assert all("sk-live-123" not in s.detail for s in r.trace)


def test_the_runtime_ignores_the_default_of_a_declared_unset_env_var(
    workspace: WriteWorkspace,
) -> None:
    m = matrix(workspace, {"API_URL": "x"}, runtime="mozaiks")
    flag = row(m, "feature_flag")
    assert (flag.value, flag.status) == (None, "missing")
    assert flag.origin == (
        "None: default 'no' ignored: env_var FEATURE_FLAG is declared, and the runtime reads "
        "only the environment (documented: falls back to the default)"
    )
    assert steps(flag) == [("env", "missing"), ("default", "skipped")]
    assert flag.warnings and "documented: falls back to the default" in flag.warnings[0]
    # no env_var declared: the default is what the runtime reads, as documented
    assert row(m, "constant").value == 3
    assert m.runtime == "mozaiks 0.2.0 (2026-10)"


def test_required_with_a_default_fails_in_the_runtime(workspace: WriteWorkspace) -> None:
    m = matrix(workspace, {"API_URL": "x"}, runtime="mozaiks")
    tier = row(m, "tier")
    assert tier.status == "error"
    assert tier.error == "Required config variable 'tier' is not set (env TIER)"
    assert "required with default 'free'" in tier.warnings[0]
    # the loader raises: the whole context fails to load, and the matrix says so first
    assert m.refused is not None and m.refused.outcome == "refused"
    assert "Required config variable 'tier'" in m.refused.reason
    assert (m.refused.line, m.refused.column) == (tier.loc.line, tier.loc.column) == (14, 3)


def test_the_older_runtime_reads_config_the_same_way(workspace: WriteWorkspace) -> None:
    m = matrix(workspace, {"API_URL": "x", "TIER": "pro"}, runtime="mozaiks-2026-01")
    assert row(m, "feature_flag").value is None
    assert row(m, "tier").value == "pro"
