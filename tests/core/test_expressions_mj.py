"""MemberJunction path conditions: JavaScript semantics, refusals, spans, safe globals."""

from __future__ import annotations

import math
import threading
from typing import Any

import pytest

from flowctx_core.expressions import ExpressionError, compile_expression, evaluate, referenced_names
from flowctx_core.expressions.js.values import UNDEFINED


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


def test_methods_of_the_copy_run_and_unknown_ones_are_not_functions() -> None:
    # push runs on MemberJunction's copy of the context; the author's list is unchanged
    scope: dict[str, Any] = {"o": []}
    assert ok("o.push(1) === 1 && o.length === 1", scope) is True
    assert scope == {"o": []}
    assert "is not a function" in err("o.a()", {"o": {"a": 1}})
    assert "is not a function" in err("s.nope()", {"s": "a"})
    assert "Invalid string length" in err("s.repeat(1000000000)", {"s": "a"})  # node's own


def test_literals() -> None:
    assert raw("'it\\'s'") == "it's"
    assert raw('"tab\\there"') == "tab\there"
    assert raw("'\\u0041\\x42'") == "AB"
    assert raw("0x1F + 0b11 + 0o7 + 1e2 + .5") == 31 + 3 + 7 + 100 + 0.5
    assert raw("[1, 'a', null, [true]]") == [1, "a", None, [True]]
    assert err("x === null && y === undefined", {"x": None}) == "y is not defined"


# --- MemberJunction 5.51.3's own pre-checks (its messages) -------------------------------------

ENGINE_REFUSED = [
    ("this", r"\bthis\b"),
    ("payload.constructor", r"\bconstructor\b"),
    ("payload.__proto__", r"\b__proto__\b"),
    ("payload.prototype", r"\bprototype\b"),
    ("eval('1')", r"\beval\s*\("),
    ("Function('return 1')()", r"\bFunction\s*\("),
    ("require('fs')", r"\brequire\s*\("),
    ("process.env", r"\bprocess\."),
    ("window.x", r"\bwindow\."),
    ("a; b", ";"),
    ("`x${a}`", "{"),  # the patterns are tried in order: '{' comes before '`'
    ("`x`", "`"),
    ("{}", "{"),
    ("({a: 1})", "{"),
    ("payload.note.includes('try again')", r"\btry\b"),
    ("name == 'constructor'", r"\bconstructor\b"),
]


@pytest.mark.parametrize(("expr", "pattern"), ENGINE_REFUSED, ids=[r[0] for r in ENGINE_REFUSED])
def test_forbidden_constructs_are_refused_with_the_engines_message(expr: str, pattern: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(expr, "mj")
    assert info.value.kind == "engine"
    expected = f"Expression contains forbidden construct: {pattern}"
    assert info.value.error.message == expected
    assert err(expr, {"a": 1, "b": 2, "payload": {}, "name": "x"}) == expected


# Every denylist pattern in the case the runtime folds (/i: ASCII only), beside non-ASCII text
# and text that lower-cases into ASCII: the refusal is the same whatever the first-pass filter
# that spares a plain condition the patterns' compilation.
CASED = [
    ("EVAL ('1')", r"\beval\s*\("),
    ("x || NeW\u00a0fUnCtIoN", r"\bnew\s+Function"),
    ("\u212a || fUNCTION\t(1)", r"\bFunction\s*\("),
    ("IMPORT\u3000x", r"\bimport\s+"),
    ("Require (1)", r"\brequire\s*\("),
    ("\u0130 || PROCESS.env", r"\bprocess\."),
    ("GLOBAL.x", r"\bglobal\."),
    ("Window.x", r"\bwindow\."),
    ("DOCUMENT.x", r"\bdocument\."),
    ("a.__PROTO__", r"\b__proto__\b"),
    ("a.ConStructor", r"\bconstructor\b"),
    ("a.PROTOtype", r"\bprototype\b"),
    ("AWAIT", r"\bawait\b"),
    ("Async", r"\basync\b"),
    ("cLASS", r"\bclass\b"),
    ("EXTENDS", r"\bextends\b"),
    ("Throw", r"\bthrow\b"),
    ("TRY", r"\btry\b"),
    ("Catch", r"\bcatch\b"),
    ("FINALLY", r"\bfinally\b"),
    ("\u00e9; 1", ";"),
    ("'${'", "{"),  # in order: '{' comes before '${'
    ("'}'", "}"),
]
NOT_REFUSED = ["THIS", "\u0130s", "evaluate(1)", "classes", "tryst", "a.\u212aonstructor", "x"]


@pytest.mark.parametrize(("expr", "pattern"), CASED, ids=[r[0] for r in CASED])
def test_the_denylist_folds_ascii_case_only_as_the_runtime_does(expr: str, pattern: str) -> None:
    expected = f"Expression contains forbidden construct: {pattern}"
    assert err(expr, {"a": 1, "x": 1}) == expected


@pytest.mark.parametrize("expr", NOT_REFUSED)
def test_words_the_denylist_does_not_match_pass_it(expr: str) -> None:
    result = evaluate(expr, {"x": 1})
    assert result.error is None or "forbidden construct" not in result.error.message, expr


def test_a_forbidden_word_inside_a_string_is_refused_with_a_warning() -> None:
    result = evaluate("payload.note.includes('try again')", {"payload": {"note": "try again"}})
    assert not result.success
    assert len(result.warnings) == 1
    assert "inside a string literal ('try again')" in result.warnings[0]
    # the same word in code gives no such warning
    assert evaluate("try", {}).warnings == ()


def test_empty_is_refused_but_whitespace_is_false_with_a_warning() -> None:
    assert err("") == "Expression must be a non-empty string"
    result = evaluate("   ", {})
    assert (result.success, result.value) == (True, False)
    assert "only whitespace" in result.warnings[0]


def test_over_1000_utf16_units_is_refused() -> None:
    assert err("a" * 1001, {"a": 1}) == "Expression exceeds maximum length of 1000 characters"
    assert ok(" " * 990 + "true") is True
    assert err("'" + "😀" * 500 + "'").startswith("Expression exceeds maximum length")
    assert ok("'" + "😀" * 499 + "'") is True


def test_parentheses_must_balance_in_the_raw_text() -> None:
    assert err("(a > 1", {"a": 2}) == "Unbalanced parentheses in expression"
    assert err("a > 1)", {"a": 2}) == "Unbalanced parentheses in expression"
    assert err("'(' + a", {"a": 2}) == "Unbalanced parentheses in expression"


# --- JavaScript the runtime accepts ------------------------------------------------------------


def test_assignment_runs_on_a_copy_and_warns() -> None:
    scope: dict[str, Any] = {"payload": {"count": 1}}
    result = evaluate("payload.count = 5", scope)
    assert (result.success, result.value) == (True, True)
    assert scope == {"payload": {"count": 1}}
    assert "did you mean '==='" in result.warnings[0]
    assert ok("payload.count = 0", scope) is False
    assert ok("payload.count++ === 1 && payload.count === 2", scope) is True
    assert err("unknownVar = 1") == "unknownVar is not defined"


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("x => x", True), ("2 ** 3 === 8", True), ("(5 & 3) === 1", True), ("[...a].length", True),
     ("Math.pow(2, 3) === 8", True), ("a, 0", True), ("0, a", False), ("a // c", False)],
)  # fmt: skip
def test_javascript_beyond_the_documented_list(expr: str, expected: bool) -> None:
    result = evaluate(expr, {"a": [1], "c": 2})
    if expr == "a // c":
        # the comment swallows the ");" MemberJunction appends
        assert result.error is not None and result.error.message == "missing ) after argument list"
    else:
        assert result.value is expected, result.error


@pytest.mark.parametrize(
    ("expr", "message"),
    [("08 === 8", "Decimals with leading zeros are not allowed in strict mode."),
     ("010", "Octal literals are not allowed in strict mode."),
     ("a ?? b || c", "missing ) after argument list"), ("delete a", "Delete of an unqualified"),
     ("let", "Unexpected strict mode reserved word"), ("-2 ** 2", "Unary operator used"),
     ("'\\1'", "Octal escape sequences")],
)  # fmt: skip
def test_strict_mode_syntax_errors(expr: str, message: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(expr, "mj")
    assert info.value.kind == "syntax"
    assert info.value.error.message.startswith(message)


#: V8's (node 20) words for a token out of place, measured on MemberJunction 5.51.3: which
#: one depends on where the token stands, not only on the token
TOKENS_OUT_OF_PLACE = [
    # '=>' where an operand or a property name must stand is a token like any other; after a
    # complete expression that is no parameter list it is a malformed list
    ("a === => 1", "Unexpected token '=>'"), ("f(=> 1)", "Unexpected token '=>'"),
    ("a.=>b", "Unexpected token '=>'"), ("a ? => 1 : 2", "Unexpected token '=>'"),
    ("a + b => 1", "Malformed arrow function parameter list"),
    # '#x' is read as a private name only where a binary expression starts
    ("a + #x", "Private field '#x' must be declared in an enclosing class"),
    ("a ** #x", "Private field '#x' must be declared in an enclosing class"),
    ("!#x", "Unexpected identifier '#x'"), ("new #x", "Unexpected identifier '#x'"),
    ("(a #x)", "Unexpected identifier '#x'"), ("a #x", "missing ) after argument list"),
    # reserved words V8 scans as tokens of their own
    ("1 + enum", "Unexpected reserved word"), ("(a get)", "Unexpected token 'get'"),
    ("(a \\u0074rue)", "Keyword must not contain escaped characters"),
    ("!import", "Cannot use import statement outside a module"),
    # a '/' after '.' is a division sign; after a prefix '++' a regular expression
    ("a./a/", "Unexpected token '/'"), ("++ /a/gg", "Invalid regular expression flags"),
    ("++/a/", "Invalid left-hand side expression in prefix operation"),
    # a line comment swallows ");": the next token is the '}' closing MemberJunction's try
    ("a + // c", "Unexpected token '}'"), ("[<!--1]", "Unexpected token '}'"),
    # a parenthesised array is no pattern; after a number V8 looks at one UTF-16 unit
    ("([a]) = !>1", "Invalid left-hand side in assignment"),
    # in parentheses '...' starts a rest parameter: what starts no binding after it fails
    ("(...) => 1", "Unexpected token ')'"), ("(a, ...1)", "Unexpected number"),
    ("(a, ...b)", "Unexpected token '...'"),
    # parameters are read as an expression first; a function expression stops where its
    # body's '{' (never there) would stand
    ("(null, b) => 1", "Invalid destructuring assignment target"),
    ("([k.,v]) => v", "Unexpected token ','"),
    ("([k.x, v]) => v", "Illegal property in declaration context"),
    ("null => 1", "Malformed arrow function parameter list"),
    ("(...null) => 1", "Unexpected token 'null'"), ("function f(a) + 1", "Unexpected token '+'"),
    ("(a, function) => 1", "Unexpected token ')'"), ("function 0", "Unexpected number"),
    ("--!a ** 2", "Unary operator used immediately before exponentiation expression. "
     "Parenthesis must be used to disambiguate operator precedence"),
    ("function r => 1", "Unexpected token '=>'"), ("function f(a) => 1", "Unexpected token '=>'"),
    ("(...=>xs) => 1", "Unexpected token '=>'"),
    ("'a' /[/ - (x).match(/\\d+/)", "Invalid regular expression flags"),  # before the pattern
    # an array destructuring assignment takes names, members, nested arrays, defaults, rests
    ("[1] = a", "Invalid destructuring assignment target"),
    ("[a?.b] = a", "Invalid destructuring assignment target"),
    # a strict-mode 08 loses to an error V8 places at or before it
    ("08 = 1", "Invalid left-hand side in assignment"),
    ("08 => 1", "Malformed arrow function parameter list"),
    ("08, a + b => 1", "Decimals with leading zeros are not allowed in strict mode."),
    # V8 places a unary operator before ** at the operator: an octal after it loses
    ("-010 ** 2", "Unary operator used immediately before exponentiation expression. "
     "Parenthesis must be used to disambiguate operator precedence"),
    ("010 + (-1 ** 2)", "Octal literals are not allowed in strict mode."),
    ("(08, a) => 1", "Invalid destructuring assignment target"),
    ("(08, a + b) => 1", "Decimals with leading zeros are not allowed in strict mode."),
    ("x[...new a]", "Unexpected token 'new'"), ("([k ?. , v]) => k", "Unexpected token ','"),
    ("'a b'.split(payload, 0)", "Cannot convert object to primitive value"),
    ("a.new /[/ 1", "Invalid regular expression: missing /"),  # a property named new
    ("([k, 1n v]) => v", "Unexpected identifier 'v'"),
    ("import.x", "Unexpected identifier 'x'"), ("x[...a, b]", "Rest parameter must be last "
     "formal parameter"), ("x[...(a)]", "Unexpected token '('"),
    ("(arguments a, b) => 1", "Unexpected identifier 'a'"),
    ("00x", "Invalid or unexpected token"),
    ("0__proto__", "Numeric separator can not be used after leading 0."),
    ("7\U0001d4b3", "missing ) after argument list"),
    # the last octal V8's scanner read (one token past the failing one) wins if it is before
    ("08 * >= 1 08", "Decimals with leading zeros are not allowed in strict mode."),
    ("08 * >= 08", "Unexpected token '>='"),
    # an arrow after an operand: V8 places it at the operand before '=>' and reads a
    # parenthesised one as parameters first
    ("08 != x => 1", "Decimals with leading zeros are not allowed in strict mode."),
    ("08 + x[08] => 1", "Malformed arrow function parameter list"),
    ("1 + (1) => 1", "Invalid destructuring assignment target"),
    ("1 + (x) => 1", "Malformed arrow function parameter list"),
    ("08 + (a.b) => 1", "Decimals with leading zeros are not allowed in strict mode."),
    # in a function's head V8 reads no regular expression: the '/' alone
    ("function */ 1", "Unexpected token '/'"), ("function f(/a/)", "Unexpected token '/'"),
    ("function */=/", "Unexpected token '/='"), ("function /*", "Invalid or unexpected token"),
    # an invalid escape after a strict-mode octal in the same string fails as the octal
    ("'\\1\\x'", "Octal escape sequences are not allowed in strict mode."),
    ("'\\1\\8\\x'", "\\8 and \\9 are not allowed in strict mode."),
    ("'\\x\\1'", "Invalid hexadecimal escape sequence"),
    # a well-formed escape of a character no name may hold is an illegal token
    ("x\\u0020", "Invalid or unexpected token"), ("\\ud800", "Invalid or unexpected token"),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "message"), TOKENS_OUT_OF_PLACE)
def test_a_token_out_of_place_gets_v8s_words_for_where_it_stands(expr: str, message: str) -> None:
    result = evaluate(expr, {"a": 1, "f": 2, "x": 3, "payload": [{"toString": "x"}]})
    assert result.error is not None and result.error.message == message


@pytest.mark.parametrize(
    ("expr", "message"),
    [("delete a?.length", "Cannot delete property 'length' of [object Array]"),
     ("delete s?.length", "Cannot delete property 'length' of [object String]"),
     ("delete o?.a && !('a' in o)", None), ("delete missing?.a", None)],
)  # fmt: skip
def test_delete_through_an_optional_chain_deletes_the_member(expr: str, message: str) -> None:
    result = evaluate(expr, {"a": [1], "s": "ab", "o": {"a": 1}, "missing": None})
    if message is None:
        assert result.value is True, result.error
    else:
        assert result.error is not None and result.error.message == message


def test_a_complete_condition_before_a_line_comment_still_evaluates() -> None:
    # the comment swallows ");", and the '}' after it ends the return statement (ASI)
    missing = evaluate("(a), (0) //", {"a": 1}).error  # Boolean( is left open
    assert missing is not None and missing.message == "missing ) after argument list"
    assert evaluate("a++ /2/ 1", {"a": 4}).value is True  # postfix: two divisions


# --- never executed ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr",
    ["[]['cons' + 'tructor']", '[]["cons"+"tructor"]["cons"+"tructor"]("return 1")()',
     "x['__pro' + 'to__']", "x['proto' + 'type']", "globalThis.x", "import('fs')",
     "Reflect.apply(Function, 0, [])", "console.log(1)", "(0, eval)('1')", "typeof process['pid']",
     "glob\\u0061lThis.x"],
)  # fmt: skip
def test_code_execution_routes_are_refused_when_parsed(expr: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_expression(expr, "mj")
    assert info.value.kind == "security"
    assert "MemberJunction 5.51.3 would execute this as code" in info.value.error.message


@pytest.mark.parametrize(
    ("expr", "scope", "raw"),
    [("typeof console", {}, "object"), ("typeof Symbol", {}, "function"),
     ("typeof process === 'object'", {}, True), ("typeof console", {"console": 1}, "number"),
     ("globalThis", {"globalThis": 3}, 3), ("Symbol + 1", {"Symbol": 3}, 4),
     ("typeof require", {}, "undefined"), ("typeof TransformStream", {}, "function"),
     ("typeof PerformanceObserver", {}, "function"), ("typeof fs", {}, "undefined")],
)  # fmt: skip
def test_host_globals_typeof_and_scope_provided_names_are_predicted(
    expr: str, scope: dict[str, Any], raw: Any
) -> None:
    result = evaluate(expr, scope, "mj")
    assert result.success, result.error
    assert result.raw == raw


def test_node_web_streams_are_refused_saying_why() -> None:
    result = evaluate("new ReadableStream().locked", {}, "mj")
    assert result.error is not None
    assert "pulled and pushed through the host's event loop" in result.error.message


@pytest.mark.parametrize(
    ("expr", "scope", "raw"),
    [("x + y", {"x,y": 1, "z": 2}, 3), ("a", {"\\u0061": 9}, 9), ("a", {"a/*c*/": 10}, 10),
     ("payloa\\u0064.a", {"payload": {"a": 1}}, 1), ("payload\u00a0.a", {"payload": {"a": 4}}, 4),
     ("[1].map(\\u0078 => x + 1)[0]", {}, 2), ("String([1,,3].map(x => 2))", {}, "2,,2"),
     ("Object.keys([,1]).length", {}, 1), ("0 in [,1]", {}, False)],
)  # fmt: skip
def test_scope_keys_identifiers_and_holes_as_node_reads_them(
    expr: str, scope: dict[str, Any], raw: Any
) -> None:
    result = evaluate(expr, scope, "mj")
    assert result.success, result.error
    assert result.raw == raw


def test_a_repeated_parameter_name_is_nodes_syntax_error() -> None:
    result = evaluate("x", {"x,y": 1, "x": 8}, "mj")
    assert not result.success and result.error is not None
    assert "Duplicate parameter name" in result.error.message


@pytest.mark.parametrize(
    ("expr", "scope"),
    [("x['constr' + k]['constr' + k]", {"x": {}, "k": "uctor"}),
     ("s[k][k]", {"s": "abc", "k": "constructor"}),
     ("x[k][k]", {"x": {}, "k": "constructor"}), ("(1).toFixed[k]", {"k": "prototype"})],
)  # fmt: skip
def test_runtime_computed_keys_to_the_object_model_are_refused(
    expr: str, scope: dict[str, Any]
) -> None:
    assert "would execute this as code" in err(expr, scope)


@pytest.mark.parametrize(
    ("expr", "scope", "value"),
    [("x['constr' + k] === Object", {"x": {}, "k": "uctor"}, True),
     # node's answer too: MemberJunction's copy of the scope does not keep this own key
     ("x[k] === String", {"x": {"constructor": 1}, "k": "constructor"}, True),
     ("x[[k]]", {"x": {}, "k": "prototype"}, UNDEFINED),
     ("s[k].name", {"s": "abc", "k": "constructor"}, "String"),
     ("x[k] === Object.getPrototypeOf(x)", {"x": {}, "k": "__proto__"}, True)],
)  # fmt: skip
def test_a_values_constructor_is_its_global_and_no_value_has_a_prototype(
    expr: str, scope: dict[str, Any], value: Any
) -> None:
    # reading them reaches no code: the global constructors are the expression's anyway
    assert raw(expr, scope) == value


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
    [("a === 1 ; b", (8, 9)), ("payload.constructor", (8, 19)), ("1 = 1", (2, 3)),
     ("a && this", (5, 9)), ("'open", (0, 5)), ("a ===", (5, 5)), ("a @ b", (2, 3)),
     ("x ++ y", (5, 6))],
)  # fmt: skip
def test_error_spans_point_at_the_offending_token(expr: str, span: tuple[int, int]) -> None:
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


def test_deep_nesting_evaluates_as_v8_does() -> None:
    # V8 nests far deeper than 1000 characters can write, so flowctx must too
    for text, expected in (("(" * 400 + "1" + ")" * 400, True), ("!" * 900 + "a", True),
                           ("[" * 300 + "]" * 300, True), ("a" + " + a" * 240, True),
                           ("- " * 450 + "1", True)):  # fmt: skip
        result = evaluate(text, {"a": 1})
        assert (result.success, result.value) == (True, expected), result.error


# node 20's answers (measured), for machines without node: the differential suite checks more
@pytest.mark.parametrize(
    ("expr", "raw"),
    [("(1234567.891).toLocaleString()", "1,234,567.891"), ("(1.0005).toLocaleString()", "1.001"),
     ("[1234.5, null, [1000, -0]].toLocaleString()", "1,234.5,,1,000,-0"),
     ("String(10n ** 5000n).length", 5001),
     ("BigInt('9'.repeat(4500)) + 1n === 10n ** 4500n", True),
     ("(-1e-7).toLocaleString()", "-0"), ("(Infinity).toLocaleString()", "∞"),
     ("'resume'.localeCompare('résumé')", -1), ("'a'.localeCompare('B')", -1),
     ("'ss'.localeCompare('ß')", -1), ("'Z'.localeCompare('z')", 1),
     ("(2**60).toString(7)", "2031000661631341064200"),
     ("parseInt('ffffffffffffffffff', 36)", 4.4204677707816586e27),
     ("Math.cbrt(7)", 1.9129311827723892), ("Math.hypot(3, 4, 5)", 7.0710678118654755),
     ("Math.exp(710)", float("inf")), ("(-0.4).toFixed()", "-0"),
     ("Math.exp(0.49999999999999994)", 1.6487212707001282), ("Math.log(3)", 1.0986122886681096),
     ("Math.exp(1) === Math.E", True), ("Math.pow(10, 3.5)", 3162.277660168379),
     ("0.5710242686891331 ** 8", 0.01130411404013994), ("Math.tan(1e22)", -1.628778225606899),
     ("Math.atan2(710, -1.5)", 1.5729089997080037),
     ("Math.sin(0.6948674738744653)", 0.6402836467265435),
     ("(2**64).toFixed(15)", "18446744073709551616.000000000000000"),
     ("Number('１２') === 12", False), ("''.trim === 'x'.trim", True),
     ("parseInt === Number.parseInt", True), ("String(x => x)", "x => x"),
     ("'ab'.split('', Infinity).length", 0), ("[1].lastIndexOf(1, -Infinity)", -1)],
)  # fmt: skip
def test_values_to_the_last_digit_as_node_gives_them(expr: str, raw: Any) -> None:
    result = evaluate(expr, {}, "mj")
    assert result.success, result.error
    assert result.raw == raw


def test_negative_zero_survives_json_parse_and_math() -> None:
    for expr in ("JSON.parse('-0')", "Math.trunc(-0.5)", "Math.round(-0.4)", "Math.ceil(-0.5)"):
        result = evaluate(f"Object.is({expr}, -0)", {}, "mj")
        assert result.success and result.raw is True, expr


@pytest.mark.parametrize(
    ("expr", "scope", "raw"),
    [("Object.keys(Object.create(o))", {"o": {"a": 1}}, []),
     ("Object.create(o).a", {"o": {"a": 1}}, 1),
     ("'toString' in Object.create(null)", {}, False),
     ("Object.getPrototypeOf(Object.create(null)) === null", {}, True),
     ("Object.getPrototypeOf(o) === Object.getPrototypeOf(p)", {"o": {}, "p": {"x": 1}}, True),
     ("Object.isFrozen(Object.freeze(o))", {"o": {"a": 1}}, True),
     ("Object.keys(Object.assign([1], o))", {"o": {"b": 2}}, ["0", "b"]),
     ("Object.getOwnPropertyNames([1, 2])", {}, ["0", "1", "length"]),
     ("String.raw(o, 1, 2)", {"o": {"raw": ["a", "b", "c"]}}, "a1b2c"),
     # onto a primitive, Object.assign writes through its wrapper object
     ("Object.keys(Object.assign('xy', o))", {"o": {"a": 1}}, ["0", "1", "a"]),
     ("typeof Object.assign(1, o)", {"o": {"a": 1}}, "object"),
     ("JSON.stringify(Object.assign(1, o))", {"o": {"a": 1}}, "1"),
     ("String(Object.assign('xy', o)) + Object.assign(true, o).a", {"o": {"a": 1}}, "xy1"),
     ("Object.getOwnPropertyNames(Object.assign('x', o))", {"o": {"a": 1}}, ["0", "length", "a"]),
     ("Object.isFrozen(Object.assign(1, o))", {"o": {}}, False)],
)  # fmt: skip
def test_object_built_ins(expr: str, scope: dict[str, Any], raw: Any) -> None:
    result = evaluate(expr, scope, "mj")
    assert result.success, result.error
    assert result.raw == raw


def test_a_frozen_object_refuses_writes_and_null_prototype_objects_have_no_string() -> None:
    frozen = evaluate("(Object.freeze(o).a = 2)", {"o": {"a": 1}}, "mj")
    assert not frozen.success and "read only property 'a'" in frozen.error.message
    indexed = evaluate("Object.assign('xy', null, [, 3])", {}, "mj")
    assert not indexed.success
    assert "read only property '1' of object '[object String]'" in indexed.error.message
    bare = evaluate("String(Object.create(null))", {}, "mj")
    assert not bare.success and "Cannot convert object to primitive value" in bare.error.message


# --- a function that calls itself (issue 36, item 12) ----------------------------------------


def test_a_function_calling_itself_3000_deep_is_evaluated_and_deeper_is_flowctx_s_bound() -> None:
    text = "(payload.f = n => n <= 0 ? 0 : 1 + payload.f(n - 1), payload.f({n}))"
    result = evaluate(text.replace("{n}", "3000"), {"payload": {}}, "mj")
    assert result.success and result.raw == 3000, result.error
    deeper = evaluate(text.replace("{n}", "20000"), {"payload": {}}, "mj")
    assert deeper.error is not None and "flowctx's bound" in deeper.error.message


def _nested(depth: int) -> list[Any]:
    value: list[Any] = [1, 2]
    for _ in range(depth):
        value = [value]
    return value


# measured from MemberJunction 5.51.3 on node 20: arrays this deep are joined, written and
# copied; node's own stack ends near 2,000 levels
DEEP_DATA = [
    ("String(x).length", 3),
    ("JSON.stringify(x).length", 2005),
    ("x.toLocaleString().length", 3),
    ("structuredClone(x).length", 1),
    ("JSON.stringify(x, null, 1).length", 1007010),
    ("x.push(1)", 2),
    ("(payload.y = 1, String(x).length)", 3),
]


@pytest.mark.parametrize(("text", "expected"), DEEP_DATA)
def test_data_a_thousand_levels_deep_is_evaluated_as_node_does(text: str, expected: int) -> None:
    scope = {"x": _nested(1000), "payload": {}}
    result = evaluate(text, scope, "mj")
    assert result.success and result.raw == expected, result.error
    # a second time (a run that ran out of stack once must leave no join marked)
    assert evaluate(text, scope, "mj").raw == expected


def test_data_deeper_than_flowctx_s_bound_is_refused_by_name_and_functions_keep_their_room() -> (
    None
):
    deep = evaluate("String(x)", {"x": _nested(1600)}, "mj")
    assert deep.error is not None
    assert "nested more than 1,500 levels deep: past flowctx's bound" in deep.error.message
    # a function that calls itself through a sort gets no extra room from deep data (each of
    # its calls goes through the C stack): flowctx's bound, in a thread as the app runs it
    out: list[Any] = []
    text = "(f => f(f))(f => [2, 1].sort(() => f(f)))"
    worker = threading.Thread(target=lambda: out.append(evaluate(text, {"x": _nested(1400)}, "mj")))
    worker.start()
    worker.join()
    assert out[0].error is not None and "flowctx's bound" in out[0].error.message


def test_every_global_with_properties_has_nodes_own_names() -> None:
    """Object.getOwnPropertyNames of a global reads node's list (scripts/builtin_names.mjs):
    a global added without one would answer "not reproduced"."""
    from flowctx_core.expressions.js.builtinnames import OWN_NAMES
    from flowctx_core.expressions.js.globals import GLOBALS
    from flowctx_core.expressions.js.values import JsFunction, JsNamespace

    holding = {
        name
        for name, value in GLOBALS.items()
        if type(value) is JsNamespace or (type(value) is JsFunction and value.members)
    }
    assert holding and holding <= set(OWN_NAMES)
    assert raw("Object.getOwnPropertyNames(Math).length", {}) == len(OWN_NAMES["Math"])


# --- host globals only called or constructed; names node's global scope lacks; call order ----

HOST_CALLS = [
    ("globalThis(1)", "globalThis is not a function"),
    ("(globalThis)(1)", "globalThis is not a function"),
    ("new console", "console is not a constructor"),
    ("process(payload.missing.y)", "Cannot read properties of undefined (reading 'y')"),
    ("Promise(1)", "Promise constructor cannot be invoked without 'new'"),
    ("new Promise(payload.o)", "Promise resolver #<Object> is not a function"),
    ("new Promise()", "Promise resolver undefined is not a function"),
    ("(require)('x')", "require is not defined"),
    ("window", "window is not defined"),
    ("payload.zz(payload.missing.y)", "Cannot read properties of undefined (reading 'y')"),
    ("payload.n(...payload.arr, 1)",
     "Function.prototype.apply was called on 5, which is a number and not a function"),
    ("payload.zz(...payload.arr, 1)",
     "Function.prototype.apply was called on undefined, which is a undefined and not a function"),
    ("performance(...payload.arr, 1)",
     "Function.prototype.apply was called on #<Performance>, which is an object and not a "
     "function"),
    ("Math.max(...payload.n, 1)",
     "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"),
    ("Math.max(...Number(1), 1)",
     "Number is not iterable (cannot read property Symbol(Symbol.iterator))"),
    ("new payload.o(...payload.arr, 1)", "#<Object> is not a constructor"),
    ("new BigInt(...payload.arr, 1)", "BigInt is not a constructor"),
    ("[...new Date(0).getTime()]",
     "Date.getTime is not a function or its return value is not iterable"),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "message"), HOST_CALLS, ids=[c[0] for c in HOST_CALLS])
def test_a_call_that_throws_before_reaching_the_host_is_predicted(expr: str, message: str) -> None:
    """Measured with MemberJunction 5.51.3: the arguments run before the callee is found no
    function; a spread before another argument makes V8 apply an array it built."""
    assert err(expr, {"payload": {"o": {"a": 1}, "arr": [1, 2], "n": 5}}) == message


@pytest.mark.parametrize(
    "expr",
    ["globalThis.x", "(0, globalThis)(1)", "globalThis?.(1)", "new Promise(x => 1)",
     "new Promise(Math.max)", "Promise.resolve(1).then(x => x)", "Promise.reject(1)",
     "Promise.any([])", "Promise.all(1)", "globalThis(process)", "new globalThis.x"],
)  # fmt: skip
def test_host_globals_used_otherwise_stay_refused_as_code(expr: str) -> None:
    assert "would execute this as code" in err(expr, {"payload": {}})


def test_a_scope_key_named_like_a_host_global_is_called_as_the_scopes_value() -> None:
    assert err("console(1)", {"console": 2}) == "console is not a function"
    result = evaluate("globalThis(1)", {"globalThis": [1]}, "mj")
    assert not result.success and result.error is not None
    assert result.error.message == "globalThis is not a function"


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("Math.max.apply(null, 10n)", "CreateListFromArrayLike called on non-object"),
     ("Math.max.apply(null, Symbol())", "CreateListFromArrayLike called on non-object"),
     ("Number.isNaN(Math.max.apply(null, x => x))", True),  # a function's length: 1
     ("Math.max.apply(null, new Uint8Array([1, 7])) === 7", True),
     ("String.fromCharCode.apply(null, new Uint16Array([65, 66])) === 'AB'", True)],
)  # fmt: skip
def test_apply_reads_any_object_as_array_like_and_refuses_every_primitive(
    expr: str, expected: str | bool
) -> None:
    result = evaluate(expr, {})
    if isinstance(expected, str):
        assert result.error is not None and result.error.message == expected
    else:
        assert result.value is expected, result.error


@pytest.mark.parametrize(
    ("value", "message"),
    [(1, "number 1 is not iterable (cannot read property Symbol(Symbol.iterator))"),
     (None, "object null is not iterable (cannot read property Symbol(Symbol.iterator))"),
     ({}, "object is not iterable (cannot read property Symbol(Symbol.iterator))"),
     (True, "boolean true is not iterable (cannot read property Symbol(Symbol.iterator))")],
)  # fmt: skip
def test_destructuring_a_value_without_an_iterator_says_v8s_words(value: Any, message: str) -> None:
    result = evaluate("[payload.x] = payload.v", {"payload": {"v": value}})
    assert result.error is not None and result.error.message == message


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("([payload.x = 7, ...payload.y] = 'abc', JSON.stringify([payload.x, payload.y]))",
      '["a",["b","c"]]'),
     ("([[payload.p, [payload.q = 4]]] = [[1, []]], JSON.stringify([payload.p, payload.q]))",
      "[1,4]"),
     ("([payload.a, payload.b = payload.a] = [5], String(payload.b))", "5"),
     ("([payload.f = x => 1] = [], payload.f.name)", "")],
)  # fmt: skip
def test_array_destructuring_assignment_with_nesting_defaults_and_rest(
    expr: str, expected: str
) -> None:
    result = evaluate(expr, {"payload": {}})
    assert result.success, result.error
    assert result.raw == expected


@pytest.mark.parametrize("expr", ["([...a, b] = c)", "([a, ...b,] = c)", "([[...a, b]] = c)"])
def test_a_rest_element_not_last_is_v8s_syntax_error(expr: str) -> None:
    result = evaluate(expr, {"a": 1, "b": 2, "c": [3]})
    assert result.error is not None and result.error.message == "Rest element must be last element"


OCTAL_ORDER = [
    ("--'\\08' && x", "Invalid left-hand side expression in prefix operation"),
    ("1 ?? 010 || 2", "missing ) after argument list"),
    ("'\\01' + 1 2", "Octal escape sequences are not allowed in strict mode."),
    ("'\\01' + '\\8'", "\\8 and \\9 are not allowed in strict mode."),
    ("x => 09 !x", "Decimals with leading zeros are not allowed in strict mode."),
    ("(x => 1)(010) !x", "missing ) after argument list"),
    ("09.5", "Decimals with leading zeros are not allowed in strict mode."),
    # V8 places it on the whole literal: '...' right after 08.5 starts no later than it ends
    ("[08.5...payload.arr]", "Unexpected token '...'"),
    ("[08.5 ...payload.arr]", "Decimals with leading zeros are not allowed in strict mode."),
]


@pytest.mark.parametrize(("expr", "message"), OCTAL_ORDER, ids=[c[0] for c in OCTAL_ORDER])
def test_strict_mode_octal_errors_come_where_v8_reports_them(expr: str, message: str) -> None:
    """Measured with MemberJunction 5.51.3: V8 records the last octal it scanned and reports
    it when an arrow or the whole function ends, unless an error placed earlier came first."""
    assert err(expr, {"x": 1, "a": 1, "b": 2}) == message


#: measured with MemberJunction 5.51.3: V8 reports errors as it meets them and keeps the one
#: placed earliest, so a second report placed before the first wins
TWO_ERRORS = [
    # the binding after a rest parameter's '...' fails, then '...' itself is reported
    ("[1].find((... ?. xs) => 1)", "Unexpected token '...'"),
    ("[1].find((...?. xs) => 1)", "Unexpected token '?.'"),
    ("(a, ... 1) => 1", "Unexpected token '...'"), ("(...1)", "Unexpected number"),
    ("(... eval) => 1", "Unexpected token '...'"),
    ("(...eval) => 1", "Unexpected eval or arguments in strict mode"),
    ("(... [a b]) => 1", "Unexpected token '...'"),
    ("(... [a, 1]) => 1", "Invalid destructuring assignment target"),
    ("(... [a, 1]) + 1", "Unexpected token '...'"), ("(...) => 1", "Unexpected token ')'"),
    # a pattern's invalid target is recorded: a syntax error after it is reported first
    ("Object.entries(o).some(([ arguments k , v ]) => v 1)", "Unexpected identifier 'k'"),
    ("([a, ...b, c d]) => 1", "Unexpected identifier 'd'"),
    # a token the scanner fails on without an error of its own: the next token's error is
    # reported, and loses to the argument list's, reported at the failed token
    ('x < "pend \n 1__0ing"', "missing ) after argument list"),
    ('(x < "a\n 1__0")', "Only one underscore is allowed as numeric separator"),
    ('[x < "a\n 1_"]', "Numeric separators are not allowed at the end of numeric literals"),
    ('f(x ? "a\n 1__0" : 1)', "Only one underscore is allowed as numeric separator"),
    ('f(x ? 1 : "a\n 1__0")', "missing ) after argument list"),
    ("x < @ 1__0", "missing ) after argument list"),
    ("x < 1e 1__0", "missing ) after argument list"),
    ("x < 0b2 1__0", "Invalid or unexpected token"), ("x < #  1__0", "Invalid or unexpected token"),
    ('x < "a\n #"', "missing ) after argument list"),
    ('x < "a\n 1ing"', "Invalid or unexpected token"),
    ("x < 1\\u00", "Invalid Unicode escape sequence"),
    # '?.' after `new a`: reported at '?.', lost to the argument list's at `a` if apart
    ("new a ?.b", "missing ) after argument list"),
    ("new a?.b", "Invalid optional chain from new expression"),
    ("[new a ?.b]", "Invalid optional chain from new expression"),
    # V8 fails a destructuring assignment as an argument after a compound assignment
    ("x += 1, [b] = [1]", "Invalid destructuring assignment target"),
    ("f(x ??= 1, 3, [b] = [1])", "Invalid destructuring assignment target"),
    ("x = 1, [c] = [1]", "c is not defined"), ("(x += 1), [c] = [1]", "c is not defined"),
    # a letter past U+FFFF ends a regular expression's flags
    ("x.replace(/a/g\U0001d4b3, '')", "missing ) after argument list"),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "message"), TWO_ERRORS, ids=[c[0] for c in TWO_ERRORS])
def test_of_two_syntax_errors_the_one_v8_keeps_is_reported(expr: str, message: str) -> None:
    assert err(expr, {"x": 1, "a": 1, "b": 2, "o": {"a": 1}, "f": 1}) == message


#: measured with MemberJunction 5.51.3 (node 20): texts broken two or three times over
SEVERAL_FAULTS = [
    # V8 places an octal escape's error from its first digit to its last, which counts as its
    # end: an invalid escape right after it starts after it, and the octal wins...
    ("'\\1\\u004'", "Octal escape sequences are not allowed in strict mode."),
    ("'\\9\\xZ'", "\\8 and \\9 are not allowed in strict mode."),
    ("'\\00\\u004'", "Octal escape sequences are not allowed in strict mode."),
    # ...unless the token V8 scans next, from the character the escape stopped at, has an
    # octal of its own: the last one read, after the escape's error
    ("'\\9\\u00'\\7' a", "Invalid Unicode escape sequence"),
    ("'\\01' + '\\x4'\\01'", "Invalid hexadecimal escape sequence"),
    ('"\\1\\x4\'\\01" +', "Invalid hexadecimal escape sequence"),
    # "missing ) after argument list" is said on seeing a token, not taking it: nothing after
    # it was scanned, so an octal there was never read
    ("'\\08' + a b '\\00'", "Octal escape sequences are not allowed in strict mode."),
    ("'\\08' + a b '\\00\\u004'", "Octal escape sequences are not allowed in strict mode."),
    # an invalid target is judged before its operator is taken: one token past it is read
    ("'\\01', ++1\n'\\1\\u12'", "Invalid left-hand side expression in prefix operation"),
    # a decimal with a leading zero is noted only once it is read whole
    ("data.x == '\\00', 08_1", "Octal escape sequences are not allowed in strict mode."),
    ("f(1, x\\u002008_1)", "missing ) after argument list"),
    # a failed token where a parenthesised expression expects its ')' is taken as that: the
    # argument list around the parentheses then reports it, before the next token's error
    ("-(data.stat 1e '\\u12'us === 1)", "missing ) after argument list"),
    ("-(a + 1e '\\u12')", "Invalid Unicode escape sequence"),
    # the operand of a prefix '++' that failed with an error past it is no reference either
    ("x => ++ @ 1_ delete", "Invalid left-hand side expression in prefix operation"),
    ("++ @ '\\u12'", "Invalid left-hand side expression in prefix operation"),
    ("++0x\\u004", "Invalid Unicode escape sequence"),
    ("- @ 5_.5", "missing ) after argument list"),
    ("f(@ /* c */ 1_)", "missing ) after argument list"),
    # a rest parameter ends a list an '=>' judges as parameters, wherever it stands
    ("(08, ...r) => r", "Invalid destructuring assignment target"),
    ("!(1, ...r) => r", "Invalid destructuring assignment target"),
    ("!(a, ...r) => r", "Malformed arrow function parameter list"),
    ("x == (...r, a) => r", "Rest parameter must be last formal parameter"),
    ("((a),\n) => 1", "Invalid destructuring assignment target"),
    ("delete (a,) => a", "Delete of an unqualified identifier in strict mode."),
    ("(x = 1, a.b = 2) => 1", "Illegal property in declaration context"),
    ("(a.b = 1, 1) => 1", "Invalid destructuring assignment target"),
    # `()` where an operand stands is a parameter list an '=>' follows, after a line break too
    ("x - () => 1", "Malformed arrow function parameter list"),
    ("++() => 1", "Invalid left-hand side expression in prefix operation"),
    ("() \n=> 1", "missing ) after argument list"),
    # invalid regular expression flags fail before the token after them is scanned; an
    # invalid pattern, once it is
    ("'\\08' + /a/gg '\\00'", "Octal escape sequences are not allowed in strict mode."),
    ("'\\08' + /a**/ '\\00'", "Invalid regular expression: /a**/: Nothing to repeat"),
    # after a separator's error, a '#' alone or an escape in a name V8 scans on
    ("'\\08' + 1_ '\\01\\xZ'", "Numeric separators are not allowed at the end of numeric literals"),
    ("'\\00', # '\\1'", "Invalid or unexpected token"),
    ("'\\08' + \\u004 '\\01\\xZ'", "Invalid Unicode escape sequence"),
    ("f(x\\u00200_1)", "missing ) after argument list"),
    # an undeclared private name is placed at the token before it
    ("07,#x", "Private field '#x' must be declared in an enclosing class"),
    ("07 ,#x", "Octal literals are not allowed in strict mode."),
    ("07.#x", "Private field '#x' must be declared in an enclosing class"),
    ("new.=>", "Unexpected token '=>'"),
    # the list's elements are judged before eval or arguments as a parameter; of the
    # elements the last that is no parameter decides, a property in a pattern is named so
    ("(arguments, 1) => 1", "Invalid destructuring assignment target"),
    ("([a.b], 1) => 1", "Invalid destructuring assignment target"),
    ("(1, [1, a.b]) => 1", "Illegal property in declaration context"),
    # only the innermost parentheses take the failed token for their ')'; a postfix '--'
    # ends an operand
    ("((a 1e '\\u12'))", "Invalid Unicode escape sequence"),
    ("-(y -- 0b 1_e1)", "missing ) after argument list"),
    # import() has a grammar of its own
    ("import()", "import() requires a specifier"),
    ("import(a b)", "Unexpected identifier 'b'"),
    ("import(a, b, c)", "Unexpected identifier 'c'"),
    ("import([a], ...b) => a", "Unexpected token '...'"),
    # '...' not closing a parameter list is said on seeing the token after its binding
    ("(08, ...x 08.5) => 1", "Unexpected token '...'"),
    ("((...x = '\\u00'\\7'))", "Rest parameter may not have a default initializer"),
    ("(08, ...x = 08)", "Decimals with leading zeros are not allowed in strict mode."),
    # deleting a name is judged once the operand is read, the token after it scanned
    ("'\\01' + delete x '\\00'", "Delete of an unqualified identifier in strict mode."),
    ("'\\01' + delete x 1", "Octal escape sequences are not allowed in strict mode."),
    # an unterminated regular expression is taken first: the token after the line break is
    # read; a backslash escapes no line break
    ("08 + /ab\n'\\8'", "Invalid regular expression: missing /"),
    ("08 + /a\\\n'\\8'", "Invalid regular expression: missing /"),
    # an '=>' after what is no parameter list is judged on seeing it: nothing past it is read
    ("08.5 + x =>'\\00'", "Decimals with leading zeros are not allowed in strict mode."),
    ("'\\01', (1) => '\\00'", "Octal escape sequences are not allowed in strict mode."),
    # an escaped keyword as a parameter
    ("(1, v\\u0061r) => 1", "Keyword must not contain escaped characters"),
    # a parenthesised list an '=>' makes parameters: of what can declare no name (a literal,
    # a parenthesised element, a compound assignment, a property) the last is reported; else
    # of what is no pattern (an array element that is no target, a rest element not last, a
    # name bound twice, once its element is read) the first; eval or arguments after both
    ("(a, a, 1) => 1", "Invalid destructuring assignment target"),
    ("(a, a, [1]) => 1", "Duplicate parameter name not allowed in this context"),
    ("([1], a, a) => 1", "Invalid destructuring assignment target"),
    ("x + ([...c], [...c, d]) => 1", "Rest element must be last element"),
    ("([a.b], [...c, d]) => 1", "Illegal property in declaration context"),
    ("(a.b = 1, [(e)]) => 1", "Invalid destructuring assignment target"),
    ("(arguments, [...c, d]) => 1", "Rest element must be last element"),
    ("(arguments, arguments) => 1", "Duplicate parameter name not allowed in this context"),
    ("!(a, a) => 1", "Duplicate parameter name not allowed in this context"),
    ("((e), a.b = 1)\n=> 1", "Illegal property in declaration context"),
    ("(a)\n=> 1", "missing ) after argument list"),
    ("x + ([...c]) => 1", "Malformed arrow function parameter list"),
    # eval or arguments is reported once the body is read; a name bound twice on seeing '=>'
    ("(a = 08, eval) => 08", "Unexpected eval or arguments in strict mode"),
    ("(a = 08, a) => 08", "Decimals with leading zeros are not allowed in strict mode."),
    ("(a = 08, a = 08) => 08", "Duplicate parameter name not allowed in this context"),
    ("(08, ...r, '\\01') => 1", "Decimals with leading zeros are not allowed in strict mode."),
    # a private name right after `arguments=>` is placed at the '=>', no later than the
    # parameter's end: reported first, it stays
    ("arguments=> #x", "Private field '#x' must be declared in an enclosing class"),
    ("arguments => #x", "Unexpected eval or arguments in strict mode"),
    # a computed member's '[' takes a failed token for its ']', as parentheses do for ')'
    ("a[new.target 0o .5_ + '\\7\\x4']", "missing ) after argument list"),
    ("[a[b 1e '\\u12']]", "Invalid Unicode escape sequence"),
    # a rest parameter not last, said on seeing the ',' after it
    ("[(a = 08, ...r, '\\01') => 1]",
     "Decimals with leading zeros are not allowed in strict mode."),
    # V8 reads flags up to the first that is none (or twice), then scans its next token there
    ("a?.b('\\8' + /a**/07)", "Invalid regular expression flags"),
    ("'\\8' + /a/gx '\\00'", "\\8 and \\9 are not allowed in strict mode."),
    # a backslash right after a hex, octal or binary literal: no number ends there
    ("f(1, 0xa\\u0062]us)", "Invalid or unexpected token"),
    # after '...' V8 reads a binding, where a '/' is a division sign alone
    ("x[.../a/]", "Unexpected token '/'"), ("(a, .../=a/) => 1", "Unexpected token '/='"),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "message"), SEVERAL_FAULTS, ids=[c[0] for c in SEVERAL_FAULTS])
def test_a_text_with_several_faults_fails_as_v8_reports_it(expr: str, message: str) -> None:
    assert err(expr, {"x": 1, "a": 1, "data": {}, "f": 1}) == message


@pytest.mark.parametrize(
    "expr",
    ["Reflect.apply(payload.arr.push, Object.seal(payload.arr), [1])",
     "payload.arr.push.call(Object.seal(payload.arr), 1)",
     "payload.arr.push.apply(Object.freeze(payload.arr), [1])"],
)  # fmt: skip
def test_a_writing_method_read_before_its_array_was_sealed_fails_when_it_runs(expr: str) -> None:
    """Measured with MemberJunction 5.51.3: V8 checks the array when the method writes."""
    assert err(expr, {"payload": {"arr": [1, 2, 3]}}) == (
        "Cannot add property 3, object is not extensible"
    )


# measured with MemberJunction 5.51.3: what a promise is before the condition returns (the
# object, its class, V8's TypeErrors); what it would do later is refused above
PROMISE_VALUES = [
    ("String(Promise.resolve(1) instanceof Promise)", "true"),
    ("String(Promise.resolve(1))", "[object Promise]"),
    ("JSON.stringify(Promise.all([1, Promise.resolve(2)]))", "{}"),
    ("String(((p) => Promise.resolve(p) === p)(Promise.resolve(2)))", "true"),
    ("String(Promise.resolve(1).then() instanceof Promise)", "true"),
    ("Object.getOwnPropertyNames(Object.getPrototypeOf(Promise.race([]))).join()",
     "constructor,then,catch,finally"),
    ("typeof Promise.withResolvers", "undefined"),
]  # fmt: skip
PROMISE_ERRORS = [
    ("Promise.resolve.call(undefined, 1)", "PromiseResolve called on non-object"),
    ("(0, Promise.all)([])", "Promise.all called on non-object"),
    ("Promise.all.call(payload.o, [])", "#<Object> is not a constructor"),
    ("Promise.resolve(1).then.call(1)",
     "Method Promise.prototype.then called on incompatible receiver 1"),
    ("structuredClone(Promise.resolve(1))", "#<Promise> could not be cloned."),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "expected"), PROMISE_VALUES)
def test_a_promise_is_an_object_before_the_condition_returns(expr: str, expected: str) -> None:
    assert raw(expr, {"payload": {}}) == expected


@pytest.mark.parametrize(("expr", "message"), PROMISE_ERRORS)
def test_a_promises_type_errors(expr: str, message: str) -> None:
    assert err(expr, {"payload": {"o": {"a": 1}}}) == message
