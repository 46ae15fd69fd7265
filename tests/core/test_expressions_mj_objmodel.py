"""The object model (issue 36): the built-in prototypes as values, the prototype chain, built-in
methods called on other receivers and own properties of the functions a condition makes. Each
value or V8 error text below is node 20's, measured with the same expression in a strict
function (MemberJunction 5.51.3 runs conditions so; its "Expression evaluation failed: " prefix
taken off)."""

from __future__ import annotations

from typing import Any

import pytest

from flowctx_core.expressions import evaluate
from flowctx_core.expressions.js.globals import GLOBALS


def _scope() -> dict[str, Any]:
    return {"payload": {"s": "a😀b", "arr": [1, 2], "o": {"a": 1}}}


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("Object.getPrototypeOf([]).map === [].map", "true"),
        ("String(Object.getPrototypeOf([]))", ""),
        ("JSON.stringify(Object.getPrototypeOf(''))", '""'),
        ("String(Object.getPrototypeOf(x => x))", "function () { [native code] }"),
        (
            "Object.getOwnPropertyNames(Object.getPrototypeOf(true)).join()",
            "constructor,toString,valueOf",
        ),
        ("Object.getPrototypeOf(Object.getPrototypeOf(new TypeError('x'))).name", "Error"),
        ("Object.getPrototypeOf(TypeError) === Error", "true"),
        ("toString.call(Object.getPrototypeOf(new Map()))", "[object Map]"),
        ("Object.getPrototypeOf(0).toFixed(2)", "0.00"),
        ("Object.getPrototypeOf([]).concat([1]).length", "1"),
        (
            (
                "Object.getPrototypeOf(Object.getPrototypeOf([])) === "
                "Object.getPrototypeOf(payload.o)"
            ),
            "true",
        ),
        ("Object.getPrototypeOf(Object.getPrototypeOf(payload.o))", "null"),
        ("Object.getPrototypeOf([]).isPrototypeOf(payload.arr)", "true"),
        ("Object.create(payload.arr) instanceof Array", "true"),
        ("Object.create(null) instanceof Object", "false"),
        ("Object.getPrototypeOf(/a/).source", "(?:)"),
        (
            (
                "(payload.f = x => x, payload.f.b = 1, payload.f[0] = 2, "
                "Object.getOwnPropertyNames(payload.f).join())"
            ),
            "0,length,name,b",
        ),
        ("Reflect.set(x => x, 'zz', 9)", "true"),
        (
            (
                "(payload.f = x => x, payload.f.a = 1, "
                "JSON.stringify(Object.assign(payload.o, payload.f)))"
            ),
            '{"a":1}',
        ),
        (
            (
                "(payload.a = [1, 2], Object.setPrototypeOf(payload.a, null), "
                "Array.isArray(payload.a) + JSON.stringify(payload.a))"
            ),
            "true[1,2]",
        ),
        (
            (
                "(payload.d = new Date(0), Object.setPrototypeOf(payload.d, "
                "Object.getPrototypeOf(payload.o)), payload.d + 1)"
            ),
            "[object Date]1",
        ),
        (
            (
                "(payload.q = Object.create(Object.getPrototypeOf([])), "
                "payload.q.push(1, 2), JSON.stringify(payload.q) + payload.q.length)"
            ),
            '{"0":1,"1":2,"length":2}2',
        ),
        (
            (
                "(payload.m = new Map(), Object.setPrototypeOf(payload.m, "
                "Object.getPrototypeOf(new Set())), toString.call(payload.m))"
            ),
            "[object Set]",
        ),
        (
            (
                "(payload.o.__defineGetter__('g', () => 5), payload.o.g + "
                "Object.keys(payload.o).join())"
            ),
            "5a,g",
        ),
        (
            (
                "(payload.d = Object.create(null), payload.d.value = 3, "
                "Object.defineProperty(payload.o, 'x', payload.d), "
                "JSON.stringify([Object.keys(payload.o), "
                "Object.getOwnPropertyNames(payload.o), "
                "Object.getOwnPropertyDescriptor(payload.o, 'x')]))"
            ),
            (
                '[["a"],["a","x"],{"value":3,"writable":false,"enumerable":false,"configurable":false}]'
            ),
        ),
        (
            (
                "(payload.s = Symbol('k'), payload.o[payload.s] = 1, "
                "Reflect.ownKeys(payload.o).map(String).join() + "
                "JSON.stringify(payload.o))"
            ),
            'a,Symbol(k){"a":1}',
        ),
        (
            (
                "(payload.o[Symbol.toPrimitive] = h => h, [payload.o + '', "
                "String(payload.o), +payload.o].join())"
            ),
            "default,string,NaN",
        ),
        ("(payload.o[Symbol.toStringTag] = 'Zz', toString.call(payload.o))", "[object Zz]"),
        (
            (
                "(payload.o[Symbol.iterator] = () => [1, 2].values(), "
                "[...payload.o].join() + Array.from(payload.o).length)"
            ),
            "1,22",
        ),
        ("(payload.o[Symbol.hasInstance] = x => x === 1, 1 instanceof payload.o)", "true"),
        (
            (
                "(payload.o[Symbol.isConcatSpreadable] = true, payload.o.length = 2, "
                "JSON.stringify([0].concat(payload.o)))"
            ),
            "[0,null,null]",
        ),
        (
            ("Object.getOwnPropertySymbols(Object.getPrototypeOf(new Map())).map(String).join()"),
            "Symbol(Symbol.toStringTag),Symbol(Symbol.iterator)",
        ),
        ("String(''[Symbol.iterator])", "function [Symbol.iterator]() { [native code] }"),
        (
            (
                "(payload.d = Object.create(null), payload.d.value = 1, "
                "JSON.stringify(Object.defineProperty([1, 2], 'length', payload.d)))"
            ),
            "[1]",
        ),
        ("(payload.arr.length = 4, JSON.stringify(Object.keys(payload.arr)))", '["0","1"]'),
        (
            (
                "(payload.h = Object.create(null), payload.h.get = (t, k) => k + '!', "
                "new Proxy(payload.o, payload.h).zz)"
            ),
            "zz!",
        ),
        (
            (
                "(payload.h = Object.create(null), payload.h.ownKeys = () => ['b', "
                "'a'], JSON.stringify(Object.keys(new Proxy(payload.o, payload.h))))"
            ),
            '["a"]',
        ),
        (
            (
                "(payload.h = Object.create(null), payload.h.get = (t, k) => k === "
                "'length' ? 2 : t[k], JSON.stringify(new Proxy(payload.arr, "
                "payload.h).map(x => x * 2)))"
            ),
            "[2,4]",
        ),
        (
            (
                "(payload.h = Object.create(null), payload.h.set = () => false, "
                "Reflect.set(new Proxy(payload.o, payload.h), 'a', 1))"
            ),
            "false",
        ),
    ],
)
def test_values(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert result.success, f"{expr!r}: {result.error}"
    assert GLOBALS["String"].fn(result.raw) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        (
            (
                "(payload.p = new Proxy(payload.arr, payload.eo), "
                "[Array.isArray(payload.p), JSON.stringify(payload.p), "
                "String(payload.p), toString.call(payload.p), "
                "payload.p.length].join('|'))"
            ),
            "Cannot create proxy with a non-object as target or handler",
        ),
        ("Object.getPrototypeOf(new Date(0)).getTime()", "this is not a Date object."),
        (
            "String(Object.getPrototypeOf(new Date(0)))",
            "Method Date.prototype.toString called on incompatible receiver [object Object]",
        ),
        (
            "Object.getPrototypeOf(new Map()).get(1)",
            "Method Map.prototype.get called on incompatible receiver #<Map>",
        ),
        (
            "String(Object.getPrototypeOf(Symbol()))",
            "Symbol.prototype [ @@toPrimitive ] requires that 'this' be a Symbol",
        ),
        (
            "(payload.eo = payload.o, (payload.eo.isPrototypeOf || 0)([]))",
            "Cannot convert undefined or null to object",
        ),
        ("(true.valueOf || 0)(1.5)", "Boolean.prototype.valueOf requires that 'this' be a Boolean"),
        (
            "(payload.f = x => x, payload.f.name = 1)",
            "Cannot assign to read only property 'name' of function 'x => x'",
        ),
        (
            ("(payload.f = x => x, payload.f.a = 1, Object.freeze(payload.f), payload.f.a = 2)"),
            "Cannot assign to read only property 'a' of function 'x => x'",
        ),
        (
            "(payload.f = x => x, Object.preventExtensions(payload.f), payload.f.a = 2)",
            "Cannot add property a, object is not extensible",
        ),
        (
            "[].push.call(x => x, 1)",
            "Cannot assign to read only property 'length' of function 'x => x'",
        ),
        (
            ("(payload.b = Object.create(payload.o), Object.setPrototypeOf(payload.o, payload.b))"),
            "Cyclic __proto__ value",
        ),
        (
            "Object.setPrototypeOf(Object.preventExtensions([]), null)",
            "[object Array] is not extensible",
        ),
        (
            ("(payload.d = new Date(0), Object.setPrototypeOf(payload.d, null), payload.d + 1)"),
            "Cannot convert object to primitive value",
        ),
        (
            "(payload.o.__defineGetter__('g', () => 5), payload.o.g = 1)",
            "Cannot set property g of #<Object> which has only a getter",
        ),
        (
            (
                "(payload.d = Object.create(null), payload.d.value = 3, "
                "Object.defineProperty(payload.o, 'x', payload.d), delete payload.o.x)"
            ),
            "Cannot delete property 'x' of #<Object>",
        ),
        (
            (
                "(payload.d = Object.create(null), payload.d.get = () => 1, "
                "payload.d.value = 1, Object.defineProperty(payload.o, 'x', payload.d))"
            ),
            (
                "Invalid property descriptor. Cannot both specify accessors and a value "
                "or writable attribute, [object Object]"
            ),
        ),
        (
            "(payload.o[Symbol.iterator] = () => 1, [...payload.o])",
            "Result of the Symbol.iterator method is not an object",
        ),
        (
            "(payload.f = x => x, payload.f[Symbol.hasInstance] = 1)",
            (
                "Cannot assign to read only property 'Symbol(Symbol.hasInstance)' of "
                "function 'x => x'"
            ),
        ),
        (
            (
                "(payload.d = Object.create(null), payload.d.value = -1, "
                "Object.defineProperty([1, 2], 'length', payload.d))"
            ),
            "Invalid array length",
        ),
        (
            (
                "(payload.d = Object.create(null), payload.d.enumerable = true, "
                "Object.defineProperty([1, 2], 'length', payload.d))"
            ),
            "Cannot redefine property: length",
        ),
        (
            "(payload.s = Symbol('k'), Object.preventExtensions(payload.o)[payload.s] = 1)",
            "Cannot add property Symbol(k), object is not extensible",
        ),
        ("Proxy(payload.o, payload.o)", "Constructor Proxy requires 'new'"),
        ("new Proxy(1, payload.o)", "Cannot create proxy with a non-object as target or handler"),
        (
            (
                "(payload.h = Object.create(null), payload.h.get = 1, new "
                "Proxy(payload.o, payload.h).zz)"
            ),
            "'1' returned for property 'get' of object '[object Object]' is not a function",
        ),
        (
            (
                "(payload.h = Object.create(null), payload.h.get = () => 2, new "
                "Proxy(Object.freeze(payload.o), payload.h).a)"
            ),
            (
                "'get' on proxy: property 'a' is a read-only and non-configurable data "
                "property on the proxy target but the proxy did not return its actual "
                "value (expected '1' but got '2')"
            ),
        ),
        (
            (
                "(payload.h = Object.create(null), payload.h.set = () => false, "
                "payload.p = new Proxy(payload.o, payload.h), payload.p.a = 1)"
            ),
            "'set' on proxy: trap returned falsish for property 'a'",
        ),
        (
            (
                "(payload.h = Object.create(null), payload.h.ownKeys = () => ['a', "
                "'a'], Object.keys(new Proxy(payload.o, payload.h)))"
            ),
            "'ownKeys' on proxy: trap returned duplicate entries",
        ),
        (
            (
                "(payload.r = Proxy.revocable(payload.o, payload.o), "
                "payload.r.revoke(), payload.r.proxy.a)"
            ),
            "Cannot perform 'get' on a proxy that has been revoked",
        ),
    ],
)
def test_errors(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert not result.success and result.error is not None, f"{expr!r} gave {result.raw!r}"
    assert result.error.message == expected


@pytest.mark.parametrize(
    "expr",
    ["Math.zz = 1", "Object.getPrototypeOf([]).push(1)", "(payload.f = [].map, payload.f.a = 1)"],
)
def test_writes_to_the_hosts_built_ins_are_refused_saying_why(expr: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert not result.success and result.error is not None
    assert "keeps the change for every later evaluation" in result.error.message
