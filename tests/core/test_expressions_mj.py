"""MemberJunction path conditions: JavaScript semantics, refusals, spans, safe globals."""

from __future__ import annotations

import math
from typing import Any

import pytest

from core.expressions import ExpressionError, compile_expression, evaluate, referenced_names


def ok(expr: str, scope: dict[str, Any] | None = None) -> bool | None:
    result = evaluate(expr, scope or {})
    assert result.success, f"{expr!r}: {result.error}"
    return result.value


def raw(expr: str, scope: dict[str, Any] | None = None) -> Any:
    result = evaluate(expr, scope or {})
    assert result.success, f"{expr!r}: {result.error}"
    return result.raw


def err(expr: str, scope: dict[str, Any] | None = None) -> str:
    result = evaluate(expr, scope or {})
    assert not result.success, f"{expr!r} should fail, gave {result.value}"
    assert result.value is None and result.error is not None
    return result.error.message


# --- equality -------------------------------------------------------------------------------

LOOSE_TABLE = [
    ("null == undefined", True),
    ("undefined == null", True),
    ("null == 0", False),
    ("null == false", False),
    ("undefined == 0", False),
    ("1 == '1'", True),
    ("0 == ''", True),
    ("'' == false", True),
    ("'0' == false", True),
    ("true == 1", True),
    ("true == '1'", True),
    ("2 == true", False),
    ("NaN == NaN", False),
    ("[] == false", True),
    ("[1] == 1", True),
    ("[1,2] == '1,2'", True),
    ("'abc' == 'abc'", True),
    ("1.0 == 1", True),
]
STRICT_TABLE = [
    ("null === undefined", False),
    ("null === null", True),
    ("undefined === undefined", True),
    ("1 === '1'", False),
    ("true === 1", False),
    ("false === 0", False),
    ("1 === 1.0", True),
    ("'a' === 'a'", True),
    ("NaN === NaN", False),
    ("[] === []", False),
    ("true !== 1", True),
    ("1 !== '1'", True),
]


@pytest.mark.parametrize(("expr", "expected"), LOOSE_TABLE + STRICT_TABLE)
def test_equality_tables(expr: str, expected: bool) -> None:
    assert ok(expr) is expected


def test_strict_equality_of_scope_objects_is_identity() -> None:
    shared = {"a": 1}
    assert ok("x === y", {"x": shared, "y": shared}) is True
    assert ok("x === y", {"x": {"a": 1}, "y": {"a": 1}}) is False
    assert ok("x == y", {"x": {"a": 1}, "y": {"a": 1}}) is False


def test_bool_is_not_number_even_though_python_says_true_equals_one() -> None:
    assert ok("flag === 1", {"flag": True}) is False
    assert ok("flag === true", {"flag": 1}) is False
    assert ok("flag == 1", {"flag": True}) is True


# --- truthiness and logic --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [("", False), (0, False), (0.0, False), (math.nan, False), (None, False), (False, False),
     ([], True), ({}, True), ("0", True), ("false", True), (-1, True), (True, True)],
)  # fmt: skip
def test_result_uses_javascript_truthiness(value: Any, expected: bool) -> None:
    assert ok("x", {"x": value}) is expected


def test_undefined_is_falsy() -> None:
    assert ok("undefined") is False
    assert ok("obj.missing", {"obj": {}}) is False


def test_and_or_return_operands() -> None:
    assert raw("a || 'fallback'", {"a": ""}) == "fallback"
    assert raw("a && b", {"a": 1, "b": "x"}) == "x"
    assert raw("a && b", {"a": 0, "b": "x"}) == 0
    assert raw("[] || 1") == []  # [] is truthy


def test_short_circuit_skips_errors() -> None:
    assert ok("false && missing.deep.path", {"missing": None}) is False
    assert ok("true || missing.deep", {"missing": None}) is True


def test_ternary_and_nullish_coalescing() -> None:
    assert raw("n > 1 ? 'big' : 'small'", {"n": 2}) == "big"
    assert raw("n > 1 ? 'big' : n > 0 ? 'one' : 'none'", {"n": 1}) == "one"
    assert raw("x ?? 'd'", {"x": None}) == "d"
    assert raw("x ?? 'd'", {"x": 0}) == 0  # only null/undefined fall through
    assert raw("o.missing ?? 5", {"o": {}}) == 5
    assert raw("x ?? y.z", {"x": 1, "y": None}) == 1  # right side not evaluated


# --- member access ----------------------------------------------------------------------------


def test_missing_property_is_undefined_not_an_error() -> None:
    assert raw("payload.nope", {"payload": {}}) is not None
    assert ok("payload.nope === undefined", {"payload": {}}) is True
    assert ok("typeof payload.nope === 'undefined'", {"payload": {}}) is True


def test_reading_through_undefined_is_a_type_error() -> None:
    message = err("payload.a.b", {"payload": {}})
    assert message == "Cannot read properties of undefined (reading 'b')"
    assert "null" in err("x.y", {"x": None})


def test_optional_chaining() -> None:
    assert ok("payload?.a?.b === undefined", {"payload": {}}) is True
    # A null base short-circuits the whole chain; a present base does not protect later links.
    assert ok("payload?.a.b.c === undefined", {"payload": None}) is True
    assert "reading 'b'" in err("payload?.a.b.c", {"payload": {}})
    assert raw("items?.[0]", {"items": [7]}) == 7
    assert ok("items?.[0] === undefined", {"items": None}) is True
    assert ok("s?.length", {"s": None}) is False
    assert ok("s?.includes('a')", {"s": "abc"}) is True
    assert ok("s?.includes('a') === undefined", {"s": None}) is True


def test_indexing_lists_strings_and_objects() -> None:
    scope = {"items": [10, 20, 30], "name": "Alice", "obj": {"k": 1, "0": "zero"}}
    assert raw("items[1]", scope) == 20
    assert ok("items[5] === undefined", scope) is True
    assert ok("items[-1] === undefined", scope) is True
    assert raw("items['2']", scope) == 30
    assert raw("name[0]", scope) == "A"
    assert raw("obj['k']", scope) == 1
    assert raw("obj[0]", scope) == "zero"
    assert raw("items.length", scope) == 3


def test_in_operator_checks_keys() -> None:
    assert ok("'a' in obj", {"obj": {"a": 1}}) is True
    assert ok("'b' in obj", {"obj": {"a": 1}}) is False
    assert ok("0 in arr", {"arr": ["x"]}) is True
    assert ok("'x' in arr", {"arr": ["x"]}) is False  # JavaScript: indexes, not values
    assert "in" in err("'a' in s", {"s": "abc"})


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("typeof s", "string"), ("typeof n", "number"), ("typeof f", "number"),
     ("typeof b", "boolean"), ("typeof o", "object"), ("typeof a", "object"),
     ("typeof z", "object"), ("typeof o.nope", "undefined"), ("typeof notDeclared", "undefined"),
     ("typeof s.includes", "function"), ("typeof Math.abs", "function")],
)  # fmt: skip
def test_typeof(expr: str, expected: str) -> None:
    scope = {"s": "x", "n": 1, "f": 1.5, "b": True, "o": {}, "a": [], "z": None}
    assert raw(expr, scope) == expected


# --- arithmetic ---------------------------------------------------------------------------------


def test_arithmetic_follows_javascript() -> None:
    assert raw("'a' + 1") == "a1"
    assert raw("1 + '1'") == "11"
    assert raw("'3' - 1") == 2
    assert raw("'3' * '4'") == 12
    assert raw("7 % 3") == 1
    assert raw("-7 % 3") == -1
    assert raw("1 / 0") == math.inf
    assert math.isnan(raw("0 / 0"))
    assert raw("-x", {"x": "5"}) == -5
    assert raw("[1,2] + 'x'") == "1,2x"
    assert raw("null + 1") == 1
    assert math.isnan(raw("undefined + 1"))
    assert raw("1 + true") == 2


def test_relational_on_strings_and_mixed() -> None:
    assert ok("'apple' < 'banana'") is True
    assert ok("'10' < 9") is False
    assert ok("undefined < 1") is False
    assert ok("null >= 0") is True


# --- methods, arrows, globals -------------------------------------------------------------------


def test_string_methods() -> None:
    s = {"s": "  Hello World  "}
    assert raw("s.trim()", s) == "Hello World"
    assert raw("s.trim().toLowerCase()", s) == "hello world"
    assert raw("s.trim().toUpperCase()", s) == "HELLO WORLD"
    assert raw("s.indexOf('World')", s) == 8
    assert raw("s.trim().split(' ')", s) == ["Hello", "World"]
    assert raw("s.trim().slice(-5)", s) == "World"
    assert raw("s.trim().slice(0, 5)", s) == "Hello"
    assert raw("s.replace('l', 'L')", s) == "  HeLlo World  "
    assert ok("s.includes('World') && s.trim().startsWith('He') && s.trim().endsWith('ld')", s)


def test_array_methods_and_arrows() -> None:
    scope = {"items": [{"p": 5, "t": "a"}, {"p": 50, "t": "b"}], "tags": ["x", "y"]}
    assert ok("items.some(i => i.p > 10)", scope) is True
    assert ok("items.every((i) => i.p > 1)", scope) is True
    assert raw("items.filter(i => i.p > 10).length", scope) == 1
    assert raw("items.find(i => i.t === 'b').p", scope) == 50
    assert raw("items.map(i => i.t)", scope) == ["a", "b"]
    assert raw("items.map((i, n) => n)", scope) == [0, 1]
    assert raw("tags.indexOf('y')", scope) == 1
    assert raw("tags.slice(1)", scope) == ["y"]
    assert ok("tags.includes('x')", scope) is True
    assert raw("items.find(i => i.p > 100)", scope) is not None
    assert ok("items.find(i => i.p > 100) === undefined", scope) is True
    assert ok("items.some(i => tags.includes(i.t) || i.p > 40)", scope) is True


def test_arrow_parameters_shadow_and_do_not_leak() -> None:
    scope = {"x": 100, "items": [1, 2]}
    assert ok("items.every(x => x < 10) && x === 100", scope) is True
    assert referenced_names("items.every(x => x < 10)", "mj") == {"items"}


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("Math.abs(-3)", 3), ("Math.max(1, 5, 3)", 5), ("Math.min(4, 2)", 2), ("Number('42')", 42),
     ("String(12)", "12"), ("Boolean('')", False), ("Array.isArray([1])", True),
     ("Array.isArray('x')", False), ("Object.keys(o)", ["a", "b"]),
     ("JSON.stringify(o)", '{"a":1,"b":[true,null]}'), ("parseInt('42px')", 42),
     ("parseInt('ff', 16)", 255), ("parseFloat('3.5kg')", 3.5), ("isNaN('x')", True),
     ("isFinite('12')", True), ("Number.isInteger(5)", True), ("Number.isInteger('5')", False)],
)  # fmt: skip
def test_safe_globals(expr: str, expected: Any) -> None:
    assert raw(expr, {"o": {"a": 1, "b": [True, None]}}) == expected


def test_date_now_is_a_millisecond_timestamp() -> None:
    assert raw("Date.now()") > 1_600_000_000_000


def test_unknown_method_is_not_a_function() -> None:
    assert "is not a function" in err("s.repeat(1000000000)", {"s": "a"})
    assert "is not a function" in err("o.push(1)", {"o": []})
    assert "is not a function" in err("o.a()", {"o": {"a": 1}})


def test_literals() -> None:
    assert raw("'it\\'s'") == "it's"
    assert raw('"tab\\there"') == "tab\there"
    assert raw("'\\u0041\\x42\\u{43}'") == "ABC"
    assert raw("0x1F + 0b11 + 0o7 + 1e2 + .5") == 31 + 3 + 7 + 100 + 0.5
    assert raw("[1, 'a', null, [true]]") == [1, "a", None, [True]]
    assert err("x === null && y === undefined", {"x": None}) == "y is not defined"


# --- refusals (before anything runs) ----------------------------------------------------------

REFUSED = [
    ("this", "this"),
    ("payload.constructor", "constructor"),
    ("payload.__proto__", "__proto__"),
    ("payload.prototype", "prototype"),
    ("eval('1')", "eval"),
    ("Function('return 1')()", "Function"),
    ("require('fs')", "require"),
    ("import('fs')", "import"),
    ("process.env", "process"),
    ("globalThis.x", "globalThis"),
    ("new Date()", "new"),
    ("a; b", ";"),
    ("a = 1", "Assignment"),
    ("a += 1", "Assignment"),
    ("a ??= 1", "Assignment"),
    ("a++", "Increment"),
    ("--a", "Increment"),
    ("`x${a}`", "Template"),
    ("{}", "Blocks"),
    ("({a: 1})", "object literals"),
    ("x => x", "Arrow functions"),
    ("a & b", "&&"),
    ("2 ** 3", "**"),
    ("a // c", "Comments"),
    ("[...a]", "Spread"),
    ("Math.pow(2, 3)", "Math.pow is not available"),
    ("Math", "Math can only be used"),
    ("x.__defineGetter__", "__defineGetter__"),
    ("window", "window"),
]


@pytest.mark.parametrize(("expr", "fragment"), REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_before_evaluation(expr: str, fragment: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(expr, "mj")
    assert fragment.lower() in info.value.error.message.lower()
    result = evaluate(expr, {"a": 1, "b": 2, "payload": {}, "x": {}})
    assert not result.success and fragment.lower() in result.error.message.lower()


def test_empty_and_blank_are_refused() -> None:
    for text in ("", "   "):
        assert err(text) == "Expression must be a non-empty string"


def test_over_1000_characters_is_refused() -> None:
    text = "a" * 1001
    assert "too long" in err(text, {"a": 1})
    assert ok(" " * 990 + "true") is True


@pytest.mark.parametrize(
    "expr",
    ["[]['cons' + 'tructor']", '[]["cons"+"tructor"]["cons"+"tructor"]("return process.pid")()',
     "x['__pro' + 'to__']", "x['proto' + 'type']"],
)  # fmt: skip
def test_constant_computed_keys_to_the_object_model_are_refused_when_parsed(expr: str) -> None:
    with pytest.raises(ExpressionError):
        compile_expression(expr, "mj")


@pytest.mark.parametrize(
    ("expr", "scope"),
    [("x['constr' + k]", {"x": {}, "k": "uctor"}), ("x[k]", {"x": [], "k": "__proto__"}),
     ("s[k][k]", {"s": "abc", "k": "constructor"}),
     ("x[k]", {"x": {"constructor": 1}, "k": "constructor"}),
     ("x[[k]]", {"x": {}, "k": "prototype"})],
)  # fmt: skip
def test_runtime_computed_keys_are_checked(expr: str, scope: dict[str, Any]) -> None:
    message = err(expr, scope)
    assert "not allowed" in message


def test_computed_key_of_plain_data_still_works() -> None:
    assert raw("x[k]", {"x": {"a": 1}, "k": "a"}) == 1
    assert raw("x[k + 'b']", {"x": {"ab": 2}, "k": "a"}) == 2


# --- unknown names and spans -------------------------------------------------------------------


def test_unknown_name_is_named_with_its_span() -> None:
    result = evaluate("a > 1 && missingVar > 1", {"a": 2})
    assert result.error is not None
    assert result.error.message == "missingVar is not defined"
    assert (result.error.start, result.error.end) == (9, 19)


@pytest.mark.parametrize(
    ("expr", "span"),
    [("a === 1 ; b", (8, 9)), ("payload.constructor", (8, 19)), ("x = 1", (2, 3)),
     ("a && this", (5, 9)), ("'open", (0, 5)), ("a ===", (5, 5)), ("(a > 1", (6, 6)),
     ("a @ b", (2, 3)), ("x ++", (2, 4))],
)  # fmt: skip
def test_parse_error_spans_point_at_the_offending_token(expr: str, span: tuple[int, int]) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(expr, "mj")
    assert (info.value.error.start, info.value.error.end) == span


def test_runtime_error_span_points_at_the_failing_node() -> None:
    text = "ok === 1 && payload.customer.tier === 'x'"
    result = evaluate(text, {"ok": 1, "payload": {}})
    assert result.error is not None
    assert text[result.error.start : result.error.end] == "payload.customer.tier"


def test_referenced_names() -> None:
    assert referenced_names("data.a < 3 && payload.b === 'x'", "mj") == {"data", "payload"}
    assert referenced_names("Math.abs(x) + parseInt(y)", "mj") == {"x", "y"}
    assert referenced_names("typeof q === 'undefined'", "mj") == {"q"}
    with pytest.raises(ExpressionError):
        referenced_names("a ===", "mj")


def test_deep_nesting_is_refused_not_crashing() -> None:
    for text in ("(" * 400 + "1" + ")" * 400, "!" * 900 + "a", "[" * 300 + "]" * 300,
                 "a" + " + a" * 240, "- " * 450 + "1"):  # fmt: skip
        result = evaluate(text, {"a": 1})
        assert not result.success
        assert "nested too deeply" in result.error.message
