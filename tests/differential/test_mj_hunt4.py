"""Conditions a held-out hunt found flowctx answering otherwise than MemberJunction 5.51.3
under node 20, with their neighbourhoods (the forms that already agreed beside them).

Each group is one rule: its cases failed before the fix named in its comment.
"""

from __future__ import annotations

import json
from typing import Any, cast

import pytest

from flowctx_core.expressions import evaluate
from tests.differential.compare import compare
from tests.differential.draw import NOW, kind
from tests.differential.oracle import Answer, MjOracle

# MemberJunction drops the scope keys eval and Function before it builds its function, so
# the names are the host's own globals again: flowctx refuses them as code, as it does
# without the key, where it said "eval is not defined". Keys it keeps stay parameters.
DROPPED_HOST_KEYS: list[tuple[str, dict[str, Any]]] = [
    ("eval", {"eval": 1}),
    ("eval === 1", {"eval": 1, "x": 2}),
    ("eval", {"x": 2, "eval": 1}),
    ("Function", {"Function": 1}),
    ("Function === 1", {"Function": 1, "payload": 2}),
    ("typeof eval", {"eval": 1}),
    ("typeof Function", {"Function": 1}),
    ("payload", {"eval": 1, "payload": 2}),
    ("globalThis === 1", {"globalThis": 1}),
    ("console", {"console": 1}),
    ("process + 1", {"process": 1}),
    ("setTimeout", {"setTimeout": 1}),
]


def test_dropped_host_keys(batched: MjOracle) -> None:
    tally = compare(batched, DROPPED_HOST_KEYS, "mj dropped host keys")
    assert not tally.disagreements, tally.details()
    assert tally.refused == 5


# Array.prototype is itself an array (an Array exotic object), so Array.isArray says true of
# it, directly or through a Proxy around it; Object.prototype is none.
ARRAY_PROTOTYPE = [
    "Array.isArray(Object.getPrototypeOf([]))",
    "Array.isArray(Reflect.getPrototypeOf(payload.a))",
    "Array.isArray(new Proxy(Object.getPrototypeOf([]), payload.o))",
    "Array.isArray(Object.getPrototypeOf(payload.o))",
    "Array.isArray(Object.getPrototypeOf(Object.getPrototypeOf([])))",
    "Array.isArray(new Proxy(payload.a, payload.o))",
    "Object.getPrototypeOf([]).length",
    "JSON.stringify(Object.getPrototypeOf([]))",
    "String(Object.getPrototypeOf([])) === ''",
]


_ARRAY_PROTOTYPE_CASES = [(expr, {"payload": {"a": [1], "o": {}}}) for expr in ARRAY_PROTOTYPE]


def test_array_prototype_is_an_array(batched: MjOracle) -> None:
    cases = _ARRAY_PROTOTYPE_CASES
    tally = compare(batched, cases, "mj Array.prototype")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# A locale list that is no string or array is read as ECMA-402's CanonicalizeLocaleList reads
# any object: its elements by index up to its length (an array-like's strings, a String
# object's characters), an Intl.Locale as its tag; a function (its length its parameter
# count, no elements), a RegExp, a BigInt, a Symbol or a Date is the empty list. flowctx
# refused all of these, and read an array-like of the scope as no list at all.
LOCALE_LISTS = [
    "x => x",
    "(a, b) => a",
    "Symbol()",
    "1n",
    "/x/",
    "new Date(0)",
    "new String('de')",
    "new String('')",
    "new Intl.Locale('de')",
    "payload.one",
    "payload.two",
    "payload.bad",
    "payload.neg",
    "payload.holey",
    "payload.nolen",
    "Object(5)",
    "new Map([[0, 'de']])",
    "[new Intl.Locale('fr')]",
    "Math",
    "Object('de')",
]
LOCALE_USES = [
    "Intl.getCanonicalLocales({l}).join()",
    "'a'.localeCompare('B', {l})",
    "(1234.5).toLocaleString({l})",
    "new Date(0).toLocaleDateString({l}, payload.utc)",
    "'i'.toLocaleUpperCase({l})",
]
LOCALE_SCOPE = {
    "payload": {
        "one": {"length": 1, "0": "de"},
        "two": {"length": "2", "1": "fr", "0": "de-AT"},
        "bad": {"length": 1, "0": 5},
        "neg": {"length": -1, "0": "de"},
        "holey": {"length": 3, "2": "tr"},
        "nolen": {"0": "de"},
        "utc": {"timeZone": "UTC"},
    }
}


_LOCALE_CASES = [(use.format(l=lst), LOCALE_SCOPE) for use in LOCALE_USES for lst in LOCALE_LISTS]


def test_locale_lists_of_any_object(batched: MjOracle) -> None:
    cases = _LOCALE_CASES
    tally = compare(batched, cases, "mj locale lists")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# V8's JSON.parse reads its text with a stack of its own, not by recursion: any depth parses
# (a reviver's walk, and what is done with the value after, do meet the stack's bound), and a
# deep text that is no JSON has the same errors as a shallow one. flowctx answered "Maximum
# call stack size exceeded" past Python's json's depth (about 900).
DEEP_JSON = [
    *(
        f"JSON.parse('['.repeat({n}) + {inner} + ']'.repeat({m})){tail}"
        for n, m in ((2500, 2500),)
        for inner in ("''", "'1'", "'\"a\\\\u0041\"'", "'-0'", "'1e400'", "'null, true'")
        for tail in (".length", "[0][0].length", ".flat(Infinity).join()")
    ),
    *(
        f"JSON.parse('['.repeat(1500) + {inner} + ']'.repeat({m}))"
        for inner, m in (
            ("''", 1499),
            ("''", 1501),
            ("'1,'", 1500),
            ("'01'", 1500),
            ("'\"\\\\x\"'", 1500),
            ("'tru'", 1500),
            ("'-'", 1500),
            ("'1.'", 1500),
            ("'\"ab'", 1500),
            ("'1 2'", 1500),
            ("'[ '", 1500),
        )
    ),
    "JSON.parse('['.repeat(1500) + ']'.repeat(1500) + 'x')",
    "JSON.parse(' ['.repeat(3000) + payload.t + ' ]'.repeat(3000)).length",
    "JSON.parse('['.repeat(3000) + payload.t + ']'.repeat(3000)).flat(Infinity)[4].a",
    "JSON.parse('['.repeat(3000) + payload.bad + ']'.repeat(3000))",
    "JSON.parse('['.repeat(2000) + '1' + ']'.repeat(2000), (k, v) => v).length",
    "JSON.parse('['.repeat(900) + '1' + ']'.repeat(900)).length",
]


_JSON_SCOPE = {"payload": {"t": '1, "x", -0, [2], {"a": [3], "__proto__": 4}', "bad": '{"a" 1}'}}
_JSON_CASES = [(expr, _JSON_SCOPE) for expr in DEEP_JSON]


def test_json_parse_at_any_depth(batched: MjOracle) -> None:
    cases = _JSON_CASES
    tally = compare(batched, cases, "mj deep JSON")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# node holds a call's arguments on its stack, and flattens arrays by recursion: past what
# its stack holds at the condition's top level (123,374 arguments, 6,168 levels of arrays,
# measured) every call throws RangeError; a little below, it depends on the frames beneath,
# and flowctx refuses; below that it answers (an array literal's spread holds any count).
STACK_BOUNDS = [
    "Math.max(...Array(99999).fill(1))",
    "Math.max(...Array(123375).fill(1))",
    "Math.max(1, ...Array(1.1.3e5).fill(1), 2)",
    "[...Array(1.1.3e5)].length",
    "Math.max.apply(null, Array(1.1.3e5).fill(1))",
    "Math.max.apply(null, Array(5e4).fill(1))",
    "Reflect.apply(Math.max, null, Array(1.1.3e5).fill(1))",
    "String.fromCharCode(...Array(1.1.3e5).fill(65)).length",
    "String.fromCharCode(...Array(9e4).fill(65)).length",
    "new Set(...[Array(1.1.3e5)]).size",
    "((...a) => a.length)(...Array(130000))",
    "[].push(...Array(1.1.3e5))",
    "Math.min.call(null, ...Array(1.1.3e5))",
    "[1].map(x => Math.max(...Array(1.1.3e5).fill(x)))",
    "JSON.parse('['.repeat(6169) + '1' + ']'.repeat(6169)).flat(Infinity).length",
    "JSON.parse('['.repeat(5999) + '1' + ']'.repeat(5999)).flat(Infinity).length",
    "JSON.parse('['.repeat(6000) + ']'.repeat(6000)).flat(Infinity).length",
    "JSON.parse('['.repeat(9000) + '1' + ']'.repeat(9000)).flat(3).length",
    "JSON.parse('['.repeat(9000) + '1' + ']'.repeat(9000)).flatMap(x => x).length",
    "JSON.parse('[1,' + '['.repeat(7000) + '1' + ']'.repeat(7001)).flat(6168).length",
    "JSON.parse('[1,' + '['.repeat(7000) + '1' + ']'.repeat(7001)).flat(5000).length",
    "JSON.parse('[[1], ' + '['.repeat(7000) + ']'.repeat(7000) + ']').flat(Infinity).length",
]


_STACK_CASES: list[tuple[str, dict[str, Any]]] = [(expr, {"payload": {}}) for expr in STACK_BOUNDS]


def test_stack_bounds(batched: MjOracle) -> None:
    cases = _STACK_CASES
    tally = compare(batched, cases, "mj stack bounds")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# JSON.stringify runs out of node's stack at 4,112 nested arrays or objects (or both): flowctx
# serialised them to 4,500.
_DEEP_JSON = [
    "JSON.stringify(payload.a.reduce((acc) => [acc], 1)).length",
    "JSON.stringify(payload.a.reduce((acc) => [acc], [])).length",
    "JSON.stringify(payload.a.reduce((acc) => Object.fromEntries([['k', acc]]), 1)).length",
    "JSON.stringify(payload.a.reduce((acc, i) => i % 3 ? [acc] : Object.fromEntries([['k', acc]]),"
    " 1)).length",
]
_JSON_STACK_CASES: list[tuple[str, dict[str, Any]]] = [
    (expr, {"payload": {"a": list(range(n))}})
    for expr in _DEEP_JSON
    for n in (4000, 4111, 4112, 4300)
]


def test_json_stack_of_arrays_and_objects(batched: MjOracle) -> None:
    tally = compare(batched, _JSON_STACK_CASES, "mj json stack")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(_JSON_STACK_CASES), tally.details()


# An array literal spreading a call's result that has no Symbol.iterator names the callee
# ("f is not a function or its return value is not iterable"), an object the condition made
# (Object.create, setPrototypeOf, assign onto one) as much as any other: flowctx said
# "Symbol.iterator is not a function" of those.
SPREAD_MADE = [
    "[...Object.create(null)]",
    "[...Object.create(payload.eo)]",
    "[...Object.setPrototypeOf(payload.eo, null)]",
    "[...Object.assign(Object.create(null), payload.eo)]",
    "[1, ...Object.create(null), 2]",
    "[...Object.create(payload.eo), 1]",
    "Math.max(1, ...Object.create(null), 2)",
    "Math.max(...Object.create(null))",
    "new Array(...Object.create(null))",
    "[...Object.create(Object.getPrototypeOf([]))]",
    "[...Object.create(Object.getPrototypeOf(new Map()))]",
    "[...Object.create(new Set([1]))]",
    "[...Object.setPrototypeOf(payload.eo, [])]",
    "[...Object.fromEntries([['x', 1]])]",
    "(o => [...o])(Object.create(null))",
    "Array.from(Object.create(null)).length",
    "new Set(Object.create(null))",
]


_SPREAD_CASES: list[tuple[str, dict[str, Any]]] = [
    (expr, {"payload": {"eo": {}}}) for expr in SPREAD_MADE
]


def test_spread_of_made_objects(batched: MjOracle) -> None:
    cases = _SPREAD_CASES
    tally = compare(batched, cases, "mj spread of made objects")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# structuredClone refuses a Proxy without running any trap: V8's DataCloneError names it by
# its innermost target as its messages name a value (#<Object>, [object Array], #<Map>, a
# function's text), a revoked one as null. flowctx refused the construct, ran the traps
# while naming it, or named a callable one "function () { [native code] }".
CLONED_PROXIES = [
    *(
        f"structuredClone(new Proxy({target}, payload.eo))"
        for target in (
            "payload.o",
            "payload.arr",
            "[]",
            "x => x",
            "(a, b) => a + b",
            "Math.max",
            "new Date(0)",
            "/x/g",
            "new Map()",
            "new Set()",
            "Object.create(null)",
            "new Proxy(payload.arr, payload.eo)",
            "new Proxy(x => x, payload.eo)",
            "new String('ab')",
            "Object(1n)",
            "Math",
            "JSON",
            "Object.freeze([1])",
            "new Uint8Array(2)",
            "new Number(5)",
            "String",
        )
    ),
    "structuredClone([new Proxy(payload.o, payload.eo)])",
    "structuredClone(payload.o, new Proxy(payload.eo, payload.eo))",
    "(r => (r.revoke(), structuredClone(r.proxy)))(Proxy.revocable(payload.o, payload.eo))",
    "(h => (h.get = (t, k) => k, structuredClone(new Proxy(payload.o, h))))(Object.create(null))",
    "(h => (h.ownKeys = () => 5, structuredClone(new Proxy(payload.arr, h))))(Object.create(null))",
    "(h => (h.get = () => 1, structuredClone(new Proxy(x => x, h))))(Object.create(null))",
]


_CLONE_CASES = [(e, {"payload": {"eo": {}, "o": {"a": 1}, "arr": [1, 2]}}) for e in CLONED_PROXIES]


def test_structured_clone_of_proxies(batched: MjOracle) -> None:
    cases = _CLONE_CASES
    tally = compare(batched, cases, "mj structuredClone of proxies")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# A Proxy's getOwnPropertyDescriptor trap is held to ECMAScript's invariants: the descriptor
# it reports, completed, must be compatible with the target's own property (a frozen or
# sealed one, an array's length), and may not call a writable one non-writable beside
# non-configurable; a write through the proxy to a property it reports as read-only or an
# accessor is "Cannot redefine property". flowctx answered each of these.
_GOPD = "(h => (h.getOwnPropertyDescriptor = () => {d}, (p => {op})(new Proxy({t}, h))))(payload.h)"
_DESCRIPTORS = [
    "Object.fromEntries([['value', 9], ['configurable', true], ['enumerable', true]])",
    "Object.fromEntries([['value', 9], ['configurable', false], ['enumerable', true]])",
    "Object.fromEntries([['value', 9], ['configurable', false], ['writable', true]])",
    "Object.fromEntries([['value', 1], ['configurable', false], ['enumerable', true]])",
    "Object.fromEntries([['get', () => 1], ['configurable', true]])",
]
PROXY_DESCRIPTORS = [
    _GOPD.format(d=d, op=op, t=t)
    for t in ("Object.freeze(payload.f)", "Object.seal(payload.g)", "payload.arr", "payload.o")
    for d in _DESCRIPTORS
    for op in (
        "JSON.stringify(Object.getOwnPropertyDescriptor(p, 'a'))",
        "Object.keys(p).join()",
        "p.hasOwnProperty('length')",
        "(p.a = 3, p.a)",
    )
]


_GOPD_SCOPE = {"payload": {"o": {"a": 1}, "arr": [1, 2], "f": {"a": 1}, "g": {"a": 1}, "h": {}}}
_GOPD_CASES = [(expr, _GOPD_SCOPE) for expr in PROXY_DESCRIPTORS]


def test_proxy_descriptor_invariants(batched: MjOracle) -> None:
    cases = _GOPD_CASES
    tally = compare(batched, cases, "mj proxy descriptor invariants")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# RegExp.prototype's Symbol.match, matchAll, replace, search and split read off a RegExp are
# functions that do what the string methods of those names do with it (which call them);
# called on a primitive they throw V8's "Method RegExp.prototype.@@replace called on
# incompatible receiver" (@@replace shows undefined for any). flowctx refused reading them.
REGEXP_SYMBOLS = [
    "/[a-z]/gi[Symbol.replace]('ABC', '_')",
    "/b/[Symbol.split]('abc').join()",
    "JSON.stringify(/x/[Symbol.match]('axbx'))",
    "/a/g[Symbol.matchAll]('aa').next().value[0]",
    "/\\d+/g[Symbol.match](payload.s).join()",
    "/\\d+/[Symbol.search](payload.s)",
    "/\\d/[Symbol.split](payload.s, 2).join()",
    "/(\\d)/g[Symbol.replace](payload.s, '[$1]')",
    "/(\\d)/g[Symbol.replace](payload.s, (m, d) => d * 2)",
    "/x/[Symbol.replace]()",
    "/u/[Symbol.replace](undefined, 'U')",
    "/x/[Symbol.match](null)",
    "/n/[Symbol.search](null)",
    "/x/[Symbol.replace].name",
    "/x/[Symbol.split].length",
    "/x/[Symbol.replace].length",
    "typeof /x/[Symbol.search]",
    "/x/[Symbol.match](Symbol())",
    "(r => (r.lastIndex = 2, r[Symbol.match]('xaxbx'), r.lastIndex))(/x/g)",
    "(r => (r.lastIndex = 1, r[Symbol.replace]('xx', 'y')))(/x/y)",
    "(r => (r.lastIndex = 1, r[Symbol.search]('axa'), r.lastIndex))(/x/g)",
    "/x/[Symbol.replace].call(/y/, 'xy', 'z')",
    "/(?:)/u[Symbol.split]('😀a').length",
    "/a/y[Symbol.split]('aXa').join('|')",
    "[.../\\d/g[Symbol.matchAll]('x1y2')].length",
    "/x/[Symbol.replace]('x', '$&$`$\\'')",
    "/a/[Symbol.matchAll]('aa').next().value[0]",
    "[.../\\d+/[Symbol.matchAll](payload.s)][0].index",
    "[.../z/[Symbol.matchAll](payload.s)].length",
    "(r => (r.lastIndex = 3, [...r[Symbol.matchAll](payload.s)][0][0]))(/\\d+/y)",
    "(r => (r.lastIndex = 3, [...r[Symbol.matchAll](payload.s)][0][0]))(/\\d+/)",
    "(r => (r.lastIndex = 3, r[Symbol.matchAll](payload.s), r.lastIndex))(/\\d+/y)",
    "(it => (it.next(), it.next().done))(/a/[Symbol.matchAll]('aa'))",
    "/a/d[Symbol.matchAll]('ba').next().value.indices[0].join()",
    *(
        f"/x/[Symbol.{m}].call({r}, 'xy', 'z')"
        for m in ("replace", "split", "match", "search", "matchAll")
        for r in ("'x'", "5", "null", "undefined", "Symbol('q')", "true", "1n", "/y/g")
    ),
]


_REGEXP_CASES = [(expr, {"payload": {"s": "a1b22c333"}}) for expr in REGEXP_SYMBOLS]


def test_regexp_symbol_methods(batched: MjOracle) -> None:
    cases = _REGEXP_CASES
    tally = compare(batched, cases, "mj RegExp symbol methods")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# V8 names an object in its messages by its constructor only when its toString is
# Object.prototype's: an object made on an array (Object.create(arr)) finds Array's, so it is
# named by its built-in tag, [object Object], where flowctx said #<Object>.
_GETTER_A = "Object.fromEntries([['a', Object.fromEntries([['get', () => 1]])]])"
MADE_ON_ARRAYS = [
    f"(T => delete T.a)(Object.create(payload.arr, {_GETTER_A}))",
    f"(T => (T.a = 9))(Object.create(payload.arr, {_GETTER_A}))",
    f"(T => (T.a = 9))(Object.create(Object.create(payload.arr), {_GETTER_A}))",
    f"(T => (T.a = 9))(Object.create(payload.eo, {_GETTER_A}))",
    "(T => Object.freeze(T) && (T.z = 1))(Object.create(payload.arr))",
    "(T => T.x.y)(Object.create(payload.arr))",
    "(T => T())(Object.create(payload.arr))",
    "(T => String(T))(Object.create(payload.arr))",
    "(T => T instanceof T)(Object.create(payload.arr))",
]


_MADE_CASES = [(expr, {"payload": {"arr": [1, 2], "eo": {}}}) for expr in MADE_ON_ARRAYS]


def test_objects_made_on_arrays_in_messages(batched: MjOracle) -> None:
    cases = _MADE_CASES
    tally = compare(batched, cases, "mj objects made on arrays")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# A Segments object's Symbol.iterator gives a Segment Iterator (its next() the segments'
# data objects), and every built-in iterator's Symbol.iterator returns its this, with its
# Symbol.toStringTag its kind; the Segments method called on anything else is V8's TypeError
# naming %SegmentIsPrototype%. flowctx refused reading either ("the prototype of object values").
_SEG = "new Intl.Segmenter('en', payload.w).segment('Hi there')"
ITERATOR_SYMBOLS = [
    f"{_SEG}[Symbol.iterator]().next().value.segment",
    "new Intl.Segmenter('en', payload.g).segment('Hi')[Symbol.iterator]().next().value.segment",
    f"typeof {_SEG}[Symbol.iterator]",
    f"{_SEG}[Symbol.iterator]().next().done",
    f"(it => (it.next(), it.next().value.index))({_SEG}[Symbol.iterator]())",
    f"{_SEG}[Symbol.iterator]()[Symbol.iterator]().next().value.segment",
    f"String({_SEG}[Symbol.iterator]())",
    f"{_SEG}[Symbol.iterator].name",
    f"JSON.stringify({_SEG}[Symbol.iterator]().next())",
    f"(it => [...it].length + [...it].length)({_SEG}[Symbol.iterator]())",
    f"Array.from({_SEG}[Symbol.iterator](), s => s.segment).join('|')",
    f"{_SEG}[Symbol.iterator]()[Symbol.toStringTag]",
    f"{_SEG}[Symbol.iterator].call(5)",
    f"[{_SEG}[Symbol.iterator]][0]()",
    f"(0, {_SEG}[Symbol.iterator])()",
    f"{_SEG}[Symbol.iterator].call(null)",
    "[1][Symbol.iterator]()[Symbol.iterator]().next().value",
    "'ab'.matchAll(/a/g)[Symbol.iterator]().next().value[0]",
    "new Map([[1, 2]]).keys()[Symbol.iterator]().next().value",
    "(it => it[Symbol.iterator]() === it)(payload.m.values())",
    "payload.m.entries()[Symbol.toStringTag]",
    "new Set([1]).values()[Symbol.toStringTag]",
    "'ab'[Symbol.iterator]()[Symbol.toStringTag]",
    "'ab'.matchAll(/a/g)[Symbol.toStringTag]",
    "(it => (it.next(), [...it[Symbol.iterator]()].join()))(payload.m.values())",
    "payload.m.keys()[Symbol.iterator].name",
    "payload.m.keys()[Symbol.iterator].call(5)",
    "payload.m.keys()[Symbol.iterator].call(null)",
    "(0, payload.m.keys()[Symbol.iterator])()",
    "payload.m.keys()[Symbol.iterator].bind(7)()",
]


_ITERATOR_SCOPE = {
    "payload": {"w": {"granularity": "word"}, "g": {"granularity": "grapheme"}, "m": [1, 2]}
}
_ITERATOR_CASES = [(expr, _ITERATOR_SCOPE) for expr in ITERATOR_SYMBOLS]


def test_iterator_symbols(batched: MjOracle) -> None:
    cases = _ITERATOR_CASES
    tally = compare(batched, cases, "mj iterator symbols")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# Object.fromEntries takes a symbol as a key as any other (after the string keys, as own
# keys always list them): flowctx refused "properties keyed by a symbol".
SYMBOL_ENTRIES = [
    "Object.fromEntries([[Symbol.iterator, 1]])[Symbol.iterator]",
    "Object.fromEntries([[Symbol.for('k'), 2], ['a', 1]])[Symbol.for('k')]",
    "Object.getOwnPropertySymbols(Object.fromEntries([[Symbol('q'), 1], ['a', 2]])).length",
    "Reflect.ownKeys(Object.fromEntries([[Symbol('q'), 1], ['a', 2], [Symbol('r'), 3], ['0', 4]]))"
    ".map(String).join()",
    "JSON.stringify(Object.fromEntries([[Symbol('q'), 1], ['a', 2]]))",
    "Object.keys(Object.fromEntries([[Symbol('q'), 1]])).length",
    "[...Object.fromEntries([[Symbol.iterator, () => [1, 2].values()]])].join()",
    "String(Object.fromEntries([[Symbol.toPrimitive, () => 'tp']]))",
    "Object.fromEntries([[Symbol.toStringTag, 'Zed']]) + ''",
    "Object.fromEntries([[Symbol.for('a'), 1], [Symbol.for('a'), 2]])[Symbol.for('a')]",
    "structuredClone(Object.fromEntries([[Symbol('q'), 1], ['a', 2]])).a",
    "Object.fromEntries(new Map([[Symbol.for('m'), 7]]))[Symbol.for('m')]",
    "[].concat(Object.fromEntries([[Symbol.isConcatSpreadable, true], ['length', 2], ['0', 'x']]))"
    ".length",
    "(o => 1 instanceof o)(Object.fromEntries([[Symbol.hasInstance, () => true]]))",
]


_ENTRIES_CASES: list[tuple[str, dict[str, Any]]] = [
    (expr, {"payload": {}}) for expr in SYMBOL_ENTRIES
]


def test_symbol_keys_from_entries(batched: MjOracle) -> None:
    cases = _ENTRIES_CASES
    tally = compare(batched, cases, "mj symbol keys from entries")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# NamedEvaluation: an arrow function (parenthesised or not) given as a parameter's or an
# array pattern element's default, or assigned to a plain name (=, &&=, ||=, ??=, a
# destructuring assignment's default too), takes that name; a member target, a
# parenthesised name, a comma or a conditional around it gives none. flowctx named none
# (and refused the destructuring-assignment default).
NAMED_ARROWS = [
    "((f = x => x) => f.name)()",
    "(([f = x => 1]) => f.name)([])",
    "(([, g = (a, b) => 1]) => g.name + g.length)([])",
    "Object.fromEntries([['k', x => x]]).k.name",
    "(o => (o.m = x => x, o.m.name))(payload.eo)",
    "(o => (o.m ??= x => x, o.m.name))(payload.eo)",
    "((f) => (f = x => x, f.name))()",
    "((f) => (f ??= x => x, f.name))()",
    "((f) => (f ||= () => 1, f.name))()",
    "((f = 1) => (f &&= () => 1, f.name))()",
    "((f) => ((f) = x => x, f.name))()",
    "((f = payload.f ? x => x : y => y) => f.name)()",
    "((f = (0, x => x)) => f.name)()",
    "((f = (x => x)) => f.name)()",
    "(([[f = x => x]]) => f.name)([[]])",
    "((f = x => x) => f.name)(y => y)",
    "((a, f = () => a) => f.name + f())(5)",
    "((f = x => x, g = f) => g.name)()",
    "((g) => (g = (h = x => x) => h.name, g.name + g()))()",
    "((f = x => x) => JSON.stringify(Object.getOwnPropertyDescriptor(f, 'name')))()",
    "((f = x => x) => f.bind().name)()",
    "((f) => ([f = x => 1] = [], f.name))()",
    "((f) => ([(f) = x => 1] = [], f.name))()",
    "((f, g) => ([f, [g = () => 2]] = [1, []], g.name + g()))()",
    "(o => ([o.k = x => 1] = [], o.k.name))(payload.eo)",
    "((f) => ([f = (0, x => 1)] = [], f.name))()",
]


_NAMED_CASES = [(expr, {"payload": {"eo": {}, "f": 1}}) for expr in NAMED_ARROWS]


def test_named_arrows(batched: MjOracle) -> None:
    cases = _NAMED_CASES
    tally = compare(batched, cases, "mj named arrows")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(cases)


# node 20 answers Number's, BigInt's and Date's toLocale*String and String's localeCompare
# given the locale '' without options from its process's cache: V8 keys the formatter of its
# last such call by the locale as text, and a call without a locale keys it ''. So '' is the
# default locale after a call without one and V8's RangeError in a fresh process: the
# process's history decides, and flowctx refuses it as the host's (it said RangeError). The
# same calls with options, a list [''] or an invalid date do not reach the cache.
CACHED_EMPTY_LOCALE = [
    "(1).toLocaleString('')",
    "(1n).toLocaleString('')",
    "new Date(0).toLocaleString('')",
    "new Date(0).toLocaleDateString('')",
    "'a'.localeCompare('b', '')",
    "[1, 2].toLocaleString('')",
]
UNCACHED_NEIGHBOURS = [
    "(1).toLocaleString('', payload.o)",
    "(1).toLocaleString([''])",
    "new Date(NaN).toLocaleString('')",
    "new Date(0).toLocaleTimeString('', payload.o)",
    "'a'.localeCompare(Symbol(), '')",
    "'a'.localeCompare('b', '', payload.o)",
    "'i'.toLocaleUpperCase('')",
    "new Intl.NumberFormat('').format(1)",
    "(1).toLocaleString(new String(''))",
]


def test_empty_locale_is_the_process_cache(mj_oracle: MjOracle) -> None:
    scope: dict[str, Any] = {"payload": {"o": {}}}
    fresh = [(expr, scope) for expr in CACHED_EMPTY_LOCALE]
    answers = mj_oracle.run(fresh, probe=True, now=NOW.ms)
    for (expr, _), real in zip(fresh, answers, strict=True):
        ours = evaluate(expr, scope, "mj", now=NOW, reveal_secrets=True)
        assert kind(real, ours, expr) == "refused-as-host", (expr, ours.error)
    # after a call without a locale, the same text succeeds in the same process
    primed = mj_oracle.run(
        [("(1).toLocaleString()", scope), ("(1).toLocaleString('')", scope)], probe=True
    )
    assert not answers[0].success and primed[1].success
    tally = compare(mj_oracle, [(expr, scope) for expr in UNCACHED_NEIGHBOURS], "mj '' uncached")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(UNCACHED_NEIGHBOURS)


# An object whose primitive is a BigInt (its valueOf, its Symbol.toPrimitive, a BigInt
# wrapper) is a BigInt to the operators: ToPrimitive (or ToNumeric) of each operand first,
# left to right and once each, then the BigInt rules; Number() of it converts the BigInt.
# flowctx applied the BigInt rules only to operands that were BigInts already (it said
# "Cannot convert a BigInt value to a number", concatenated '[object Object]', gave the
# string hint, or called valueOf twice in ==).
_COUNTED = "(o => (o.valueOf = () => (o.n = (o.n ?? 0) + 1, {v}), [{op}, o.n].join()))(payload.eo)"
BIGINT_PRIMITIVES = [
    *(
        _COUNTED.format(v=v, op=op)
        for v in ("1n", "'12'", "2")
        for op in (
            "o + 1n",
            "o + 1",
            "o * 2n",
            "o < 2n",
            "o > 1",
            "o == 1n",
            "-o",
            "~o",
            "o + o",
            "o + ''",
            "1n + o",
            "o >>> 1",
        )
    ),
    "Number(Object(2n))",
    "Number(Object.fromEntries([['valueOf', () => 1n]]))",
    "Number(Object.fromEntries([[Symbol.toPrimitive, h => h === 'number' ? 4n : 0]]))",
    "Object.fromEntries([[Symbol.toPrimitive, h => h]]) + 1n",
    "Object.fromEntries([['valueOf', () => '12']]) + 1n",
    "Object.fromEntries([['valueOf', () => Symbol()]]) + 1n",
    "Object(3n) * Object(2n)",
    "Object(3n) < Object(4n)",
    "Object(1n) == 1n",
    "[1n] == 1n",
]
_BIGINT_CASES: list[tuple[str, dict[str, Any]]] = [
    (expr, {"payload": {"eo": {}}}) for expr in BIGINT_PRIMITIVES
]


def test_objects_with_bigint_primitives(batched: MjOracle) -> None:
    tally = compare(batched, _BIGINT_CASES, "mj BigInt primitives")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(_BIGINT_CASES)


# JSON.stringify with a replacer (a function or a property list) still calls each value's
# toJSON, own or inherited, with its key before the replacer sees it, and a property list
# reads each key with Get (an object made on another finds it along its chain). flowctx's
# replacer path skipped every toJSON but a Date's, and read only own keys.
_TO_JSON_K = "Object.fromEntries([['toJSON', k => 'J' + k]])"
_TO_JSON_U = "Object.fromEntries([['a', Object.fromEntries([['toJSON', () => undefined]])]])"
REPLACED_JSON = [
    f"JSON.stringify({value}, {replacer}{space})"
    for value in (
        _TO_JSON_K,
        _TO_JSON_U,
        "[Object.fromEntries([['toJSON', k => k]])]",
        "Object.create(payload.o)",
        "[new Date(0)]",
        "payload.o",
    )
    for replacer in ("(k, v) => v", "(k, v) => v === null ? 'N' : v", "['a', 1, 'a']", "['0', 'b']")
    for space in ("", ", 2")
]
_REPLACED_CASES: list[tuple[str, dict[str, Any]]] = [
    (expr, {"payload": {"o": {"b": 2, "a": 1, "2": "two", "u": None}}}) for expr in REPLACED_JSON
]


def test_json_replacers_call_to_json(batched: MjOracle) -> None:
    tally = compare(batched, _REPLACED_CASES, "mj JSON replacers")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(_REPLACED_CASES)


# JSON.stringify reads toJSON with Get on arrays and functions too (an array's or an arrow's
# own toJSON runs), and a Date's toJSON calls the date's toISOString through Get (its own
# one, whatever it returns). flowctx serialised the array, dropped the function, printed the
# ISO time.
_OWN = "Object.fromEntries"
OWN_JSON_HOOKS = [
    f"JSON.stringify(Object.assign(new Date(0), {_OWN}([['toISOString', () => 'X']])))",
    f"JSON.stringify([Object.assign(new Date(NaN), {_OWN}([['toISOString', () => 'X']]))])",
    f"JSON.stringify(Object.assign(new Date(0), {_OWN}([['toISOString', 5]])))",
    f"JSON.stringify(Object.assign(new Date(0), {_OWN}([['toISOString', () => 1n]])))",
    f"JSON.stringify(Object.assign(new Date(0), {_OWN}([['toISOString', () => payload.o]])))",
    f"JSON.stringify(Object.assign(new Date(0), {_OWN}([['toISOString', () => undefined]])))",
    f"Object.assign(new Date(0), {_OWN}([['toISOString', () => 'X']])).toJSON()",
    f"JSON.stringify(Object.assign(x => x, {_OWN}([['toJSON', () => 'FJ']])))",
    f"JSON.stringify([Object.assign(x => x, {_OWN}([['toJSON', k => k]]))])",
    f"JSON.stringify(Object.assign([1], {_OWN}([['toJSON', () => 'AJ']])))",
    f"JSON.stringify(Object.assign([1], {_OWN}([['toJSON', 5]])))",
    f"JSON.stringify([[2, Object.assign([1], {_OWN}([['toJSON', k => k]]))]])",
    f"JSON.stringify(Object.assign([1], {_OWN}([['toJSON', () => 'AJ']])), (k, v) => v)",
    f"JSON.stringify(Object.assign(x => x, {_OWN}([['toJSON', () => 'FJ']])), null, 2)",
]
_HOOK_CASES: list[tuple[str, dict[str, Any]]] = [
    (expr, {"payload": {"o": {"a": 1}}}) for expr in OWN_JSON_HOOKS
]


def test_json_hooks_of_arrays_functions_dates(batched: MjOracle) -> None:
    tally = compare(batched, _HOOK_CASES, "mj own JSON hooks")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(_HOOK_CASES)


# Array.prototype.toString calls the array's join through Get: an array given its own join
# converts through it (String(), + '', a nested array's join, Number()), and through
# Object.prototype.toString's where that join is no function. flowctx joined the elements.
_JOINED = "Object.assign([1, 2], Object.fromEntries([['join', () => 'J']]))"
OWN_JOIN = [
    f"String({_JOINED})",
    f"{_JOINED} + ''",
    f"[{_JOINED}].join()",
    f"{_JOINED}.toString()",
    f"{_JOINED} == 'J'",
    f"JSON.stringify({_JOINED})",
    "Object.assign([1, 2], Object.fromEntries([['join', 5]])) + ''",
    "String(Object.assign([1, 2], Object.fromEntries([['join', s => 'x' + s]])))",
    "(a => (a.join = () => 'Z', a + '!'))(payload.arr)",
    "(a => (a.join = 7, String(a)))(payload.arr)",
    f"{_JOINED}.join('-')",
    f"String([[1, 2], {_JOINED}])",
    "Number(Object.assign([5], Object.fromEntries([['join', () => '42']])))",
    "Object.assign([1, 2], Object.fromEntries([['join', () => payload.o]])) + ''",
    "[1, 2] + ''",
]
_JOIN_CASES: list[tuple[str, dict[str, Any]]] = [
    (expr, {"payload": {"o": {"a": 1}, "arr": [1, 2]}}) for expr in OWN_JOIN
]


def test_arrays_convert_through_their_join(batched: MjOracle) -> None:
    tally = compare(batched, _JOIN_CASES, "mj own join")
    assert not tally.disagreements, tally.details()
    assert tally.agree == len(_JOIN_CASES)


# test, replace, match, search call a RegExp's exec through Get, so one given its own exec
# runs that instead of its pattern: flowctx matched the pattern, and now refuses by name;
# matchAll and split build a new RegExp (no own exec) and stay exact.
_NO_MATCH = "Object.assign(/a/g, Object.fromEntries([['exec', s => null]]))"
_FAKE = "Object.assign(/a/, Object.fromEntries([['exec', s => ['zz']]]))"
OWN_EXEC = [
    f"{_NO_MATCH}.test('a')",
    f"{_FAKE}.test('b')",
    f"'aaa'.replace({_NO_MATCH}, 'b')",
    f"'bab'.replace({_FAKE}, 'Q')",
    f"'a'.match({_FAKE})",
    f"'a'.match({_NO_MATCH})",
    f"'a'.search({_FAKE})",
    "(r => (r.exec = s => null, r.test('a')))(/a/)",
]
OWN_EXEC_EXACT = [
    f"[...'aa'.matchAll({_NO_MATCH})].length",
    "'a,a'.split(Object.assign(/,/, Object.fromEntries([['exec', s => null]]))).length",
    f"{_FAKE}.exec('q')[0]",
    "Object.assign(/a/, payload.o).test('a')",
]


def test_regexps_with_their_own_exec(mj_oracle: MjOracle) -> None:
    scope: dict[str, Any] = {"payload": {"o": {"a": 1}}}
    cases = [(expr, scope) for expr in OWN_EXEC + OWN_EXEC_EXACT]
    answers = mj_oracle.run(cases, probe=True, now=NOW.ms)
    kinds = [
        kind(real, evaluate(expr, scope, "mj", now=NOW, reveal_secrets=True), expr)
        for (expr, _), real in zip(cases, answers, strict=True)
    ]
    assert kinds == ["refused-not-reproduced"] * len(OWN_EXEC) + ["agree"] * len(OWN_EXEC_EXACT)


class _Batched:
    """The engine's answers to every group above but the last, from one node run (each
    group's own run costs a node start-up): a case not in the batch is run on its own."""

    def __init__(self, oracle: MjOracle, cases: list[tuple[str, dict[str, Any]]]) -> None:
        self.oracle = oracle
        answers = oracle.run(cases, probe=True, now=NOW.ms)
        self.known = {_key(c): a for c, a in zip(cases, answers, strict=True)}

    def run(self, cases: Any, probe: bool = False, now: int | None = None) -> list[Answer]:
        cases = list(cases)
        if all(_key(c) in self.known for c in cases):
            return [self.known[_key(c)] for c in cases]
        return self.oracle.run(cases, probe=probe, now=now)


def _key(case: tuple[str, Any]) -> str:
    return json.dumps(case, sort_keys=True, default=str)


@pytest.fixture(scope="module")
def batched(mj_oracle: MjOracle) -> MjOracle:
    groups = (DROPPED_HOST_KEYS, _ARRAY_PROTOTYPE_CASES, _LOCALE_CASES, _JSON_CASES,
              _STACK_CASES, _JSON_STACK_CASES, _SPREAD_CASES, _CLONE_CASES, _GOPD_CASES,
              _REGEXP_CASES,
              _MADE_CASES, _ITERATOR_CASES, _ENTRIES_CASES, _NAMED_CASES,
              _BIGINT_CASES, _REPLACED_CASES, _HOOK_CASES, _JOIN_CASES)  # fmt: skip
    return cast(MjOracle, _Batched(mj_oracle, [c for group in groups for c in group]))
