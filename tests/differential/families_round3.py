"""Generator families for the third round of conditions (issue 36): destructured parameters,
holes beside spread, ``JSON.parse`` revivers, property descriptors and extensibility,
methods called without their receiver, frozen and sealed objects, own ``__proto__`` keys.

Same shape as the other ``families_*`` modules; like every family, these compare the error
text (``draw.kind``), not only success and value. MemberJunction refuses braces, so
object patterns cannot be written: every pattern is an array pattern, and objects come from
the scope.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Case = tuple[str, dict[str, Any]]

SCOPE_VALUES: dict[str, Any] = {
    "o": {"a": 1, "b": 2, "c": -3}, "arr": [1, 2, 3], "nested": [[1, [2, 3]], [4, [5]]],
    "pairs": [["x", 1], ["y", 2]], "s": "a😀b", "n": 5, "nul": None, "e": [], "t": True,
    "words": ["ab", "c", ""], "j": '{"__proto__":1,"constructor":{"a":2},"b":3}',
}  # fmt: skip


def _scope() -> dict[str, Any]:
    return {"payload": dict(SCOPE_VALUES)}


# a pattern, and a body over the names it binds
PATTERNS: list[tuple[str, str]] = [
    ("[k, v]", "k + v"), ("[a, b = 7]", "a + b"), ("[a, ...r]", "r"), ("[, b]", "b"),
    ("[a,,]", "a"), ("[a, [b, c]]", "a + b + c"), ("[[a], b]", "[a, b]"),
    ("[a = 1, b = a + 1]", "[a, b]"), ("[...r]", "r.length"), ("[a, ...[b, c]]", "c"),
    ("[]", "1"), ("[a] = [9]", "a"), ("[a, b] = 'xy'", "b + a"), ("[, , c = 'z']", "c"),
    ("[a = b, b]", "a"), ("[[a, b] = [1, 2]]", "a * b"), ("[first]", "typeof first"),
]  # fmt: skip
SOURCES = ["Object.entries(payload.o)", "payload.pairs", "payload.nested", "payload.words",
           "[payload.arr]", "[payload.s]", "[[]]", "[[,1]]", "[payload.n]", "[payload.nul]",
           "[undefined]", "[payload.t]", "[payload.o]", "[1n]", "[[undefined, null]]",
           "[new Map([['k', 1]])]", "[new Set('ab')]", "[payload.arr.entries()]",
           "[x => x]", "[[...'hé']]"]  # fmt: skip
CALLERS = ["{src}.map({f})", "{src}.some({f})", "{src}.filter({f}).length",
           "{src}.map({f}).join('|')", "JSON.stringify({src}.map({f}))",
           "{src}.reduce((acc, x) => acc + ({f})(x), '')", "({f})()", "({f}).length",
           "({f})(...{src})", "{src}.flatMap({f})", "{src}.findIndex({f})"]  # fmt: skip
SYNTAX = ["([a.b]) => 1", "([1]) => 1", "([...a, b]) => a", "([...a,]) => a", "([a, a]) => a",
          "(a, [a]) => a", "([eval]) => 1", "([...a = 1]) => a", "([a] = 1, ...[b]) => b",
          "([a], ...[b]) => b", "([a]) => a", "([a b]) => a", "([a) => a", "([,]) => 1",
          "([a = 1] = [], b) => a + b", "([a,...b]) => [a] + b", "([arguments]) => 1",
          "([let]) => 1", "([yield]) => 1", "([a?.b]) => 1", "([a[0]]) => 1",
          "(...[a, b]) => a + b", "([...[a]]) => a"]  # fmt: skip


#: heads before => that are no parameter list, or are cut from it by a line break: V8 judges
#: the head first (malformed, invalid target), then leaves a stray => to what encloses it
HEADS = [
    "(a+b)",
    "(1)",
    "(a.b)",
    "('s')",
    "(a, 1)",
    "([a+1])",
    "((a))",
    "((a), b)",
    "(x)",
    "x",
    "(x, y)",
    "payload.n",
    "f(a)",
    "(a = 1)",
    "([a], [b])",
    "(a)(b)",
    "1",
    "a.b",
]
ARROWS = ["=>", "\n=>", "\u2028=>", "\r\n=>", " /* c */ =>", " //c\n=>"]


def stray_arrow(r: random.Random) -> Case:
    f = f"{r.choice(HEADS)}{r.choice(ARROWS)} {r.choice(['1', 'x', 'a'])}"
    wrap = r.choice(["{f}", "[1].map({f})", "({f})", "[{f}]", "typeof ({f})", "1 + ({f})",
                     "payload.arr.some({f})", "({f})(2)"])  # fmt: skip
    return wrap.replace("{f}", f), _scope()


def destructuring(r: random.Random) -> Case:
    if r.random() < 0.1:
        return stray_arrow(r)
    if r.random() < 0.2:
        f = r.choice(SYNTAX)
        expr = r.choice(["[[1, 2], 'ab'].map({f})", "({f})([5, 6])", "typeof ({f})",
                         "({f}).length", "({f})(null)"]).replace("{f}", f)  # fmt: skip
        return expr, _scope()
    pattern, body = r.choice(PATTERNS)
    extra = r.random()
    if extra < 0.15:
        f = f"({pattern}, i) => [{body}, i]"
    elif extra < 0.25:
        f = f"(x, {pattern}) => {body}"
    else:
        f = f"({pattern}) => {body}"
    expr = r.choice(CALLERS).replace("{src}", r.choice(SOURCES)).replace("{f}", f)
    return expr, _scope()


SPREAD_ITEMS = ["...payload.arr", "...payload.s", "...payload.e", "...[,]", "...[1, , 2]",
                "...payload.nul", "...payload.o", "...payload.n", "...'ab'",
                "...new Set([1, 1, 2])", "...payload.arr.keys()", "1", "payload.o",
                "undefined"]  # fmt: skip


def spread_holes(r: random.Random) -> Case:
    parts: list[str] = []
    for _ in range(r.randint(1, 5)):
        k = r.random()
        parts.append("" if k < 0.35 else r.choice(SPREAD_ITEMS))
    if not any(p.startswith("...") for p in parts):
        parts.append(r.choice(SPREAD_ITEMS[:6]))
    literal = "[" + ", ".join(parts) + r.choice(["", ",", ", ,"]) + "]"
    op = r.choice(["{a}", "({a}).length", "0 in {a}", "1 in {a}", "Object.keys({a})",
                   "JSON.stringify({a})", "{a}.map(x => 1)", "String({a})",
                   "{a}.indexOf(undefined)", "{a}.includes(undefined)", "[...{a}].length",
                   "{a}.flat()"])  # fmt: skip
    return op.replace("{a}", literal), _scope()


JSON_TEXTS = ["'[1, 2, [3]]'", "'{\"a\":1}'", "payload.j", "'\"s\"'", "'5'", "'null'",
              "'[{\"a\": [1, 2]}, 3]'", "'[]'", "JSON.stringify(payload.o)",
              "JSON.stringify(payload.nested)", "JSON.stringify(payload.arr)"]  # fmt: skip
REVIVERS = ["(k, v) => typeof v === 'number' ? v * 2 : v", "(k, v) => k === '0' ? undefined : v",
            "(k, v) => k", "(k, v) => k === '' ? v : String(v)",
            "(k, v) => Array.isArray(v) ? v.length : v",
            "(k, v) => v === 1 ? undefined : v", "(k) => k.length", "() => 7", "(k, v) => [k]",
            "(k, v) => typeof v", "1", "null", "'f'", "(k, v, ctx) => typeof ctx",
            "(k, v) => v && v.a ? v.a : v", "(k, v) => k === 'b' ? payload.o : v"]  # fmt: skip


def reviver(r: random.Random) -> Case:
    expr = f"JSON.parse({r.choice(JSON_TEXTS)}, {r.choice(REVIVERS)})"
    op = r.choice(["{e}", "JSON.stringify({e})", "Object.keys({e})", "typeof {e}", "String({e})",
                   "Array.isArray({e})"])  # fmt: skip
    return op.replace("{e}", expr), _scope()


TARGETS = ["payload.o", "payload.arr", "payload.s", "payload.n", "payload.nul", "payload.e",
           "Object.freeze(payload.o)", "Object.seal(payload.arr)", "'abc'", "1", "undefined",
           "Object.preventExtensions(payload.o)", "x => x", "[1, , 3]", "Object('ab')",
           "new Map()", "JSON.parse(payload.j)", "Object.create(null)", "payload"]  # fmt: skip
KEYS = ["'a'", "'z'", "0", "1", "'length'", "'name'", "'b'", "'constructor'", "2", "'size'",
        "-0", "'0'"]  # fmt: skip
DESCRIPTOR_OPS = [
    "JSON.stringify(Object.getOwnPropertyDescriptor({t}, {k}))",
    "Object.getOwnPropertyDescriptor({t}, {k})", "typeof Object.getOwnPropertyDescriptor({t}, {k})",
    "Object.keys(Object.getOwnPropertyDescriptor({t}, {k}) || [])",
    "Object.isExtensible({t})", "Object.isExtensible(Object.preventExtensions({t}))",
    "Object.preventExtensions({t}) === {t}", "typeof Object.preventExtensions({t})",
    "Object.isFrozen(Object.preventExtensions({t}))",
    "Object.isSealed(Object.preventExtensions({t}))", "(Object.preventExtensions({t}).q = 1)",
    "(Object.preventExtensions(payload.o).a = 5, payload.o.a)",
    "(Object.preventExtensions(payload.o).zz = 5, payload.o.zz)",
    "Object.preventExtensions(payload.arr).push(1)", "Object.preventExtensions(payload.arr).pop()",
    "Object.isExtensible()", "Object.getOwnPropertyDescriptor()",
    "Object.getOwnPropertyDescriptor({t})", "Object.preventExtensions()",
    "Object.getOwnPropertyDescriptor({t}, {k}).value",
    "Object.getOwnPropertyDescriptor({t}, {k}).writable",
    "Object.isExtensible(Object.freeze({t}))", "Object.isExtensible(Object.seal({t}))",
]  # fmt: skip


def descriptors(r: random.Random) -> Case:
    op = r.choice(DESCRIPTOR_OPS).replace("{t}", r.choice(TARGETS)).replace("{k}", r.choice(KEYS))
    return op, _scope()


OWN_TEXTS = ['{"__proto__":1}', '{"constructor":{"a":2},"b":3}', '{"__proto__":{"x":1},"a":0}',
             '{"prototype":5,"eval":6,"Function":7}', '[{"__proto__":[]}]',
             '{"a":{"constructor":1}}',
             '{"toString":1,"constructor":"c"}', '{"2":1,"__proto__":0,"1":2}']  # fmt: skip
OWN_KEYS = ["__proto__", "constructor", "prototype", "eval", "Function", "a", "b", "x", "1"]
OWN_OPS = ["Object.keys({o})", "Object.values({o})", "Object.entries({o})", "JSON.stringify({o})",
           "{o}[payload.k]", "payload.k in {o}", "{o}.hasOwnProperty(payload.k)",
           "Object.hasOwn({o}, payload.k)", "typeof {o}[payload.k]", "String({o})",
           "JSON.stringify({o}[payload.k])", "Object.keys({o}).length", "{o}.a", "{o}.b",
           "JSON.stringify(Object.getOwnPropertyDescriptor({o}, payload.k))",
           "Object.keys({o}).includes(payload.k)", "Object.entries({o}).map(([k, v]) => k)",
           "JSON.stringify([{o}, {o}])", "Object.keys(Object.freeze({o}))",
           "Object.keys({o}[0] || [])", "JSON.stringify(Object.values({o}))",
           "({o}).toString()", "{o}[payload.k] === undefined"]  # fmt: skip


def own_keys(r: random.Random) -> Case:
    text = r.choice(OWN_TEXTS)
    o = "JSON.parse(payload.t)"
    scope = _scope()
    scope["payload"]["t"] = text
    scope["payload"]["k"] = r.choice(OWN_KEYS)
    return r.choice(OWN_OPS).replace("{o}", o), scope


LOCKS = ["Object.freeze", "Object.seal", "Object.preventExtensions"]
LOCKED = ["payload.arr", "[]", "[1, , 3]", "[3, 1, 2]", "[1]", "[, 1]", "[1, ,]", "payload.e",
          "[undefined, 2]", "payload.words"]  # fmt: skip
WRITES = ["push(1)", "push()", "push(1, 2)", "pop()", "shift()", "unshift(0)", "unshift()",
          "unshift(0, 1)", "splice(0, 1)", "splice(1, 0, 9)", "splice(0, 0)", "splice(1)",
          "splice(-1, 1, 7, 8)", "splice(0, Infinity)", "splice()", "sort()",
          "sort((a, b) => b - a)", "sort((a, b) => a.x.y)", "sort(1)", "reverse()", "fill(0)",
          "fill(0, 5)", "fill(0, 1, 2)", "fill(0, -1)", "copyWithin(0, 1)", "copyWithin(0, 0)",
          "copyWithin(1, 0)", "copyWithin(-1)", "copyWithin(2, 0, 1)"]  # fmt: skip
LOCKED_OPS = ["{l}({a}).{w}", "JSON.stringify({l}({a}).{w})", "({x} = {l}({a}), {x}.{w}, {x})",
              "({x} = {l}({a}), {x}.length = 0)", "({x} = {l}({a}), {x}.length = 5, {x}.length)",
              "({x} = {l}({a}), {x}[0] = 9, {x})", "({x} = {l}({a}), {x}[7] = 9, {x})",
              "({x} = {l}({a}), delete {x}[0])", "({x} = {l}({a}), delete {x}[9])",
              "(payload.q = {l}(payload.o), delete payload.q.a)",
              "(payload.q = {l}(payload.o), payload.q.a = 5, payload.q.a)",
              "(payload.q = {l}(payload.o), payload.q.zz = 5)",
              "(payload.q = {l}(payload.o), delete payload.q.zz)"]  # fmt: skip


def frozen(r: random.Random) -> Case:
    op = r.choice(LOCKED_OPS)
    for key, pick in (("{l}", LOCKS), ("{a}", LOCKED), ("{w}", WRITES), ("{x}", ["payload.x"])):
        op = op.replace(key, r.choice(pick))
    return op, _scope()


METHODS = ["payload.s.at", "payload.s.toUpperCase", "payload.s.trim", "payload.s.slice",
           "payload.s.split", "payload.s.toString", "payload.s.includes", "payload.s.charAt",
           "payload.arr.push", "payload.arr.map", "payload.arr.join", "payload.arr.includes",
           "payload.arr.indexOf", "payload.arr.at", "payload.arr.concat", "payload.arr.slice",
           "payload.n.toFixed", "payload.n.toString", "payload.o.hasOwnProperty",
           "payload.words.filter", "payload.arr.pop", "'xy'.padStart", "[].some"]  # fmt: skip
ARGS = ["0", "1", "''", "'a'", "x => x", "1, 2", "", "-1", "payload.arr", "'0'"]
CALLEES = ["(0, {m})({a})", "[{m}][0]({a})", "({m})({a})", "(payload.f = {m}, payload.f({a}))",
           "(payload.f = {m})({a})", "({m} || 0)({a})", "(true ? {m} : 0)({a})",
           "[{m}].map(f => f({a}))", "payload.words.map({m})", "payload.arr.some({m})",
           "[1].map({a})", "[1].flatMap({a})", "payload.arr.filter({a})", "{m}({a})",
           "new Set([1]).forEach({a})", "new Map([[1, 2]]).forEach({a})",
           "({m} ?? 0)({a})", "payload.s?.at({a})", "(0, payload.s?.at)({a})",
           "[payload.arr][0].map({m})", "[[{m}]][0][0]({a})", "{m}.call({t}, {a})",
           "{m}.apply({t}, [{a}])", "[].concat.call({t}, {a})", "[].join.call({t}, {a})",
           "[].push.call(payload.o, {a})", "[].indexOf.call({t}, {a})"]  # fmt: skip
THIS = ["1", "'ab'", "payload.o", "null", "undefined", "payload.arr", "payload.s", "true",
        "payload.words"]  # fmt: skip


def detached(r: random.Random) -> Case:
    op = r.choice(CALLEES).replace("{m}", r.choice(METHODS)).replace("{a}", r.choice(ARGS))
    op = op.replace("{t}", r.choice(THIS))
    op = r.choice(["{e}", "JSON.stringify({e})", "typeof {e}"]).replace("{e}", op)
    return op, _scope()


# characters at the edges of the identifier classes: Other_ID_Continue marks, letters newer
# than Python's Unicode, pattern syntax, format characters, digits of other scripts
ID_EDGES = [0xB7, 0x387, *range(0x1369, 0x1372), 0x19DA, 0x1E030, 0x1E06D, 0x1E08F, 0x2E2F,
            0x309B, 0x309C, 0x2118, 0x212E, 0x200C, 0x200D, 0xFF10, 0xFF3F, 0x0660, 0x0300,
            0x1885, 0x1886, 0x31350, 0x2EBF0, 0x11F00, 0x11F02, 0x1FBF0, 0x10D4A, 0x10EC2,
            0x16D40, 0x11BC0, 0x1E5D0, 0x2160, 0x3007, 0x00AA, 0x00BA, 0x2071, 0xA8F2, 0xFE00,
            0xE0100, 0x180B, 0x180F, 0x2E80, 0x10FFFD, 0xFEFF, 0x00AD, 0x2028, 0x3000,
            0x1D7CE, 0x1F600, 0x0903, 0x0E33, 0x1AB0, 0x1ACE, 0x0897, 0x0C5C, 0x1DFA]  # fmt: skip


def _id_char(r: random.Random) -> str:
    k = r.random()
    if k < 0.35:
        c = r.choice(ID_EDGES) + r.choice([0, 0, 0, -1, 1])
    elif k < 0.7:
        c = r.randint(0x80, 0x2FFFF)
    else:
        c = r.randint(0x80, 0x10FFFF)
    if 0xD800 <= c <= 0xDFFF or c < 0x80:
        c = 0xB7
    return chr(c)


def unicode_names(r: random.Random) -> Case:
    first = r.choice(["a", "_", "$", "x", _id_char(r)])
    name = first + "".join(r.choice(["", "b", "1", _id_char(r)]) for _ in range(r.randint(1, 3)))
    form = r.choice(["[1].map({n} => {n} + 1)", "payload.{n}", "{n} === 5", "typeof {n}",
                     "(({n}) => {n})(3)", "[[2]].map(([{n}]) => {n})", "payload.{n} ?? 'none'",
                     "'{n}'.length", "{n}"])  # fmt: skip
    if form == "{n}" or form == "{n} === 5":
        scope: dict[str, Any] = {name: 5}
    else:
        scope = {"payload": {name: 1}}
    return form.replace("{n}", name), scope


JSON_SEEDS = ['{"a": [1, 2.5, -3e2], "b": {"c": null}}', '[true, false, null, "x"]',
              '"s\\n\\u00e9"',
              '-0.5e-3', '{"k": "v", "l": [[], {}]}', '[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]',
              '"😀é"', '{"long key name here": "and a long value too", "n": 12345}', '0',
              '[{"a": 1}, {"b": [2, 3]}]', ' [ "a" , "b" ] ', 'null']  # fmt: skip
JSON_NOISE = [",", "]", "}", "[", "{", ":", '"', "\\", "x", "-", ".", "e", "0", "1", " ", "\n",
              "\t", "\u0001", "😀", "é", "t", "n", "'", "+", "NaN", "\\u12", "\\x"]  # fmt: skip


def json_errors(r: random.Random) -> Case:
    k = r.random()
    if k < 0.08:
        text = r.choice(["NaN", "undefined", "Infinity", "[object Object]", "", " ", "tru",
                         "-Infinity", "{}", "01", "1.", "x" * r.randint(1, 40)])  # fmt: skip
    else:
        text = r.choice(JSON_SEEDS)
        for _ in range(r.randint(1, 3)):
            at = r.randint(0, len(text))
            edit = r.random()
            if edit < 0.4:
                text = text[:at] + r.choice(JSON_NOISE) + text[at:]
            elif edit < 0.7:
                text = text[:at] + text[at + 1 :]
            else:
                text = text[:at]
    form = r.choice(["JSON.parse(payload.t)", "typeof JSON.parse(payload.t)",
                     "JSON.stringify(JSON.parse(payload.t))", "JSON.parse(payload.o)",
                     "JSON.parse(payload.n)", "JSON.parse(payload.t, (k, v) => v)"])  # fmt: skip
    scope = _scope()
    scope["payload"]["t"] = text
    return form, scope


FUNCS = ["x => x", "(a, b = 1) => a", "(...r) => r", "Math.max", "parseInt", "Number",
         "Number.isInteger", "''.trimLeft", "''.trimStart", "[].map", "payload.s.at",
         "JSON.parse", "Object.keys", "String", "isNaN", "''.trimRight", "Array.isArray",
         "payload.o.hasOwnProperty", "Date.now", "Math", "JSON", "toString", "Object",
         "Array", "Boolean", "RegExp", "Error", "TypeError", "Map", "Set", "Symbol", "Reflect",
         "Atomics", "BigInt", "Date"]  # fmt: skip
FN_KEYS = ["'length'", "'name'", "'isInteger'", "'call'", "'apply'", "'bind'", "'toString'",
           "'arguments'", "'caller'", "'x'", "0", "'MAX_VALUE'", "'parse'", "'PI'",
           "'max'"]  # fmt: skip
FN_OPS = ["Object.hasOwn({f}, {k})", "({f}).hasOwnProperty({k})", "Object.keys({f})",
          "Object.getOwnPropertyNames({f}).length", "Object.getOwnPropertyNames({f}).join()",
          "{k} in {f}", "typeof ({f})[{k}]",
          "JSON.stringify(Object.getOwnPropertyDescriptor({f}, {k}))", "({f}).name",
          "({f}).length", "{f} === {g}", "({f}).name === ({g}).name",
          "Object.isExtensible({f})", "Object.isFrozen({f})", "toString.call({f})",
          "toString.call({t})", "toString()", "toString.apply({t})"]  # fmt: skip


def function_props(r: random.Random) -> Case:
    op = r.choice(FN_OPS).replace("{f}", r.choice(FUNCS)).replace("{g}", r.choice(FUNCS))
    op = op.replace(
        "{t}",
        r.choice(
            [
                *THIS,
                "new Date(0)",
                "/a/",
                "new Map()",
                "1n",
                "[].keys()",
                "Object('a')",
                "Object.create(null)",
                "new Error('x')",
            ]
        ),
    )
    return op.replace("{k}", r.choice(FN_KEYS)), _scope()


DATE_PIECES = ["Jan", "january", "FEB", "Sept", "Dec", "mAy", "Tue", "Friday", "AM", "pm",
               "GMT", "UTC", "UT", "Z", "z", "EST", "PDT", "cst", "T", "t", "xyz", "de",
               ":", "-", "+", ".", "/", ",", ")", "(note)", "(a(b)c)", " ", "  ", "\t"]  # fmt: skip
DATE_SEEDS = ["2026-12-01", "2026-12-01T09:00", "2026-12-01T09:00:00.5Z", "+002026-12-01",
              "Dec 1, 2026 10:00", "1 December 2026 10:00:00 GMT+0100", "12/01/2026",
              "2026/12/01 10:00 PM", "Tue Dec 01 2026 09:00:00 GMT+0000 (UTC)", "99-01 10:30",
              "0000-1-1", "5.", "99", "-1", "12", "32", "49", "50", "x 2026", "2026-1-1",
              "10:30 Dec 2026", "Dec 25, 1995 13:30 PM", "1995-12-25 1:30 pm"]  # fmt: skip


def _date_number(r: random.Random) -> str:
    digits = r.choice([1, 1, 2, 2, 2, 3, 4, 4, 6])
    text = str(r.randint(0, 10**digits - 1)).zfill(digits if r.random() < 0.5 else 1)
    return text


def date_legacy(r: random.Random) -> Case:
    if r.random() < 0.4:
        text = r.choice(DATE_SEEDS)
        for _ in range(r.randint(0, 2)):
            at = r.randint(0, len(text))
            piece = r.choice([*DATE_PIECES, _date_number(r)])
            text = text[:at] + piece + text[at + r.choice([0, 0, 1]) :]
    else:
        parts = []
        for _ in range(r.randint(1, 7)):
            parts.append(_date_number(r) if r.random() < 0.45 else r.choice(DATE_PIECES))
        text = "".join(parts)
    form = r.choice(["Date.parse(payload.t)", "isNaN(Date.parse(payload.t))",
                     "new Date(payload.t).getTime()",
                     "Date.parse(payload.t) % 86400000"])  # fmt: skip
    scope = _scope()
    scope["payload"]["t"] = text
    return form, scope


META = ["new.target", "typeof new.target", "new.target === undefined", "new.foo",
        "new.target.x", "(x => new.target)(1)", "new.target = 1", "new . target",
        "[1].map(x => new.target)", "new.target ?? 5", "new.target?.x", "!new.target"]  # fmt: skip
AS_N_BITS = ["0", "1", "3", "8", "63", "64", "65", "-1", "1.5", "NaN", "'8'", "2 ** 53",
             "Infinity", "200", "undefined"]  # fmt: skip
AS_N_VALUES = ["0n", "1n", "-1n", "255n", "256n", "-129n", "2n ** 63n", "-(2n ** 64n)", "1",
               "'12'", "true", "null", "undefined", "12345678901234567890n", "'x'"]  # fmt: skip


def bigint_as_n(r: random.Random) -> Case:
    if r.random() < 0.3:
        return r.choice(META), _scope()
    fn = r.choice(["asIntN", "asUintN"])
    expr = f"BigInt.{fn}({r.choice(AS_N_BITS)}, {r.choice(AS_N_VALUES)})"
    return r.choice(["String({e})", "{e}", "typeof {e}", "{e} > 0n"]).replace("{e}", expr), {}


# locale-sensitive case mapping: Turkish, Azeri and Lithuanian's own rules beside the default,
# and every way a locale argument is given or refused
CASE_ATOMS = ["i", "I", "İ", "ı", "j", "J", "Į", "į", "Ì", "Í", "Ĩ", "\u0307", "\u0301",
              "\u0300", "\u0323", "Σ", "σ", "ς", "a", "ß", "ǰ", "x", " ", "😀"]  # fmt: skip
CASE_LOCALES = ["'tr'", "'az'", "'lt'", "'en'", "'TR'", "'tr-TR'", "'tur'", "'lit'", "'aze'",
                "['lt', 'en']", "['en', 'tr']", "'de'", "undefined", "5", "true", "'x'",
                "'tr-'", "'tr_TR'", "[]", "[5]", "null", "'und'", "'az-Latn-AZ'",
                "'lt-x-foo'", "'root'", "[['tr']]", "''"]  # fmt: skip


def locale_case(r: random.Random) -> Case:
    text = "".join(r.choice(CASE_ATOMS) for _ in range(r.randint(1, 6)))
    literal = "'" + text.encode("unicode_escape").decode().replace("'", "\\'") + "'"
    method = r.choice(["toLocaleUpperCase", "toLocaleLowerCase"])
    call = f"{literal}.{method}({r.choice(CASE_LOCALES)})"
    return r.choice(["{c}", "{c}.length", "{c} === {c}", "escape({c})"]).replace("{c}", call), {}


# numbers in each locale node has (toLocaleString(locale), no options): separators, group
# sizes (Indian lakhs), a group only from five digits (es, pl), native digits (ar-EG, bn, fa),
# minus signs with direction marks, NaN in words, fallbacks for regions and languages
NUMBER_VALUES = ["1234.5", "-1234567.891", "0", "-0", "1e21", "123456789012", "0.0005",
                 "1.0005", "NaN", "Infinity", "-Infinity", "12", "1234", "12345", "99999.9995",
                 "5e-7", "2**53", "-42.125", "1000000", "payload.n",
                 "payload.n * -1000.5"]  # fmt: skip
NUMBER_LOCALES = ["de-DE", "de", "en-IN", "es", "es-MX", "de-CH", "fr", "fr-CA", "ar", "ar-EG",
                  "fa", "sv", "hi", "zh", "zh-TW", "ja", "pt-BR", "ru", "pl", "bn", "tr", "lt",
                  "he", "ur", "my", "mr", "xx", "en-XX", "sr-Latn", "sr", "sr-Latn-RS", "es-419",
                  "deu", "iw", "und", "nb", "no", "de-AT", "it-CH", "en-ZA", "pt-PT", "ca", "da",
                  "fi", "nl", "en-GB", "zh-Hant", "th", "ne", "ps", "uz-Arab", "ks", "de-x-foo",
                  "EN-us", "x", "en_US"]  # fmt: skip


def locale_number(r: random.Random) -> Case:
    locale = r.choice([f"'{r.choice(NUMBER_LOCALES)}'", "[5]", "null", "['fr', 'de']", "[]"])
    call = f"({r.choice(NUMBER_VALUES)}).toLocaleString({locale})"
    return r.choice(["{c}", "{c}.length", "{c} === '1.234,5'"]).replace("{c}", call), _scope()


# --- item 10: Reflect and structuredClone, which reach no code ------------------------------

REFLECT_TARGETS = ["payload.o", "payload.arr", "payload.s", "payload.n", "payload.nul",
                   "undefined", "x => x", "new Date(0)", "/a/g", "new Map()",
                   "Object.freeze(payload.o)", "Object.seal(payload.arr)", "payload.e", "1n",
                   "Object.create(null)", "Object.create(payload.o)", "new Number(3)",
                   "JSON.parse(payload.j)", "payload.t", "Object.preventExtensions(payload.o)",
                   "[1, , 3]", "new String('ab')", "new Error('x')"]  # fmt: skip
# targets whose prototype the evaluator holds as a value
REFLECT_PROTO = ["payload.o", "Object.create(payload.arr)", "Object.create(null)",
                 "JSON.parse(payload.j)", "payload.n", "payload.nul", "undefined",
                 "Object.freeze(payload.o)"]  # fmt: skip
REFLECT_KEYS = ["'a'", "'b'", "'zz'", "'length'", "0", "'1'", "'toString'", "'name'",
                "undefined", "'__proto__'", "'constructor'"]  # fmt: skip
REFLECT_CALLS = ["ownKeys({t})", "has({t}, {k})", "get({t}, {k})", "set({t}, {k}, 9)",
                 "isExtensible({t})", "preventExtensions({t})",
                 "deleteProperty({t}, {k})", "getOwnPropertyDescriptor({t}, {k})",
                 "defineProperty({t}, {k}, {v})", "setPrototypeOf({t}, {v})", "ownKeys()",
                 "apply({f}, {t}, {l})", "construct({c}, {l})", "construct({c}, {l}, {c})",
                 "apply({f}, undefined, [{t}])", "get({t}, {k}, {t})",
                 "set(payload.q = {t}, {k}, 1, payload.q)", "getPrototypeOf({p}) === {p}",
                 "getPrototypeOf({p}) === Object.prototype"]  # fmt: skip
REFLECT_FNS = ["Math.max", "payload.s.at", "payload.arr.push", "x => typeof x", "String",
               "payload.arr.join", "Object.keys", "''.concat", "payload.o", "payload.s", "null",
               "undefined", "payload.arr", "1", "[].concat", "Array.isArray"]  # fmt: skip
REFLECT_CTORS = ["Date", "Map", "Set", "Number", "Array", "String", "Error", "TypeError",
                 "RegExp", "Boolean", "Object", "Math.max", "x => x", "payload.o", "1", "'ab'",
                 "Math", "parseInt"]  # fmt: skip
REFLECT_LISTS = ["[]", "[1, 2]", "['a', 'g']", "payload.arr", "payload.words", "1", "'ab'",
                 "undefined", "null", "payload.o", "[0]", "[[[1, 2]]]", "new Set([3])"]  # fmt: skip
REFLECT_VIEWS = ["{e}", "JSON.stringify({e})", "typeof {e}", "String({e})",
                 "[{e}, JSON.stringify(payload)]", "(payload.q = {e}, JSON.stringify(payload.q))",
                 "{e} === {e}"]  # fmt: skip
REFLECT_OTHER = ["typeof Reflect", "String(Reflect)", "Reflect.foo", "Reflect.foo()",
                 "Object.keys(Reflect)", "JSON.stringify(Reflect)", "Reflect.ownKeys.name",
                 "Reflect.apply.length", "Reflect.set.length", "Reflect.toString()",
                 "Reflect === Reflect", "typeof Reflect.ownKeys", "Reflect.get.length",
                 "String(Reflect.has)", "new Reflect.ownKeys(payload.o)", "Reflect()",
                 "Object.prototype.toString.call(Reflect)",
                 "Reflect.ownKeys.call(0, 1)"]  # fmt: skip


def reflect(r: random.Random) -> Case:
    if r.random() < 0.12:
        return r.choice(REFLECT_OTHER), _scope()
    call = "Reflect." + r.choice(REFLECT_CALLS)
    for key, pick in (("{f}", REFLECT_FNS), ("{c}", REFLECT_CTORS), ("{l}", REFLECT_LISTS),
                      ("{v}", ["1", "'x'", "undefined", "null", "true"]), ("{k}", REFLECT_KEYS),
                      ("{t}", REFLECT_TARGETS), ("{p}", REFLECT_PROTO)):  # fmt: skip
        call = call.replace(key, r.choice(pick))
    view = r.choice(REFLECT_VIEWS)
    if "{e} === {e}" in view and "Reflect.set" in call:
        view = "{e}"
    return view.replace("{e}", call), _scope()


CLONE_VALUES = ["payload.o", "payload.arr", "payload.nested", "payload.s", "payload.n",
                "payload.nul", "undefined", "payload", "[1, , 3]", "[payload.o, payload.o]",
                "new Date(0)", "new Date(NaN)", "/a+/gi", "new Map([[1, payload.o]])",
                "new Set([1, 'a', payload.arr])", "new Error('x')", "new TypeError('t')",
                "new RangeError()", "10n", "-0", "NaN", "new Number(3)", "new String('ab')",
                "new Boolean(false)", "Object(1n)", "Math", "JSON", "Object.create(null)",
                "Object.create(payload.o)", "Object.freeze(payload.o)", "JSON.parse(payload.j)",
                "Object.assign([1, 2], payload.o)", "Object.assign(new Date(0), payload.o)",
                "Object.assign(new Error('e'), payload.o)", "x => x", "[x => x]", "Math.max",
                "payload.arr.map", "payload.arr.keys()", "'ab'.matchAll(/a/g)",
                "new Map([[1, x => x]])", "new Set([payload.arr.values()])", "String", "Reflect",
                "payload.pairs", "payload.words", "Object.seal(payload.arr)",
                "new Error('m', payload)"]  # fmt: skip
CLONE_VIEWS = ["{c}", "JSON.stringify({c})", "typeof {c}", "{c} === {v}",
               "Object.keys({c})", "String({c})", "Object.isFrozen({c})",
               "Object.getPrototypeOf({c}) === Object.prototype", "({c}).name",
               "({c}).lastIndex", "[...{c}]", "({c}).size", "({c}).message",
               "({c}) instanceof Date", "({c}) instanceof TypeError",
               "Object.hasOwn({c}, 'message')",
               "(c => c[0] === c[1])({c})", "({c}).a", "({c})[1]", "1 in {c}",
               "(payload.q = {c}, payload.q.o.a = 7, payload.o.a)", "Object.is({c}, -0)",
               "Array.isArray({c})", "({c}).flags", "({c}).get(1) === payload.o"]  # fmt: skip
CLONE_CALLS = ["structuredClone({v})", "structuredClone({v}, {o})", "structuredClone()",
               "structuredClone({v}, {v})"]  # fmt: skip
CLONE_OTHER = ["typeof structuredClone", "structuredClone.length", "structuredClone.name",
               "String(structuredClone)", "new structuredClone(1)", "structuredClone.call(0, 1)",
               "structuredClone === structuredClone"]  # fmt: skip


def structured_clone(r: random.Random) -> Case:
    if r.random() < 0.06:
        return r.choice(CLONE_OTHER), _scope()
    value = r.choice(CLONE_VALUES)
    options = r.choice(["1", "'ab'", "null", "undefined", "true", "payload.arr", "payload.o"])
    call = r.choice(CLONE_CALLS).replace("{o}", options).replace("{v}", value)
    return r.choice(CLONE_VIEWS).replace("{c}", call).replace("{v}", value), _scope()


SYMBOLS = ["Symbol()", "Symbol('d')", "Symbol(payload.n)", "Symbol(undefined)", "Symbol.for('k')",
           "Symbol.for(payload.s)", "Symbol.iterator", "Symbol.toPrimitive", "Symbol.for()",
           "Symbol(null)", "Symbol('')", "Symbol.asyncIterator", "Symbol(payload.arr)"]  # fmt: skip
SYMBOL_USES = ["{s}", "typeof {s}", "String({s})", "{s}.description", "{s}.toString()",
               "{s} + ''", "'' + {s}", "{s} + 1", "{s} * 2", "-{s}", "Number({s})", "{s} < 1",
               "{s} == {t}", "{s} === {t}", "{s} != {t}", "JSON.stringify({s})",
               "JSON.stringify([{s}, 1])", "[{s}].join()", "String([{s}])", "!{s}",
               "{s} ? 1 : 2", "{s} == 'Symbol()'", "Object.prototype.toString.call({s})",
               "[{s}].includes({t})", "new Set([{s}, {t}]).size", "isNaN({s})",
               "Math.max({s})", "(s => s.valueOf() === s)({s})", "Symbol.keyFor({s})",
               "structuredClone({s})", "[{s}].sort()", "[{s}, {t}].sort().length", "{s} | 0",
               "'a'.concat({s})", "[1, 2].indexOf({s})", "Boolean({s})", "Symbol({s})",
               "new Map([[{s}, 1]]).get({t})", "[{s}].map(x => typeof x)",
               "Array.from([{s}]).length", "{s}.foo", "{s} ?? 1", "{s} && 'y'",
               "({s}).valueOf() === {s}", "[...[{s}]].length", "Object.is({s}, {t})",
               "Reflect.has(payload.o, 'a') && {s}", "[{s}][0] === {t}"]  # fmt: skip
SYMBOL_OTHER = ["typeof Symbol", "String(Symbol)", "Symbol.length", "Symbol.name",
                "new Symbol()", "Symbol.foo", "Object.keys(Symbol)", "typeof Symbol.for",
                "Symbol.keyFor(1)", "Symbol.keyFor('x')", "Symbol.keyFor(payload.o)",
                "Symbol.keyFor()", "Symbol.for.length", "Symbol.iterator === Symbol.iterator",
                "Symbol.for('a') === Symbol.for('a')", "Symbol('a') === Symbol('a')",
                "String(Symbol.for)", "Symbol.for === Symbol.for"]  # fmt: skip


def symbols(r: random.Random) -> Case:
    if r.random() < 0.15:
        return r.choice(SYMBOL_OTHER), _scope()
    s = r.choice(SYMBOLS)
    other = s if r.random() < 0.5 else r.choice(SYMBOLS)
    return r.choice(SYMBOL_USES).replace("{s}", s).replace("{t}", other), _scope()


HOST_VALUES = ["payload.arr", "payload.o", "1", "'ab'", "undefined", "null", "x => x",
               "new Date(0)", "new Map()", "1n", "true", "Symbol('s')", "[]"]  # fmt: skip
HOST_USES = ["Atomics.{op}({v}, 0, 1)", "Atomics.isLockFree({n})", "String(Atomics)",
             "typeof Atomics", "Atomics.foo", "Object.keys(Atomics)", "JSON.stringify(Atomics)",
             "Atomics.toString()", "Atomics.{op}.length", "String(Atomics.{op})",
             "typeof Atomics.{op}", "Atomics.{op}()", "Atomics.isLockFree.length",
             "typeof arguments", "typeof console", "typeof Proxy", "typeof Symbol",
             "typeof structuredClone", "typeof Reflect", "Atomics === Atomics",
             "Atomics.pause", "{a}", "{a}", "{a}", "{a}"]  # fmt: skip
# the probe adds a key of its own after the scope's (so arguments.length and the whole
# object's JSON are not compared; arguments[0] is the scope's first key, payload)
ARGUMENTS_USES = ["typeof arguments", "String(arguments)", "arguments[0] === payload",
                  "typeof arguments[0]", "JSON.stringify(arguments[0])", "arguments.callee",
                  "[...arguments][0] === payload", "Array.isArray(arguments)",
                  "[1].map(x => arguments[0])[0] === payload", "arguments === arguments",
                  "arguments.hasOwnProperty(0)", "arguments.hasOwnProperty('length')",
                  "Object.keys(arguments)[0]", "'0' in arguments", "arguments.length > 0",
                  "(payload.x = 1, arguments[0].x)", "arguments[0].o.a",
                  "Array.from(arguments)[0] === payload", "arguments.foo",
                  "Object.prototype.toString.call(arguments)",
                  "Reflect.has(arguments, 'length')", "arguments.toString()",
                  "(a => arguments[0])(5) === payload", "structuredClone(arguments[0]).n",
                  "arguments.length = 1", "arguments[0] = 1"]  # fmt: skip
ATOMIC_OPS = ["add", "and", "compareExchange", "exchange", "load", "or", "store", "sub", "xor",
              "wait", "notify", "waitAsync"]  # fmt: skip


def host_values(r: random.Random) -> Case:
    """Globals that reach neither code nor the host: Atomics (no value here is a typed
    array), and the typeof of the ones refused."""
    use = r.choice(HOST_USES).replace("{op}", r.choice(ATOMIC_OPS))
    use = use.replace("{a}", r.choice(ARGUMENTS_USES))
    use = use.replace("{v}", r.choice(HOST_VALUES))
    sizes = ["1", "2", "3", "4", "8", "16", "'4'", "", "-1", "4.5"]
    return use.replace("{n}", r.choice(sizes)), _scope()


# issue 36 (refused as code where nothing reaches code): host objects and Promise only called or
# constructed, names node's global scope lacks (require, window...), and the order of a call's
# steps (its arguments run before its callee is found no function)
HOST_CALLEES = ["globalThis", "global", "process", "console", "performance", "crypto",
                "WebAssembly", "Promise"]  # fmt: skip
UNDEFINED_HOST = ["require", "module", "exports", "__filename", "__dirname", "window",
                  "document", "self", "Worker", "AsyncFunction", "GeneratorFunction"]  # fmt: skip
NOT_CALLABLE = ["payload.o", "payload.zz", "payload.n", "payload.s.foo", "Math", "1",
                "payload.arr[9]", "(payload.o.a)"]  # fmt: skip
NOT_CONSTRUCTOR = ["Math.max", "(x => x)", "payload.s.at", "payload.o", "Symbol"]
CALL_ARGUMENTS = [
    "",
    "1",
    "payload.missing.y",
    "...payload.n",
    "...payload.arr",
    "payload.o",
    "[1, 2]",
    "null",
    "undefined",
    "'s'",
    "new Date(0)",
    "Symbol('q')",
    "1n",
    "-0",
    "/a/g",
    "payload.s",
    "1.5, 2",
    "payload.missing",
    "true",
    "...payload.s",
    "...payload.missing",
    "payload.arr",
    # a spread before another argument: V8 builds an array and applies
    "...payload.arr, 1",
    "...payload.n, 1",
    "...new Date(0), 1",
    "...Math.max(), 1",
    "...Symbol('a'), ...payload.arr",
    "...payload.missing, 2",
    "...(x => 3)(), 1",
    "...null, 1",
    "...payload.o, ...payload.s",
    "...new Map(), ...payload.missing",
    "1, ...payload.s, 2",
    "...Number(1), 1",
    "...payload.arr.at(0), 1",
    "...true, 1",
    "...1n, 1",
]
SPREAD_SOURCES = ["new Date(0)", "Math.max()", "payload.n", "payload.missing", "Symbol('a')",
                  "new Map([[1, 2]])", "payload.zz()", "(x => 3)()", "new (x => x)()",
                  "payload.s", "null", "payload.o", "new Number(1)", "new Set('ab')",
                  "new Date(0).getTime()", "[1].at(0)"]  # fmt: skip
CALL_FORMS = ["{c}({a})", "new {c}({a})", "new {c}", "({c})({a})", "!{c}({a})",
              "typeof {c}({a})", "[{c}({a})]", "{c}({a}) || 1"]  # fmt: skip
UNDEFINED_FORMS = ["{u}", "{u}({a})", "typeof {u}", "{u}.x", "{u}[0]", "new {u}({a})",
                   "typeof {u} === 'undefined'", "{u} === undefined"]  # fmt: skip


def host_calls(r: random.Random) -> Case:
    pick = r.random()
    a = r.choice(CALL_ARGUMENTS)
    if pick < 0.5:
        text = r.choice(CALL_FORMS).replace("{c}", r.choice(HOST_CALLEES))
    elif pick < 0.7:
        text = r.choice(UNDEFINED_FORMS).replace("{u}", r.choice(UNDEFINED_HOST))
    elif pick < 0.85:
        text = r.choice(["{c}({a})", "({c})({a})", "{c}({a}, {a})"])
        text = text.replace("{c}", r.choice(NOT_CALLABLE))
    elif pick < 0.95:
        text = r.choice(["new {c}({a})", "new {c}"]).replace("{c}", r.choice(NOT_CONSTRUCTOR))
    else:
        text = r.choice(["[...{s}]", "[1, ...{s}]", "[...{s}, 1]", "Math.max(...{s})",
                         "Math.max(...{s}, 1)", "[...{s}].length"])  # fmt: skip
        text = text.replace("{s}", r.choice(SPREAD_SOURCES))
    return text.replace("{a}", a), _scope()


# characters at the edges of the root collation: punctuation and symbols in node's own order,
# controls (ignorable or not), lone surrogates, U+FFFD/U+FFFF, letters of their own beyond a-z,
# accents with and without a base, expansions, other scripts, Han
COLLATION_POOL = [*"aAbBzZeé_- ,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0159",
                  "\uffff", "\ufffe", "\ufffd", "\u0000", "\u0001", "\t", "\n", "\u007f",
                  "\u0085", "\u00a0", "\u00ad", "\ud800", "\udc00", "\ud83d", "\u200b",
                  "\u2028", "ß", "æ", "ø", "Ø", "ı", "İ", "σ", "ς", "α", "Ω", "中", "日", "㐀",
                  "あ", "ア", "한", "א", "ا", "ж", "Ж", "€", "£", "¥", "©", "°", "±", "×", "÷", "¡",
                  "¿", "«", "»", "—", "–", "…", "‘", "“", "•", "†", "\u0301", "\u0308", "ǆ", "ﬀ",
                  "①", "½", "²", "٣", "०", "😀", "🅐", "ŉ", "ĳ", "Ð", "ð", "Þ", "þ", "ł", "Ł", "đ",
                  "ħ", "ŋ", "ə", "ʒ", "\u0378", "\u0600", "\ufeff", "\U00020000", "ꝏ",
                  "\u00b7", "\u02bc", "\u0e01", "\u1100", "ǽ", "ร", "េ", "ਃ", "ం", "⺀", "⻳",
                  "ж", "ё", "і", "ჭ", "ש", "ب", "ك", "क", "ि", "ก", "ᄀ", "ㄱ", "ぶ", "ブ", "ｱ",
                  "ꙮ", "Ꭰ", "ᐊ", "ꀀ", "\u1ae5", "\u1cde", "\u0670"]  # fmt: skip


def _js_literal(text: str) -> str:
    def unit(c: str) -> str:
        if c.isascii() and c.isalnum():
            return c
        if ord(c) > 0xFFFF:
            return f"\\u{{{ord(c):x}}}"
        return f"\\u{ord(c):04x}"

    return "'" + "".join(unit(c) for c in text) + "'"


def locale_compare(r: random.Random) -> Case:
    a = "".join(r.choice(COLLATION_POOL) for _ in range(r.randint(0, 3)))
    b = "".join(r.choice(COLLATION_POOL) for _ in range(r.randint(0, 3)))
    if a and r.random() < 0.35:
        b = a[:-1] + r.choice(COLLATION_POOL)  # one character apart
    call = f"{_js_literal(a)}.localeCompare({_js_literal(b)})"
    form = r.choice(["{c}", "{c}", "{c} < 0", "[{a}, {b}].sort((x, y) => x.localeCompare(y))"])
    return form.replace("{c}", call).replace("{a}", _js_literal(a)).replace(
        "{b}", _js_literal(b)
    ), _scope()


#: string literals' escapes, well and badly formed, and the strict-mode octal ones among them
#: (which of two errors V8 reports), and escapes in names
ESCAPE_PIECES = ["a", "\\n", "\\x41", "\\x4", "\\u0041", "\\u004", "\\0", "\\00", "\\08", "\\1",
                 "\\7", "\\8", "\\9", "\\\n", "\\u2028", "\u2028", "\\c", "\\q", '\\"', "\\'",
                 "\\\\", "\\b", "\\v", "\\ud83d", "\\ud83d\\ude00", "😀", "\\t", '"', "'",
                 "\\$", "\n", "\\x"]  # fmt: skip
ESCAPE_FORMS = ["{q}{b}{q}.length", "JSON.stringify({q}{b}{q})", "[...{q}{b}{q}].length",
                "escape({q}{b}{q})", "{q}{b}{q} === {q}{b}{q}", "{q}{b}{q} + 08",
                "x{n} + 1", "{n}a", "a.b{n}"]  # fmt: skip
NAME_ESCAPES = ["\\u0020", "\\u0041", "\\ud800", "\\u200c", "\\u004", "\\u0031", "\\u00b7"]


def escapes(r: random.Random) -> Case:
    body = "".join(r.choice(ESCAPE_PIECES) for _ in range(r.randint(0, 4)))
    form = r.choice(ESCAPE_FORMS).replace("{q}", r.choice(["'", '"']))
    return form.replace("{b}", body).replace("{n}", r.choice(NAME_ESCAPES)), {"x": 1, "a": {}}


FAMILIES: dict[str, Callable[[random.Random], Case]] = {
    "destructuring": destructuring,
    "spread.holes": spread_holes,
    "json.reviver": reviver,
    "descriptors": descriptors,
    "ownkeys": own_keys,
    "frozen": frozen,
    "detached": detached,
    "unicode.names": unicode_names,
    "json.errors": json_errors,
    "functions.own": function_props,
    "date.legacy": date_legacy,
    "bigint.as_n": bigint_as_n,
    "locale.case": locale_case,
    "locale.number": locale_number,
    "reflect": reflect,
    "clone": structured_clone,
    "symbols": symbols,
    "host.values": host_values,
    "host.calls": host_calls,
    "locale.compare": locale_compare,
    "escapes": escapes,
}
