"""Generator families for JavaScript's values (issue 23): holes, digits, -0, built-ins, ...

``FAMILIES`` maps a family name to a function drawing one case ``(expr, scope)`` from a
``random.Random``; ``tests/differential/draw.py`` merges these with the other helpers' modules,
draws, and judges every case against the real evaluator with exact values (``exact.py``).
Cases are small texts built from pieces, so each family explores one concern's combinations.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

Case = tuple[str, dict[str, Any]]

HOLEY = ["[,1]", "[1,,3]", "[,]", "[,,]", "[1,,]", "[,'a',,'b']", "[undefined,,null]", "[[,1],,2]",
         "[0,,-0]", "[,,3,,]", "[3,,1,,2]"]  # fmt: skip
HOLE_OPS = [
    "String({a})", "({a}).length", "0 in {a}", "1 in {a}", "2 in {a}", "Object.keys({a})",
    "Object.values({a})", "Object.entries({a})", "{a}.every(x => x !== undefined)",
    "{a}.some(x => x === undefined)", "{a}.filter(x => true)", "{a}.filter(x => true).length",
    "{a}.reduce((s, x) => s + 1, 0)", "{a}.map(x => 2)", "String({a}.map(x => 2))",
    "{a}.map(x => x)", "{a}.slice(0)", "{a}.slice(1)", "[].concat({a})", "{a}.concat([,4])",
    "{a}.flat()", "[{a}].flat()", "{a}.sort()", "{a}.join('-')", "{a}.join()",
    "{a}.indexOf(undefined)", "{a}.includes(undefined)", "{a}.find(x => x === undefined)",
    "{a}.findIndex(x => x === undefined)", "{a}.lastIndexOf(undefined)",
    "Object.keys({a}.slice(1))", "JSON.stringify({a})", "{a}.reverse()", "{a}.at(1)",
    "{a}.reduceRight((s, x) => s + 1, 0)", "{a}.flatMap(x => [x])", "{a}.entries",
    "Array.from({a})", "[...{a}]", "{a}.every(x => x)", "Object.keys({a}.concat({a}))",
    "{a}.toString()", "{a}.findLast(x => true)", "{a}.fill(7)", "Object.entries({a}.map(x => 1))",
    "{a}.pop()", "{a}.shift()", "typeof {a}.pop()", "[{a}.shift(), {a}.length]",
]  # fmt: skip


def holes(r: random.Random) -> Case:
    op = r.choice(HOLE_OPS)
    return op.replace("{a}", r.choice(HOLEY)), {}


DIGIT_STRINGS = ["１２", "٣", "٥", "۵", "५", "๕", "1٢", "12", " 12 ", "１", "0x1F", "1e3",
                 "\u00a05", "２e3", "-٣", "Infinity", "１.５", "5"]  # fmt: skip
DIGIT_OPS = ["Number(s)", "isNaN(s)", "s == 5", "s == 12", "+s", "s * 1", "parseInt(s)",
             "parseFloat(s)", "s - 0", "s > 4", "Number.isNaN(+s)", "isFinite(s)", "s / 1",
             "Math.abs(s)", "[s] == 12", "s < 13", "Number(s) === 12", "~~s"]  # fmt: skip


def digits(r: random.Random) -> Case:
    return r.choice(DIGIT_OPS), {"s": r.choice(DIGIT_STRINGS)}


NEG_ZERO = ["-0", "JSON.parse('-0')", "x", "(-0.4).toFixed()", "(-0.4).toFixed(0)",
            "(-0.0001).toFixed(2)", "Math.trunc(-0.5)", "Math.round(-0.4)", "Math.ceil(-0.5)",
            "Math.floor(-0)", "Math.sign(-0)", "Math.abs(-0)", "-0 * 1", "0 * -1", "x + 0",
            "x - 0", "x * 2", "Math.min(0, -0)", "Math.max(-0, 0)", "[x][0]", "x || 5",
            "Number('-0')", "parseFloat('-0')", "-x", "Math.round(-0.5)", "Math.round(-0.6)",
            "x % 1", "-1 % 1", "Math.atan2(-0, 1)", "Math.sqrt(-0)", "Math.cbrt(-0)",
            "(-1e-7).toFixed(3)", "(-0).toString()", "String(-0)", "JSON.stringify(x)",
            "JSON.stringify([x])", "Object.is(x, -0)", "1 / x", "x.y", "Number(x)",
            "(-0.5).toPrecision(1)", "(-0.004).toFixed(2)", "Math.fround(-0)", "-0 + -0",
            "Math.pow(-0, 3)", "Math.hypot(-0)", "Math.expm1(-0)", "Math.tanh(-0)"]  # fmt: skip


def negzero(r: random.Random) -> Case:
    x = r.choice([-0.0, {"y": -0.0}, 0, -0.0])
    return r.choice(NEG_ZERO), {"x": x}


MATH_UNARY = ["asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
              "expm1", "log1p", "fround", "clz32", "cbrt", "tan", "sin", "cos", "exp", "log",
              "log2", "log10", "sqrt", "sign", "trunc", "round", "floor", "ceil",
              "abs"]  # fmt: skip
MATH_ARGS = ["0", "-0", "0.5", "-0.5", "1", "-1", "2", "7", "10", "1e-10", "1e300", "710", "709",
             "Infinity", "-Infinity", "NaN", "0.1", "3.5", "'2'", "null", "undefined", "[]",
             "1.5", "-1.5", "2.5", "0.49999999999999994", "1e21", "2**31", "-(2**31)",
             "2**32", "100", "Math.PI", "Math.PI / 2", "Math.PI / 4", "Math.E", "x", "-710",
             "123.456", "1e-300", "'abc'", "true", "0.7"]  # fmt: skip


def _math_arg(r: random.Random) -> str:
    """One of the edge arguments, or a random double (the last digit of V8's fdlibm ports
    differs from the C library's on a few in a hundred of these)."""
    k = r.random()
    if k < 0.6:
        return r.choice(MATH_ARGS)
    if k < 0.8:
        return repr(r.uniform(-10, 10))
    return repr(math.ldexp(r.uniform(-1, 1), r.randint(-40, 80)))


def math_fns(r: random.Random) -> Case:
    k = r.random()
    a, b = _math_arg(r), _math_arg(r)
    if k < 0.55:
        expr = f"Math.{r.choice(MATH_UNARY)}({a})"
    elif k < 0.65:
        expr = f"({a}) ** ({b})"
    elif k < 0.8:
        fn = r.choice(["pow", "hypot", "atan2", "imul", "max", "min"])
        expr = f"Math.{fn}({a}, {b})"
    else:
        expr = r.choice(["Math.hypot({a}, {b}, 3)", "Math.hypot()", "Math.pow(10, {a})",
                         "Math.imul({a}, 3)", "Math.clz32()", "Math.fround({a}) === {a}",
                         "Math.exp({a}) === Infinity", "Math.cbrt({a}) ** 3"])  # fmt: skip
        expr = expr.replace("{a}", a).replace("{b}", b)
    return expr, {"x": r.choice([3, -0.0, 0.25, 1e16, "5"])}


OBJECT_OPS = [
    "Object.assign({o}, {p})", "Object.assign({o})", "Object.assign({o}, null, {p})",
    "Object.freeze({o})", "Object.isFrozen({o})", "Object.isFrozen(Object.freeze({o}))",
    "Object.seal({o})", "Object.isSealed({o})", "Object.isSealed(Object.seal({o}))",
    "Object.isFrozen(1)", "Object.isSealed('a')", "Object.getOwnPropertyNames({o})",
    "Object.getOwnPropertyNames('ab')", "Object.getPrototypeOf({o}) === Object.prototype",
    "Object.getPrototypeOf([]) === Array.prototype", "Object.create(null)",
    "Object.keys(Object.create({o}))", "Object.assign([1, 2], [3])", "Object.assign({o}, 'ab')",
    "Object.freeze(payload) === payload", "Object.isFrozen(payload)",
    "String.raw(o.r)", "String.raw(o.r, 1, 2)", "String.raw(o.r, 'x')",
    "Object.fromEntries([['a', 1]])", "payload.a = 2", "(Object.freeze(payload).a = 2)",
    "(Object.seal(payload).z = 2)", "(Object.seal(payload).a = 3)",
    "Object.getOwnPropertyNames([1, 2])",
    "Object.assign(payload, {p}).a", "Object.entries(Object.assign({o}, {p}))",
    "Object.isFrozen(Object.freeze([1]))", "Object.getOwnPropertyNames(payload)",
    "Object.keys(Object.assign({o}, {p}))", "Object.assign({o}, undefined)",
    "String(Object.create({o}))", "Object.create({o}).length", "Object.create({o}) + 1",
    "Object.assign({o}, {p}).hasOwnProperty('a')", "typeof Object.assign({o}, {p})",
    "Object.getOwnPropertyNames(Object.assign({o}, {p}))",
    "JSON.stringify(Object.assign({o}, {p}))",
    "Object.isFrozen(Object.freeze(Object.assign({o}, {p})))", "Object({o})", "Object({o}) == {o}",
]  # fmt: skip
# MemberJunction forbids braces: object literals come from the scope
OBJECTS = ["o.e", "o.a", "o.ab", "o.n", "[1, 2]", "payload", "o.e", "[,3]", "'xy'", "null", "1",
           "true", "-0", "Object('ab')", "o.a.a", "''"]  # fmt: skip


def object_fns(r: random.Random) -> Case:
    op = r.choice(OBJECT_OPS).replace("{o}", r.choice(OBJECTS)).replace("{p}", r.choice(OBJECTS))
    objects = {"e": {}, "a": {"a": 1}, "ab": {"a": 1, "b": 2}, "n": {"2": 1, "b": 0, "1": 3},
               "r": {"raw": r.choice([["a", "b", "c"], "xyz", [], ["q"]])}}  # fmt: skip
    return op, {"payload": r.choice([{"a": 1}, {"b": [1, 2]}, {}]), "o": objects}


BUILTIN_READS = ["''.trim", "'a'.trim", "parseInt", "Number.parseInt", "parseFloat",
                 "Number.parseFloat", "Math.max", "[].map", "[1].map", "Object.keys",
                 "isNaN", "Number.isNaN", "String", "JSON.parse", "'x'.toUpperCase",
                 "payload.s.trim", "payload.a.map", "Array.isArray", "[].includes",
                 "payload.a.includes", "/a/g.test", "/b/.test", "/a/.exec", "/a/.toString",
                 "new Date(0).getTime", "new Date(5).getTime", "new Date(0).valueOf",
                 "new Date(0).toString", "[].toString"]  # fmt: skip


def identity(r: random.Random) -> Case:
    a, b = r.choice(BUILTIN_READS), r.choice(BUILTIN_READS)
    op = r.choice(["===", "!==", "==", "!="])
    return f"{a} {op} {b}", {"payload": {"s": "x", "a": [1]}}


ARROWS = ["x => x", "(x) => x", "(a, b) => a + b", "() => 1", "x=>x*2", "(x, y) =>  x",
          "(a,b,c) => c", "x => (x)", "x => x.a"]  # fmt: skip


def arrows(r: random.Random) -> Case:
    f = r.choice(ARROWS)
    op = r.choice(["String({f})", "({f}).length", "({f}).name", "typeof ({f})", "'' + ({f})",
                   "[{f}].map(g => g.name)", "[{f}].map(g => g.length)", "({f}).toString()",
                   "JSON.stringify([{f}])", "[{f}].join()"])  # fmt: skip
    return op.replace("{f}", f), {}


LOCALE_NUMBERS = ["1234.5", "1234567.891", "0.0005", "-1234.5", "1e21", "0", "-0", "NaN",
                  "Infinity", "123.4565", "1.0005", "999.9999", "12345678901234567890",
                  "0.1 + 0.2", "x", "2.5", "1e-7"]  # fmt: skip
LOCALE_WORDS = ["'a'", "'B'", "'b'", "'ä'", "'z'", "'Z'", "'é'", "'e'", "'10'", "'9'", "''",
                "'résumé'", "'resume'", "'ß'", "'ss'", "'İ'", "'i'", "'A'", "'_'", "'-'",
                "' '", "'1'", "'Ä'", "'ab'", "'aB'", "'Ab'"]  # fmt: skip


def locale(r: random.Random) -> Case:
    k = r.random()
    if k < 0.3:
        n = r.choice(LOCALE_NUMBERS)
        expr = f"({n}).toLocaleString()"
    elif k < 0.45:
        # an array's is each element's own: numbers grouped, dates in node's locale, nested
        # arrays element by element, null and undefined empty
        items = [*LOCALE_NUMBERS, "null", "undefined", "'x'", "true", "[1000, [2000.5]]",
                 "new Date(0)", "12345n", "Object(1234.5)", "[]", "payload"]  # fmt: skip
        picked = ", ".join(r.choice(items) for _ in range(r.randint(0, 4)))
        expr = f"[{picked}].toLocaleString()"
    elif k < 0.8:
        expr = f"{r.choice(LOCALE_WORDS)}.localeCompare({r.choice(LOCALE_WORDS)})"
    else:
        w = r.choice([*LOCALE_WORDS, "'ǆ'", "'ﬀ'", "'Σ'", "'ΑΣ'"])
        expr = f"{w}.{r.choice(['toLocaleUpperCase', 'toLocaleLowerCase'])}()"
    return expr, {"x": r.choice([1234.5, -0.0, 1e21, 7]), "payload": {"a": 1}}


RADIX_NUMBERS = ["2**53", "2**60", "1e21", "1e300", "-(2**64)", "123456789012345680000", "255",
                 "-255", "0", "2**53 + 2", "Number.MAX_VALUE", "x"]  # fmt: skip
RADIX_STRINGS = ["'zzzzzzzzzzzzzz'", "'ffffffffffffffffff'", "'1111111111111111111111111111111"
                 "111111111111111111111111'", "'12345678901234567890'", "'777777777777777777777'",
                 "'-zz'", "'0x' + 'f'.repeat(20)", "'9'.repeat(30)", "'1e21'"]  # fmt: skip


def radix(r: random.Random) -> Case:
    base = r.choice(["2", "8", "16", "36", "3", "7", "10", "32"])
    if r.random() < 0.5:
        expr = f"({r.choice(RADIX_NUMBERS)}).toString({base})"
    else:
        expr = f"parseInt({r.choice(RADIX_STRINGS)}, {base})"
    return expr, {"x": r.choice([2**60, 1e25, 12345])}


def deep_flat(r: random.Random) -> Case:
    depth = r.choice([5, 100, 150, 199, 200, 201, 202, 250, 400])
    arg = r.choice(["Infinity", "1e9", str(depth), str(depth - 1), ""])
    expr = r.choice(["x.flat({d}).length", "x.flat({d})[0]", "JSON.stringify(x.flat({d}))"])
    nested: Any = [1, 2]
    for _ in range(depth):
        nested = [nested]
    return expr.replace("{d}", arg), {"x": nested}


SORT_ARRAYS = ["[3, undefined, 1]", "[undefined, 'b', , 'a']", "[2, 1, 3, 1]", "['b', 'a', 'B']",
               "[10, 9, 1, 100]", "[,3,undefined,1]", "[5, 1, 4, 2, 3, 9, 8, 7, 6, 0, 11, 12]",
               "[null, undefined, 0, 'a']", "x"]  # fmt: skip
COMPARATORS = ["", "(a, b) => a - b", "(a, b) => b - a", "() => 1", "() => -1", "() => 0",
               "(a, b) => a > b", "(a, b) => (a < b ? -1 : 1)", "(a, b) => Math.random() - 2",
               "(a, b) => String(a).localeCompare(String(b))", "(a, b) => NaN"]  # fmt: skip


def sorting(r: random.Random) -> Case:
    expr = f"String({r.choice(SORT_ARRAYS)}.sort({r.choice(COMPARATORS)}))"
    x = [r.randrange(30) for _ in range(r.choice([3, 11, 12, 30]))]
    return expr, {"x": x}


EXCEPTIONS = ["(2**64).toFixed(15)", "(0.1).toPrecision(100)", "(1e21).toFixed(2)",
              "'ab'.split('', Infinity)", "'ab'.split('', -1)", "'a,b'.split(',', 2**32 + 1)",
              "[1].lastIndexOf(1, -Infinity)", "[1].indexOf(1, -Infinity)",
              "[1].lastIndexOf(1, Infinity)", "[1, 2].includes(2, -Infinity)",
              "x.forEach((v, i) => x.splice(i, 1))", "x.map((v, i) => x.splice(0, 1))",
              "(123.456).toFixed(100)", "(123.456).toPrecision(21)", "(1e-7).toPrecision(3)",
              "(2**70).toFixed(2)", "(-1.5).toFixed(0)", "(1.005).toFixed(2)", "(0).toFixed(1)",
              "'abc'.substring(-Infinity, Infinity)", "'abc'.slice(-Infinity)",
              "'abc'.at(-Infinity)", "'abc'.repeat(0)", "[1, 2, 3].at(Infinity)",
              "x.filter((v, i) => x.push(1) && false)", "[1, 2].fill(0, -Infinity)",
              "'abc'.padEnd(Infinity)", "(1e21).toPrecision(3)", "(5e-324).toFixed(2)"]  # fmt: skip


def exceptions(r: random.Random) -> Case:
    return r.choice(EXCEPTIONS), {"x": [1, 2, 3, 4]}


IDENT_CASES: list[Case] = [
    ("payloa\\u0064.a", {"payload": {"a": 1}}),
    ("Inf\\u0069nity", {}),
    ("\\u0070ayload.a", {"payload": {"a": 2}}),
    ("p\\u{61}yload.a", {"payload": {"a": 3}}),
    ("[1].map(\\u0078 => x + 1)", {}),
    ("[1].map(x => \\u0078 * 2)", {}),
    ("payload\u00a0.a", {"payload": {"a": 4}}),
    ("payload\u2028.a", {"payload": {"a": 5}}),
    ("payload\u3000&&\u3000payload.a", {"payload": {"a": 6}}),
    ("payload\ufeff.a", {"payload": {"a": 7}}),
    ("x", {"x,y": 1, "x": 8}),
    ("x + y", {"x,y": 1}),
    ("a", {"\\u0061": 9}),
    ("a", {"a/*c*/": 10}),
    ("NaN", {"NaN": 3}),
    ("globalThis", {"globalThis": 3}),
    ("Symbol", {"Symbol": 3}),
    ("typeof Symbol", {}),
    ("typeof console", {}),
    ("typeof Symbol === 'function'", {}),
    ("typeof console === 'object'", {}),
    ("\\u0074ypeof 1", {}),
    ("undefine\\u0064", {}),
    ("payload.\\u0061", {"payload": {"a": 11}}),
    ("payload?.\\u0061", {"payload": {"a": 12}}),
    ("Mat\\u0068.max(1, 2)", {}),
    ("payload\u2029.a", {"payload": {"a": 13}}),
    ("payload\u180e.a", {"payload": {"a": 14}}),
    ("ｘ", {"ｘ": 15}),
    ("x\u200c", {"x\u200c": 16}),
]


def identifiers(r: random.Random) -> Case:
    return r.choice(IDENT_CASES)


LIMIT_CASES: list[Case] = [
    ("s.length > 150000", {"s": "a" * 200_000}),
    ("s.toUpperCase().length", {"s": "a" * 200_000}),
    ("(s + s).length", {"s": "b" * 120_000}),
    ("'a'.repeat(150000).length", {}),
    ("s.includes('needle')", {"s": "x" * 200_000 + "needle"}),
    ("s.split('').length", {"s": "ab" * 60_000}),
    ("x.filter(v => v > 3).length", {"x": list(range(8000))}),
    ("x.map(v => v * 2).length", {"x": list(range(6000))}),
    ("x.every(v => v >= 0)", {"x": list(range(7000))}),
    ("JSON.stringify(s).length", {"s": "q" * 150_000}),
    ("s.trim() === s", {"s": "c" * 110_000}),
    ("s.slice(-3)", {"s": "d" * 130_000 + "end"}),
]


def limits(r: random.Random) -> Case:
    return r.choice(LIMIT_CASES)


LOOSE_CASES: list[Case] = [
    ("delete Math.PI", {}),
    ("Object.fromEntries(['ab'])", {}),
    ("Object.fromEntries(['ab']).a", {}),
    ("[,].reduce((a, b) => a)", {}),
    ("[,1].reduce((a, b) => a + b)", {}),
    ("[,,].reduce((a, b) => a, 5)", {}),
    ("[].reduce((a, b) => a)", {}),
    ("delete payload.a", {"payload": {"a": 1}}),
    ("delete payload.a && !('a' in payload)", {"payload": {"a": 1}}),
]


def looser(r: random.Random) -> Case:
    return r.choice(LOOSE_CASES)


FAMILIES: dict[str, Callable[[random.Random], Case]] = {
    "holes": holes,
    "digits": digits,
    "negzero": negzero,
    "math": math_fns,
    "object": object_fns,
    "identity": identity,
    "arrows": arrows,
    "locale": locale,
    "radix": radix,
    "flat": deep_flat,
    "sort": sorting,
    "exceptions": exceptions,
    "identifiers": identifiers,
    "limits": limits,
    "looser": looser,
}
