"""MemberJunction conditions the built-in sweep (issue 36, ``families_sweep.py``) found answered
differently from node: each value or V8 error text below is node 20's, measured through
MemberJunction 5.51.3's evaluator (its "Expression evaluation failed: " taken off)."""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.expressions import evaluate
from flowctx_core.expressions.js.globals import GLOBALS
from tests.core.mjvalues import error_of, string_of

SCOPE: dict[str, Any] = {
    "payload": {"s": "a😀b", "arr": [1, 2], "o": {"a": 1}, "vo": {"valueOf": 1, "toString": "x"}}
}


def _string(expr: str) -> str:
    return string_of(expr, SCOPE)


def _error(expr: str) -> str:
    return error_of(expr, SCOPE)


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # extra arguments are ignored, as every built-in ignores them
        ("payload.s.includes('a', 0, 1, 2)", "true"),
        ("payload.s.indexOf('b', 0, 1, 2)", "3"),
        ("payload.s.lastIndexOf('a', 9, 1)", "0"),
        ("payload.s.startsWith('a', 0, 1)", "true"),
        ("payload.s.endsWith('b', 4, 1)", "true"),
        ("payload.arr.includes(2, 0, 1, 2)", "true"),
        ("payload.arr.indexOf(2, 0, 1, 2)", "1"),
        # an array that holds itself joins to the empty string there (V8's cycle check)
        ("(payload.arr.push(payload.arr), String(payload.arr))", "1,2,"),
        ("String(payload.arr.fill(payload.arr))", ","),
        ("(payload.arr.push([payload.arr]), payload.arr.join('-'))", "1-2-"),
    ],
)
def test_values(expr: str, expected: str) -> None:
    assert _string(expr) == expected


CIRCLE = "Converting circular structure to JSON\n    --> starting at object with constructor "


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("JSON.stringify(payload.arr.fill(payload.arr))",
         CIRCLE + "'Array'\n    --- index 0 closes the circle"),
        ("(payload.arr.push(payload.o), payload.o.b = payload.arr, JSON.stringify(payload.arr))",
         CIRCLE + "'Array'\n    |     index 2 -> object with constructor 'Object'\n"
         "    --- property 'b' closes the circle"),
        ("(payload.o.b = [[[[payload.o]]]], JSON.stringify(payload.o))",
         CIRCLE + "'Object'\n    |     property 'b' -> object with constructor 'Array'\n"
         "    |     index 0 -> object with constructor 'Array'\n    |     ...\n"
         "    |     index 0 -> object with constructor 'Array'\n"
         "    --- index 0 closes the circle"),
    ],
)  # fmt: skip
def test_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


# V8's call printer, node 20's texts for each shape of callee
CALLEES = [
    ("(a?.b)()", "(intermediate value)"), ("a?.b.c()", "a?.b.c"), ("a.b?.c()", "a.b?.c"),
    ("(-1)()", "-1"), ("(!a)()", "(!a)"), ("(a && a.x || X)()", "((a && a.x) || X)"),
    ("(a < X)()", "(a < X)"), ("(1n)()", "(intermediate value)"), ("a['x y']()", "a.x y"),
    ("a['0']()", "a.0"), ("a[0]()", "a[0]"), ("(X ? a : X)()", "(intermediate value)" * 3),
    ("(X + 1)()", "(X + 1)"), ("(typeof X)()", "(typeof X)"), ("(a.q = 5)()", "a.q"),
    ("(a.x++)()", "(a.x++)"), ("[1,,2].x()", "[1,(intermediate value),2].x"),
    ("(a ?? X)()", "(a ?? X)"), ("(void 0)()", "(void 0)"), ("(2 ** 3)()", "8"),
    ("(x => x).x()", "(intermediate value).x"), ("/a/gimsuyd.x()", "/a/dgimsuy.x"),
    ("'str'.x()", '"str".x'), ("(1.50).x()", "1.5.x"), ("1e21.x()", "1e+21.x"),
    ("(0x10).x()", "16.x"), ("[a.x, ...arr].x()", "[a.x,(...arr)].x"), ("(-0)()", "0"),
    ("(!0)()", "true"), ("(0, a.x, X)()", "(0 , a.x , X)"), ("a?.['x']()", "a?.x"),
    ("(a.x += 1)()", "a.x"), ("(new Date(0)).x()", "(intermediate value).x"),
    ("String(1).x()", "String(...).x"), ("(X - -1)()", "(X - -1)"),
    ("(1 + X + 2)()", "(1 + X + 2)"),
    ("((-0) ** -1)()", "-Infinity"), ("(1 << 31)()", "-2147483648"),
    ("payload.s.at(0).codePointAt()?.at(0)", "payload.s.at(...).codePointAt(...)?.at"),
]  # fmt: skip


@pytest.mark.parametrize(("expr", "callee"), CALLEES)
def test_not_a_function_names_the_callee_as_v8_prints_it(expr: str, callee: str) -> None:
    scope = {"a": {"b": {"c": 1}, "x": 1}, "X": 5, "arr": [1], "payload": {"s": "ab"}}
    result = evaluate(expr, scope, "mj")
    assert result.error is not None and result.error.message == f"{callee} is not a function"


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # V8 names a value in its TypeErrors without running any of it: an object whose
        # toString is its own data is [object Object], a plain one #<Object>, a function its
        # text, and the key of 'in' is shown before it is converted
        ("payload.vo in 's'", "Cannot use 'in' operator to search for '[object Object]' in s"),
        ("payload.arr in 5", "Cannot use 'in' operator to search for '[object Array]' in 5"),
        ("payload.o in true", "Cannot use 'in' operator to search for '#<Object>' in true"),
        ("new Date(0) in 's'", "Cannot use 'in' operator to search for '[object Date]' in s"),
        ("(x=>x) in 1", "Cannot use 'in' operator to search for 'x=>x' in 1"),
        ("[1].find(payload.vo)", "[object Object] is not a function"),
        ("[1].map(Object.create(null))", "[object Object] is not a function"),
        ("[1].map(Math)", "#<Object> is not a function"),
        ("[1].map(new Error('x'))", "Error: x is not a function"),
        ("Symbol.keyFor(x => x)", "x => x is not a symbol"),
        ("Symbol.keyFor((aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb) "
         "=> aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa + bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb + 1)",
         "(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb) => "
         "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa + bb...<omitted>... 1 is not a symbol"),
    ],
)  # fmt: skip
def test_values_named_in_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # RangeErrors name the number as ToNumber gave it
        ("'a'.repeat(-1.5)", "Invalid count value: -1.5"),
        ("'a'.repeat(Infinity)", "Invalid count value: Infinity"),
        ("[1].with(1.5)", "Invalid index : 1.5"),
        ("[1].with('7')", "Invalid index : 7"),
        ("String.fromCodePoint('x')", "Invalid code point NaN"),
        ("String.fromCodePoint(1e21)", "Invalid code point 1e+21"),
        # instanceof: a primitive on the right is no object, an object no function
        ("1 instanceof 's'", "Right-hand side of 'instanceof' is not an object"),
        ("1 instanceof null", "Right-hand side of 'instanceof' is not an object"),
        ("1 instanceof payload.o", "Right-hand side of 'instanceof' is not callable"),
        # BigInt arithmetic converts both sides (ToNumeric) before it refuses to mix them
        ("payload.vo - 1n", "Cannot convert object to primitive value"),
        ("1n >>> payload.vo", "Cannot convert object to primitive value"),
        ("1n - Symbol()", "Cannot convert a Symbol value to a number"),
        # a call spread into an array literal: V8's iterator wording for a callee
        ("[1, ...payload.o.x()]",
         "payload.o.x is not a function or its return value is not iterable"),
        ("Math.max(...payload.o.x())", "payload.o.x is not a function"),
        ("Array.from(null)",
         "object null is not iterable (cannot read property Symbol(Symbol.iterator))"),
    ],
)  # fmt: skip
def test_conversion_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("Date.UTC(Infinity)", "NaN"), ("new Date(-Infinity, undefined)", "Invalid Date"),
     ("new Date(1e300, 0).getTime()", "NaN"), ("Array.from((a, b) => a)", ","),
     ("Object(2n) - 1n", "1")],
)  # fmt: skip
def test_conversion_values(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # Function.prototype.call/apply/bind run with another ``this`` call that function;
        # on no function, V8 words the error after the call expression
        ("(x => x).apply.call(payload.s)", "(intermediate value).apply.call is not a function"),
        ("(x => x).call.call(payload.s, 1, 2)", "(intermediate value).call.call is not a function"),
        ("(x => x).apply.call(payload.s, 1, 2)",
         "Function.prototype.apply was called on a😀b, which is a string and not a function"),
        ("(x => x).bind.call(payload.s)", "Bind must be called on a function"),
        ("(x => x).toString.call(payload.arr)",
         "Function.prototype.toString requires that 'this' be a Function"),
        # the receiver checks of Symbol, BigInt, Date, Map, Set and RegExp methods
        ("Symbol('d').toString.call(payload.s)",
         "Symbol.prototype.toString requires that 'this' be a Symbol"),
        ("0n.toString.call(payload.s, null)",
         "BigInt.prototype.toString requires that 'this' be a BigInt"),
        ("new Date(0).getTime.call(payload.s)", "this is not a Date object."),
        ("new Date(0).toGMTString.call(payload.s)",
         "Method Date.prototype.toUTCString called on incompatible receiver a😀b"),
        ("new Date(0).toJSON.call(5)", "toISOString is not a function"),
        ("new Map().has.call(new Set())",
         "Method Map.prototype.has called on incompatible receiver #<Set>"),
        ("new Set().keys.call(new Map())",
         "Method Set.prototype.values called on incompatible receiver #<Map>"),
        ("/a/g.test.call(payload.s, 'a')",
         "Method RegExp.prototype.test called on incompatible receiver undefined"),
        ("/a/g.test.call(payload.o, 'a')",
         "Method RegExp.prototype.exec called on incompatible receiver #<Object>"),
    ],
)  # fmt: skip
def test_receivers(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("(x => x).call.call(y => y * 2, 0, 5)", "10"),
     ("(x => x).bind.call(y => y * 3, 0, 5)()", "15"),
     ("[].map.call.call([].map, [1, 2], x => x + 1)", "2,3"), ("0n.toString.call(5n, 2)", "101"),
     ("Math.max.apply.call(Math.min, null, [1, 2])", "1"), ("String(Math.max.bind(null))",
     "function () { [native code] }"), ("new Date(0).toJSON.call(new Date(5))",
     "1970-01-01T00:00:00.005Z"), ("/a/g.toString.call(payload.o)", "/undefined/undefined")],
)  # fmt: skip
def test_receiver_values(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("''.trimStart.call(null)", "String.prototype.trimLeft called on null or undefined"),
        ("(0, ''.trimEnd)()", "String.prototype.trimRight called on null or undefined"),
        ("[].sort.call(null, null)",
         "The comparison function must be either a function or undefined"),
        ("payload.o.toLocaleString.call(null)",
         "Object.prototype.toLocaleString called on null or undefined"),
        ("payload.vo.toLocaleString()", 'string "x" is not a function'),
        ("[].with.call('', undefined)", "Invalid index : undefined"),
        ("(1n).toString(Infinity)", "toString() radix argument must be between 2 and 36"),
        ("new Date(0).toJSON.call(1n)", "toISOString is not a function"),
    ],
)  # fmt: skip
def test_generic_methods_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("[].toString.call(payload.s)", "[object String]"), ("[].toString.call(x => x)",
      "[object Function]"), ("payload.o.isPrototypeOf.call(null)", "false"),
     ("typeof payload.o.valueOf.call(payload.s)", "object"),
     ("payload.o.toLocaleString.call([1, 2])", "1,2")],
)  # fmt: skip
def test_generic_methods_values(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("Object.defineProperty(1)", "Object.defineProperty called on non-object"),
        ("Object.defineProperty(payload.o, 'x', 1)", "Property description must be an object: 1"),
        ("Object.defineProperties(payload.o, 'ab')", "Property description must be an object: a"),
        ("Object.setPrototypeOf()", "Object.setPrototypeOf called on null or undefined"),
        ("Object.setPrototypeOf(payload.o, 's')",
         "Object prototype may only be an Object or null: s"),
        ("Object.setPrototypeOf(payload.o, payload.o)", "Cyclic __proto__ value"),
        ("Object.setPrototypeOf(Object.freeze(payload.o), null)", "#<Object> is not extensible"),
        ("Object.getOwnPropertySymbols(null)", "Cannot convert undefined or null to object"),
    ],
)  # fmt: skip
def test_object_statics_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("Object.setPrototypeOf(1, null)", "1"), ("Object.getOwnPropertySymbols(1).length", "0"),
     ("JSON.stringify(Object.getOwnPropertyDescriptors([1]))",
      '{"0":{"value":1,"writable":true,"enumerable":true,"configurable":true},'
      '"length":{"value":1,"writable":true,"enumerable":false,"configurable":false}}'),
     ("Object.defineProperties(payload.o, []) === payload.o", "true"),
     ("Object.getOwnPropertyNames(Math).slice(-3).join()", "PI,SQRT1_2,SQRT2"),
     ("Object.getOwnPropertyNames(Boolean).join()", "length,name,prototype"),
     ("Object.getOwnPropertyNames(JSON).join()", "parse,stringify"),
     ("Object.getOwnPropertyNames(/a/g).join()", "lastIndex"),
     ("Math.LOG10E", "0.4342944819032518")],
)  # fmt: skip
def test_object_statics_values(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("(1n).hasOwnProperty()", "false"), ("/a/g.hasOwnProperty('lastIndex')", "true"),
     ("(1n).__lookupGetter__()", "undefined"), ("payload.o.__lookupGetter__('a')", "undefined"),
     ("typeof new Date(0).hasOwnProperty", "function"), ("new Number(1n)", "1"),
     ("(new Date(0)).setYear(Infinity)", "NaN")],
)  # fmt: skip
def test_object_prototype_on_every_value(expr: str, expected: str) -> None:
    assert _string(expr) == expected


def test_define_getter_wants_a_function() -> None:
    assert _error("/a/g.__defineGetter__()") == (
        "Object.prototype.__defineGetter__: Expecting function"
    )


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("Object.create(/a/g, 'x')", "Property description must be an object: x"),
     ("Array.from(null, 'a')", "a is not a function")],
)  # fmt: skip
def test_argument_checks_come_first(expr: str, expected: str) -> None:
    assert _error(expr) == expected


def test_object_create_with_no_descriptors() -> None:
    assert _string("Object.create(payload.o, 5).a") == "1"
    assert _string("Reflect.ownKeys(/a/g).join()") == "lastIndex"


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("btoa(null)", "bnVsbA=="), ("btoa('é')", "6Q=="), ("atob('Y Q = =')", "a"),
     ("atob('YR==')", "a"), ("atob('\\tYQ==\\n')", "a"), ("atob('/+/+')", "ÿïþ"),
     ("btoa(String.fromCharCode(255))", "/w=="), ("atob(btoa('xyz\\u00ff'))", "xyzÿ"),
     ("atob.length + btoa.length + escape.length + BigInt.asIntN.length", "5")],
)  # fmt: skip
def test_base64(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("btoa()", 'The "input" argument must be specified'), ("btoa(payload.s)", "Invalid character"),
     ("atob('YQ=')", "Invalid character"), ("atob('Y=Q')", "Invalid character"),
     ("atob('YQ===')", "Invalid character"),
     ("atob('Y')", "The string to be decoded is not correctly encoded.")],
)  # fmt: skip
def test_base64_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


def test_new_on_plain_function_globals_and_bigint_dates() -> None:
    assert _string("new btoa('a')") == "[object Object]"  # atob/btoa are plain functions
    assert _error("new atob('!')") == "Invalid character"
    assert _error("new Date(1n)") == "Cannot convert a BigInt value to a number"


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("JSON.stringify(Object.fromEntries(new Map([[1, 2]])))", '{"1":2}'),
     ("JSON.stringify(Object.fromEntries(new Set([['a', 1]])))", '{"a":1}'),
     ("JSON.stringify(Object.fromEntries([[1, 2]].entries()))", '{"0":[1,2]}')],
)  # fmt: skip
def test_from_entries_of_any_iterable(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("Object.fromEntries('ab')", "Iterator value a is not an entry object"),
     ("Object.fromEntries(5)",
      "number 5 is not iterable (cannot read property Symbol(Symbol.iterator))"),
     ("Object.fromEntries(payload.o)",
      "object is not iterable (cannot read property Symbol(Symbol.iterator))"),
     ("Object.fromEntries(null)", "undefined is not iterable")],
)  # fmt: skip
def test_from_entries_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("payload.o.isPrototypeOf.call(null, payload.o)",
      "Cannot convert undefined or null to object"),
     ("payload.o.hasOwnProperty.call(null, payload.vo)",
      "Cannot convert object to primitive value"),
     ("/a/g.test.call(payload.arr, payload.vo)", "Cannot convert object to primitive value")],
)  # fmt: skip
def test_arguments_converted_before_the_receiver_is_refused(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("delete payload.nul[payload.vo]", "Cannot convert undefined or null to object"),
     ("delete 'a😀'[2]", "Cannot delete property '2' of [object String]"),
     ("(-2n).x = 1", "Cannot create property 'x' on bigint '-2'"),
     ("[new Date(0)].map(new Date(0).getTime)", "this is not a Date object."),
     ("(0, new Date(5).getTime)()", "this is not a Date object.")],
)  # fmt: skip
def test_deletes_writes_and_detached_date_methods(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("delete 'ab'[5]", "true"), ("new Date(0).toGMTString === new Date(5).toUTCString", "true"),
     ("new Date(0).toGMTString.name", "toUTCString"),
     ("new Date(0).getTime.bind(new Date(4))()", "4")],
)  # fmt: skip
def test_date_methods_are_one_function(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("(0, new Map().get)(1)",
      "Method Map.prototype.get called on incompatible receiver undefined"),
     ("[new Map().has][0](1)",
      "Method Map.prototype.has called on incompatible receiver [object Array]"),
     ("(0, /a/.test)('a')",
      "Method RegExp.prototype.test called on incompatible receiver undefined"),
     ("[1].map(new Set().has)",
      "Method Set.prototype.has called on incompatible receiver undefined"),
     ("(0, Symbol('x').toString)()", "Symbol.prototype.toString requires that 'this' be a Symbol"),
     ("delete /a/g.lastIndex", "Cannot delete property 'lastIndex' of [object RegExp]")],
)  # fmt: skip
def test_class_methods_called_without_their_object(expr: str, expected: str) -> None:
    assert _error(expr) == expected


def test_class_methods_are_shared_and_run_on_their_receiver() -> None:
    assert _string("new Map([[1, 2]]).get.call(new Map([[1, 3]]), 1)") == "3"
    assert _string("new Map().get === new Map().get") == "true"
    assert _string("/a/.exec.call(/b/, 'b')[0]") == "b"


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("(0, (x => x).bind)()", "Bind must be called on a function"),
     ("(0, (x => x).apply)()", "(0 , (intermediate value).apply) is not a function"),
     ("[1, 'x'].map((x => x).call)", "undefined is not a function"),
     ("[1, 'x'].map((x => x).apply)",
      "Function.prototype.apply was called on undefined, which is a undefined and not a function"),
     ("[1, 'x'].map((x => x).toString)",
      "Function.prototype.toString requires that 'this' be a Function")],
)  # fmt: skip
def test_function_methods_called_without_their_function(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("[3, 1, 2].map(Number.call, Number)", "0,1,2"),
     ("[' a', 'b '].map(''.trim.call, ''.trim)", "a,b"),
     ("[1, 2].find(Number.call, Number)", "2"),
     ("['a', 'b'].map(''.concat, 'z')", "za0a,b,zb1a,b")],
)  # fmt: skip
def test_callbacks_get_the_this_argument(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("(payload.m = new WeakMap([[payload.o, 1]]), payload.m.get(payload.o))", "1"),
     ("new WeakSet([payload.o]).has(payload.arr)", "false"), ("String(new WeakSet())",
      "[object WeakSet]"), ("new WeakMap().set(x => x, 3).has(x => x)", "false"),
     ("Object.getOwnPropertyNames(WeakSet).join()", "length,name,prototype")],
)  # fmt: skip
def test_weak_collections(expr: str, expected: str) -> None:
    assert _string(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("WeakMap()", "Constructor WeakMap requires 'new'"),
     ("new WeakMap().set(1, 2)", "Invalid value used as weak map key"),
     ("new WeakSet(['x'])", "Invalid value used in weak set"),
     ("new WeakMap([1])", "Iterator value 1 is not an entry object"),
     ("new WeakMap().get.call(new Map(), 1)",
      "Method WeakMap.prototype.get called on incompatible receiver #<Map>"),
     ("structuredClone(new WeakSet())", "#<WeakSet> could not be cloned.")],
)  # fmt: skip
def test_weak_collections_errors(expr: str, expected: str) -> None:
    assert _error(expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("[].reverse.call('a')", "a"), ("[].fill.call(5, 1)", "5"),
     ("typeof [].reverse.call(true)", "object"), ("[].unshift.call(5, 1)", "1"),
     ("(payload.h = JSON.parse(payload.t), [].shift.call(payload.h), JSON.stringify(payload.h))",
      '{"1":3,"length":2}'),
     ("(payload.h = JSON.parse(payload.t), [].unshift.call(payload.h, 'a'), "
      "JSON.stringify(payload.h))", '{"0":"a","1":1,"3":3,"length":4}')],
)  # fmt: skip
def test_generic_array_writes_on_array_likes(expr: str, expected: str) -> None:
    scope = {"payload": {"t": '{"0": 1, "2": 3, "length": 3}'}}
    result = evaluate(expr, scope, "mj")
    assert result.success, result.error
    assert str(GLOBALS["String"].fn(result.raw)) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [("[].reverse.call('ab')",
      "Cannot assign to read only property '0' of object '[object String]'"),
     ("[].shift.call('a')", "Cannot delete property '0' of [object String]"),
     ("[].unshift.call('ab', 1)",
      "Cannot assign to read only property '1' of object '[object String]'")],
)  # fmt: skip
def test_generic_array_writes_on_strings(expr: str, expected: str) -> None:
    assert _error(expr) == expected


def test_generic_sort_and_copy_within() -> None:
    scope = {"payload": {"t": '{"0": 3, "2": 1, "3": 2, "length": 5}'}}
    for expr, expected in [
        ("JSON.stringify([].sort.call(JSON.parse(payload.t)))", '{"0":1,"1":2,"2":3,"length":5}'),
        ("JSON.stringify([].copyWithin.call(JSON.parse(payload.t), 1, 0, 3))",
         '{"0":3,"1":3,"3":1,"length":5}'),
        ("[].sort.call('a')", "a"),
    ]:  # fmt: skip
        result = evaluate(expr, scope, "mj")
        assert result.success and GLOBALS["String"].fn(result.raw) == expected, expr
    assert _error("[].sort.call('ba')") == (
        "Cannot assign to read only property '0' of object '[object String]'"
    )


def test_generic_splice() -> None:
    scope = {"payload": {"t": '{"0": 3, "2": 1, "3": 2, "length": 5}'}}
    expr = "(payload.h = JSON.parse(payload.t), JSON.stringify([[].splice.call(payload.h, 1, 1, 'a', 'b'), payload.h]))"  # noqa: E501
    result = evaluate(expr, scope, "mj")
    assert result.success and result.raw == (
        '[[null],{"0":3,"1":"a","2":"b","3":1,"4":2,"length":6}]'
    )
    assert _error("[].splice.call('ab', 2, 0)") == (
        "Cannot assign to read only property 'length' of object '[object String]'"
    )
