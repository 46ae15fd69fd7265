"""The object model (issue 36): the built-in prototypes as values, the prototype chain, built-in
methods called on other receivers and own properties of the functions a condition makes. Each
value or V8 error text below is node 20's, measured with the same expression in a strict
function (MemberJunction 5.51.3 runs conditions so; its "Expression evaluation failed: " prefix
taken off)."""

from __future__ import annotations

from typing import Any, Final

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


# Arrays' elements, named keys and length defined with attributes other than an assignment's,
# then written, deleted, listed, locked and changed by every array method that writes
ARRAY_ATTRIBUTES_VALUES: Final = [
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '2', "
            "Object.fromEntries([['configurable', false]])), String(Reflect.set(payload.h, "
            "'length', 1)) + payload.h.length)"
        ),
        "false3",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['configurable', false]])), "
            "String(Reflect.defineProperty(payload.h, 'length', Object.fromEntries([['value', "
            "0]]))) + payload.h.length)"
        ),
        "false2",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), String(Reflect.set(payload.h, '7', "
            "1)))"
        ),
        "false",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['configurable', false]])), payload.h.shift())"
        ),
        "1",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['enumerable', false]])), "
            "JSON.stringify([Object.keys(payload.h), payload.h, [...payload.h], "
            "payload.h.join(), Object.values(payload.h), Object.entries(payload.h), "
            "Object.assign(Object.create(null), payload.h)]))"
        ),
        '[["1","2"],[1,2,3],[1,2,3],"1,2,3",[2,3],[["1",2],["2",3]],{"1":2,"2":3}]',
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['enumerable', false]])), payload.h.shift(), "
            "JSON.stringify([Object.keys(payload.h), payload.h, "
            "Object.getOwnPropertyDescriptors(payload.h)]))"
        ),
        (
            '[["1"],[2,3],{"0":{"value":2,"writable":true,"enumerable":false,"configurable":true},"1":{"value":3,"writable":true,"enumerable":true,"configurable":true},"length":{"value":2,"writable":true,"enumerable":false,"configurable":false}}]'
        ),
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false], ['configurable', false]])), "
            "Object.preventExtensions(payload.h), String([Object.isFrozen(payload.h), "
            "Object.isSealed(payload.h)]))"
        ),
        "false,false",
    ),
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false], ['configurable', false]])), "
            "Object.defineProperty(payload.h, 'length', Object.fromEntries([['writable', "
            "false]])), Object.preventExtensions(payload.h), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h)]))"
        ),
        "true,true",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), payload.h.sort())"
        ),
        "1,2,3",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), payload.h.reverse())"
        ),
        "3,2,1",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), "
            "String(Reflect.defineProperty(payload.h, '5', Object.fromEntries([['value', "
            "1]]))))"
        ),
        "false",
    ),
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false], ['configurable', false]])), "
            "Object.preventExtensions(payload.h), String([Object.isFrozen(payload.h), "
            "Object.isSealed(payload.h)]))"
        ),
        "true,true",
    ),
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['configurable', false]])), "
            "Object.preventExtensions(payload.h), String([Object.isFrozen(payload.h), "
            "Object.isSealed(payload.h)]))"
        ),
        "false,true",
    ),
    (
        (
            "(payload.h = [], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), Object.preventExtensions(payload.h), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h)]))"
        ),
        "true,true",
    ),
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['value', 1]])), Object.preventExtensions(payload.h), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h)]))"
        ),
        "false,false",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['enumerable', false]])), payload.h.unshift(0), "
            "JSON.stringify([Object.keys(payload.h), payload.h]))"
        ),
        '[["0","2","3"],[0,1,2,3]]',
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['enumerable', false], ['value', 9]])), payload.h.splice(1, "
            "1), JSON.stringify([Object.keys(payload.h), payload.h]))"
        ),
        '[["0"],[1,3]]',
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), String(Reflect.set(payload.h, '1', "
            "2)))"
        ),
        "false",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['configurable', false]])), "
            "String(Reflect.deleteProperty(payload.h, '1')))"
        ),
        "false",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['value', 4], ['configurable', true]])), "
            "String(Reflect.deleteProperty(payload.h, 'x')) + Object.keys(payload.h))"
        ),
        "true0,1,2",
    ),
    (
        (
            "(payload.h = [1,2,3], payload.h.x = 1, delete payload.h.x, "
            "JSON.stringify(Object.getOwnPropertyNames(payload.h)))"
        ),
        '["0","1","2","length"]',
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['enumerable', false]])), "
            "String([payload.h.propertyIsEnumerable(1), payload.h.propertyIsEnumerable(0), "
            "payload.h.hasOwnProperty(1)]))"
        ),
        "false,true,true",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['value', 3]])))"
        ),
        "1,3,3",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), Object.seal(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 1)))"
        ),
        '{"value":2,"writable":false,"enumerable":true,"configurable":false}',
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['configurable', false]])), "
            "String(Reflect.defineProperty(payload.h, 'length', Object.fromEntries([['value', "
            "0], ['writable', false]]))), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":2,"writable":false,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), "
            "String(Reflect.defineProperty(payload.h, 'length', Object.fromEntries([['value', "
            "3]]))))"
        ),
        "true",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['configurable', false]])), Object.defineProperty(payload.h, "
            "'2', Object.fromEntries([['configurable', false]])), String(Reflect.set(payload.h, "
            "'length', 0)) + payload.h.length)"
        ),
        "false3",
    ),
    (
        (
            "(payload.h = [1,2,3,4], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', true]])), Object.seal(payload.h), "
            "String(Reflect.set(payload.h, 'length', 1)) + payload.h.length)"
        ),
        "false4",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), payload.h.length = 6, "
            "String(Reflect.set(payload.h, 'length', 0)), payload.h.length)"
        ),
        "3",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false]])), Object.seal(payload.h), "
            "String(Reflect.defineProperty(payload.h, '2', Object.fromEntries([['writable', "
            "false]]))), String([Object.isFrozen(payload.h), Object.isSealed(payload.h), "
            "Object.isExtensible(payload.h)]))"
        ),
        "false,true,false",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), "
            "String(Reflect.defineProperty(payload.h, '2', Object.fromEntries([['writable', "
            "false]]))), String([Object.isFrozen(payload.h), Object.isSealed(payload.h), "
            "Object.isExtensible(payload.h)]))"
        ),
        "false,false,false",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), String([Object.isFrozen(payload.h), "
            "Object.isSealed(payload.h), Object.isExtensible(payload.h)]))"
        ),
        "false,true,false",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), Object.defineProperty(payload.h, "
            "'0', Object.fromEntries([['value', 9]])), String([Object.isFrozen(payload.h), "
            "Object.isSealed(payload.h), Object.isExtensible(payload.h)]))"
        ),
        "false,true,false",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.preventExtensions(payload.h), "
            "Object.defineProperty(payload.h, '0', Object.fromEntries([['value', 9]])), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h), "
            "Object.isExtensible(payload.h)]))"
        ),
        "false,false,false",
    ),
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false]])), Object.seal(payload.h), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h), "
            "Object.isExtensible(payload.h)]))"
        ),
        "true,true,false",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), Object.defineProperty(payload.h, "
            "'0', Object.fromEntries([['value', 9]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":9,"writable":true,"enumerable":true,"configurable":false},"1":{"value":2,"writable":true,"enumerable":true,"configurable":false},"2":{"value":3,"writable":true,"enumerable":true,"configurable":false},"length":{"value":3,"writable":true,"enumerable":false,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [1,2,3], Object.freeze(payload.h), Object.defineProperty(payload.h, "
            "'0', Object.fromEntries([['value', 1]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":1,"writable":false,"enumerable":true,"configurable":false},"1":{"value":2,"writable":false,"enumerable":true,"configurable":false},"2":{"value":3,"writable":false,"enumerable":true,"configurable":false},"length":{"value":3,"writable":false,"enumerable":false,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), Object.defineProperty(payload.h, "
            "'0', Object.fromEntries([['writable', true]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":1,"writable":true,"enumerable":true,"configurable":false},"1":{"value":2,"writable":true,"enumerable":true,"configurable":false},"2":{"value":3,"writable":true,"enumerable":true,"configurable":false},"length":{"value":3,"writable":true,"enumerable":false,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), Object.defineProperty(payload.h, "
            "'0', Object.fromEntries([['writable', false]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":1,"writable":false,"enumerable":true,"configurable":false},"1":{"value":2,"writable":true,"enumerable":true,"configurable":true},"2":{"value":3,"writable":true,"enumerable":true,"configurable":true},"length":{"value":3,"writable":true,"enumerable":false,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [1,2,3], payload.h.x = 1, Object.seal(payload.h), "
            "Object.defineProperty(payload.h, '0', Object.fromEntries([['writable', false]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":1,"writable":false,"enumerable":true,"configurable":false},"1":{"value":2,"writable":true,"enumerable":true,"configurable":true},"2":{"value":3,"writable":true,"enumerable":true,"configurable":true},"length":{"value":3,"writable":true,"enumerable":false,"configurable":false},"x":{"value":1,"writable":true,"enumerable":true,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), Object.defineProperty(payload.h, "
            "'length', Object.fromEntries([['writable', false]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":1,"writable":true,"enumerable":true,"configurable":false},"1":{"value":2,"writable":true,"enumerable":true,"configurable":false},"2":{"value":3,"writable":true,"enumerable":true,"configurable":false},"length":{"value":3,"writable":false,"enumerable":false,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), payload.h[0] = 5, "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":5,"writable":true,"enumerable":true,"configurable":false},"1":{"value":2,"writable":true,"enumerable":true,"configurable":false},"2":{"value":3,"writable":true,"enumerable":true,"configurable":false},"length":{"value":3,"writable":true,"enumerable":false,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [1,,3], Object.seal(payload.h), Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":1,"writable":false,"enumerable":true,"configurable":false},"2":{"value":3,"writable":true,"enumerable":true,"configurable":true},"length":{"value":3,"writable":true,"enumerable":false,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [], Object.seal(payload.h), String(Reflect.defineProperty(payload.h, "
            "'length', Object.fromEntries([['writable', false]]))), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        '{"length":{"value":0,"writable":false,"enumerable":false,"configurable":false}}',
    ),
    (
        (
            "(payload.h = [1,2,3], Object.preventExtensions(payload.h), "
            "Object.defineProperty(payload.h, '0', Object.fromEntries([['writable', false]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":1,"writable":false,"enumerable":true,"configurable":true},"1":{"value":2,"writable":true,"enumerable":true,"configurable":true},"2":{"value":3,"writable":true,"enumerable":true,"configurable":true},"length":{"value":3,"writable":true,"enumerable":false,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), Object.defineProperty(payload.h, "
            "'0', Object.fromEntries([['writable', false]])), Object.seal(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h)))"
        ),
        (
            '{"0":{"value":1,"writable":false,"enumerable":true,"configurable":false},"1":{"value":2,"writable":true,"enumerable":true,"configurable":false},"2":{"value":3,"writable":true,"enumerable":true,"configurable":false},"length":{"value":3,"writable":true,"enumerable":false,"configurable":false}}'
        ),
    ),
    (
        (
            "(payload.h = [, ,], Object.preventExtensions(payload.h), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h)]))"
        ),
        "true,true",
    ),
    (
        (
            "(payload.h = [1], delete payload.h[0], Object.preventExtensions(payload.h), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h)]))"
        ),
        "true,true",
    ),
    (
        (
            "(payload.h = [1], payload.h.x = 1, delete payload.h[0], "
            "Object.preventExtensions(payload.h), String([Object.isFrozen(payload.h), "
            "Object.isSealed(payload.h)]))"
        ),
        "false,false",
    ),
    (
        (
            "(payload.h = [], payload.h.x = 1, Object.preventExtensions(payload.h), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h)]))"
        ),
        "false,false",
    ),
    (
        (
            "(payload.h = [], Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['value', 1]])), Object.preventExtensions(payload.h), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h)]))"
        ),
        "true,true",
    ),
]

ARRAY_ATTRIBUTES_ERRORS: Final = [
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false]])), payload.h[0] = 5)"
        ),
        "Cannot assign to read only property '0' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '2', "
            "Object.fromEntries([['configurable', false]])), payload.h.length = 1)"
        ),
        "Cannot delete property '2' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['configurable', false]])), Object.defineProperty(payload.h, "
            "'length', Object.fromEntries([['value', 0]])))"
        ),
        "Cannot delete property '1' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), payload.h.push(1))"
        ),
        "Cannot assign to read only property 'length' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), payload.h.pop())"
        ),
        "Cannot assign to read only property 'length' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), payload.h[5] = 1)"
        ),
        "Cannot assign to read only property 'length' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), payload.h.length = 3)"
        ),
        "Cannot assign to read only property 'length' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), payload.h.length = 2)"
        ),
        "Cannot assign to read only property 'length' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['configurable', false]])), delete payload.h[0])"
        ),
        "Cannot delete property '0' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '2', "
            "Object.fromEntries([['configurable', false]])), payload.h.pop())"
        ),
        "Cannot delete property '2' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false]])), payload.h.reverse())"
        ),
        "Cannot assign to read only property '0' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), payload.h.sort((a, b) => b - a))"
        ),
        "Cannot assign to read only property '1' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [3,2,1], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), payload.h.sort((a, b) => a - b))"
        ),
        "Cannot assign to read only property '1' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), payload.h.fill(2, 1))"
        ),
        "Cannot assign to read only property '1' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), payload.h.fill(0))"
        ),
        "Cannot assign to read only property '1' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), payload.h.copyWithin(0, 1))"
        ),
        "Cannot assign to read only property '1' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['value', 1]])), payload.h.x = 2)"
        ),
        "Cannot assign to read only property 'x' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['value', 1]])), delete payload.h.x)"
        ),
        "Cannot delete property 'x' of [object Array]",
    ),
    (
        "(payload.h = [1,2,3], Object.freeze(payload.h), payload.h.sort())",
        "Cannot assign to read only property '0' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), payload.h.splice(0, 0))"
        ),
        "Cannot assign to read only property 'length' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), Object.defineProperty(payload.h, '5', "
            "Object.fromEntries([['value', 1]])))"
        ),
        "Cannot define property 5, object is not extensible",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false]])), payload.h.unshift(0))"
        ),
        "Cannot assign to read only property '0' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '2', "
            "Object.fromEntries([['writable', false]])), payload.h.unshift(0))"
        ),
        "Cannot assign to read only property '2' of object '[object Array]'",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['configurable', false]])), Object.defineProperty(payload.h, "
            "'1', Object.fromEntries([['enumerable', false]])))"
        ),
        "Cannot redefine property: 1",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['configurable', false]])), payload.h.length = 0, "
            "JSON.stringify(payload.h))"
        ),
        "Cannot delete property '1' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['configurable', false]])), Object.defineProperty(payload.h, "
            "'length', Object.fromEntries([['value', 0], ['writable', false]])))"
        ),
        "Cannot delete property '1' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['writable', false]])), Object.defineProperty(payload.h, "
            "'length', Object.fromEntries([['value', 2]])))"
        ),
        "Cannot redefine property: length",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), payload.h.splice(0, 1))"
        ),
        "Cannot assign to read only property '1' of object '[object Array]'",
    ),
    (
        "(payload.h = [1,2,3], Object.seal(payload.h), payload.h.length = 1)",
        "Cannot delete property '2' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), Object.seal(payload.h), "
            "payload.h.length = 1)"
        ),
        "Cannot delete property '2' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['configurable', false]])), Object.defineProperty(payload.h, "
            "'2', Object.fromEntries([['configurable', false]])), payload.h.length = 0)"
        ),
        "Cannot delete property '2' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.defineProperty(payload.h, '2', "
            "Object.fromEntries([['configurable', false]])), Object.defineProperty(payload.h, "
            "'1', Object.fromEntries([['configurable', false]])), payload.h.length = 0)"
        ),
        "Cannot delete property '2' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3,4], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', false]])), Object.seal(payload.h), "
            "payload.h.length = 1)"
        ),
        "Cannot delete property '3' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3,4], Object.defineProperty(payload.h, '2', "
            "Object.fromEntries([['writable', false]])), Object.seal(payload.h), "
            "payload.h.length = 1)"
        ),
        "Cannot delete property '3' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3,4], Object.defineProperty(payload.h, '1', "
            "Object.fromEntries([['writable', true]])), Object.seal(payload.h), "
            "payload.h.length = 1)"
        ),
        "Cannot delete property '3' of [object Array]",
    ),
    (
        (
            "(payload.h = [1,2,3], Object.seal(payload.h), Object.defineProperty(payload.h, "
            "'0', Object.fromEntries([['value', 9]])), delete payload.h[1], "
            "JSON.stringify(payload.h))"
        ),
        "Cannot delete property '1' of [object Array]",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), ARRAY_ATTRIBUTES_VALUES)
def test_array_attributes_values(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert result.success, f"{expr!r}: {result.error}"
    assert GLOBALS["String"].fn(result.raw) == expected


@pytest.mark.parametrize(("expr", "expected"), ARRAY_ATTRIBUTES_ERRORS)
def test_array_attributes_errors(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert not result.success and result.error is not None, f"{expr!r} gave {result.raw!r}"
    assert result.error.message == expected


# A proxy iterated by the Symbol.iterator its get trap gives; own toString / valueOf on
# arrays, functions, Dates, RegExps and Maps (assigned, or copied by Object.assign)
CONVERSIONS_VALUES: Final = [
    (
        (
            "(payload.h = Object.create(null), payload.h.get = (t, k) => typeof k === 'symbol' "
            "? () => [7, 8].values() : t[k], payload.p = new Proxy(payload.arr, payload.h), "
            "[...payload.p].join())"
        ),
        "7,8",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.get = (t, k) => typeof k === 'symbol' "
            "? () => [7, 8].keys() : t[k], payload.p = new Proxy(payload.o, payload.h), "
            "Array.from(payload.p).join())"
        ),
        "0,1",
    ),
    (
        (
            "(payload.vo = Object.fromEntries([['valueOf', 1], ['toString', 'x']]), "
            "Object.assign(payload.arr, payload.vo), payload.arr.join())"
        ),
        "1,2",
    ),
    (
        (
            "(payload.arr.toString = () => 'T', String(payload.arr) + (payload.arr + 1) + "
            "[payload.arr])"
        ),
        "TT1T",
    ),
    (
        (
            "(payload.arr.valueOf = () => 5, String(payload.arr) + (payload.arr + 1) + "
            "(payload.arr * 2))"
        ),
        "1,2610",
    ),
    (
        "(payload.arr.valueOf = () => payload.arr, payload.arr + 1)",
        "1,21",
    ),
    (
        (
            "(payload.f = x => x, payload.f.toString = () => 'F', String(payload.f) + "
            "(payload.f + 1))"
        ),
        "FF1",
    ),
    (
        ("(payload.w = Object(1), payload.w.toString = 'x', String(payload.w) + (payload.w + 1))"),
        "12",
    ),
    (
        "(payload.w = Object(1), payload.w.valueOf = 'x', String(payload.w))",
        "1",
    ),
    (
        "(payload.w = Object(1), payload.w.valueOf = 'x', payload.w + 1)",
        "11",
    ),
    (
        "(payload.d = new Date(0), payload.d.toString = 'x', String(payload.d))",
        "0",
    ),
    (
        "(payload.d = new Date(0), payload.d.toString = 'x', payload.d + 1)",
        "1",
    ),
    (
        "(payload.d = new Date(0), payload.d.valueOf = () => 9, payload.d * 2)",
        "18",
    ),
    (
        "(payload.m = new Map(), payload.m.toString = () => 'M', String(payload.m))",
        "M",
    ),
    (
        "(payload.d = new Date(0), payload.d.valueOf = () => NaN, JSON.stringify(payload.d))",
        "null",
    ),
    (
        "(payload.d = new Date(0), payload.d.valueOf = () => 'v', JSON.stringify(payload.d))",
        '"1970-01-01T00:00:00.000Z"',
    ),
    (
        (
            "(payload.arr.toString = () => 'T', JSON.stringify(payload.arr) + "
            "Object.keys(payload.arr))"
        ),
        "[1,2]0,1,toString",
    ),
    (
        "(payload.arr.toString = () => 'T', payload.arr == 'T')",
        "true",
    ),
    (
        "(payload.arr.valueOf = () => 2, payload.arr > 1)",
        "true",
    ),
    (
        (
            "(payload.arr.toString = () => 'k', payload.o[payload.arr] = 1, "
            "Object.keys(payload.o).join())"
        ),
        "a,k",
    ),
]

CONVERSIONS_ERRORS: Final = [
    (
        (
            "(payload.h = Object.create(null), payload.h.get = (t, k) => typeof k, payload.p = "
            "new Proxy(payload.arr, payload.h), [...payload.p].join())"
        ),
        "payload.p is not iterable",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.get = (t, k) => typeof k, payload.p = "
            "new Proxy(payload.arr, payload.h), Array.from(payload.p).join())"
        ),
        (
            "%Array%.from requires that the property of the first argument, "
            "items[Symbol.iterator], when exists, be a function"
        ),
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.get = (t, k) => typeof k, payload.p = "
            "new Proxy(payload.arr, payload.h), new Set(payload.p).size)"
        ),
        "object is not iterable (cannot read property Symbol(Symbol.iterator))",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.get = (t, k) => typeof k === 'symbol' "
            "? () => 1 : t[k], payload.p = new Proxy(payload.o, payload.h), [...payload.p])"
        ),
        "Result of the Symbol.iterator method is not an object",
    ),
    (
        "(payload.o[Symbol.iterator] = 'x', [...payload.o])",
        "payload.o is not iterable",
    ),
    (
        (
            "(payload.vo = Object.fromEntries([['valueOf', 1], ['toString', 'x']]), "
            "Object.assign(payload.arr, payload.vo), String(payload.arr))"
        ),
        "Cannot convert object to primitive value",
    ),
    (
        (
            "(payload.vo = Object.fromEntries([['valueOf', 1], ['toString', 'x']]), "
            "Object.assign(payload.arr, payload.vo), payload.arr + 1)"
        ),
        "Cannot convert object to primitive value",
    ),
    (
        (
            "(payload.vo = Object.fromEntries([['valueOf', 1], ['toString', 'x']]), "
            "Object.assign(payload.arr, payload.vo), [payload.arr].join())"
        ),
        "Cannot convert object to primitive value",
    ),
    (
        "(payload.arr.toString = 'x', String(payload.arr))",
        "Cannot convert object to primitive value",
    ),
    (
        "(payload.arr.toString = 'x', payload.arr + 1)",
        "Cannot convert object to primitive value",
    ),
    (
        "(payload.f = x => x, payload.f.toString = 'x', String(payload.f))",
        "Cannot convert object to primitive value",
    ),
    (
        (
            "(payload.w = Object('s'), payload.w.toString = 'x', payload.w.valueOf = 1, "
            "String(payload.w))"
        ),
        "Cannot convert object to primitive value",
    ),
    (
        (
            "(payload.d = new Date(0), payload.d.toString = 'x', payload.d.valueOf = 2, "
            "payload.d + 1)"
        ),
        "Cannot convert object to primitive value",
    ),
    (
        (
            "(payload.vo = Object.fromEntries([['valueOf', 1], ['toString', 'x']]), "
            "Object.assign(new Date(0), payload.vo) + '')"
        ),
        "Cannot convert object to primitive value",
    ),
    (
        (
            "(payload.vo = Object.fromEntries([['valueOf', 1], ['toString', 'x']]), "
            "JSON.stringify([Object.assign(new Date(0), payload.vo)]))"
        ),
        "Cannot convert object to primitive value",
    ),
    (
        "(payload.r = /a/, payload.r.toString = 'x', String(payload.r))",
        "Cannot convert object to primitive value",
    ),
    (
        (
            "(payload.vo = Object.fromEntries([['valueOf', 1], ['toString', 'x']]), "
            "Object.assign(x => x, payload.vo), String(Object.assign(x => x, payload.vo)))"
        ),
        "Cannot convert object to primitive value",
    ),
    (
        "(payload.d = new Date(NaN), payload.d.valueOf = () => 'v', JSON.stringify(payload.d))",
        "Invalid time value",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), CONVERSIONS_VALUES)
def test_conversions_values(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert result.success, f"{expr!r}: {result.error}"
    assert GLOBALS["String"].fn(result.raw) == expected


@pytest.mark.parametrize(("expr", "expected"), CONVERSIONS_ERRORS)
def test_conversions_errors(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert not result.success and result.error is not None, f"{expr!r} gave {result.raw!r}"
    assert result.error.message == expected


# Symbol keys and accessors on arrays' named and symbol keys: iteration, conversion, concat,
# descriptors, freezing
ARRAY_KEYS_VALUES: Final = [
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, "
            "String(payload.arr[payload.s]) + Object.keys(payload.arr) + "
            "Object.getOwnPropertySymbols(payload.arr).map(String))"
        ),
        "10,1Symbol(s)",
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, "
            "JSON.stringify(Reflect.ownKeys(payload.arr).map(String)))"
        ),
        '["0","1","length","Symbol(s)"]',
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, String([payload.s in "
            "payload.arr, payload.arr.hasOwnProperty(payload.s), Object.hasOwn(payload.arr, "
            "payload.s), delete payload.arr[payload.s], payload.s in payload.arr]))"
        ),
        "true,true,true,true,false",
    ),
    (
        "(payload.arr[Symbol.iterator] = () => [7, 8].values(), [...payload.arr].join())",
        "7,8",
    ),
    (
        ("(payload.arr[Symbol.iterator] = () => [7, 8].values(), Array.from(payload.arr).join())"),
        "7,8",
    ),
    (
        ("(payload.arr[Symbol.toPrimitive] = () => 'P', String(payload.arr) + (payload.arr + 1))"),
        "PP1",
    ),
    (
        "(payload.arr[Symbol.toStringTag] = 'T', toString.call(payload.arr))",
        "[object T]",
    ),
    (
        (
            "(payload.arr[Symbol.isConcatSpreadable] = false, "
            "JSON.stringify([0].concat(payload.arr)))"
        ),
        "[0,[1,2]]",
    ),
    (
        (
            "(Object.preventExtensions(payload.arr), String(Reflect.set(payload.arr, "
            "Symbol('q'), 1)))"
        ),
        "false",
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.arr, payload.s)))"
        ),
        '{"value":1,"writable":true,"enumerable":true,"configurable":true}',
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, JSON.stringify([payload.arr, "
            "Object.assign(Object.create(null), payload.arr)[payload.s], "
            "structuredClone(payload.arr)]))"
        ),
        "[[1,2],1,[1,2]]",
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, "
            "String([payload.arr.slice()[payload.s], "
            "Object.isFrozen(Object.freeze(payload.arr))]))"
        ),
        ",true",
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, payload.arr.push(3), "
            "payload.arr.propertyIsEnumerable(payload.s))"
        ),
        "true",
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, Object.freeze(payload.arr), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.arr, payload.s)))"
        ),
        '{"value":1,"writable":false,"enumerable":true,"configurable":false}',
    ),
    (
        (
            "(payload.arr[Symbol.isConcatSpreadable] = false, "
            "JSON.stringify(payload.arr.concat([4], payload.arr)))"
        ),
        "[[1,2],4,[1,2]]",
    ),
    (
        (
            "(payload.o[Symbol.isConcatSpreadable] = true, payload.o.length = 2, "
            "JSON.stringify(payload.arr.concat(payload.o)))"
        ),
        "[1,2,null,null]",
    ),
    (
        "(payload.arr[Symbol.isConcatSpreadable] = 0, JSON.stringify([].concat(payload.arr)))",
        "[[1,2]]",
    ),
    (
        (
            "(payload.arr[Symbol.iterator] = () => [7, 8].values(), "
            "JSON.stringify([Array.from(new Set(payload.arr)), new Map([payload.arr]).size]))"
        ),
        "[[7,8],1]",
    ),
    (
        (
            "(payload.arr.__defineGetter__('x', () => 5), String([payload.arr.x, "
            "Object.keys(payload.arr), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.arr, 'x'))]))"
        ),
        '5,0,1,x,{"enumerable":true,"configurable":true}',
    ),
    (
        (
            "(payload.arr.__defineSetter__('x', v => payload.got = v), payload.arr.x = 4, "
            "String([payload.got, payload.arr.x]))"
        ),
        "4,",
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr.__defineGetter__(payload.s, () => 5), "
            "String([payload.arr[payload.s], "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.arr, payload.s)), typeof "
            "Object.getOwnPropertyDescriptor(payload.arr, payload.s).get]))"
        ),
        '5,{"enumerable":true,"configurable":true},function',
    ),
    (
        (
            "(payload.arr.__defineGetter__(Symbol.toPrimitive, () => () => 'P'), "
            "String(payload.arr))"
        ),
        "P",
    ),
    (
        (
            "(payload.arr.__defineGetter__(Symbol.iterator, () => () => [4].values()), "
            "[...payload.arr].join())"
        ),
        "4",
    ),
    (
        (
            "(payload.arr.__defineGetter__('x', () => 5), "
            "JSON.stringify([Object.assign(Object.create(null), payload.arr), "
            "Object.entries(payload.arr)]))"
        ),
        '[{"0":1,"1":2,"x":5},[["0",1],["1",2],["x",5]]]',
    ),
    (
        (
            "(payload.arr.__defineGetter__('x', () => 5), Object.freeze(payload.arr), "
            "String([Object.isFrozen(payload.arr), payload.arr.x]))"
        ),
        "true,5",
    ),
    (
        (
            "(Object.defineProperty(payload.arr, 'x', Object.fromEntries([['get', () => 5], "
            "['configurable', true]])), Object.defineProperty(payload.arr, 'x', "
            "Object.fromEntries([['value', 1]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.arr, 'x')))"
        ),
        '{"value":1,"writable":false,"enumerable":false,"configurable":true}',
    ),
    (
        (
            "(payload.arr.__defineGetter__('x', () => 5), delete payload.arr.x, "
            "String(payload.arr.x))"
        ),
        "undefined",
    ),
]

ARRAY_KEYS_ERRORS: Final = [
    (
        "(payload.arr[Symbol.iterator] = 1, [...payload.arr].join())",
        "payload.arr is not iterable",
    ),
    (
        "(Object.freeze(payload.arr), payload.arr[Symbol('q')] = 1)",
        "Cannot add property Symbol(q), object is not extensible",
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, Object.freeze(payload.arr), "
            "payload.arr[payload.s] = 2)"
        ),
        "Cannot assign to read only property 'Symbol(s)' of object '[object Array]'",
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr[payload.s] = 1, Object.seal(payload.arr), "
            "delete payload.arr[payload.s])"
        ),
        "Cannot delete property 'Symbol(s)' of [object Array]",
    ),
    (
        "(payload.arr.__defineGetter__('x', () => 5), payload.arr.x = 1)",
        "Cannot set property x of [object Array] which has only a getter",
    ),
    (
        (
            "(payload.s = Symbol('s'), payload.arr.__defineGetter__(payload.s, () => 5), "
            "payload.arr[payload.s] = 1)"
        ),
        "Cannot set property Symbol(s) of [object Array] which has only a getter",
    ),
    (
        (
            "(Object.defineProperty(payload.arr, 'x', Object.fromEntries([['get', () => 5]])), "
            "Object.defineProperty(payload.arr, 'x', Object.fromEntries([['value', 1]])))"
        ),
        "Cannot redefine property: x",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), ARRAY_KEYS_VALUES)
def test_array_keys_values(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert result.success, f"{expr!r}: {result.error}"
    assert GLOBALS["String"].fn(result.raw) == expected


@pytest.mark.parametrize(("expr", "expected"), ARRAY_KEYS_ERRORS)
def test_array_keys_errors(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert not result.success and result.error is not None, f"{expr!r} gave {result.raw!r}"
    assert result.error.message == expected


# Reflect.set with another object as the receiver (OrdinarySet's receiver steps)
RECEIVERS_VALUES: Final = [
    (
        (
            "(payload.r = Object.create(null), String(Reflect.set(payload.o, 'a', 5, "
            "payload.r)) + JSON.stringify([payload.o, payload.r]))"
        ),
        'true[{"a":1},{"a":5}]',
    ),
    (
        (
            "(payload.r = Object.create(null), String(Reflect.set(payload.o, 'zz', 5, "
            "payload.r)) + JSON.stringify([payload.o, payload.r]))"
        ),
        'true[{"a":1},{"zz":5}]',
    ),
    (
        (
            "(payload.r = Object.freeze(Object.create(null)), String(Reflect.set(payload.o, "
            "'a', 5, payload.r)))"
        ),
        "false",
    ),
    (
        (
            "(payload.r = Object.create(null), Object.defineProperty(payload.r, 'a', "
            "Object.fromEntries([['value', 1], ['configurable', true]])), "
            "String(Reflect.set(payload.o, 'a', 5, payload.r)) + "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.r, 'a')))"
        ),
        'false{"value":1,"writable":false,"enumerable":false,"configurable":true}',
    ),
    (
        (
            "(payload.r = Object.create(null), Object.defineProperty(payload.r, 'a', "
            "Object.fromEntries([['value', 1], ['writable', true]])), "
            "String(Reflect.set(payload.o, 'a', 5, payload.r)) + "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.r, 'a')))"
        ),
        'true{"value":5,"writable":true,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.r = Object.create(null), payload.o.__defineSetter__('a', v => payload.got "
            "= v), String(Reflect.set(payload.o, 'a', 5, payload.r)) + payload.got + "
            "Object.keys(payload.r))"
        ),
        "true5",
    ),
    (
        (
            "(payload.r = Object.create(null), payload.o.__defineGetter__('a', () => 1), "
            "String(Reflect.set(payload.o, 'a', 5, payload.r)))"
        ),
        "false",
    ),
    (
        "(String(Reflect.set(payload.o, 'a', 5, 1)))",
        "false",
    ),
    (
        (
            "(payload.r = [], String(Reflect.set(payload.o, '0', 5, payload.r)) + "
            "JSON.stringify(payload.r))"
        ),
        "true[5]",
    ),
    (
        (
            "(payload.r = [], String(Reflect.set(payload.arr, '1', 5, payload.r)) + "
            "JSON.stringify([payload.r, payload.arr]))"
        ),
        "true[[null,5],[1,2]]",
    ),
    (
        (
            "(payload.r = Object.create(null), String(Reflect.set(Object.freeze(payload.o), "
            "'a', 5, payload.r)))"
        ),
        "false",
    ),
    (
        (
            "(payload.r = Object.create(null), String(Reflect.set(Object.create(payload.o), "
            "'toString', 5, payload.r)) + Object.keys(payload.r))"
        ),
        "truetoString",
    ),
    (
        (
            "(payload.r = Object.create(null), payload.p = new Proxy(payload.r, "
            "Object.create(null)), String(Reflect.set(payload.o, 'q', 5, payload.p)) + "
            "Object.keys(payload.r))"
        ),
        "trueq",
    ),
    (
        (
            "(payload.r = x => x, String(Reflect.set(payload.o, 'q', 5, payload.r)) + "
            "Object.keys(payload.r))"
        ),
        "trueq",
    ),
    (
        (
            "(payload.r = Object.create(null), String(Reflect.set(payload.arr, 'length', 0, "
            "payload.r)) + JSON.stringify([payload.r, payload.arr]))"
        ),
        'true[{"length":0},[1,2]]',
    ),
]


@pytest.mark.parametrize(("expr", "expected"), RECEIVERS_VALUES)
def test_reflect_set_with_another_receiver(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert result.success, f"{expr!r}: {result.error}"
    assert GLOBALS["String"].fn(result.raw) == expected


# Object.freeze of an array V8 already reads as frozen (its elements, not its length) changes
# nothing: the length stays writable
FREEZE_VALUES: Final = [
    (
        (
            "(payload.h = [], Object.defineProperty(payload.h, '2', "
            "Object.fromEntries([['value', 1]])), Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":3,"writable":false,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [], Object.defineProperty(payload.h, '2', "
            "Object.fromEntries([['value', 1]])), Object.preventExtensions(payload.h), "
            "Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":3,"writable":true,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [1], Object.preventExtensions(payload.h), Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":1,"writable":false,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false]])), Object.preventExtensions(payload.h), "
            "Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":1,"writable":false,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false]])), Object.preventExtensions(payload.h), "
            "Object.seal(payload.h), Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":1,"writable":true,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['writable', false]])), Object.preventExtensions(payload.h), "
            "Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":1,"writable":false,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', true]])), Object.preventExtensions(payload.h), "
            "Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":1,"writable":false,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [], Object.preventExtensions(payload.h), Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":0,"writable":true,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [], Object.preventExtensions(payload.h), Object.freeze(payload.h), "
            "payload.h.length = 2, payload.h.length)"
        ),
        "2",
    ),
    (
        (
            "(payload.h = [1], Object.freeze(payload.h), Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":1,"writable":false,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = [], Object.seal(payload.h), Object.freeze(payload.h), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'length')))"
        ),
        '{"value":0,"writable":true,"enumerable":false,"configurable":false}',
    ),
]

FREEZE_ERRORS: Final = [
    (
        (
            "(payload.h = [1], Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['writable', false]])), Object.preventExtensions(payload.h), "
            "Object.freeze(payload.h), payload.h.length = 0)"
        ),
        "Cannot assign to read only property 'length' of object '[object Array]'",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), FREEZE_VALUES)
def test_freezing_arrays_v8_reads_as_frozen(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert result.success, f"{expr!r}: {result.error}"
    assert GLOBALS["String"].fn(result.raw) == expected


@pytest.mark.parametrize(("expr", "expected"), FREEZE_ERRORS)
def test_frozen_arrays_errors(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    assert not result.success and result.error is not None, f"{expr!r} gave {result.raw!r}"
    assert result.error.message == expected


# Accessors on arrays' elements (Object.defineProperty(arr, 0, {get, set}), __defineGetter__):
# every read, copy and write of the elements runs them in V8's order, and a method that reads
# the length once sees the indexes a getter took away as undefined
ELEMENT_ACCESSORS_VALUES: Final = [
    (
        (
            "(payload.log = [], Object.defineProperty(payload.arr, 1, "
            "Object.fromEntries([['get', () => (payload.log.push('get'), 7)]])), "
            "payload.arr.map(x => payload.log.push(x)), payload.log.join())"
        ),
        "1,get,7,3",
    ),
    (
        "(payload.arr.__defineGetter__('1', () => 5), payload.arr[1] + payload.arr.length)",
        "8",
    ),
    (
        (
            "(payload.log = [], Object.defineProperty(payload.arr, 0, "
            "Object.fromEntries([['get', () => 9], ['set', v => payload.log.push(v)], "
            "['configurable', true]])), payload.arr.sort(), JSON.stringify([payload.arr, "
            "payload.log]))"
        ),
        "[[9,3,9],[2]]",
    ),
    (
        (
            "(payload.n = 0, Object.defineProperty(payload.arr, 2, Object.fromEntries([['get', "
            "() => ++payload.n]])), (([a, , ...b]) => JSON.stringify([a, b, "
            "payload.n]))(payload.arr))"
        ),
        "[1,[1],1]",
    ),
    (
        (
            "(payload.n = 0, Object.defineProperty(payload.arr, 1, Object.fromEntries([['get', "
            "() => ++payload.n]])), payload.arr.keys().next().value + payload.n)"
        ),
        "0",
    ),
    (
        (
            "(Object.defineProperty(payload.arr, 0, Object.fromEntries([['get', "
            "() => (payload.arr.length = 1, 'cut')], ['enumerable', true]])), "
            "JSON.stringify([payload.arr, payload.arr.join('-')]))"
        ),
        '[["cut"],"cut--"]',
    ),
    (
        (
            "(Object.defineProperty(payload.arr, 0, Object.fromEntries([['get', "
            "() => (payload.arr.length = 1, 'cut')], ['enumerable', true]])), "
            "JSON.stringify(Object.entries(payload.arr)))"
        ),
        '[["0","cut"]]',
    ),
    (
        (
            "(Object.defineProperty(payload.arr, 1, Object.fromEntries([['get', () => 5]])), "
            "JSON.stringify(structuredClone(payload.arr)))"
        ),
        "[1,5,3]",
    ),
    (
        (
            "(payload.log = [], Object.defineProperty(payload.arr, 0, "
            "Object.fromEntries([['get', () => 1], ['set', v => payload.log.push(v)]])), "
            "Object.freeze(payload.arr), payload.arr[0] = 4, payload.log[0])"
        ),
        "4",
    ),
    (
        (
            "(Object.defineProperty(payload.arr, 2, Object.fromEntries([['get', () => 5]])), "
            "payload.arr.pop())"
        ),
        "5",
    ),
    (
        (
            "(Object.defineProperty(payload.arr, 2, Object.fromEntries([['get', () => 5], "
            "['configurable', true]])), JSON.stringify([payload.arr.pop(), payload.arr]))"
        ),
        "[5,[1,2]]",
    ),
    (
        (
            "(Object.defineProperty(payload.arr, 0, Object.fromEntries([['get', () => 5], "
            "['enumerable', true]])), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.arr, '0')))"
        ),
        '{"enumerable":true,"configurable":true}',
    ),
    (
        (
            "(payload.log = [], Object.defineProperty(payload.arr, 1, "
            "Object.fromEntries([['get', () => (payload.log.push('g'), 2)]])), "
            "JSON.stringify([payload.arr.toReversed(), payload.arr.with(1, 0), "
            "payload.arr.includes(2), payload.log.length]))"
        ),
        "[[3,2,1],[1,0,3],true,2]",
    ),
]


def _three() -> dict[str, Any]:
    return {"payload": {"arr": [1, 2, 3]}}


@pytest.mark.parametrize(("expr", "expected"), ELEMENT_ACCESSORS_VALUES)
def test_accessors_on_array_elements(expr: str, expected: str) -> None:
    result = evaluate(expr, _three(), "mj")
    assert result.success, f"{expr!r}: {result.error}"
    assert GLOBALS["String"].fn(result.raw) == expected


@pytest.mark.parametrize(
    "expr",
    [
        (
            "(Object.defineProperty(payload.arr, 0, Object.fromEntries([['get', () => 7]])), "
            "payload.arr.sort())"
        ),
        (
            "(Object.defineProperty(payload.arr, 0, Object.fromEntries([['get', () => 5]])), "
            "payload.arr[0] = 1)"
        ),
    ],
)
def test_a_getter_alone_on_an_array_element_refuses_writes(expr: str) -> None:
    result = evaluate(expr, _three(), "mj")
    assert not result.success and result.error is not None
    assert result.error.message == "Cannot set property 0 of [object Array] which has only a getter"


# Property descriptors on a Date, a Map, a Set, a Number or Boolean object (their own
# properties are all the condition's): attributes, accessors, keys, JSON, conversions,
# integrity and deletion as on a plain object, with V8's names of each class in its errors
BUILTIN_DESCRIPTORS: Final = [
    (
        (
            "(payload.h = new Date(0), Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['value', 1], ['enumerable', true]])), "
            "JSON.stringify([Object.keys(payload.h), payload.h.x]))"
        ),
        '[["x"],1]',
    ),
    (
        (
            "(payload.h = new Map(), Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['get', () => 5]])), JSON.stringify([payload.h.x, "
            "Object.keys(payload.h), Object.getOwnPropertyNames(payload.h)]))"
        ),
        '[5,[],["x"]]',
    ),
    (
        (
            "(payload.h = new Number(1), Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['value', 1], ['enumerable', true]])), "
            "JSON.stringify(Object.entries(payload.h)))"
        ),
        '[["x",1]]',
    ),
    (
        (
            "(payload.h = new Boolean(false), Object.defineProperty(payload.h, 'y', "
            "Object.fromEntries([['get', () => 2], ['enumerable', true]])), "
            "JSON.stringify([payload.h.y, Object.keys(payload.h), "
            "Object.getOwnPropertyDescriptor(payload.h, 'y')]))"
        ),
        '[2,["y"],{"enumerable":true,"configurable":false}]',
    ),
    (
        (
            "(payload.h = new Set([1]), Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['value', 1]])), Object.seal(payload.h), "
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h)]))"
        ),
        "true,true",
    ),
    (
        (
            "(payload.h = new Date(0), payload.h.x = 3, Object.defineProperty(payload.h, "
            "'toJSON', Object.create(null)), JSON.stringify(payload.h))"
        ),
        '{"x":3}',
    ),
    (
        (
            "(payload.h = new Map([[1, 2]]), Object.defineProperty(payload.h, 'valueOf', "
            "Object.fromEntries([['value', () => 9]])), payload.h + 1)"
        ),
        "10",
    ),
    (
        (
            "(payload.h = new Map([[1, 2]]), payload.h.y = 5, "
            "JSON.stringify(Object.assign(Object.create(null), payload.h)))"
        ),
        '{"y":5}',
    ),
    (
        (
            "(payload.h = new Date(0), payload.h.x = 1, delete payload.h.x, "
            "Object.hasOwn(payload.h, 'x'))"
        ),
        "false",
    ),
    (
        ("(payload.h = new Date(0), payload.h.x = 1, Object.seal(payload.h), delete payload.h.x)"),
        "Cannot delete property 'x' of [object Date]",
    ),
    (
        (
            "(payload.h = new Map(), Object.defineProperty(payload.h, 'x', Object.create(null)), "
            "payload.h.x = 2)"
        ),
        "Cannot assign to read only property 'x' of object '#<Map>'",
    ),
    (
        "(payload.h = new Map(), Object.freeze(payload.h), payload.h.size = 4)",
        "Cannot set property size of #<Map> which has only a getter",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), BUILTIN_DESCRIPTORS)
def test_descriptors_on_built_in_objects(expr: str, expected: str) -> None:
    result = evaluate(expr, {"payload": {}}, "mj")
    shown = GLOBALS["String"].fn(result.raw) if result.success else result.error.message
    assert shown == expected, expr


# An array whose prototype the condition changed is iterated through its new chain's
# Symbol.iterator: a null prototype or a plain object's has none (V8's words per construct)
REPROTOTYPED_ITERATION: Final = [
    ("(Object.setPrototypeOf(payload.arr, null), [...payload.arr])", "payload.arr is not iterable"),
    (
        "(Object.setPrototypeOf(payload.arr, null), Math.max(...payload.arr))",
        "Spread syntax requires ...iterable[Symbol.iterator] to be a function",
    ),
    (
        "(Object.setPrototypeOf(payload.arr, payload.o), (([a]) => a)(payload.arr))",
        "object is not iterable (cannot read property Symbol(Symbol.iterator))",
    ),
    (
        "(Object.setPrototypeOf(payload.arr, null), new Set(payload.arr).size)",
        "object is not iterable (cannot read property Symbol(Symbol.iterator))",
    ),
    (
        "(Object.setPrototypeOf(payload.arr, null), Object.fromEntries(payload.arr))",
        "object is not iterable (cannot read property Symbol(Symbol.iterator))",
    ),
    (
        "(Object.setPrototypeOf(payload.arr, null), [payload.a] = payload.arr)",
        "object is not iterable (cannot read property Symbol(Symbol.iterator))",
    ),
    ("(Object.setPrototypeOf(payload.arr, null), Array.from(payload.arr).length)", "2"),
    (
        "(Object.setPrototypeOf(payload.arr, Object.create(Object.getPrototypeOf([]))), "
        "[...payload.arr].length)",
        "2",
    ),
    (
        "(payload.c = Object.create(null), payload.c.x = 1, Object.seal(payload.c), "
        "delete payload.c.x)",
        "Cannot delete property 'x' of [object Object]",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), REPROTOTYPED_ITERATION)
def test_arrays_with_another_prototype_iterate_through_it(expr: str, expected: str) -> None:
    result = evaluate(expr, _scope(), "mj")
    shown = GLOBALS["String"].fn(result.raw) if result.success else result.error.message
    assert shown == expected, expr


# A Proxy around a function: a function to every caller (typeof, callbacks, call / apply /
# bind, Reflect.apply / construct, new), its calls through the apply trap with the receiver
# and the arguments as an array, new through the construct trap, V8's words for each failure
FUNCTION_PROXIES: Final = [
    ("(payload.p = new Proxy(x => x * 2, Object.create(null)), payload.p(3))", "6"),
    ("typeof new Proxy(x => x, Object.create(null))", "function"),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, "
            "a) => JSON.stringify([typeof t, th === undefined, a]), new Proxy(x => x, "
            "payload.h)(1, 2))"
        ),
        '["function",true,[1,2]]',
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => th, "
            "payload.o.f = new Proxy(x => x, payload.h), payload.o.f() === payload.o)"
        ),
        "true",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => a[0] + 1, "
            "JSON.stringify(payload.arr.map(new Proxy(x => x, payload.h))))"
        ),
        "[2,3,4]",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => th, "
            "JSON.stringify(payload.arr.map(new Proxy(x => x, payload.h), payload.o)))"
        ),
        '[{"a":1},{"a":1},{"a":1}]',
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => b - a, "
            "payload.arr.sort(new Proxy((a, b) => b - a, payload.h)))"
        ),
        "b is not defined",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => a[1] - a[0], "
            "JSON.stringify(payload.arr.sort(new Proxy((a, b) => 0, payload.h))))"
        ),
        "[3,2,1]",
    ),
    ("new Proxy(x => x, Object.create(null)).name", ""),
    ("new Proxy(x => x, Object.create(null)).length", "1"),
    ("String(new Proxy(x => x, Object.create(null)))", "function () { [native code] }"),
    ("new (new Proxy(x => x, Object.create(null)))()", "(intermediate value) is not a constructor"),
    ("(payload.p = new Proxy(Date, Object.create(null)), new payload.p(0).getTime())", "0"),
    (
        (
            "(payload.h = Object.create(null), payload.h.construct = (t, a, "
            "nt) => JSON.stringify([typeof t, a]), new (new Proxy(Date, payload.h))(1, 2))"
        ),
        "'construct' on proxy: trap returned non-object ('[\"function\",[1,2]]')",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.construct = (t, a, "
            "nt) => Object.fromEntries([['n', a.length]]), JSON.stringify(new (new Proxy(Date, "
            "payload.h))(1, 2)))"
        ),
        '{"n":2}',
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.construct = (t, a, "
            "nt) => nt === payload.p, payload.p = new Proxy(Date, payload.h), new payload.p())"
        ),
        "'construct' on proxy: trap returned non-object ('true')",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.construct = (t, a, nt) => 1, "
            "new (new Proxy(Date, payload.h))())"
        ),
        "'construct' on proxy: trap returned non-object ('1')",
    ),
    (
        ("(payload.h = Object.create(null), payload.h.apply = 1, new Proxy(x => x, payload.h)())"),
        "(intermediate value) is not a function",
    ),
    (
        (
            "(payload.r = Proxy.revocable(x => x, Object.create(null)), payload.r.revoke(), "
            "payload.r.proxy(1))"
        ),
        "Cannot perform 'apply' on a proxy that has been revoked",
    ),
    (
        (
            "(payload.r = Proxy.revocable(x => x, Object.create(null)), payload.r.revoke(), "
            "typeof payload.r.proxy)"
        ),
        "function",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.get = (t, k) => k, new Proxy(x => x, "
            "payload.h).foo)"
        ),
        "foo",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => 5, "
            "new Proxy(new Proxy(x => x, payload.h), Object.create(null))())"
        ),
        "5",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => th, "
            "new Proxy(x => x, payload.h).call(payload.o) === payload.o)"
        ),
        "true",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => a.length, "
            "new Proxy(x => x, payload.h).apply(null, [1, 2, 3]))"
        ),
        "3",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, "
            "a) => a.length + (th === payload.o), new Proxy(x => x, payload.h).bind(payload.o, "
            "1)(2))"
        ),
        "3",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => a.length, "
            "Reflect.apply(new Proxy(x => x, payload.h), null, [1, 2]))"
        ),
        "2",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = (t, th, a) => 7, "
            "[1].some(new Proxy(x => x, payload.h)))"
        ),
        "true",
    ),
    ("new Proxy(Math.max, Object.create(null))(1, 5)", "5"),
    ("new Proxy(payload.arr.map, Object.create(null)).call([1], x => x + 1)", "2"),
    (
        (
            "(payload.h = Object.create(null), payload.h.get = () => 3, String(new Proxy(x => x, "
            "payload.h)))"
        ),
        "number 3 is not a function",
    ),
    (
        (
            "(payload.h = Object.create(null), payload.h.apply = 1, "
            "payload.arr.map(new Proxy(x => x, payload.h)))"
        ),
        "number 1 is not a function",
    ),
    (
        "Reflect.construct(new Proxy(x => x, Object.create(null)), [])",
        "x => x is not a constructor",
    ),
]


def _answers(text: str, value: str | None, error: str | None, payload: Any = None) -> None:
    """The condition's value (as String() shows it) or its error's text, whichever the
    engine gave."""
    result = evaluate(text, {"payload": {} if payload is None else payload}, "mj")
    if error is None:
        assert result.raw == value, result.error
    else:
        assert result.error is not None and result.error.message == error, result.raw


def _payload() -> dict[str, Any]:
    return {"payload": {"o": {"a": 1}, "arr": [1, 2, 3]}}


@pytest.mark.parametrize(("expr", "expected"), FUNCTION_PROXIES)
def test_proxies_around_functions(expr: str, expected: str) -> None:
    result = evaluate(expr, _payload(), "mj")
    shown = GLOBALS["String"].fn(result.raw) if result.success else result.error.message
    assert shown == expected, expr


# Symbol-keyed properties of a Date, a Map, a Set, a Number or Boolean object (their class's
# read-only Symbol.toStringTag / Symbol.toPrimitive may not be shadowed by an assignment), and
# an object's own toJSON, which JSON.stringify calls with the key
BUILTIN_SYMBOLS: Final = [
    (
        (
            "(payload.h = new Set(), payload.h[Symbol.for('a')] = 1, "
            "String(Object.getOwnPropertySymbols(payload.h)))"
        ),
        "Cannot convert a Symbol value to a string",
    ),
    (
        (
            "(payload.h = new Set(), payload.h[Symbol.for('a')] = 1, "
            "Object.getOwnPropertySymbols(payload.h).map(String).join())"
        ),
        "Symbol(a)",
    ),
    (
        "(payload.h = new Date(0), payload.h[Symbol.toPrimitive] = h => 42, payload.h + 1)",
        (
            "Cannot assign to read only property 'Symbol(Symbol.toPrimitive)' of object "
            "'[object Date]'"
        ),
    ),
    (
        (
            "(payload.h = new Map(), payload.h[Symbol.toStringTag] = 'Tag', "
            "toString.call(payload.h))"
        ),
        "Cannot assign to read only property 'Symbol(Symbol.toStringTag)' of object '#<Map>'",
    ),
    (
        (
            "(payload.h = new Number(3), payload.h[Symbol.iterator] = () => [1, 2].values(), "
            "[...payload.h].length)"
        ),
        "2",
    ),
    (
        (
            "(payload.h = new Date(0), payload.s = Symbol('k'), payload.h[payload.s] = 5, "
            "JSON.stringify([payload.h[payload.s], payload.s in payload.h, "
            "Object.keys(payload.h), JSON.stringify(payload.h)]))"
        ),
        '[5,true,[],"\\"1970-01-01T00:00:00.000Z\\""]',
    ),
    (
        (
            "(payload.h = new Map([[1, 2]]), Object.defineProperty(payload.h, Symbol.iterator, "
            "Object.fromEntries([['value', () => [7].values()]])), "
            "JSON.stringify([...payload.h]))"
        ),
        "[7]",
    ),
    (
        "(payload.h = new Set([1]), payload.h[Symbol.iterator] = undefined, [...payload.h])",
        "payload.h is not iterable",
    ),
    (
        (
            "(payload.h = new Boolean(true), payload.h[Symbol.for('x')] = 2, "
            "delete payload.h[Symbol.for('x')], Object.getOwnPropertySymbols(payload.h).length)"
        ),
        "0",
    ),
    (
        (
            "(payload.h = new Date(0), payload.h[Symbol.for('x')] = 2, Object.freeze(payload.h), "
            "payload.h[Symbol.for('x')] = 3)"
        ),
        "Cannot assign to read only property 'Symbol(x)' of object '[object Date]'",
    ),
    (
        (
            "(payload.h = new Date(0), payload.h[Symbol.for('x')] = 2, "
            "Reflect.ownKeys(payload.h).map(String).join())"
        ),
        "Symbol(x)",
    ),
    (
        (
            "(payload.h = new Map(), payload.h[Symbol.for('x')] = 2, "
            "JSON.stringify(Object.assign(Object.create(null), payload.h)))"
        ),
        "{}",
    ),
    (
        (
            "(payload.h = new Map(), payload.h[Symbol.for('x')] = 2, "
            "Object.assign(Object.create(null), payload.h)[Symbol.for('x')])"
        ),
        "2",
    ),
    (
        (
            "(payload.o.toJSON = k => k + '!', JSON.stringify([payload.o, "
            "Object.fromEntries([['x', payload.o]])]))"
        ),
        '["0!",{"x":"x!"}]',
    ),
    (
        (
            "(payload.r = Object.create(null), payload.r.toJSON = () => 9, "
            "JSON.stringify(payload.r))"
        ),
        "9",
    ),
    (
        (
            "(payload.h = new Date(NaN), Object.defineProperty(payload.h, Symbol.toPrimitive, "
            "Object.create(null)), payload.h + 1)"
        ),
        "NaN",
    ),
    (
        (
            "(payload.h = new Number(5), Object.defineProperty(payload.h, Symbol.toPrimitive, "
            "Object.fromEntries([['value', 1]])), JSON.stringify(payload.h))"
        ),
        (
            "'1' returned for property 'Symbol(Symbol.toPrimitive)' of object '[object Number]' "
            "is not a function"
        ),
    ),
    (
        (
            "(payload.h = new Number(5), Object.defineProperty(payload.h, Symbol.toStringTag, "
            "Object.fromEntries([['value', 'v']])), delete payload.h[Symbol.toStringTag])"
        ),
        "Cannot delete property 'Symbol(Symbol.toStringTag)' of [object v]",
    ),
    (
        (
            "(payload.h = new Set([1]), Object.defineProperty(payload.h, Symbol.toStringTag, "
            "Object.create(null)), toString.call(payload.h))"
        ),
        "[object Object]",
    ),
    (
        (
            "(payload.s = Symbol('s'), Reflect.set(payload.arr, Symbol.toStringTag, 'Tag'), "
            "Reflect.defineProperty(payload.arr, payload.s, payload.o), "
            "delete payload.arr[payload.s])"
        ),
        "Cannot delete property 'Symbol(s)' of [object Tag]",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), BUILTIN_SYMBOLS)
def test_symbol_keys_on_built_in_objects(expr: str, expected: str) -> None:
    result = evaluate(expr, _payload(), "mj")
    shown = GLOBALS["String"].fn(result.raw) if result.success else result.error.message
    assert shown == expected, expr


# A RegExp's and a String object's own properties: keys defined beside lastIndex, indexes and
# length, which are validated as V8's fixed attributes say (lastIndex writable, the others not)
REGEXP_STRING_DESCRIPTORS: Final = [
    (
        (
            "(payload.h = /a/g, Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['value', 1], ['enumerable', true]])), "
            "JSON.stringify([Object.keys(payload.h), Object.getOwnPropertyNames(payload.h), "
            "payload.h.x]))"
        ),
        '[["x"],["lastIndex","x"],1]',
    ),
    (
        (
            "(payload.h = /a/g, Object.defineProperty(payload.h, 'lastIndex', "
            "Object.fromEntries([['value', 3]])), payload.h.lastIndex)"
        ),
        "3",
    ),
    (
        (
            "(payload.h = /a/g, Object.defineProperty(payload.h, 'lastIndex', "
            "Object.fromEntries([['enumerable', true]])))"
        ),
        "Cannot redefine property: lastIndex",
    ),
    (
        "JSON.stringify(Object.getOwnPropertyDescriptor(/a/g, 'lastIndex'))",
        '{"value":0,"writable":true,"enumerable":false,"configurable":false}',
    ),
    (
        (
            "(payload.h = new String('ab'), Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['value', 'a']])), "
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, '0')))"
        ),
        '{"value":"a","writable":false,"enumerable":true,"configurable":false}',
    ),
    (
        (
            "(payload.h = new String('ab'), Object.defineProperty(payload.h, '0', "
            "Object.fromEntries([['value', 'z']])))"
        ),
        "Cannot redefine property: 0",
    ),
    (
        (
            "(payload.h = new String('ab'), String(Reflect.defineProperty(payload.h, 'length', "
            "Object.fromEntries([['value', 5]]))))"
        ),
        "false",
    ),
    (
        (
            "(payload.h = new String('ab'), Object.defineProperty(payload.h, 'x', "
            "Object.fromEntries([['get', () => 7], ['enumerable', true]])), "
            "JSON.stringify([payload.h.x, Object.keys(payload.h), "
            "Object.getOwnPropertyNames(payload.h)]))"
        ),
        '[7,["0","1","x"],["0","1","length","x"]]',
    ),
    (
        "(payload.h = new String('ab'), delete payload.h.length)",
        "Cannot delete property 'length' of [object String]",
    ),
    (
        (
            "(payload.h = new String('ab'), Object.defineProperty(payload.h, Symbol.toPrimitive, "
            "Object.fromEntries([['value', () => 9]])), JSON.stringify([...payload.h]))"
        ),
        '["9"]',
    ),
    (
        (
            "(payload.h = /a/g, Object.seal(payload.h), String([Object.isFrozen(payload.h), "
            "Object.isSealed(payload.h)]))"
        ),
        "false,true",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), REGEXP_STRING_DESCRIPTORS)
def test_descriptors_on_regexps_and_string_objects(expr: str, expected: str) -> None:
    result = evaluate(expr, {"payload": {}}, "mj")
    shown = GLOBALS["String"].fn(result.raw) if result.success else result.error.message
    assert shown == expected, expr


# Any object whose prototype the condition changed is iterated (spread, patterns, Set, Array.from)
# by the Symbol.iterator of its new chain, run on it as V8 runs it: Array.prototype's over it as
# an array-like, a Map's or Set's refusing another receiver, String.prototype's on ToString(it)
CHAINED_ITERATION: Final = [
    (
        (
            "(payload.t = Object.create(payload.o), Object.setPrototypeOf(payload.t, "
            "Object.getPrototypeOf(new Set())), (([a]) => a)(payload.t))"
        ),
        "Method Set.prototype.values called on incompatible receiver #<Set>",
    ),
    (
        (
            "(payload.t = Object.create(null), Object.setPrototypeOf(payload.t, "
            "Object.getPrototypeOf([])), new Set(payload.t).size)"
        ),
        "0",
    ),
    (
        (
            "(payload.t = Object.create(payload.o), Object.setPrototypeOf(payload.t, "
            "Object.create(Object.getPrototypeOf([]))), JSON.stringify([...payload.t]))"
        ),
        "[]",
    ),
    (
        ("(payload.t = new Set([1]), Object.setPrototypeOf(payload.t, payload.o), [...payload.t])"),
        "payload.t is not iterable",
    ),
    (
        (
            "(payload.t = new Set([1]), Object.setPrototypeOf(payload.t, "
            "Object.create(Object.getPrototypeOf([]))), JSON.stringify(Array.from(payload.t)))"
        ),
        "[]",
    ),
    (
        (
            "(payload.t = Object('ab'), Object.setPrototypeOf(payload.t, payload.o), "
            "new Set(payload.t).size)"
        ),
        "object is not iterable (cannot read property Symbol(Symbol.iterator))",
    ),
    (
        (
            "(payload.t = (x => x).bind(null), Object.setPrototypeOf(payload.t, payload.arr), "
            "Math.max(...payload.t))"
        ),
        "1",
    ),
    (
        (
            "(payload.t = new Date(0), Object.setPrototypeOf(payload.t, "
            "Object.getPrototypeOf('')), Math.max(...payload.t))"
        ),
        "String.prototype.toString requires that 'this' be a String",
    ),
    (
        (
            "(payload.t = new Map([[1, 2]]), Object.setPrototypeOf(payload.t, "
            "Object.getPrototypeOf(new RangeError())), [payload.a] = payload.t)"
        ),
        "object is not iterable (cannot read property Symbol(Symbol.iterator))",
    ),
]


@pytest.mark.parametrize(("expr", "expected"), CHAINED_ITERATION)
def test_objects_iterate_through_the_chain_they_were_given(expr: str, expected: str) -> None:
    result = evaluate(expr, _payload(), "mj")
    shown = GLOBALS["String"].fn(result.raw) if result.success else result.error.message
    assert shown == expected, expr


# measured with MemberJunction 5.51.3: Date.prototype[Symbol.toPrimitive] is OrdinaryToPrimitive
# through [[Get]], so a date's own valueOf or toString stands first even once a symbol key is
# defined on it (JSON's toJSON then calls toISOString on the string it got)
DATE_OWN_CONVERSIONS = [
    ("(payload.h = new Date(NaN), payload.d = Object.create(null), payload.d.enumerable = true, "
     "Reflect.defineProperty(payload.h, 'valueOf', payload.d), payload.e = Object.create(null), "
     "Object.defineProperty(payload.h, Symbol.toStringTag, payload.e), JSON.stringify(payload.h))",
     None, "Invalid time value"),
    ("(payload.h = new Date(0), payload.d = Object.create(null), payload.d.value = () => 'T', "
     "Object.defineProperty(payload.h, 'toString', payload.d), payload.e = Object.create(null), "
     "Object.defineProperty(payload.h, Symbol.iterator, payload.e), "
     "[+payload.h, payload.h + 1, String(payload.h)].join('|'))", "0|T1|T", None),
    ("(payload.h = new Date(5), payload.d = Object.create(null), payload.d.value = 1, "
     "Object.defineProperty(payload.h, 'toString', payload.d), "
     "Object.defineProperty(payload.h, 'valueOf', payload.d), payload.e = Object.create(null), "
     "Object.defineProperty(payload.h, Symbol.toStringTag, payload.e), String(payload.h))",
     None, "Cannot convert object to primitive value"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "value", "error"), DATE_OWN_CONVERSIONS)
def test_a_dates_own_conversions_stand_before_its_symbol_to_primitive(
    text: str, value: str | None, error: str | None
) -> None:
    _answers(text, value, error)


# measured with MemberJunction 5.51.3: a frozen RegExp's lastIndex is read-only, and so is one
# defined so; every Set the RegExp methods make throws (a g or y exec, a global match or replace
# writing 0 first, search writing 0 where it was not 0), of the same value too; exec without g
# or y never writes it, split and matchAll work on a copy
_RO = "Cannot assign to read only property 'lastIndex' of object '[object RegExp]'"
_FIXED = (
    "Object.defineProperty(/a/, 'lastIndex', Object.fromEntries([['writable', false], "
    "['value', 3]]))"
)
READ_ONLY_LAST_INDEX = [
    ("Object.freeze(/a/g).test('a')", None, _RO),
    ("Object.freeze(/a/y).test('b')", None, _RO),
    ("Object.freeze(/a/g).exec('zzz')", None, _RO),
    ("'aa'.match(Object.freeze(/a/g))", None, _RO),
    ("'aa'.replace(Object.freeze(/a/g), 'b')", None, _RO),
    ("'aa'.replaceAll(Object.freeze(/a/g), 'c')", None, _RO),
    ("'aa'.search(Object.freeze(/a/g))", None, _RO),
    ("'bab'.replace(Object.freeze(/a/y), 'x')", None, _RO),
    ("String(Object.freeze(/a/).test('a'))", "true", None),
    ("'aa'.replace(Object.freeze(/a/), 'b')", "ba", None),
    ("String('aa'.split(Object.freeze(/a/g)))", ",,", None),
    ("String([...'aa'.matchAll(Object.freeze(/a/g))].length)", "2", None),
    ("String(Object.seal(/a/g).test('a'))", "true", None),
    (f"((r) => String([r.test('a'), r.lastIndex]))({_FIXED})", "true,3", None),
    (f"((r) => 'ab'.search(r))({_FIXED})", None, _RO),
    (
        "((r) => String('ab'.search(r)))(Object.defineProperty(/a/, 'lastIndex', "
        "Object.fromEntries([['writable', false]])))",
        "0",
        None,
    ),
    (f"((r) => (r.lastIndex = 3))({_FIXED})", None, _RO),
    (f"((r) => String(Reflect.set(r, 'lastIndex', 1)))({_FIXED})", "false", None),
    (f"((r) => String(Object.isFrozen(Object.seal(r))))({_FIXED})", "true", None),
    ("String(Object.isFrozen(Object.seal(/a/)))", "false", None),
    (
        f"((r) => Object.defineProperty(r, 'lastIndex', Object.fromEntries([['writable', true]])))"
        f"({_FIXED})",
        None,
        "Cannot redefine property: lastIndex",
    ),
    (
        "((r) => Object.defineProperty(r, 'lastIndex', Object.fromEntries([['value', 1]])))"
        "(Object.freeze(/a/))",
        None,
        "Cannot redefine property: lastIndex",
    ),
    (
        f"((r) => String(Object.getOwnPropertyDescriptor(r, 'lastIndex').writable))({_FIXED})",
        "false",
        None,
    ),
]


@pytest.mark.parametrize(("text", "value", "error"), READ_ONLY_LAST_INDEX)
def test_a_read_only_last_index_refuses_the_regexp_methods_writes(
    text: str, value: str | None, error: str | None
) -> None:
    _answers(text, value, error)


# measured with MemberJunction 5.51.3: a global constructor's own properties have node's
# attributes (prototype, the constants, Error.stackTraceLimit, URL's enumerable statics), and
# a Proxy around one checks its traps' answers against them, as V8's TypeErrors say
_H = "payload.h = Object.create(null), "
BUILTIN_OWN = [
    (
        "JSON.stringify(Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit'))",
        '{"value":10,"writable":true,"enumerable":true,"configurable":true}',
        None,
    ),
    (
        "JSON.stringify(Object.getOwnPropertyDescriptor(DOMException, 'ABORT_ERR'))",
        '{"value":20,"writable":false,"enumerable":true,"configurable":false}',
        None,
    ),
    (
        "String(Object.getOwnPropertyDescriptor(Number, 'proto' + 'type').configurable)",
        "false",
        None,
    ),
    (
        "String(Object.getOwnPropertyDescriptor(Map, 'proto' + 'type').value === "
        "Object.getPrototypeOf(new Map()))",
        "true",
        None,
    ),
    ("String('proto' + 'type' in Date)", "true", None),
    ("String(Date.hasOwnProperty('proto' + 'type'))", "true", None),
    ("String(Reflect.deleteProperty(Date, 'proto' + 'type'))", "false", None),
    ("String(Reflect.construct(Symbol, []))", None, "Symbol is not a constructor"),
    (
        f"({_H}payload.h.ownKeys = () => ['q'], Object.keys(new Proxy(Date, payload.h)))",
        None,
        "'ownKeys' on proxy: trap result did not include 'prototype'",
    ),
    (
        f"({_H}payload.h.ownKeys = () => ['q', 'proto' + 'type'], "
        "Object.keys(new Proxy(Number, payload.h)))",
        None,
        "'ownKeys' on proxy: trap result did not include 'MAX_VALUE'",
    ),
    (
        f"({_H}payload.h.ownKeys = () => ['q'], "
        "JSON.stringify(Object.keys(new Proxy(Math.max, payload.h))))",
        "[]",
        None,
    ),
    (
        f"({_H}payload.h.getOwnPropertyDescriptor = () => undefined, "
        "Object.keys(new Proxy(Number, payload.h)))",
        None,
        "'getOwnPropertyDescriptor' on proxy: trap returned undefined for property "
        "'prototype' which is non-configurable in the proxy target",
    ),
    (
        f"({_H}payload.h.has = () => false, 'proto' + 'type' in new Proxy(Date, payload.h))",
        None,
        "'has' on proxy: trap returned falsish for property 'prototype' which exists in the "
        "proxy target as non-configurable",
    ),
    (
        f"({_H}payload.h.get = () => 3, new (new Proxy(Map, payload.h))().size)",
        None,
        "'get' on proxy: property 'prototype' is a read-only and non-configurable data "
        "property on the proxy target but the proxy did not return its actual value "
        "(expected '#<Map>' but got '3')",
    ),
    (
        f"({_H}payload.h.get = () => 3, new (new Proxy(Error, payload.h))())",
        None,
        "'get' on proxy: property 'prototype' is a read-only and non-configurable data "
        "property on the proxy target but the proxy did not return its actual value "
        "(expected 'Error' but got '3')",
    ),
    (
        f"({_H}payload.h.get = () => Object.getPrototypeOf(new Date(0)), "
        "String(new (new Proxy(Date, payload.h))(0).getTime()))",
        "0",
        None,
    ),
    (
        f"({_H}payload.h.get = (t, k) => t[k], "
        "JSON.stringify(new (new Proxy(Date, payload.h))(0)))",
        '"1970-01-01T00:00:00.000Z"',
        None,
    ),
    (
        "String(Object.keys(new Proxy(Date, Object.create(null))).length)",
        "0",
        None,
    ),
]


@pytest.mark.parametrize(("text", "value", "error"), BUILTIN_OWN)
def test_built_in_constructors_own_properties_and_proxies_around_them(
    text: str, value: str | None, error: str | None
) -> None:
    _answers(text, value, error)


# measured with MemberJunction 5.51.3 (node 20.20.2): Error's two stack functions are there
# (calling them writes or shapes a stack, whose text names the host's files: refused), and
# Symbol.dispose / asyncDispose are node's registered symbols
NODE_STATICS = [
    ("typeof Error.captureStackTrace", "function"),
    ("Error.prepareStackTrace.name", "ErrorPrepareStackTrace"),
    ("String(Error.captureStackTrace.length)", "2"),
    ("String(Symbol.dispose)", "Symbol(nodejs.dispose)"),
    ("Symbol.keyFor(Symbol.asyncDispose)", "nodejs.asyncDispose"),
    ("String(Symbol.for('nodejs.dispose') === Symbol.dispose)", "true"),
    (
        "JSON.stringify(Object.getOwnPropertyDescriptor(Error, 'captureStackTrace').writable)",
        "true",
    ),
    ("String(new Set().keys === new Set().values)", "true"),  # one function, named values
    ("new Set().keys.name", "values"),
]


@pytest.mark.parametrize(("text", "expected"), NODE_STATICS)
def test_nodes_own_statics_on_error_and_symbol(text: str, expected: str) -> None:
    assert evaluate(text, {"payload": {}}, "mj").raw == expected


def test_a_stack_trace_is_refused_as_host_state() -> None:
    result = evaluate("Error.captureStackTrace(payload)", {"payload": {}}, "mj")
    assert result.error is not None and "names the engine's own files" in result.error.message


# measured with MemberJunction 5.51.3: a function's own length and name are configurable; once
# deleted, Function.prototype's ('' and 0) show through, bind reads them, and an assignment
# meets the inherited read-only one
_F = "payload.f = (a, b) => a, "
DELETED_FUNCTION_OWN = [
    (
        f"({_F}delete payload.f.name, JSON.stringify([payload.f.name, payload.f.length, "
        "Object.getOwnPropertyNames(payload.f), payload.f.hasOwnProperty('name'), "
        "'name' in payload.f]))",
        '["",2,["length"],false,true]',
        None,
    ),
    (
        f"({_F}delete payload.f.length, delete payload.f.name, "
        "JSON.stringify([payload.f.bind(null).name, payload.f.bind(null, 1).length]))",
        '["bound ",0]',
        None,
    ),
    ("String(Reflect.deleteProperty(x => x, 'length'))", "true", None),
    (
        f"({_F}delete payload.f.name, payload.f.name = 'z')",
        None,
        "Cannot assign to read only property 'name' of function '(a, b) => a'",
    ),
    (
        f"({_F}Object.preventExtensions(payload.f), delete payload.f.name, "
        "delete payload.f.length, String([Object.isSealed(payload.f), "
        "Object.isFrozen(payload.f)]))",
        "true,true",
        None,
    ),
]


@pytest.mark.parametrize(("text", "value", "error"), DELETED_FUNCTION_OWN)
def test_deleting_a_functions_own_length_and_name(
    text: str, value: str | None, error: str | None
) -> None:
    _answers(text, value, error)


# measured with MemberJunction 5.51.3: an error's cause is its own (not enumerable), after the
# stack and the message, before an AggregateError's errors; a TextDecoder's own symbol keys
# are node's internals (a native handle among them): refused
ERROR_OWN_NAMES = [
    (
        "(payload.e = new Error('m', Object.fromEntries([['cause', 2]])), payload.e.x = 1, "
        "JSON.stringify([Object.getOwnPropertyNames(payload.e), Object.keys(payload.e)]))",
        '[["stack","message","cause","x"],["x"]]',
    ),
    (
        "JSON.stringify(Reflect.ownKeys(new AggregateError([1], 'm', "
        "Object.fromEntries([['cause', 1]]))))",
        '["stack","message","cause","errors"]',
    ),
    (
        "JSON.stringify(Object.getOwnPropertyNames(new Error(undefined, "
        "Object.fromEntries([['cause', undefined]]))))",
        '["stack","cause"]',
    ),
]


@pytest.mark.parametrize(("text", "expected"), ERROR_OWN_NAMES)
def test_an_errors_cause_is_its_own(text: str, expected: str) -> None:
    assert evaluate(text, {"payload": {}}, "mj").raw == expected


def test_a_text_decoders_internal_symbols_are_refused() -> None:
    result = evaluate("Reflect.ownKeys(new TextDecoder()).length", {"payload": {}}, "mj")
    assert result.error is not None and "internal state" in result.error.message


# measured with MemberJunction 5.51.3: a WeakRef's target stays for as long as the condition
# runs (one synchronous job), deref gives it back; V8's errors for a target that cannot be held
# weakly, a call without new and another receiver
WEAK_REFS = [
    ("String(new WeakRef(payload.o).deref() === payload.o)", "true", None),
    ("String(((s) => new WeakRef(s).deref() === s)(Symbol('q')))", "true", None),
    ("toString.call(new WeakRef(x => x))", "[object WeakRef]", None),
    ("JSON.stringify(new WeakRef(payload.o))", "{}", None),
    ("String(WeakRef.length + WeakRef.name)", "1WeakRef", None),
    ("new WeakRef(1)", None, "WeakRef: invalid target"),
    ("new WeakRef(Symbol.for('x'))", None, "WeakRef: invalid target"),
    ("WeakRef(payload.o)", None, "Constructor WeakRef requires 'new'"),
    (
        "new WeakRef(payload.o).deref.call(payload.o)",
        None,
        "Method WeakRef.prototype.deref called on incompatible receiver #<Object>",
    ),
    ("structuredClone(new WeakRef(payload.o))", None, "#<WeakRef> could not be cloned."),
]


@pytest.mark.parametrize(("text", "value", "error"), WEAK_REFS)
def test_weak_refs(text: str, value: str | None, error: str | None) -> None:
    _answers(text, value, error, {"o": {"a": 1}})


# measured with MemberJunction 5.51.3: a Symbol object (Object(symbol)) is an ordinary object
# to JSON and to its own keys, its conversions are its symbol's (V8's TypeErrors)
SYMBOL_OBJECTS = [
    ("typeof Object(Symbol('q'))", "object", None),
    ("String(((s) => Object(s) == s)(Symbol('q')))", "true", None),
    ("String(Object(Symbol('q')) instanceof Symbol)", "true", None),
    ("(payload.w = Object(Symbol('q')), payload.w.x = 1, JSON.stringify(payload.w))",
     '{"x":1}', None),
    ("toString.call(Object(Symbol('q')))", "[object Symbol]", None),
    ("+Object(Symbol('q'))", None, "Cannot convert a Symbol value to a number"),
    ("String(Object(Symbol('q')))", None, "Cannot convert a Symbol value to a string"),
    ("structuredClone(Object(Symbol('q')))", None, "[object Symbol] could not be cloned."),
    ("Object(Symbol('q'))[Symbol.toPrimitive]('string').toString()", "Symbol(q)", None),
]  # fmt: skip


@pytest.mark.parametrize(("text", "value", "error"), SYMBOL_OBJECTS)
def test_symbol_objects(text: str, value: str | None, error: str | None) -> None:
    _answers(text, value, error)
