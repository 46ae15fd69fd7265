"""Completion of names and paths from the scope a condition is evaluated against."""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.expressions import evaluate
from flowctx_core.expressions.completion import apply_completion, complete, completions

SCOPE: dict[str, Any] = {
    "payload": {"status": "pending"},
    "stepResult": {"step": "Success"},
    "flowContext": {"currentStepId": "Validate", "completedSteps": ["Validate"]},
    "data": {
        "userApproval": True,
        "user": {"name": "Ada", "roles": ["admin"]},
        "retryCount": 2,
        "items": [{"id": 1, "sku": "A-1"}],
        "my-key": 1,
    },
    "context": {"environment": "production", "apiKey": "sk-live-123456"},
}


def at_end(text: str, dialect: str = "mj", scope: dict[str, Any] = SCOPE) -> list[str]:
    return complete(text, len(text), scope, dialect)


def test_member_of_data_by_prefix() -> None:
    assert at_end("data.u") == ["data.userApproval", "data.user"]


def test_every_member_after_a_dot_in_document_order() -> None:
    assert at_end("data.") == [
        "data.userApproval",
        "data.user",
        "data.retryCount",
        "data.items",
        'data["my-key"]',
    ]


def test_top_level_names_start_with_the_scope() -> None:
    assert at_end("stepR") == ["stepResult"]
    assert at_end("flowC") == ["flowContext"]
    # scope names come before the dialect's globals
    assert at_end("d")[:2] == ["data", "Date"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("data.user.", ["data.user.name", "data.user.roles"]),
        ("data.items[0].s", ["data.items[0].sku"]),
        ('data["user"].n', ['data["user"].name']),
        ("data?.user?.na", ["data?.user?.name"]),
        ("payload.status === 'x' && context.env", ["context.environment"]),
    ],
)
def test_nested_paths(text: str, expected: list[str]) -> None:
    assert at_end(text) == expected


def test_methods_on_strings_and_arrays_in_mj() -> None:
    assert at_end("data.user.name.to") == [
        "data.user.name.toLowerCase",
        "data.user.name.toUpperCase",
    ]
    assert "data.user.roles.includes" in at_end("data.user.roles.")
    assert at_end("data.user.roles.le") == ["data.user.roles.length"]
    assert at_end("Math.m") == ["Math.max", "Math.min"]


def test_no_completion_inside_a_string_or_after_a_call_or_for_an_unknown_path() -> None:
    assert at_end("data.user.name === 'data.u") == []
    assert at_end("foo().da") == []
    assert at_end("data.nothing.") == []
    assert at_end("data.retryCount.") == []


def test_every_completed_path_evaluates() -> None:
    for candidate in at_end("data."):
        assert evaluate(candidate, SCOPE, "mj").success, candidate


def test_ag2_completes_dollar_brace_names_and_closes_them() -> None:
    scope = {"interview_complete": True, "interview_notes": "", "plan": None}
    assert at_end("${inter", "ag2", scope) == ["${interview_complete}", "${interview_notes}"]
    assert at_end("${plan} and ${", "ag2", scope) == [
        "${interview_complete}",
        "${interview_notes}",
        "${plan}",
    ]
    assert at_end("${plan}", "ag2", scope) == []  # closed: nothing to complete
    assert at_end("inter", "ag2", scope) == []  # bare names are not variables in ag2


def test_python_paths_use_the_same_scope() -> None:
    assert at_end("data.u", "python") == ["data.userApproval", "data.user"]
    assert "len" in at_end("le", "python")
    assert at_end("data.", "python")[-1] == 'data["my-key"]'


def test_cursor_in_the_middle_completes_what_is_before_it() -> None:
    text = "data.u && payload.status"
    found = completions(text, 6, SCOPE, "mj")
    assert found.candidates[0] == "data.userApproval"
    new_text, cursor = apply_completion(text, found, found.candidates[0])
    assert new_text == "data.userApproval && payload.status"
    assert cursor == len("data.userApproval")


def test_applying_an_ag2_completion_does_not_double_the_closing_brace() -> None:
    scope = {"interview_complete": True}
    text = "${inter}"
    found = completions(text, 7, scope, "ag2")
    assert apply_completion(text, found, found.candidates[0]) == ("${interview_complete}", 21)


def test_only_keys_are_offered_never_values() -> None:
    offered = " ".join(at_end("context.") + at_end("context.a"))
    assert "sk-live" not in offered
    assert "production" not in offered
