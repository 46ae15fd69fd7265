"""Immutable runtime authority: which keys are protected and how values compare."""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.runtime.authority import PROTECTED_NAMES, compare_launch, protection_reason
from flowctx_core.session import open_session
from tests.conftest import WriteWorkspace


def _kinds(before: dict[Any, Any], after: dict[Any, Any], **kw: Any) -> list[tuple[str, str]]:
    return [(v.key, v.kind) for v in compare_launch(before, after, **kw).violations]


@pytest.mark.parametrize("name", PROTECTED_NAMES)
def test_every_listed_name_is_protected(name: str) -> None:
    assert _kinds({name: "a"}, {name: "b"}) == [(name, "changed")]


@pytest.mark.parametrize(
    "name",
    ["billing_app_id", "owner_user_id", "parent_tenant_id", "home_workspace_id"],
)
def test_names_with_a_protected_suffix(name: str) -> None:
    assert protection_reason(name) == f"name ends with _{name.split('_', 1)[1]}"
    assert _kinds({name: 1}, {}) == [(name, "removed")]


@pytest.mark.parametrize(
    "name", ["github_token", "db_password", "aws_secret_ref", "credentials", "openai_api_key"]
)
def test_names_containing_a_secret_word(name: str) -> None:
    assert _kinds({}, {name: "x"}) == [(name, "added")]


@pytest.mark.parametrize("name", ["app_identity", "notes", "draft_plan", "user", "apikeys_doc"])
def test_other_names_may_change_freely(name: str) -> None:
    assert protection_reason(name) is None
    assert _kinds({name: 1}, {name: 2}) == []


def test_protected_names_match_whatever_their_case() -> None:
    assert _kinds({"APP_ID": "a"}, {"APP_ID": "b"}) == [("APP_ID", "changed")]


def test_added_removed_and_changed_are_told_apart() -> None:
    before = {"app_id": "a", "user_id": "u", "chat_id": "c", "notes": "n"}
    after = {"app_id": "a", "chat_id": "c2", "tenant_id": "t", "notes": "changed"}
    assert _kinds(before, after) == [
        ("user_id", "removed"),
        ("chat_id", "changed"),
        ("tenant_id", "added"),
    ]
    report = compare_launch(before, after)
    assert report.protected == ("app_id", "user_id", "chat_id", "tenant_id")
    assert not report.ok


def test_an_untouched_context_is_clean() -> None:
    ctx = {"app_id": "a", "permissions": ["read"], "scratch": 1}
    report = compare_launch(ctx, {**ctx, "scratch": 2})
    assert report.ok and report.violations == ()


# --- canonical comparison ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ({"a": 1, "b": {"x": 1, "y": 2}}, {"b": {"y": 2, "x": 1}, "a": 1}),  # mapping order
        (("read", "write"), ["read", "write"]),  # tuple and list
        ({200: "ok", 404: "missing"}, {"200": "ok", "404": "missing"}),  # integer keys
        ({True: 1, None: 2}, {"true": 1, "null": 2}),  # keys as JSON writes them
        ([{"k": (1, 2)}], [{"k": [1, 2]}]),  # nested
    ],
)
def test_values_equal_as_canonical_json(before: Any, after: Any) -> None:
    assert _kinds({"permissions": before}, {"permissions": after}) == []


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (["read", "write"], ["write", "read"]),  # sequence order
        (1, 1.0),
        (1, True),
        ("1", 1),
        (None, False),
        ({"a": [1, 2]}, {"a": [1, 2, 3]}),
    ],
)
def test_order_and_scalars_are_significant(before: Any, after: Any) -> None:
    assert _kinds({"permissions": before}, {"permissions": after}) == [("permissions", "changed")]


def test_keys_colliding_after_string_conversion_fail_closed() -> None:
    same = {"scopes": {1: "read", "1": "write"}}
    report = compare_launch({"permissions": same}, {"permissions": same})
    assert [(v.key, v.kind) for v in report.violations] == [("permissions", "ambiguous")]
    assert report.violations[0].detail == (
        "keys 1 and '1' collide after string conversion at permissions.scopes"
    )
    # an unprotected value may hold colliding keys: nothing to protect
    assert _kinds({"notes": {1: "a", "1": "b"}}, {"notes": {}}) == []


def test_top_level_keys_colliding_on_a_protected_name_fail_closed() -> None:
    class Key:
        def __str__(self) -> str:
            return "tenant_id"

    before = {"tenant_id": "t", Key(): "t"}
    assert _kinds(before, {"tenant_id": "t"}) == [("tenant_id", "ambiguous")]


# --- the workflow's own protected variables ---------------------------------------------------

CONTRACT = """
definitions:
  billing_plan:
    type: string
    authority_class: immutable_runtime_authority
    source: {type: state, default: free}
  capability_packs:
    type: array
    source: {type: build_context}
  draft:
    type: string
    source: {type: state}
agents:
  A: {variables: [billing_plan, draft]}
"""


def test_immutable_and_build_context_variables_are_protected(workspace: WriteWorkspace) -> None:
    root = workspace({"workflows/W/context_variables.yaml": CONTRACT})
    wf = open_session(root, env={}).load("W")
    before = {"billing_plan": "free", "draft": "a"}
    after = {"billing_plan": "pro", "draft": "b", "capability_packs": [{"id": "x"}]}
    report = compare_launch(before, after, workflow=wf)
    assert [(v.key, v.kind, v.reason) for v in report.violations] == [
        ("billing_plan", "changed", "declared authority_class: immutable_runtime_authority"),
        ("capability_packs", "added", "build_context variable (callers cannot write it)"),
    ]
    assert _kinds(before, after) == []  # without the workflow they are ordinary names


# --- output ------------------------------------------------------------------------------------


def test_secret_values_are_masked_unless_revealed() -> None:
    before = {"openai_api_key": "sk-old", "permissions": {"db_password": "hunter2", "role": "r"}}
    after = {"openai_api_key": "sk-new", "permissions": {"db_password": "hunter3", "role": "r"}}
    lines = [v.format() for v in compare_launch(before, after).violations]
    text = "\n".join(lines)
    assert "sk-old" not in text and "sk-new" not in text and "hunter" not in text
    assert lines[0] == (
        'openai_api_key: changed: "***" -> "***"  [name contains \'api_key\' (secret handle)]'
    )
    assert '"db_password": "***"' in lines[1]
    revealed = compare_launch(before, after).violations[0].format(reveal=True)
    assert '"sk-old" -> "sk-new"' in revealed
    assert compare_launch(before, after).violations[0].to_json() == {
        "key": "openai_api_key",
        "kind": "changed",
        "reason": "name contains 'api_key' (secret handle)",
        "before": "***",
        "after": "***",
    }
