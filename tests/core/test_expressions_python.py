"""Plain Python conditions: allowlisted nodes, dict keys as attributes, escapes refused."""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.expressions import ExpressionError, compile_expression, evaluate, referenced_names

SCOPE: dict[str, Any] = {
    "payload": {"status": "pending", "items": [1, 2, 3], "get": "key named get"},
    "data": {"retryCount": 1},
    "name": "Alice",
}


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("payload.status == 'pending'", True), ("payload['status'] == 'pending'", True),
     ("data.retryCount < 3 and payload.status == 'pending'", True),
     ("1 < data.retryCount < 3", False),
     ("len(payload.items) == 3", True), ("sum(payload.items) == 6", True),
     ("max(payload.items) == 3 and min(payload.items) == 1", True),
     ("name.lower().startswith('al')", True), ("payload.get == 'key named get'", True),
     ("data.get('missing', 5) == 5", True), ("'status' in payload.keys()", True),
     ("payload.items[-1] == 3", True), ("payload.items[0:2] == [1, 2]", True),
     ("{'a': 1}['a'] == 1", True), ("(1, 2) == (1, 2)", True), ("3 in {1, 2, 3}", True),
     ("'x' if data.retryCount else 'y'", True), ("not payload.items", False),
     ("2 ** 10 == 1024", True), ("'-'.join(['a', 'b']) == 'a-b'", True),
     ("sorted([3, 1]) == [1, 3]", True), ("any([0, 1]) and not all([0, 1])", True)],
)  # fmt: skip
def test_semantics(expr: str, expected: bool) -> None:
    result = evaluate(expr, SCOPE, "python")
    assert result.success, result.error
    assert result.value is expected


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [("().__class__", "__class__"), ("payload.__class__", "__class__"),
     ("'{0.__class__}'.format(x)", "format"), ("'{}'.format_map(x)", "format_map"),
     ("(x for x in payload)", "generator"), ("[x for x in payload]", "comprehension"),
     ("{x: 1 for x in payload}", "comprehension"), ("lambda: 1", "lambda"),
     ("(y := 1)", ":="), ("f'{name}'", "f-string"), ("__import__('os')", "__"),
     ("open('/etc/passwd')", "not available"), ("getattr(payload, 'x')", "not available"),
     ("payload.items[0]()", "Only functions and methods"), ("len(*payload)", "unpacking"),
     ("dict(**payload)", "not available"), ("{**payload}", "unpacking"), ("b'x'", "bytes"),
     ("name._private", "_private"), ("x.gi_frame", "gi_frame"), ("1j", "complex"),
     ("a = 1", "Syntax error"), ("import os", "Syntax error"), ("1; 2", "Syntax error")],
)  # fmt: skip
def test_refused_when_parsed(expr: str, fragment: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(expr, "python")
    assert fragment.lower() in info.value.error.message.lower()


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [("2**10000000", "too large"), ("9**9**9", "too large"), ("'a'*10**9", "too large"),
     ("[1]*10**9", "too large"), ("10**5000 * 10**5000 > 1", "too large"),
     ("'%999999999d' % 1", "formatting"),
     ("name.replace('A', 'A'*90000).replace('A', 'A'*90000)", "too large"),
     ("1 << 100000", "too large"), ("payload.items.append(4)", "not available"),
     ("payload.pop('status')", "has no key"), ("payload.clear()", "has no key"),
     ("sum([[1]], [])", "numbers"), ("2.0 ** 100000", "out of range")],
)  # fmt: skip
def test_refused_while_evaluating(expr: str, fragment: str) -> None:
    result = evaluate(expr, SCOPE, "python")
    assert not result.success
    assert fragment.lower() in result.error.message.lower()


def test_unknown_name_and_key_errors() -> None:
    result = evaluate("missing > 1", SCOPE, "python")
    assert result.error.message == "name 'missing' is not defined"
    assert (result.error.start, result.error.end) == (0, 7)
    assert "has no key 'nope'" in evaluate("payload.nope", SCOPE, "python").error.message
    assert "key 'x' not found" in evaluate("data['x']", SCOPE, "python").error.message


def test_error_messages_do_not_echo_values() -> None:
    secret = "sk-live-123456"
    for expr in (
        "int(context['token'])",
        "payload[context['token']]",
        "[1].index(context['token'])",
    ):
        result = evaluate(expr, {"context": {"token": secret}, "payload": {}}, "python")
        assert not result.success
        assert secret not in result.error.message


def test_deep_nesting_is_refused() -> None:
    for text in ("(" * 300 + "1" + ")" * 300, "not " * 240 + "x", "1" + "+1" * 400):
        result = evaluate(text, {"x": 1}, "python")
        assert not result.success
        assert "nest" in result.error.message.lower()


def test_non_ascii_spans() -> None:
    text = "naïve == 'é' and missing"
    result = evaluate(text, {"naïve": "é"}, "python")
    assert text[result.error.start : result.error.end] == "missing"


def test_referenced_names_exclude_called_functions() -> None:
    assert referenced_names("len(payload.items) > n and str(x)", "python") == {"payload", "n", "x"}


@pytest.mark.parametrize(
    ("name", "shown"),
    [("a" * 250, "a" * 200), ("é" * 101, "é" * 100), ("a" * 199 + "é", "a" * 199 + "\ufffd")],
)
def test_an_undefined_name_is_cut_at_200_bytes_as_python_says_it(name: str, shown: str) -> None:
    # CPython formats a NameError's name with %.200s: 200 bytes of UTF-8
    result = evaluate(f"x or {name}", {"x": 0}, "python")
    assert not result.success and result.error
    assert result.error.message == f"name '{shown}' is not defined"
