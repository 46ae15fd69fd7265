"""Coercion as the runtime applies it: booleans and integers only (mozaiks 0.2.0,
``mozaiksai/core/workflow/context/variables.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.base.coercion import coerce


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("TRUE", True),
        ("yes", True),
        (" on ", True),
        ("\tYes\n", True),
        ("0", False),
        ("false", False),
        ("no", False),
        ("off", False),
        ("", False),
        ("y", False),
        ("enabled", False),
        ("2", False),
    ],
)
def test_boolean_from_a_string(raw: str, expected: bool) -> None:
    assert coerce(raw, "boolean") == (expected, None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [(1, True), (0, False), (2.5, True), ([], False), ([0], True), ({}, False), (True, True)],
)
def test_boolean_from_a_non_string_is_bool_of_it(raw: Any, expected: bool) -> None:
    assert coerce(raw, "boolean") == (expected, None)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("42", 42), (" 7 ", 7), ("-3", -3), (3.9, 3), (True, 1), (False, 0), (10, 10)],
)
def test_integer(raw: Any, expected: int) -> None:
    value, warning = coerce(raw, "integer")
    assert value == expected and type(value) is int
    assert warning is None


@pytest.mark.parametrize("raw", ["4.5", "ten", "", [1], {"a": 1}, float("inf"), float("nan")])
def test_failed_integer_keeps_the_raw_value_with_a_warning(raw: Any) -> None:
    value, warning = coerce(raw, "integer")
    assert value is raw
    assert warning is not None
    assert "to integer; the raw value is kept" in warning


def test_the_warning_shows_the_value_unless_concealed() -> None:
    _, shown = coerce("sk-live-123", "integer")
    assert shown == "cannot coerce 'sk-live-123' to integer; the raw value is kept"
    _, hidden = coerce("sk-live-123", "integer", conceal=True)
    assert hidden is not None and "sk-live-123" not in hidden
    assert "str value" in hidden


def test_a_long_value_is_shortened_in_the_warning() -> None:
    _, warning = coerce("x" * 500, "integer")
    assert warning is not None and len(warning) < 120


@pytest.mark.parametrize("type_name", ["boolean", "integer", "string", "object"])
def test_none_stays_none(type_name: str) -> None:
    assert coerce(None, type_name) == (None, None)


@pytest.mark.parametrize("type_name", ["string", "number", "object", "array", "any"])
def test_other_types_are_not_coerced(type_name: str) -> None:
    for raw in ("0042", "true", 5, [1]):
        assert coerce(raw, type_name) == (raw, None)
