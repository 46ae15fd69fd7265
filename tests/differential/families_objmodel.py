"""Generator families for the object model (issue 36): the built-in prototypes as values, their
methods called on them and on other values, the prototype chain (``isPrototypeOf``,
``instanceof``, ``__proto__`` read through a computed key), and built-in methods called on
values of another kind; their error texts are compared too.

MemberJunction refuses the words ``constructor`` / ``prototype`` and braces in the text, so a
prototype is reached through ``Object.getPrototypeOf`` / ``Reflect.getPrototypeOf``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Case = tuple[str, dict[str, Any]]


def _scope() -> dict[str, Any]:
    payload = {"o": {"a": 1}, "arr": [1, 2, 3], "s": "ab", "n": 5, "eo": {}, "t": True}
    return {"payload": payload, "data": {}, "context": {}, "stepResult": None}


#: values whose prototype is read, each kind of built-in and a few of their own prototypes
HOLDERS = ["[]", "payload.arr", "''", "payload.s", "0", "1.5", "true", "payload.o", "payload.eo",
           "x => x", "Math.max", "new Date(0)", "/a/g", "new Map()", "new Set()",
           "new WeakMap()", "new WeakSet()", "new WeakRef(payload.o)", "Symbol('d')", "1n",
           "Object(Symbol('w'))",
           "new Error('e')",
           "new TypeError('t')", "new RangeError()", "Object(1)", "Object('s')", "Object(false)",
           "Math", "JSON", "Reflect", "Array", "TypeError", "Error", "Object.create(null)",
           "Object.create(payload.o)"]  # fmt: skip
GETTERS = ["Object.getPrototypeOf({h})", "Reflect.getPrototypeOf({h})",
           "Object.getPrototypeOf(Object.getPrototypeOf({h}))",
           "(payload.p = '__pro' + 'to__', ({h})[payload.p])"]  # fmt: skip
USES = ["String({p})", "JSON.stringify({p})", "typeof {p}", "{p} === null",
        "Object.getOwnPropertyNames({p}).join()", "Object.keys({p}).length",
        "toString.call({p})", "payload.eo.toString.call({p})", "[{p}] + ''",
        "Number({p})", "{p} + 1", "!!{p}", "{p} instanceof Object", "{p} instanceof Array",
        "{p} instanceof Map", "{p} instanceof Error", "payload.eo.isPrototypeOf.call({p}, {h})",
        "'map' in {p}", "'toString' in {p}", "({p}).hasOwnProperty('toString')",
        "({p}).hasOwnProperty('length')", "Object.getOwnPropertyNames({p}).length",
        "Object.getPrototypeOf({p}) === Object.getPrototypeOf(payload.eo)",
        "({p}).length", "({p}).name", "({p}).message", "({p}).source", "({p}).flags",
        "({p}).global", "({p}).size", "({p}).description", "String(({p}).valueOf())",
        "({p}).toString()", "JSON.stringify(Object.entries({p}))",
        "Object.getOwnPropertyDescriptor({p}, 'length') === undefined",
        "Object.isExtensible({p})", "Object.isFrozen({p})"]  # fmt: skip


def _protos(r: random.Random) -> Case:
    h = r.choice(HOLDERS)
    p = r.choice(GETTERS).replace("{h}", h)
    return r.choice(USES).replace("{p}", p).replace("{h}", h), _scope()


#: each prototype's methods, read from it and called on it or on another value
METHODS: dict[str, list[str]] = {
    "[]": ["at(0)", "concat([1])", "join('-')", "slice()", "indexOf(1)", "includes(undefined)",
           "map(x => x)", "filter(x => x)", "keys().next().done", "toString()", "flat()",
           "push()", "pop()", "reverse()", "sort()", "fill(1)", "unshift()", "splice(0, 0)",
           "shift()", "copyWithin(0, 1)", "toReversed()", "with(0, 1)", "some(x => x)", "length"],
    "''": ["at(0)", "toUpperCase()", "concat('x')", "padStart(3, '*')", "split('')", "length",
           "toString()", "valueOf()", "charCodeAt(0)", "trimStart()", "bold()", "repeat(2)"],
    "0": ["toFixed(2)", "toString(2)", "valueOf()", "toPrecision(3)", "toExponential()"],
    "true": ["toString()", "valueOf()"],
    "payload.eo": ["toString()", "valueOf() === undefined", "hasOwnProperty('valueOf')",
                   "propertyIsEnumerable('toString')", "isPrototypeOf([])",
                   "isPrototypeOf(payload.eo)", "__lookupGetter__('x')", "toLocaleString()"],
    "(x => x)": ["toString()", "call()", "apply(null, [1])", "bind(null)()", "length", "name",
                 "call(1) === undefined"],
    "new Date(0)": ["getTime()", "toISOString()", "valueOf()", "toString()", "setDate(1)",
                    "getYear()", "toJSON()", "toGMTString()", "toLocaleDateString()"],
    "/a/g": ["exec('a')", "test('a')", "toString()", "source", "flags", "global", "sticky"],
    "new Map()": ["get(1)", "has(1)", "set(1, 2)", "size", "keys()", "forEach(x => x)"],
    "new Set()": ["has(1)", "add(1)", "keys()", "size"],
    "new WeakMap()": ["get(payload.o)", "has(payload.o)"],
    "new WeakRef(payload.o)": ["deref()", "deref().a"],
    "Symbol('d')": ["toString()", "valueOf()", "description"],
    "1n": ["toString()", "valueOf()", "toLocaleString()"],
    "new TypeError('x')": ["name", "message", "toString()"],
    "new Error('x')": ["name", "message", "toString()"],
}  # fmt: skip
OTHERS = ["payload.arr", "payload.s", "payload.n", "payload.o", "new Date(5)", "/b/y",
          "new Map([[1, 2]])", "new Set([1])", "2n", "new RangeError('r')",
          "undefined", "null", "Object(3)", "Object('xy')", "x => x", "true"]  # fmt: skip
CALL_FORMS = ["{P}.{m}", "({P}.{name}).call({o}{rest})", "String({P}.{m})",
              "JSON.stringify({P}.{m})", "typeof {P}.{m}", "{P}.{name} === {v}.{name}",
              "Reflect.apply({P}.{name}, {o}, [{args}])"]  # fmt: skip


_WRITES = frozenset({"push", "pop", "shift", "unshift", "splice", "reverse", "sort", "fill",
                     "copyWithin"})  # fmt: skip


def _calls(r: random.Random) -> Case:
    v = r.choice(sorted(METHODS))
    m = r.choice(METHODS[v])
    name, _, tail = m.partition("(")
    args = tail[:-1].split(").")[0] if tail else ""
    form = r.choice(CALL_FORMS)
    if name in _WRITES and "{o}" in form:
        form = "{P}.{m}"  # Array.prototype's writes on other objects: the sweep's
    if "(" not in m and form not in ("{P}.{m}", "String({P}.{m})", "typeof {P}.{m}"):
        form = "{P}.{m}"
    text = (
        form.replace("{P}", f"Object.getPrototypeOf({v})")
        .replace("{m}", m)
        .replace("{name}", name)
        .replace("{o}", r.choice(OTHERS))
        .replace("{rest}", f", {args}" if args else "")
        .replace("{args}", args)
        .replace("{v}", v)
    )
    return text, _scope()


#: the chain: isPrototypeOf and instanceof between every kind of value and prototype
CHAIN_VALUES = ["[]", "''", "Object('')", "0", "Object(0)", "payload.o", "x => x", "Math.max",
                "new Date(0)", "/a/", "new Map()", "new TypeError()", "Object.create(null)",
                "Object.create(payload.o)", "Object.create(Object.create(payload.o))", "Math",
                "Object.create(payload.arr)", "Object.create(Object.getPrototypeOf(payload.o))",
                "Array", "TypeError", "undefined", "null", "1n", "Symbol()"]  # fmt: skip
CHAIN_FORMS = ["Object.getPrototypeOf({a}).isPrototypeOf({b})",
               "payload.eo.isPrototypeOf.call({a}, {b})",
               "Object.getPrototypeOf(Object.getPrototypeOf({a})).isPrototypeOf({b})",
               "{b} instanceof Object", "{b} instanceof Array", "{b} instanceof Error",
               "(payload.eo.isPrototypeOf || 0)({b})", "(true.valueOf || 0)({b})",
               "(payload.eo.isPrototypeOf)['call']({a}, {b})"]  # fmt: skip


def _chain(r: random.Random) -> Case:
    form = r.choice(CHAIN_FORMS)
    return form.replace("{a}", r.choice(CHAIN_VALUES)).replace(
        "{b}", r.choice(CHAIN_VALUES)
    ), _scope()


#: own properties of the functions a condition makes (arrows, bound functions): ordinary
#: objects; the host's built-ins are never written (the engine's process would keep the change)
FUNCTIONS = ["x => x", "(a, b) => a + b", "(x => x).bind(null)", "(() => 1).bind(null, 2)"]
FN_STEPS = ["{f}.a = 1", "{f}.b = 'x'", "{f}['0'] = 2", "{f}.call = 5", "{f}.name = 'n'",
            "{f}.length = 3", "Object.freeze({f})", "Object.seal({f})",
            "Object.preventExtensions({f})", "delete {f}.a",
            "Reflect.set({f}, 'c', 3)", "Reflect.set({f}, 'name', 3)",
            "Reflect.deleteProperty({f}, 'a')", "Object.assign({f}, payload.o)"]  # fmt: skip
FN_READS = ["Object.keys({f}).join()", "Object.getOwnPropertyNames({f}).join()", "{f}.a",
            "{f}.call", "typeof {f}.call", "{f}.name", "{f}.length", "{f}(1)",
            "Object.hasOwn({f}, 'a')", "({f}).hasOwnProperty('b')", "'a' in {f}",
            "JSON.stringify(Object.getOwnPropertyDescriptor({f}, 'a'))",
            "JSON.stringify(Object.entries({f}))", "JSON.stringify(Object.assign(payload.eo, {f}))",
            "Object.isFrozen({f})", "Object.isSealed({f})", "JSON.stringify(Reflect.ownKeys({f}))",
            "({f}).propertyIsEnumerable('a')", "JSON.stringify([{f}])"]  # fmt: skip


def _fnprops(r: random.Random) -> Case:
    f = "payload.f"
    steps = [r.choice(FN_STEPS) for _ in range(r.randint(0, 3))]
    body = ", ".join([f"{f} = {r.choice(FUNCTIONS)}", *steps, r.choice(FN_READS)])
    return f"({body})".replace("{f}", f), _scope()


#: changing a prototype: every kind of object given every kind of prototype, then read
TARGETS = ["payload.o", "payload.arr", "new Date(0)", "/a/g", "x => x", "new Map([[1, 2]])",
           "new Set([1])", "Object(1)", "Object('ab')", "new TypeError('t')",
           "Object.create(payload.o)", "Object.create(null)", "(x => x).bind(null)",
           "Object.create(Object.getPrototypeOf([]))", "1", "'s'"]  # fmt: skip
NEW_PROTOS = ["null", "payload.o", "payload.arr", "Object.getPrototypeOf([])",
              "Object.getPrototypeOf(payload.eo)", "Object.getPrototypeOf(new Date(0))",
              "Object.getPrototypeOf(new Map())", "Object.getPrototypeOf(new Set())",
              "Object.getPrototypeOf(/a/)", "Object.getPrototypeOf(1)", "Object.getPrototypeOf('')",
              "Object.getPrototypeOf(x => x)", "Object.getPrototypeOf(new RangeError())",
              "x => 1", "Object.create(payload.o)", "Object.create(Object.getPrototypeOf([]))",
              "1", "undefined", "payload.t"]  # fmt: skip
SETTERS = [
    "Object.setPrototypeOf(payload.t, payload.p)",
    "String(Reflect.setPrototypeOf(payload.t, payload.p))",
    "(Object.preventExtensions(payload.t), Reflect.setPrototypeOf(payload.t, payload.p))",
    "(Object.preventExtensions(payload.t), Object.setPrototypeOf(payload.t, payload.p))",
    "Reflect.setPrototypeOf(payload.t, Object.create(payload.t))",
    "Object.setPrototypeOf(payload.t, Object.create(Object.create(payload.t)))",
]
# (a built-in prototype is never the object changed: node's process would keep the change)
READS = ["String(payload.t)", "JSON.stringify(payload.t)", "payload.t + 1", "typeof payload.t",
         "JSON.stringify([...payload.t])", "Math.max(...payload.t)", "(([a]) => a)(payload.t)",
         "new Set(payload.t).size", "JSON.stringify(Object.fromEntries(payload.t))",
         "([payload.a] = payload.t, payload.a)", "JSON.stringify(Array.from(payload.t))",
         "Array.isArray(payload.t)", "payload.t.length", "payload.t.size", "payload.t.source",
         "payload.t.flags", "payload.t.toString()", "typeof payload.t.map", "payload.t.a",
         "typeof payload.t.getTime", "toString.call(payload.t)", "payload.t instanceof Array",
         "payload.t instanceof Object", "payload.t instanceof Map", "payload.t instanceof Date",
         "Object.getPrototypeOf(payload.t) === payload.p", "Object.keys(payload.t).join()",
         "payload.t.hasOwnProperty('0')", "'map' in payload.t", "'a' in payload.t",
         "payload.t.valueOf() === payload.t", "payload.t.getTime()", "payload.t.push(9)",
         "payload.t.get(1)", "payload.t.has(1)", "payload.t.name", "payload.t.message",
         "payload.t(1)", "payload.t.call(null, 2)", "payload.t.join('-')", "payload.t[0]",
         "payload.p.isPrototypeOf(payload.t)", "Number(payload.t)", "[payload.t] + ''",
         "payload.t.exec('a')", "String(payload.t.map(x => x))", "payload.t.toFixed(1)",
         "Object.getOwnPropertyNames(payload.t).join()", "payload.t.at(0)"]  # fmt: skip


def _setproto(r: random.Random) -> Case:
    steps = [f"payload.t = {r.choice(TARGETS)}", f"payload.p = {r.choice(NEW_PROTOS)}",
             r.choice(SETTERS), r.choice(READS)]  # fmt: skip
    if r.random() < 0.3:
        steps.pop()
    return "(" + ", ".join(steps) + ")", _scope()


#: property descriptors of plain and created objects, and the accessors of __defineGetter__
HOLDERS_D = ["payload.o", "Object.create(payload.o)", "Object.create(null)",
             "Object.preventExtensions(payload.o)", "Object.seal(payload.o)",
             "Object.freeze(payload.o)"]  # fmt: skip
DESC_FIELDS = ["payload.d.value = 3", "payload.d.value = undefined", "payload.d.writable = true",
               "payload.d.writable = 0", "payload.d.enumerable = true",
               "payload.d.enumerable = false", "payload.d.configurable = true",
               "payload.d.configurable = ''", "payload.d.get = () => 7",
               "payload.d.set = v => payload.got = v", "payload.d.get = undefined",
               "payload.d.get = 1", "payload.d.set = 'x'"]  # fmt: skip
DEFINES = ["Object.defineProperty(payload.h, {k}, payload.d)",
           "String(Reflect.defineProperty(payload.h, {k}, payload.d))",
           "Object.defineProperties(payload.h, Object.fromEntries([[{k}, payload.d]]))",
           "payload.h.__defineGetter__({k}, () => 5)",
           "payload.h.__defineSetter__({k}, v => payload.got = v)",
           "payload.h.__defineGetter__({k}, 1)",
           "(payload.h = Object.create(payload.h, "
           "Object.fromEntries([[{k}, payload.d]])))"]  # fmt: skip
D_KEYS = ["'x'", "'a'", "'0'", "'y'"]
D_READS = ["JSON.stringify(Object.keys(payload.h))",
           "JSON.stringify(Object.getOwnPropertyNames(payload.h))", "JSON.stringify(payload.h)",
           "JSON.stringify(Object.entries(payload.h))", "payload.h.{kk}", "payload.h[{k}]",
           "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, {k}))",
           "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h))",
           "typeof Object.getOwnPropertyDescriptor(payload.h, {k})?.get",
           "(payload.h[{k}] = 9, payload.h[{k}])", "delete payload.h[{k}]",
           "String(Reflect.deleteProperty(payload.h, {k}))",
           "String(Reflect.set(payload.h, {k}, 1))",
           "Object.isFrozen(payload.h)", "Object.isSealed(payload.h)",
           "Object.isExtensible(payload.h)", "{k} in payload.h",
           "Object.hasOwn(payload.h, {k})", "payload.h.propertyIsEnumerable({k})",
           "JSON.stringify(Object.assign(payload.eo, payload.h))",
           "(payload.c = Object.create(payload.h), payload.c[{k}] = 4, JSON.stringify(payload.c))",
           "typeof payload.h.__lookupGetter__({k})", "typeof payload.h.__lookupSetter__({k})",
           "(payload.h[{k}] = 6, payload.got)", "JSON.stringify(structuredClone(payload.h))",
           "String(Object.freeze(payload.h)[{k}])",
           "(payload.c = Object.create(null), String(Reflect.set(payload.h, {k}, 2, payload.c)) + "
           "JSON.stringify(Object.getOwnPropertyDescriptor(payload.c, {k})))",
           "(payload.c = Object.freeze(Object.create(null)), String(Reflect.set(payload.h, {k}, 2, "
           "payload.c)) + payload.got)",
           "(String(Reflect.set(payload.h, {k}, 2, payload.arr)) + JSON.stringify(payload.arr))",
           "String(Reflect.set(payload.h, {k}, 2, 1))"]  # fmt: skip


def _descriptors(r: random.Random) -> Case:
    k = r.choice(D_KEYS)
    kk = k.strip("'") if k.strip("'").isidentifier() else "x"
    steps = [f"payload.h = {r.choice(HOLDERS_D)}", "payload.d = payload.eo"]
    steps += [r.choice(DESC_FIELDS) for _ in range(r.randint(0, 3))]
    steps += [r.choice(DEFINES).replace("{k}", k) for _ in range(r.randint(1, 2))]
    if r.random() < 0.3:  # the descriptor object is drawn again for a second definition
        steps += ["payload.d = Object.create(null)", r.choice(DESC_FIELDS),
                  r.choice(DEFINES).replace("{k}", k)]  # fmt: skip
    steps.append(r.choice(D_READS).replace("{kk}", kk).replace("{k}", k))
    scope = _scope()
    return "(" + ", ".join(steps) + ")", scope


#: symbol-keyed properties of a condition's objects and the well-known symbols it installs
SYM_HOLDERS = ["payload.o", "Object.create(payload.o)", "Object.create(null)", "x => x",
               "Object.freeze(payload.o)", "Object.preventExtensions(payload.o)", "payload.arr",
               "[]", "Object.seal(payload.arr)", "[1, , 3]"]  # fmt: skip
SYM_KEYS = ["payload.s", "Symbol.iterator", "Symbol.toPrimitive", "Symbol.toStringTag",
            "Symbol.hasInstance", "Symbol.for('r')", "Symbol('k')",
            "Symbol.isConcatSpreadable"]  # fmt: skip
SYM_VALUES = ["1", "'Tag'", "h => h", "h => 42", "h => payload.arr", "() => [1, 2].values()",
              "() => payload.it", "x => x === 1", "undefined", "() => 'p'"]  # fmt: skip
SYM_STEPS = ["payload.h[{k}] = {v}", "delete payload.h[{k}]",
             "Object.defineProperty(payload.h, {k}, payload.eo)",
             "String(Reflect.defineProperty(payload.h, {k}, payload.eo))",
             "String(Reflect.set(payload.h, {k}, {v}))",
             "payload.h.__defineGetter__({k}, () => 5)"]  # fmt: skip
SYM_READS = ["String(payload.h[{k}])", "typeof payload.h[{k}]", "{k} in payload.h",
             "payload.h.hasOwnProperty({k})", "Object.hasOwn(payload.h, {k})",
             "Object.getOwnPropertySymbols(payload.h).map(String).join()",
             "Reflect.ownKeys(payload.h).map(String).join()", "JSON.stringify(payload.h)",
             "Object.keys(payload.h).join()",
             "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, {k}))",
             "String(payload.h)", "payload.h + 1", "+payload.h", "toString.call(payload.h)",
             "[...payload.h].join()", "Array.from(payload.h).length", "1 instanceof payload.h",
             "(payload.h.length = 2, payload.h[1] = 'b', JSON.stringify([0].concat(payload.h)))",
             "payload.h.propertyIsEnumerable({k})",
             "Object.assign(payload.eo, payload.h)[{k}] === payload.h[{k}]",
             "Object.getOwnPropertySymbols(Object.getPrototypeOf({p})).map(String).join()",
             "JSON.stringify([[0].concat(payload.h), new Set(payload.h).size])",
             "JSON.stringify(Object.getOwnPropertySymbols(payload.h).map(s => "
             "Object.getOwnPropertyDescriptor(payload.h, s)))",
             "String(Object.getPrototypeOf({p})[Symbol.toStringTag])",
             "{p}[Symbol.iterator] === {p}.values", "typeof {p}[Symbol.iterator]"]  # fmt: skip
SYM_PROTOS = ["[]", "new Map()", "new Set()", "''", "Math", "payload.o", "1n", "x => x"]


def _symkeys(r: random.Random) -> Case:
    steps = ["payload.s = Symbol('s')", f"payload.h = {r.choice(SYM_HOLDERS)}",
             "payload.i = 0", "payload.it = Object.create(null)",
             "payload.it.next = () => payload.i < 2 ? Object.fromEntries([['value', payload.i++], "
             "['done', false]]) : Object.fromEntries([['done', true]])"]  # fmt: skip
    for _ in range(r.randint(1, 3)):
        step = r.choice(SYM_STEPS).replace("{k}", r.choice(SYM_KEYS))
        steps.append(step.replace("{v}", r.choice(SYM_VALUES)))
    read = r.choice(SYM_READS).replace("{k}", r.choice(SYM_KEYS))
    steps.append(read.replace("{p}", r.choice(SYM_PROTOS)))
    return "(" + ", ".join(steps) + ")", _scope()


#: descriptors on arrays: ArraySetLength, elements, named keys and the length defined with
#: any attributes, then every operation that writes, deletes, lists or locks them
ARRAY_HOLDERS = ["payload.arr", "Object.freeze(payload.arr)", "Object.seal(payload.arr)",
                 "Object.preventExtensions(payload.arr)", "[1, , 3]", "[]",
                 "[3, 1, 2, 0]"]  # fmt: skip
ARRAY_KEYS = ["'length'", "'0'", "'1'", "'2'", "'5'", "'x'"]
ARRAY_FIELDS = ["payload.d.value = 1", "payload.d.value = 5", "payload.d.value = -1",
                "payload.d.value = '2'", "payload.d.value = 1.5", "payload.d.value = 0",
                "payload.d.enumerable = true", "payload.d.configurable = true",
                "payload.d.writable = true", "payload.d.get = () => 1",
                "payload.d.writable = payload.d.enumerable = payload.d.configurable = true",
                "payload.d.enumerable = false", "payload.d.writable = false",
                "payload.d.configurable = false", "payload.d.value = 2",
                "payload.d.writable = payload.d.enumerable = true"]  # fmt: skip
ARRAY_OPS = ["payload.h.push(7)", "payload.h.pop()", "payload.h.shift()", "payload.h.unshift(8)",
             "payload.h.splice(1, 1)", "payload.h.splice(0, 0, 4)", "payload.h.sort()",
             "payload.h.sort((a, b) => b - a)", "payload.h.reverse()", "payload.h.fill(6, 1)",
             "payload.h.fill(0)", "payload.h.copyWithin(0, 1)", "payload.h.length = 1",
             "payload.h.length = 0", "payload.h.length = 6", "payload.h[0] = 9",
             "payload.h[1] = 9", "payload.h[4] = 9", "payload.h.x = 3", "delete payload.h[1]",
             "delete payload.h.x", "String(Reflect.set(payload.h, '1', 4))",
             "String(Reflect.set(payload.h, 'length', 0))",
             "String(Reflect.deleteProperty(payload.h, '0'))", "Object.freeze(payload.h)",
             "Object.seal(payload.h)", "Object.preventExtensions(payload.h)",
             "String(Reflect.defineProperty(payload.h, '1', payload.d))",
             "String(Reflect.defineProperty(payload.h, 'length', payload.d))"]  # fmt: skip
ARRAY_READS = ["JSON.stringify(payload.h)", "payload.h.length",
               "JSON.stringify(Object.keys(payload.h))",
               "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, {k}))",
               "payload.h.x", "String(payload.h)",
               "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h))",
               "JSON.stringify([Object.values(payload.h), Object.entries(payload.h)])",
               "JSON.stringify([...payload.h])", "payload.h.join('|')",
               "JSON.stringify(Object.assign(Object.create(null), payload.h))",
               "String([Object.isFrozen(payload.h), Object.isSealed(payload.h), "
               "Object.isExtensible(payload.h)])", "payload.h.propertyIsEnumerable({k})",
               "JSON.stringify(Object.getOwnPropertyNames(payload.h))",
               "JSON.stringify(payload.h.map(x => x))", "payload.h.indexOf(2)"]  # fmt: skip


def _arraydesc(r: random.Random) -> Case:
    k = r.choice(ARRAY_KEYS)
    steps = [f"payload.h = {r.choice(ARRAY_HOLDERS)}", "payload.d = Object.create(null)"]
    steps += [r.choice(ARRAY_FIELDS) for _ in range(r.randint(0, 2))]
    define = r.choice(["Object.defineProperty(payload.h, {k}, payload.d)",
                       "String(Reflect.defineProperty(payload.h, {k}, payload.d))"])  # fmt: skip
    steps.append(define.replace("{k}", k))
    if r.random() < 0.4:  # a second property defined another way
        steps += ["payload.d = Object.create(null)", r.choice(ARRAY_FIELDS),
                  define.replace("{k}", r.choice(ARRAY_KEYS))]  # fmt: skip
    steps += [r.choice(ARRAY_OPS) for _ in range(r.randint(0, 2))]
    steps.append(r.choice(ARRAY_READS).replace("{k}", k))
    return "(" + ", ".join(steps) + ")", _scope()


#: accessors on arrays' elements: getters and setters that log each call, then every
#: operation that reads, copies or writes the elements (their calls' order is compared too)
EA_HOLDERS = ["[1, 2, 3]", "payload.arr", "[1, , 3]", "[3, 1, 2, 0]", "[]", "[[1, 2], 3, [4]]",
              "Object.seal([1, 2, 3])", "['b', undefined, 'a']"]  # fmt: skip
EA_KEYS = ["'0'", "'1'", "'2'", "'4'", "0", "'x'"]
EA_GETTERS = ["() => (payload.log.push('g{n}'), ++payload.c)", "() => 'g'", "() => undefined",
              "() => [7, 8]", "() => (payload.log.push('g{n}'), payload.c)",
              "() => payload.h.length", "() => (payload.h.length = 1, 'cut')"]  # fmt: skip
EA_SETTERS = ["v => payload.log.push('s{n}:' + v)", "v => (payload.c = v)",
              "v => payload.log.push(typeof v)"]  # fmt: skip
EA_FIELDS = ["payload.d.configurable = true", "payload.d.enumerable = true",
             "payload.d.configurable = payload.d.enumerable = true",
             "payload.d.enumerable = false"]  # fmt: skip
EA_DEFINES = [
    "Object.defineProperty(payload.h, {k}, payload.d)",
    "String(Reflect.defineProperty(payload.h, {k}, payload.d))",
    "Object.defineProperties(payload.h, Object.fromEntries([[{k}, payload.d]]))",
]
EA_OPS = ["payload.h.map(x => x)", "payload.h.filter(x => x)",
          "payload.h.forEach(x => payload.log.push('f' + x))", "payload.h.some(x => x === 2)",
          "payload.h.every(x => x)", "payload.h.find(x => x === 2)",
          "payload.h.findIndex(x => x === 2)", "payload.h.findLast(x => x)",
          "payload.h.findLastIndex(x => x === 1)", "payload.h.reduce((a, b) => a + b)",
          "payload.h.reduceRight((a, b) => a + b, '')", "payload.h.flatMap(x => [x, x])",
          "payload.h.flat()", "payload.h.slice(1)", "payload.h.slice()", "payload.h.concat([9])",
          "[0].concat(payload.h)", "payload.h.includes(2)", "payload.h.includes(undefined)",
          "payload.h.indexOf(3)", "payload.h.lastIndexOf(1)", "payload.h.at(-1)",
          "payload.h.at(0)", "payload.h.join('-')", "String(payload.h)", "payload.h + ''",
          "payload.h.toString()", "payload.h.toReversed()", "payload.h.toSorted()",
          "payload.h.toSpliced(1, 1)", "payload.h.with(1, 'w')", "payload.h.sort()",
          "payload.h.sort((a, b) => b - a)", "payload.h.reverse()", "payload.h.push(5)",
          "payload.h.pop()", "payload.h.shift()", "payload.h.unshift(0)",
          "payload.h.splice(1, 1, 'n')", "payload.h.splice(0)", "payload.h.fill(4, 1)",
          "payload.h.copyWithin(0, 1)", "[...payload.h]", "Array.from(payload.h)",
          "Array.from(payload.h, x => x)", "Object.values(payload.h)",
          "Object.entries(payload.h)", "Object.keys(payload.h)",
          "Object.assign(Object.create(null), payload.h)", "Object.assign([], payload.h)",
          "Math.max(...payload.h)", "new Set(payload.h).size", "payload.h.length",
          "payload.h[0]", "payload.h[1]", "payload.h[0] = 'x'", "payload.h[1] = 'x'",
          "payload.h.length = 1", "payload.h.length = 0", "delete payload.h[0]",
          "(([a, b]) => [a, b])(payload.h)", "(([a, ...b]) => b)(payload.h)",
          "structuredClone(payload.h)", "Object.getOwnPropertyDescriptor(payload.h, '0')",
          "Object.getOwnPropertyDescriptors(payload.h)", "payload.h.toLocaleString()",
          "Object.freeze(payload.h)", "Object.isFrozen(Object.freeze(payload.h))",
          "Object.isSealed(Object.seal(payload.h))", "payload.h == '1,2,3'",
          "Array.prototype.map.call(payload.h, x => x)", "Reflect.get(payload.h, '0')",
          "Reflect.set(payload.h, '0', 5)", "Reflect.ownKeys(payload.h)", "'0' in payload.h",
          "payload.h.hasOwnProperty('0')", "Reflect.deleteProperty(payload.h, '0')",
          "payload.h.propertyIsEnumerable('0')", "JSON.stringify(payload.h)",
          "payload.h.x", "payload.h.x = 1", "Object.entries(Object.fromEntries([payload.h]))",
          "Array.isArray(payload.h)", "payload.h.keys().next().value",
          "payload.h.values().next().value", "payload.h.entries().next().value",
          "payload.h.__lookupGetter__('0')", "payload.h.__lookupSetter__('0')",
          "Object.setPrototypeOf(payload.h, null) === payload.h",
          "Object.fromEntries(payload.h.map((x, i) => [i, x]))",
          "payload.h.toSorted((a, b) => a > b ? -1 : 1)"]  # fmt: skip


def _element_accessors(r: random.Random) -> Case:
    steps = [f"payload.h = {r.choice(EA_HOLDERS)}", "payload.c = 0", "payload.log = []"]
    for n in range(r.randint(1, 2)):
        k = r.choice(EA_KEYS)
        steps.append("payload.d = Object.create(null)")
        roll = r.random()
        if roll < 0.8:
            steps.append("payload.d.get = " + r.choice(EA_GETTERS).replace("{n}", str(n)))
        if roll > 0.5:
            steps.append("payload.d.set = " + r.choice(EA_SETTERS).replace("{n}", str(n)))
        steps += [r.choice(EA_FIELDS) for _ in range(r.randint(0, 1))]
        steps.append(r.choice(EA_DEFINES).replace("{k}", k))
    if r.random() < 0.2:
        steps.append(r.choice(EA_OPS))
    steps.append(f"payload.r = {r.choice(EA_OPS)}")
    steps.append("JSON.stringify([payload.r, payload.log, payload.c])")
    return "(" + ", ".join(steps) + ")", _scope()


#: property descriptors on objects of the built-in classes whose own properties are all the
#: condition's: a Date, a Map, a Set, a Number or Boolean object
BP_HOLDERS = ["new Date(0)", "new Map([[1, 2]])", "new Set([1])", "new Number(5)",
              "new Boolean(false)", "Object(2)", "new Date(NaN)", "/a/g", "new String('ab')",
              "Object('xyz')"]  # fmt: skip
BP_KEYS = ["'x'", "'y'", "'size'", "'0'", "'toJSON'", "'valueOf'", "'lastIndex'", "'length'",
           "'5'", "Symbol.toPrimitive",
           "Symbol.iterator", "Symbol.toStringTag", "Symbol.for('s')"]  # fmt: skip
BP_FIELDS = ["payload.d.value = 1", "payload.d.value = 'v'", "payload.d.enumerable = true",
             "payload.d.writable = true", "payload.d.configurable = true",
             "payload.d.get = () => (payload.log.push('g'), 7)",
             "payload.d.set = v => payload.log.push('s' + v)",
             "payload.d.value = () => 9"]  # fmt: skip
BP_STEPS = ["payload.h.x = 3", "payload.h[{k}] = 4", "delete payload.h.x",
            "delete payload.h[{k}]", "Object.freeze(payload.h)", "Object.seal(payload.h)",
            "String(Reflect.set(payload.h, {k}, 5))",
            "String(Reflect.deleteProperty(payload.h, {k}))"]  # fmt: skip
BP_READS = ["JSON.stringify(Object.keys(payload.h))", "String(payload.h[{k}])",
            "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, {k}))",
            "JSON.stringify(Object.getOwnPropertyNames(payload.h))",
            "JSON.stringify(Object.entries(payload.h))", "JSON.stringify(payload.h)",
            "JSON.stringify(Object.assign(Object.create(null), payload.h))",
            "payload.h.hasOwnProperty({k})", "payload.h.propertyIsEnumerable({k})",
            "{k} in payload.h", "String(payload.h)", "payload.h + 1",
            "JSON.stringify(Object.getOwnPropertyDescriptors(payload.h))",
            "String([Object.isFrozen(payload.h), Object.isSealed(payload.h)])",
            "JSON.stringify({{...payload.h}})", "JSON.stringify(structuredClone(payload.h))",
            "typeof payload.h[{k}]", "Object.getOwnPropertySymbols(payload.h).map(String).join()",
            "toString.call(payload.h)", "JSON.stringify([...payload.h])", "payload.h + ''",
            "Reflect.ownKeys(payload.h).map(String).join()",
            "String(Object.assign(Object.create(null), payload.h)[{k}])"]  # fmt: skip


def _builtin_props(r: random.Random) -> Case:
    k = r.choice(BP_KEYS)
    steps = [f"payload.h = {r.choice(BP_HOLDERS)}", "payload.log = []"]
    for _ in range(r.randint(1, 2)):
        steps.append("payload.d = Object.create(null)")
        steps += [r.choice(BP_FIELDS) for _ in range(r.randint(0, 2))]
        define = r.choice(EA_DEFINES[:2])
        steps.append(define.replace("{k}", r.choice([k, r.choice(BP_KEYS)])))
    steps += [r.choice(BP_STEPS).replace("{k}", k) for _ in range(r.randint(0, 2))]
    read = r.choice(BP_READS).replace("{k}", k).replace("{{", "{").replace("}}", "}")
    steps.append(f"payload.r = {read}")
    steps.append("JSON.stringify([payload.r, payload.log])")
    return "(" + ", ".join(steps) + ")", _scope()


#: Proxy: arrow traps on a null-prototype handler (or a handler from the scope), every
#: internal method, the invariants V8 checks, revocation
PROXY_TARGETS = ["payload.o", "payload.arr", "Object.freeze(payload.o)",
                 "Object.preventExtensions(payload.o)", "Object.create(null)", "[]",
                 "Object.seal(payload.arr)"]  # fmt: skip
TRAPS = ["payload.h.get = (t, k) => k === 'a' ? 2 : t[k]", "payload.h.get = () => undefined",
         "payload.h.get = 1", "payload.h.set = () => false", "payload.h.set = () => true",
         "payload.h.set = (t, k, v) => (t[k] = v, true)", "payload.h.has = () => false",
         "payload.h.has = k => true", "payload.h.deleteProperty = () => false",
         "payload.h.deleteProperty = () => true", "payload.h.ownKeys = () => ['b', 'a']",
         "payload.h.ownKeys = () => []", "payload.h.ownKeys = () => 1",
         "payload.h.ownKeys = () => [1]", "payload.h.ownKeys = () => ['a', 'a']",
         "payload.h.getOwnPropertyDescriptor = () => undefined",
         "payload.h.getOwnPropertyDescriptor = () => 1",
         "payload.h.getOwnPropertyDescriptor = (t, k) => Reflect.getOwnPropertyDescriptor(t, k)",
         "payload.h.defineProperty = () => false", "payload.h.getPrototypeOf = () => null",
         "payload.h.getPrototypeOf = () => 1",
         "payload.h.getPrototypeOf = () => Object.getPrototypeOf([])",
         "payload.h.setPrototypeOf = () => false", "payload.h.isExtensible = () => false",
         "payload.h.isExtensible = () => true", "payload.h.preventExtensions = () => false",
         "payload.h.preventExtensions = t => Object.preventExtensions(t) && true",
         "payload.h.get = (t, k) => typeof k"]  # fmt: skip
PROXY_USES = ["payload.p.a", "String(payload.p.zz)", "payload.p.a = 5", "payload.p.length",
              "'a' in payload.p", "delete payload.p.a", "JSON.stringify(Object.keys(payload.p))",
              "JSON.stringify(Object.getOwnPropertyNames(payload.p))",
              "JSON.stringify(Reflect.ownKeys(payload.p))", "JSON.stringify(payload.p)",
              "String(payload.p)", "typeof payload.p", "Array.isArray(payload.p)",
              "toString.call(payload.p)", "payload.p instanceof Array",
              "payload.p instanceof Object", "Object.getPrototypeOf(payload.p) === null",
              "Object.isExtensible(payload.p)", "String(Reflect.preventExtensions(payload.p))",
              "Object.preventExtensions(payload.p) === payload.p",
              "JSON.stringify(Object.getOwnPropertyDescriptor(payload.p, 'a'))",
              "String(Reflect.defineProperty(payload.p, 'n', payload.eo))",
              "Object.defineProperty(payload.p, 'n', payload.eo) === payload.p",
              "String(Reflect.set(payload.p, 'a', 7))",
              "String(Reflect.deleteProperty(payload.p, 'a'))",
              "String(Reflect.setPrototypeOf(payload.p, null))",
              "Object.setPrototypeOf(payload.p, null) === payload.p",
              "payload.p.hasOwnProperty('a')",
              "[...payload.p].join()", "String(payload.p.map(x => x))", "payload.p + ''",
              "JSON.stringify(Object.assign(Object.create(null), payload.p))",
              "(payload.r = Proxy.revocable(payload.o, payload.h), payload.r.revoke(), "
              "typeof payload.r.proxy)",
              "(payload.r = Proxy.revocable(payload.o, payload.h), payload.r.revoke(), "
              "payload.r.proxy.a)", "new Proxy(1, payload.h)", "Proxy(payload.o, payload.h)",
              "JSON.stringify(new Proxy(payload.p, payload.eo))",
              "Object.freeze(payload.p) === payload.p", "Object.seal(payload.p) === payload.p",
              "Object.isFrozen(payload.p)", "Object.isSealed(payload.p)",
              "(Object.freeze(payload.p), JSON.stringify(Object.getOwnPropertyDescriptor("
              "payload.p, 'a')))"]  # fmt: skip


def _proxy(r: random.Random) -> Case:
    steps = ["payload.h = Object.create(null)"]
    steps += [r.choice(TRAPS) for _ in range(r.randint(0, 2))]
    steps += [f"payload.p = new Proxy({r.choice(PROXY_TARGETS)}, payload.h)",
              r.choice(PROXY_USES)]  # fmt: skip
    return "(" + ", ".join(steps) + ")", _scope()


#: Proxy around a function: calls (plain, as a method, with call / apply / bind, Reflect's),
#: callbacks of the array methods, new, and the traps of every other operation
FN_TARGETS = ["x => x * 2", "(a, b) => b - a", "Math.max", "Date", "payload.arr.map", "Number",
              "Error", "Symbol", "(x => x).bind(null, 1)", "Map",
              "new Proxy(x => -x, Object.create(null))", "() => payload.log.push('t')"]  # fmt: skip
FN_TRAPS = ["payload.h.apply = (t, th, a) => (payload.log.push(typeof th), a.length)",
            "payload.h.apply = (t, th, a) => t(...a)", "payload.h.apply = (t, th, a) => th",
            "payload.h.apply = (t, th, a) => Reflect.apply(t, th, a)", "payload.h.apply = 1",
            "payload.h.apply = (t, th, a) => a[1] - a[0]",
            "payload.h.construct = (t, a, nt) => Object.fromEntries([['n', a.length]])",
            "payload.h.construct = (t, a, nt) => 1", "payload.h.construct = (t, a) => new t(...a)",
            "payload.h.construct = (t, a, nt) => [nt === payload.p]",
            "payload.h.get = (t, k) => k === 'name' ? 'nm' : t[k]", "payload.h.get = () => 3",
            "payload.h.has = () => true", "payload.h.set = () => true",
            "payload.h.set = () => false", "payload.h.ownKeys = () => ['q']",
            "payload.h.deleteProperty = () => true",
            "payload.h.getPrototypeOf = () => Object.getPrototypeOf([])",
            "payload.h.getOwnPropertyDescriptor = () => undefined"]  # fmt: skip
FN_USES = ["payload.p(1, 2)", "payload.o.f = payload.p, payload.o.f(1) === payload.o",
           "payload.p.call(payload.o, 1)", "payload.p.apply(payload.o, [1, 2, 3])",
           "payload.p.bind(payload.o, 1)(2)", "Reflect.apply(payload.p, payload.o, [4])",
           "JSON.stringify(payload.arr.map(payload.p))",
           "JSON.stringify(payload.arr.map(payload.p, payload.o))",
           "JSON.stringify(payload.arr.filter(payload.p))",
           "JSON.stringify(payload.arr.slice().sort(payload.p))",
           "payload.arr.reduce(payload.p, 0)", "payload.arr.find(payload.p)",
           "payload.arr.some(payload.p)", "JSON.stringify(Array.from(payload.arr, payload.p))",
           "new payload.p(1, 2)", "JSON.stringify(new payload.p(0))",
           "JSON.stringify(Reflect.construct(payload.p, [0]))", "typeof payload.p",
           "String(payload.p)", "payload.p.name", "payload.p.length", "'x' in payload.p",
           "(payload.p.x = 1, payload.p.x)", "delete payload.p.x",
           "JSON.stringify(Object.keys(payload.p))",
           "JSON.stringify(Object.getOwnPropertyNames(payload.p))",
           "payload.p instanceof Object", "payload.p instanceof Array",
           "Object.getPrototypeOf(payload.p) === Object.getPrototypeOf(x => x)",
           "JSON.stringify([payload.p])", "JSON.stringify(Object.getOwnPropertyDescriptor("
           "payload.p, 'length'))", "String(Reflect.has(payload.p, 'call'))",
           "(payload.r = Proxy.revocable(x => x, payload.h), payload.r.revoke(), "
           "payload.r.proxy(1))",
           "(payload.r = Proxy.revocable(x => x, payload.h), payload.r.revoke(), "
           "typeof payload.r.proxy)",
           "payload.p.call.call(payload.p, null, 1)", "[payload.p][0](5)",
           "(0, payload.p)(7)", "payload.p?.(8)"]  # fmt: skip


#: the writes a proxy forwards to its target: drawn on a target the condition made only (a
#: built-in's own properties would change for every later case the engine runs)
FN_WRITES = frozenset({"(payload.p.x = 1, payload.p.x)", "delete payload.p.x"})


def _function_proxy(r: random.Random) -> Case:
    steps = ["payload.log = []", "payload.h = Object.create(null)"]
    steps += [r.choice(FN_TRAPS) for _ in range(r.randint(0, 2))]
    target = r.choice(FN_TARGETS)
    uses = FN_USES if "=>" in target else [u for u in FN_USES if u not in FN_WRITES]
    steps += [f"payload.p = new Proxy({target}, payload.h)", f"payload.u = ({r.choice(uses)})",
              "JSON.stringify([payload.u, payload.log])"]  # fmt: skip
    return "(" + ", ".join(steps) + ")", _scope()


#: a RegExp frozen, sealed, made non-extensible or given a read-only lastIndex (with or without a
#: value), its lastIndex moved first, then every method that reads or writes lastIndex
LR_FLAGS = ["", "g", "y", "gy", "i", "gi", "u", "gu", "d"]
LR_SOURCES = ["a", "b", "a|", "(?:)", "\\d+", "(a)(b)?", "\\ud83d\\ude00", "."]
LR_LOCKS = ["payload.h", "Object.freeze(payload.h)", "Object.seal(payload.h)",
            "Object.preventExtensions(payload.h)",
            "Object.defineProperty(payload.h, 'lastIndex', Object.fromEntries([['writable', "
            "false]]))",
            "Object.defineProperty(payload.h, 'lastIndex', Object.fromEntries([['writable', "
            "false], ['value', {v}]]))",
            "Reflect.defineProperty(payload.h, 'lastIndex', Object.fromEntries([['value', "
            "{v}]]))"]  # fmt: skip
LR_VALUES = ["0", "1", "2", "5", "-1", "-0", "'1'", "'x'", "1.5", "null", "true", "undefined"]
LR_INPUTS = ["'ab'", "'aab'", "'ba'", "''", "'xyz'", "'a1b22'", "'\\ud83d\\ude00a'", "payload.s"]
LR_USES = ["payload.h.test({i})", "JSON.stringify(payload.h.exec({i}))",
           "JSON.stringify({i}.match(payload.h))", "{i}.replace(payload.h, '-')",
           "{i}.replace(payload.h, m => m + m)", "{i}.replaceAll(payload.h, '$&$&')",
           "{i}.search(payload.h)", "JSON.stringify({i}.split(payload.h))",
           "[...{i}.matchAll(payload.h)].length", "payload.h.lastIndex = {v}",
           "String(Reflect.set(payload.h, 'lastIndex', {v}))",
           "JSON.stringify(Object.getOwnPropertyDescriptor(payload.h, 'lastIndex'))",
           "Object.isFrozen(payload.h)", "Object.isSealed(payload.h)",
           "Object.isExtensible(payload.h)", "payload.h.x = 1",
           "String(Reflect.defineProperty(payload.h, 'lastIndex', Object.fromEntries([['value', "
           "{v}]])))", "String(payload.h)",
           "JSON.stringify(structuredClone(payload.h).lastIndex)"]  # fmt: skip


def _locked_regexp(r: random.Random) -> Case:
    flags = r.choice(LR_FLAGS)
    steps = [f"payload.h = /{r.choice(LR_SOURCES)}/{flags}"]
    if r.random() < 0.5:
        steps.append(f"payload.h.lastIndex = {r.choice(LR_VALUES)}")
    steps.append(r.choice(LR_LOCKS).replace("{v}", r.choice(LR_VALUES)))
    for _ in range(r.randint(1, 3)):
        use = r.choice(LR_USES).replace("{i}", r.choice(LR_INPUTS))
        steps.append("payload.log.push(" + use.replace("{v}", r.choice(LR_VALUES)) + ")")
    steps.append("JSON.stringify([payload.log, payload.h.lastIndex])")
    scope = _scope()
    scope["payload"]["log"] = []
    return "(" + ", ".join(steps) + ")", scope


FAMILIES: dict[str, Callable[[random.Random], Case]] = {
    "objmodel.protos": _protos,
    "objmodel.calls": _calls,
    "objmodel.chain": _chain,
    "objmodel.fnprops": _fnprops,
    "objmodel.setproto": _setproto,
    "objmodel.descriptors": _descriptors,
    "objmodel.symkeys": _symkeys,
    "objmodel.arraydesc": _arraydesc,
    "objmodel.elementaccessors": _element_accessors,
    "objmodel.builtinprops": _builtin_props,
    "objmodel.fnproxy": _function_proxy,
    "objmodel.proxy": _proxy,
    "objmodel.lockedregexp": _locked_regexp,
}
