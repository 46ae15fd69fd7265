"""Launch values: admission limits, their notes, and ``{{runtime.*}}`` placeholders."""

from __future__ import annotations

from pathlib import Path

from flowctx_core.runtime.launch import MAX_KEYS, MAX_STRING_BYTES, admit_launch
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace


def test_identity_keys_are_always_admitted_and_undeclared_keys_dropped() -> None:
    launch = {"app_id": "a", "user_id": "u", "chat_id": "c", "workflow_name": "W", "colour": 1}
    got = admit_launch(launch, declared=["size"])
    assert got.admitted == {"app_id": "a", "user_id": "u", "chat_id": "c", "workflow_name": "W"}
    assert got.dropped == (("colour", "not a declared variable of this workflow"),)
    assert got.notes == ("launch value 'colour' dropped: not a declared variable of this workflow",)


def test_strings_over_64_kb_are_dropped_counting_utf8_bytes() -> None:
    assert MAX_STRING_BYTES == 65536
    launch = {
        "exact": "x" * 65536,
        "over": "x" * 65537,
        "wide": "é" * 32769,  # 32,769 characters but 65,538 bytes
        "big_list": ["x" * 65537],  # only top-level strings are limited
    }
    got = admit_launch(launch, declared=launch)
    assert set(got.admitted) == {"exact", "big_list"}
    assert got.dropped == (("over", "string value over 64 KB"), ("wide", "string value over 64 KB"))


def test_at_most_50_keys_are_accepted_and_dropped_ones_do_not_count() -> None:
    assert MAX_KEYS == 50
    launch = {"stranger": 1, **{f"v{i:02d}": i for i in range(52)}}
    got = admit_launch(launch, declared=[f"v{i:02d}" for i in range(52)])
    assert len(got.admitted) == 50
    assert "v49" in got.admitted and "v50" not in got.admitted
    assert got.dropped[1:] == (
        ("v50", "more than 50 launch keys"),
        ("v51", "more than 50 launch keys"),
    )


def test_the_trigger_payload_is_set_aside_not_admitted() -> None:
    got = admit_launch({"$trigger": {"event": "push"}, "app_id": "a"}, declared=[])
    assert got.trigger == {"event": "push"}
    assert got.admitted == {"app_id": "a"}
    bad = admit_launch({"$trigger": "push"}, declared=[])
    assert bad.trigger is None
    assert bad.dropped == (("$trigger", "the trigger payload must be a JSON object"),)


CONTRACT = """
definitions:
  region:
    type: string
    source: {type: config, env_var: REGION, default: eu}
  user_name:
    type: string
    source:
      type: data_reference
      database_name: default
      collection: users
      query_template: {user_id: "{{runtime.user_id}}", region: "{{runtime.region}}"}
      fields: [name]
  app_title:
    type: string
    source: {type: data_reference, database_name: default, collection: apps, fields: [title]}
  team:
    type: string
    source:
      type: data_reference
      database_name: default
      collection: users
      query_template: {user_id: "{{runtime.team_lead}}"}
      fields: [name]
agents:
  A: {variables: [region, user_name, app_title, team]}
"""

SEED = {
    "seed/default/users.json": [
        {"user_id": "u1", "region": "us", "name": "Ada"},
        {"user_id": "u2", "region": "us", "name": "Bob"},
        {"user_id": "u2", "region": "eu", "name": "Bea"},
    ],
    "seed/default/apps.json": [{"app_id": "app-1", "title": "FitTrack"}],
}


def _root(workspace: WriteWorkspace) -> Path:
    return workspace({"workflows/W/context_variables.yaml": CONTRACT, **SEED})


def test_launch_values_feed_runtime_placeholders_in_queries(workspace: WriteWorkspace) -> None:
    session = open_session(_root(workspace), env={})
    m = session.matrix("W", launch={"app_id": "app-1", "user_id": "u2", "region": "us"})
    assert m.values["user_name"] == "Bob"
    # an empty query_template means {app_id: {{runtime.app_id}}}
    assert m.values["app_title"] == "FitTrack"
    row = m.row("user_name")
    assert row is not None
    assert any('{"region": "us", "user_id": "u2"}' in s.detail for s in row.trace)
    # a declared variable passed at launch also wins over its own source
    region = m.row("region")
    assert region is not None and (region.value, region.origin) == ("us", "launch value")


def test_a_dropped_launch_key_leaves_its_placeholder_empty_and_says_so(
    workspace: WriteWorkspace,
) -> None:
    session = open_session(_root(workspace), env={})
    m = session.matrix("W", launch={"user_id": "u1", "team_lead": "u2"})
    assert "launch value 'team_lead' dropped: not a declared variable of this workflow" in m.notes
    row = m.row("team")
    assert row is not None and row.value is None
    assert row.warnings[0] == "placeholder(s) with no value: {{runtime.team_lead}}"
    # region is declared but not passed: {{runtime.region}} finds nothing, so no document matches
    assert m.values["user_name"] is None


def test_profile_launch_values_and_explicit_ones_merge(workspace: WriteWorkspace) -> None:
    root = _root(workspace)
    (root / "flowctx.yaml").write_text("launch: {app_id: app-1, user_id: u1}\n", encoding="utf-8")
    m = open_session(root, env={}).matrix("W", launch={"user_id": "u2", "region": "eu"})
    assert m.values["app_title"] == "FitTrack"
    assert m.values["user_name"] == "Bea"
