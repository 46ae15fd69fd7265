"""Scenarios: the masked context overlay, and scenario files that never hold a secret."""

from __future__ import annotations

import json

import pytest

from flowctx_core.model.scenarios import (
    HISTORY_LIMIT,
    MASK,
    Scenario,
    ScenarioError,
    apply_overrides,
    context_display,
    diff_context,
    list_scenarios,
    load_scenario,
    restore_context,
    save_scenario,
    secret_guard,
    secret_names,
)
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace

TOKEN = "tok-9f8e7d6c5b4a"
DB_PASSWORD = "hunter2-db-pass"
OPENAI = "sk-test-abcdef123456"

CONTRACT = """
definitions:
  service_auth:
    type: string
    description: secret because its env var looks secret, not because of its name
    source: {type: config, env_var: SERVICE_API_TOKEN}
  database_url:
    type: string
    source: {type: config, env_var: DATABASE_URL}
  environment:
    type: string
    source: {type: config, env_var: DEPLOY_ENVIRONMENT, default: staging}
  settings:
    type: object
    source: {type: state, default: {region: eu, signing_key: abc-signing-0001}}
agents:
  A: {variables: [service_auth, database_url, environment, settings]}
"""


@pytest.fixture
def session(workspace: WriteWorkspace):
    root = workspace({"workflows/Demo/context_variables.yaml": CONTRACT})
    env = {
        "SERVICE_API_TOKEN": TOKEN,
        "DATABASE_URL": f"postgres://app:{DB_PASSWORD}@db.example.test/app",
        "DEPLOY_ENVIRONMENT": "production",
        "OPENAI_API_KEY": OPENAI,
    }
    return open_session(root, env=env)


def test_context_display_masks_secret_rows_keys_and_uri_passwords(session) -> None:
    matrix = session.matrix("Demo")
    shown = context_display(matrix.values, secret_names(matrix), reveal=False)
    assert shown["service_auth"] == MASK
    assert shown["database_url"] == "postgres://app:***@db.example.test/app"
    assert shown["environment"] == "production"
    assert shown["settings"] == {"region": "eu", "signing_key": MASK}
    assert context_display(matrix.values, secret_names(matrix), reveal=True) == matrix.values


def test_untouched_masked_values_keep_their_real_values(session) -> None:
    real = session.matrix("Demo").values
    shown = context_display(real, secret_names(session.matrix("Demo")), reveal=False)
    edited = json.loads(json.dumps(shown))
    edited["environment"] = "staging"  # the one real edit
    edited["settings"]["region"] = "us"  # an edit next to a masked nested secret
    edited["database_url"] = "postgres://app:***@db2.example.test/app"  # host changed
    effective = restore_context(edited, shown, real)
    assert effective["service_auth"] == TOKEN
    assert effective["environment"] == "staging"
    assert effective["settings"] == {"region": "us", "signing_key": "abc-signing-0001"}
    assert effective["database_url"] == f"postgres://app:{DB_PASSWORD}@db2.example.test/app"


def test_a_typed_value_replaces_even_a_secret(session) -> None:
    real = session.matrix("Demo").values
    shown = context_display(real, secret_names(session.matrix("Demo")), reveal=False)
    edited = dict(shown, service_auth="typed-by-user", extra=1)
    del edited["environment"]
    effective = restore_context(edited, shown, real)
    assert effective["service_auth"] == "typed-by-user"
    overrides, removed = diff_context(effective, real)
    assert overrides == {"service_auth": "typed-by-user", "extra": 1}
    assert removed == ("environment",)
    assert apply_overrides(real, overrides, removed) == effective


def test_diff_context_tells_true_from_one(session) -> None:
    overrides, removed = diff_context({"a": 1, "b": True, "c": 2.0}, {"a": True, "b": True, "c": 2})
    assert overrides == {"a": 1}
    assert removed == ()


def test_history_keeps_the_last_50_without_duplicates() -> None:
    s = Scenario()
    for n in range(60):
        s = s.remember(f"data.n === {n}")
    s = s.remember("data.n === 20").remember("  ")
    assert len(s.history) == HISTORY_LIMIT
    assert s.history[-1] == "data.n === 20"
    assert s.history.count("data.n === 20") == 1
    assert s.history[0] == "data.n === 10"  # 20 moved to the end, nothing dropped


def test_saved_file_holds_no_secret_and_loads_back(session) -> None:
    matrix = session.matrix("Demo")
    real = matrix.values
    scenario = Scenario(
        expression=f"context.service_auth === '{TOKEN}'",
        dialect="mj",
        data={"userApproval": True, "apiKey": "data-key-0001", "copied": TOKEN},
        context_overrides={"service_auth": real["service_auth"], "environment": "staging"},
        payload={"status": "pending", "callback": f"https://u:{DB_PASSWORD}@cb.example.test"},
        step_result={"step": "Success"},
        flow_context={"stepCount": 2},
        tools_called=("submit_plan",),
        env_overrides={"OPENAI_API_KEY": OPENAI, "DEPLOY_ENVIRONMENT": "staging"},
        launch={"app_id": "app-1", "session_token": "launch-secret-77"},
        history=("data.userApproval === true", f"context.service_auth == '{TOKEN}'"),
    )
    guard = secret_guard(matrix, session.effective_env({"OPENAI_API_KEY": OPENAI}))
    path = save_scenario(session.root, "Demo", "approved path", scenario, guard)

    assert path == session.root / ".flowctx/scenarios/Demo/approved path.json"
    text = path.read_text(encoding="utf-8")
    for secret in (TOKEN, DB_PASSWORD, OPENAI, "data-key-0001", "launch-secret-77"):
        assert secret not in text, secret
    assert "abc-signing-0001" not in text
    saved = json.loads(text)
    assert saved["context"] == {"service_auth": MASK, "environment": "staging"}
    assert saved["env"] == {"OPENAI_API_KEY": MASK, "DEPLOY_ENVIRONMENT": "staging"}
    assert saved["data"]["userApproval"] is True

    assert list_scenarios(session.root, "Demo") == ["approved path"]
    loaded, problems = load_scenario(session.root, "Demo", "approved path")
    assert problems == []
    assert loaded is not None
    assert loaded.tools_called == ("submit_plan",)
    assert loaded.step_result == {"step": "Success"}
    # a masked override means: use the resolved value, so the real secret is used again
    context = apply_overrides(real, loaded.context_overrides, loaded.context_removed)
    assert context["service_auth"] == TOKEN
    assert context["environment"] == "staging"
    # masked env and launch values are dropped: the real environment applies
    assert loaded.env_overrides == {"DEPLOY_ENVIRONMENT": "staging"}
    assert loaded.launch == {"app_id": "app-1"}
    assert loaded.history[0] == "data.userApproval === true"


def test_bad_scenario_files_are_reported_with_line_and_column(session) -> None:
    folder = session.root / ".flowctx/scenarios/Demo"
    folder.mkdir(parents=True)
    (folder / "broken.json").write_text('{\n  "data": {"a": 1,}\n}\n', encoding="utf-8")
    (folder / "odd.json").write_text('{"dialect": "cobol", "toolsCalled": "x"}', encoding="utf-8")

    loaded, problems = load_scenario(session.root, "Demo", "broken")
    assert loaded is None
    assert problems[0].format().startswith(".flowctx/scenarios/Demo/broken.json:2:")
    assert "invalid JSON" in problems[0].message

    loaded, problems = load_scenario(session.root, "Demo", "odd")
    assert loaded is not None and loaded.dialect == "mj"
    assert any("unknown dialect 'cobol'" in p.message for p in problems)
    assert any("'toolsCalled'" in p.message for p in problems)

    loaded, problems = load_scenario(session.root, "Demo", "missing")
    assert loaded is None and "no scenario named 'missing'" in problems[0].message


@pytest.mark.parametrize("name", ["", "../escape", "a/b", ".hidden", "x" * 65])
def test_scenario_names_cannot_leave_the_folder(session, name: str) -> None:
    with pytest.raises(ScenarioError):
        save_scenario(session.root, "Demo", name, Scenario(), secret_guard(None))
    assert not (session.root / "escape.json").exists()


def test_a_secret_used_as_a_key_is_masked_too(session) -> None:
    guard = secret_guard(session.matrix("Demo"), session.effective_env())
    scenario = Scenario(data={TOKEN: "as a key"})
    path = save_scenario(session.root, "Demo", "keys", scenario, guard)
    assert TOKEN not in path.read_text(encoding="utf-8")
