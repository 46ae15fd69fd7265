"""Mozaiks/AG2 ``${var}`` context expressions."""

from __future__ import annotations

from typing import Any

import pytest

from core.expressions import ExpressionError, compile_expression, evaluate, referenced_names

CTX: dict[str, Any] = {
    "t": True,
    "f": False,
    "n": 10,
    "s": "hello",
    "items": [1, 2, 3],
    "empty": [],
    "none": None,
}


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("${t}", True), ("not ${f}", True), ("!${t}", False), ("! ${f}", True),
     ("!(${t} and ${f})", True), ("${t} & ${f}", False), ("${t} | ${f}", True),
     ("${t} and not ${f}", True), ("${n} > 5 and ${n} <= 10", True), ("${n} != 10", False),
     ("${s} == 'hello'", True), ("${s} in ['hello', 'x']", True), ("'z' not in ${items}", True),
     ("2 in ${items}", True), ("${none} is None", True), ("${t} is not False", True),
     ("len(${items}) == 3", True), ("len(${empty}) > 0", False), ("${empty}", False),
     ("${n} > -1", True), ("${s} in ('a', 'hello')", True), ("${t} == True", True),
     ("'${s}' == '${s}'", True)],
)  # fmt: skip
def test_semantics(expr: str, expected: bool) -> None:
    result = evaluate(expr, CTX, "ag2")
    assert result.success, result.error
    assert result.value is expected


def test_truthiness_is_python_style() -> None:
    assert evaluate("${x}", {"x": []}, "ag2").value is False
    assert evaluate("${x}", {"x": "0"}, "ag2").value is True


def test_missing_variable_is_named() -> None:
    result = evaluate("${t} and ${missing}", CTX, "ag2")
    assert not result.success
    assert result.error.message == "Missing context variable: 'missing'"
    assert (result.error.start, result.error.end) == (9, 19)


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [("${user.is_premium}", "Attribute access"), ("${items[0]}", "indexing"),
     ("${n} + 1 > 2", "Arithmetic"), ("${s}.upper() == 'X'", "Attribute access"),
     ("${items}[0] == 1", "Indexing"), ("max(${items}) > 1", "len()"),
     ("len(${items}, 2) > 1", "exactly one"), ("bare == 1", "Bare name"),
     ("${t} && ${f}", "and"), ("${t} || ${f}", "or"), ("${t}&${f}", "and"),
     ("!x", "'!' must be followed"), ("${}", "Invalid"), ("${t", "Unclosed"),
     ("[x for x in ${items}]", "comprehension"), ("(lambda: 1)", "lambda"),
     ("${a b}", "Invalid"), ("${n} if ${t} else 0", "conditional"), ("", "non-empty")],
)  # fmt: skip
def test_refused_when_parsed(expr: str, fragment: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(expr, "ag2")
    assert fragment.lower() in info.value.error.message.lower()


def test_values_are_compared_as_values_so_quotes_cannot_inject() -> None:
    injected = {"s": "x' or '1'=='1"}
    result = evaluate("${s} == 'x'", injected, "ag2")
    assert result.success and result.value is False
    assert evaluate("${s} == \"x' or '1'=='1\"", injected, "ag2").value is True
    code = {"s": "__import__('os').system('echo pwned')"}
    assert evaluate("${s} == 'a'", code, "ag2").value is False


def test_lists_compare_as_lists() -> None:
    assert evaluate("${items} == [1, 2, 3]", CTX, "ag2").value is True


def test_referenced_names_are_the_variables() -> None:
    text = "${ready} and ${mode} == 'batch' and len(${caps}) > 0"
    assert referenced_names(text, "ag2") == {"ready", "mode", "caps"}
    assert referenced_names("'${quoted}' == 'x'", "ag2") == frozenset()


def test_error_span_maps_back_to_the_original_text() -> None:
    text = "${t} and ${n}.real"
    with pytest.raises(ExpressionError) as info:
        compile_expression(text, "ag2")
    start, end = info.value.error.start, info.value.error.end
    assert text[start:end] == "${n}.real"
