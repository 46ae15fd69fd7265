"""Held-out families: conditions written from what authors of MemberJunction flow paths write,
independently of the other families' grammars (issue 36's held-out judge).

Each family builds its text from its own small grammar over its own data: reads of ``payload``,
``data``, ``stepResult``, ``flowContext`` and ``context`` (present, missing, ``null`` or of
another type, so errors arise at every step and their order shows), method chains with arrow
callbacks (destructuring parameters too), the built-ins authors reach for (String, Number,
Math, JSON, Object, Array, Date, RegExp), every operator, and text broken at every position
(cut short, a token dropped or doubled, bad escapes and numbers, reserved words, Unicode).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any, Final

Case = tuple[str, dict[str, Any]]

# -- the data ---------------------------------------------------------------------------------

_WORDS = ("approved", "Pending", "  review ", "ERROR: 42", "a,b,,c", "", "naïve", "x" * 3,
          "2026-11-30", "12.50", "-0", "1e3", "0x1F", "null", "true", "Ünïcode ß", "tab\there",
          "line\nbreak", "éa", "İstanbul", "😀 ok", "[1,2]", '{"k":1}', "ﬀ", "a-b_c.d")  # fmt: skip
_NUMBERS = (0, 1, -1, 2, 3, 7, 10, 42, 99, 100, 1000, 0.1, 0.5, 2.5, -0.5, 1e21, 123.456,
            -7, 255, 3.14159, 1e-7, 2**53, 2**31, -(2**31), 9007199254740993)  # fmt: skip


def _scalar(rng: random.Random) -> Any:
    pick = rng.random()
    if pick < 0.35:
        return rng.choice(_NUMBERS)
    if pick < 0.7:
        return rng.choice(_WORDS)
    if pick < 0.82:
        return rng.choice((True, False))
    if pick < 0.92:
        return None
    return rng.choice((float("nan"), float("inf"), -0.0))


def _value(rng: random.Random, depth: int = 0) -> Any:
    pick = rng.random()
    if depth >= 2 or pick < 0.5:
        return _scalar(rng)
    if pick < 0.75:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = rng.sample(_KEYS, rng.randint(0, 4))
    return {k: _value(rng, depth + 1) for k in keys}


_KEYS = ("status", "score", "items", "tags", "name", "count", "ok", "user", "meta", "result",
         "total", "email", "level", "when", "list", "id", "price", "value", "type", "length",
         "toString", "constructor", "__proto__", "0", "a b", "ü", "valueOf")  # fmt: skip

_ITEMS = [
    {"id": 1, "price": 9.5, "tags": ["a", "b"], "ok": True, "name": "Alpha"},
    {"id": 2, "price": 0, "tags": [], "ok": False, "name": "beta"},
    {"id": 3, "price": None, "ok": True, "name": ""},
]


def _scope(rng: random.Random) -> dict[str, Any]:
    """A path context in MemberJunction's shape, each part sometimes odd."""
    payload: Any = {
        "status": rng.choice(("approved", "pending", "rejected", "", None, 3, ["approved"])),
        "score": rng.choice((0, 0.7, 85, 100, -1, "85", None, float("nan"), "abc", [90])),
        "items": rng.choice((_ITEMS, [], [1, 2, 3, 2], ["b", "a", "C"], None, "items", {"0": 1})),
        "tags": rng.choice((["urgent", "vip"], [], ["x", None, 3], "urgent", None, [[1], [2, 3]])),
        "name": rng.choice((*_WORDS, None, 0)),
        "count": rng.choice((0, 1, 5, -2, "5", None, 2.5, True)),
        "user": rng.choice(
            (
                {"email": "a@b.co", "roles": ["admin"], "age": 30},
                {},
                None,
                {"email": None, "roles": "admin"},
                "bob",
            )
        ),
        "when": rng.choice(
            (
                "2026-11-30T10:00:00Z",
                "2026-13-01",
                "",
                "Dec 1, 2026",
                0,
                None,
                1764576000000,
                "2026-12-01",
            )
        ),
        "o": rng.choice(({"a": 1, "b": 2}, {"x": "1", "y": None}, {}, {"k": [1, 2]})),
        "s": rng.choice(_WORDS),
        "n": rng.choice(_NUMBERS),
        "arr": [_value(rng, 1) for _ in range(rng.randint(0, 4))],
    }
    for key in rng.sample(list(payload), rng.randint(0, 3)):
        del payload[key]
    if rng.random() < 0.05:
        payload = rng.choice((None, "text", 5, [1, 2]))
    scope: dict[str, Any] = {
        "payload": payload,
        "data": {k: _value(rng) for k in rng.sample(_KEYS, rng.randint(0, 5))},
        "context": {"tier": rng.choice(("gold", "free", None)), "limit": rng.choice((3, "3"))},
    }
    if rng.random() < 0.7:
        scope["stepResult"] = rng.choice((
            {"success": True, "output": {"answer": "yes", "confidence": 0.9}},
            {"success": False, "errorMessage": "timeout", "output": None},
            {"success": True, "output": "plain text"},
            {"success": True, "output": [1, 2, 3]},
            None,
        ))  # fmt: skip
    if rng.random() < 0.7:
        scope["flowContext"] = {
            "currentStepId": rng.choice(("step-1", "approve", "")),
            "completedSteps": rng.choice((["a", "b"], [], ["approve"])),
            "executionPath": rng.choice((["start", "a"], [])),
            "stepCount": rng.choice((0, 1, 4, 20)),
        }
    return scope


# -- reads ------------------------------------------------------------------------------------

_PATHS = ("payload.status", "payload.score", "payload.items", "payload.tags", "payload.name",
          "payload.count", "payload.user", "payload.user.email", "payload.user.roles",
          "payload.user.age", "payload.when", "payload.o", "payload.s", "payload.n",
          "payload.arr", "payload.missing", "payload.missing.deeper", "data.status",
          "data.items", "data.score", "data.count", "data.meta", "data.list",
          "stepResult.success", "stepResult.output", "stepResult.output.answer",
          "stepResult.output.confidence", "stepResult.errorMessage", "flowContext.stepCount",
          "flowContext.completedSteps", "flowContext.currentStepId", "flowContext.executionPath",
          "context.tier", "context.limit", "payload['status']", "payload[\"a b\"]",
          "payload.items[0]", "payload.items[0].price", "payload.tags[1]", "payload.arr[0]",
          "payload?.user?.email", "payload.user?.roles?.[0]", "stepResult?.output?.answer",
          "payload.items?.length", "payload.tags.length", "payload.s.length",
          "data?.meta?.level", "payload.o.a", "payload.o['b']")  # fmt: skip

_LITERALS = ("0", "1", "-1", "2.5", "100", "'approved'", "\"pending\"", "''", "null",
             "undefined", "true", "false", "NaN", "Infinity", "[]", "[1, 2]", "'5'", "0.1 + 0.2",
             "1e3", "0x10", "0b101", "0o17", "1_000", ".5", "5.", "'\\u00e9'", "'\\x41'",
             "'a\\'b'", "-0", "2**53", "10n", "[,]", "[1,,3]")  # fmt: skip


def _read(rng: random.Random) -> str:
    return rng.choice(_PATHS)


def _lit(rng: random.Random) -> str:
    return rng.choice(_LITERALS)


def _atom(rng: random.Random) -> str:
    return _read(rng) if rng.random() < 0.7 else _lit(rng)


# -- method chains with callbacks --------------------------------------------------------------

_CALLBACKS = ("x => x", "x => !x", "x => x > 1", "x => x?.ok", "x => x.ok", "x => x.price > 5",
              "(x, i) => i % 2 === 0", "x => typeof x === 'string'", "x => x == null",
              "({ ok }) => ok", "({ price = 1 }) => price > 0", "([a, b]) => a",
              "([k, v]) => v > 1", "(x) => (x ?? 0) * 2", "x => String(x).toUpperCase()",
              "x => x.tags.length", "x => [x]", "(a, b) => a - b", "(a, b) => b.id - a.id",
              "x => x.name.trim()", "({ name: n }) => n.length", "x => x.id === 2",
              "(...xs) => xs.length", "(x = 3) => x", "x => x.includes('a')",
              "async x => x", "x => { return x }")  # fmt: skip
_ARRAY_METHODS = ("some", "every", "filter", "map", "find", "findIndex", "findLast", "flatMap",
                  "forEach")  # fmt: skip
_ARRAY_PLAIN = ("length", "join(',')", "join()", "includes('urgent')", "includes(2)",
                "indexOf('vip')", "at(-1)", "slice(1)", "slice(-2, -1)", "concat([9])",
                "flat()", "flat(Infinity)", "reverse()", "sort()", "toSorted()", "keys().next()",
                "entries().next().value", "lastIndexOf(2)", "fill(0)", "push(1)", "pop()",
                "shift()", "splice(0, 1)", "toReversed()", "with(0, 'z')",
                "reduce((a, b) => a + b)",
                "reduce((a, b) => a + b, 0)", "reduceRight((a, b) => a + b, '')",
                "toString()", "copyWithin(0, 1)", "findLastIndex(x => x)")  # fmt: skip
_STRING_METHODS = ("toLowerCase()", "toUpperCase()", "trim()", "trimStart()", "length",
                   "includes('a')", "startsWith('app')", "endsWith('ed')", "split(',')",
                   "split('')", "split(/,+/)", "indexOf('e')", "charAt(0)", "charCodeAt(0)",
                   "codePointAt(0)", "at(-1)", "slice(0, 3)", "substring(2)", "substr(-3, 2)",
                   "padStart(8, '*')", "padEnd(3)", "repeat(2)", "repeat(-1)",
                   "replace('a', 'A')", "replace(/a/g, '$&$&')", "replaceAll('a', 'b')",
                   "replaceAll(/a/, 'b')", "match(/\\d+/)", "match(/[a-z]+/g)",
                   "search(/e/)", "normalize('NFD')", "normalize('bad')", "localeCompare('b')",
                   "concat(1, null)", "isWellFormed()", "toString()", "valueOf()",
                   "matchAll(/a/g).next()", "split(',', 2)", "lastIndexOf('a')",
                   "toLocaleUpperCase()", "trimEnd()")  # fmt: skip
_NUMBER_METHODS = ("toFixed(2)", "toFixed(0)", "toFixed(101)", "toPrecision(3)",
                   "toPrecision(0)", "toString(2)", "toString(36)", "toString(1)",
                   "toExponential(1)", "valueOf()", "toLocaleString()")  # fmt: skip


def _chain(rng: random.Random) -> str:
    base = rng.choice(("payload.items", "payload.tags", "payload.arr", "data.items",
                       "data.list", "flowContext.completedSteps", "stepResult.output",
                       "payload.s", "payload.name", "payload.status", "payload.score",
                       "payload.n", "payload.count", "Object.entries(payload.o)",
                       "Object.values(payload.o ?? {})", "Object.keys(payload)",
                       "[payload.s, payload.n]", "Array.from(payload.s ?? '')",
                       "(payload.tags || [])", "[...(payload.items ?? [])]"))  # fmt: skip
    text = base
    for _ in range(rng.randint(1, 3)):
        optional = "?." if rng.random() < 0.2 else "."
        pick = rng.random()
        if pick < 0.35:
            text += f"{optional}{rng.choice(_ARRAY_METHODS)}({rng.choice(_CALLBACKS)})"
        elif pick < 0.6:
            text += optional + rng.choice(_ARRAY_PLAIN)
        elif pick < 0.85:
            text += optional + rng.choice(_STRING_METHODS)
        else:
            text += optional + rng.choice(_NUMBER_METHODS)
    if rng.random() < 0.5:
        text = f"{text} {rng.choice(_COMPARE)} {_atom(rng)}"
    return text


# -- built-ins --------------------------------------------------------------------------------

_BUILTINS = ("Math.max({a}, {b})", "Math.min(...[{a}, {b}])", "Math.round({a})",
             "Math.floor({a})", "Math.abs({a})", "Math.sign({a})", "Math.trunc({a})",
             "Math.pow({a}, {b})", "Math.sqrt({a})", "Math.hypot({a}, {b})", "Math.clz32({a})",
             "Math.log10({a})", "Math.fround({a})", "Math.cbrt({a})", "Number({a})",
             "Number.isInteger({a})", "Number.isFinite({a})", "Number.parseFloat({a})",
             "parseInt({a})", "parseInt({a}, 16)", "parseFloat({a})", "isNaN({a})",
             "isFinite({a})", "String({a})", "Boolean({a})", "Array.isArray({a})",
             "Array.of({a}, {b})", "Array.from({a})", "Array({a})", "new Array({a})",
             "Object.keys({a})", "Object.values({a})", "Object.entries({a})",
             "Object.assign({{}}, {a})", "Object.fromEntries({a})", "Object.is({a}, {b})",
             "Object.hasOwn({a}, 'status')", "JSON.stringify({a})", "JSON.stringify({a}, null, 2)",
             "JSON.parse({a})", "JSON.parse(JSON.stringify({a}))", "new Date({a}).getTime()",
             "new Date({a}).toISOString()", "Date.parse({a})", "new Date({a}) < new Date({b})",
             "new Date({a}).getUTCDay()", "Date.UTC(2026, {a})", "new Date().getFullYear()",
             "Date.now() > {a}", "new Date({a}).toJSON()", "new Date({a}).getTimezoneOffset()",
             "new RegExp({a}).test({b})", "/^a/i.test({a})", "/(\\d+)-(\\d+)/.exec({a})",
             "new RegExp({a}, 'g')", "encodeURIComponent({a})", "decodeURIComponent({a})",
             "escape({a})", "encodeURI({a})", "String.fromCharCode({a})", "Number({a}).toFixed(1)",
             "new Set({a}).size", "new Map(Object.entries({a})).get('a')", "[{a}].flat()",
             "Object.freeze({a})", "structuredClone({a})", "Symbol({a}).toString()",
             "BigInt({a})", "Array.prototype.slice.call({a})", "Math.max.apply(null, {a})",
             "Object.getOwnPropertyNames({a})", "Number.prototype.toString.call({a})",
             "({a}).constructor.name", "typeof {a}", "Object.prototype.toString.call({a})",
             "String.raw`x`", "isNaN(+{a})", "{a}.toString()", "({a} + '').length")  # fmt: skip


def _builtin(rng: random.Random) -> str:
    template = rng.choice(_BUILTINS)
    return template.format(a=_atom(rng), b=_atom(rng))


# -- operators --------------------------------------------------------------------------------

_COMPARE = ("===", "!==", "==", "!=", "<", "<=", ">", ">=")
_BINARY = (*_COMPARE, "&&", "||", "??", "+", "-", "*", "/", "%", "**", "&", "|", "^", "<<",
           ">>", ">>>", "in", "instanceof", ",")  # fmt: skip
_UNARY = ("!", "-", "+", "~", "typeof ", "void ", "!!", "delete ")


def _operand(rng: random.Random, depth: int) -> str:
    if depth > 2:
        return _atom(rng)
    pick = rng.random()
    if pick < 0.45:
        return _atom(rng)
    if pick < 0.6:
        return _builtin(rng)
    if pick < 0.7:
        return f"{rng.choice(_UNARY)}{_operand(rng, depth + 1)}"
    if pick < 0.8:
        return f"({_operation(rng, depth + 1)})"
    if pick < 0.9:
        return (
            f"{_operand(rng, depth + 1)} ? {_operand(rng, depth + 1)} : {_operand(rng, depth + 1)}"
        )
    return _chain(rng)


def _operation(rng: random.Random, depth: int = 0) -> str:
    left, right = _operand(rng, depth), _operand(rng, depth)
    op = rng.choice(_BINARY)
    if op == "," and depth == 0:
        return f"({left}, {right})"
    if op == "instanceof":
        right = rng.choice(("Array", "Object", "Date", "String", "RegExp", "Error", right))
    if op == "in":
        left = rng.choice(("'status'", "'length'", "0", "'toString'", left))
    return f"{left} {op} {right}"


def _conditions(rng: random.Random) -> Case:
    return _operation(rng), _scope(rng)


def _methods(rng: random.Random) -> Case:
    return _chain(rng), _scope(rng)


def _builtins(rng: random.Random) -> Case:
    text = _builtin(rng)
    if rng.random() < 0.4:
        text = f"{text} {rng.choice(_COMPARE)} {_atom(rng)}"
    return text, _scope(rng)


# -- everyday conditions, written as authors write them ------------------------------------------

_EVERYDAY = (
    "payload.status === 'approved' && payload.score >= 80",
    "payload.items?.length > 0 && payload.items.every(i => i.ok)",
    "Object.entries(payload.o).some(([k, v]) => v > 1)",
    "payload.items.filter(({ price }) => price > 5).length >= 1",
    "payload.tags.includes('urgent') || payload.count > 3",
    "stepResult.success && stepResult.output?.confidence > 0.8",
    "!stepResult.success && stepResult.errorMessage.includes('time')",
    "flowContext.stepCount < 10 && !flowContext.completedSteps.includes('approve')",
    "new Date(payload.when) < new Date()",
    "Date.now() - new Date(payload.when).getTime() > 86400000",
    "/^[^@]+@[^@]+\\.[a-z]+$/i.test(payload.user.email)",
    "payload.user?.roles?.some(r => ['admin', 'owner'].includes(r))",
    "(payload.name ?? '').trim().length > 0",
    "Number(payload.score) > Number(context.limit)",
    "parseInt(payload.score, 10) >= 50",
    "payload.items.reduce((sum, { price }) => sum + (price ?? 0), 0) > 10",
    "payload.items.map(i => i.name.toLowerCase()).includes('alpha')",
    "Math.max(...payload.items.map(i => i.price ?? 0)) >= 9.5",
    "JSON.stringify(payload.o) !== '{}'",
    "Object.keys(payload.o ?? {}).length === 0",
    "typeof payload.score === 'number' && !Number.isNaN(payload.score)",
    "payload.status in { approved: 1 }",
    "['approved', 'pending'].indexOf(payload.status) !== -1",
    "payload.items.find(i => i.id === 2)?.ok === false",
    "payload.tags.join('|').split('|').length === payload.tags.length",
    "String(payload.count).padStart(3, '0') === '005'",
    "payload.s.split(' ').map(w => w[0]).join('')",
    "[...new Set(payload.tags)].length === payload.tags.length",
    "payload.items.sort((a, b) => a.id - b.id)[0].id === 1",
    "context.tier === 'gold' ? payload.score > 50 : payload.score > 80",
    "(data.count = 5, data.count > 3)",
    "(payload.count ||= 7) > 6",
    "payload.items.at(-1).name.endsWith('a')",
    "payload.items.flatMap(i => i.tags ?? []).length",
    "Array.isArray(payload.tags) && payload.tags.length",
    "delete payload.status && !('status' in payload)",
    "payload.n.toFixed(2) === '42.00'",
    "payload.s.localeCompare('b') < 0",
    "Object.fromEntries(Object.entries(payload.o).map(([k, v]) => [k, v * 2])).a === 2",
    "payload.items.findLast(i => i.ok)?.id",
    "payload.when.slice(0, 4) === '2026'",
    "new Date(payload.when).toISOString().startsWith('2026')",
    "payload.user.email.split('@')[1].endsWith('.co')",
    "payload.score > 50 && payload.score < 90 || payload.status === 'rejected'",
    "payload.tags?.[0]?.toUpperCase?.() === 'URGENT'",
    "void 0 === payload.missing",
    "payload.items instanceof Array && !(payload.o instanceof Array)",
    "Math.round(payload.score * 100) / 100 > 0.5",
    "payload.arr.length && payload.arr.every(x => x !== null)",
    "[payload.status].concat(payload.tags).filter(Boolean).length > 1",
)  # fmt: skip


def _everyday(rng: random.Random) -> Case:
    return rng.choice(_EVERYDAY), _scope(rng)


# -- broken text ------------------------------------------------------------------------------

_INSERTS = ("(", ")", "[", "]", ",", ".", "?.", "=>", "=", "==", "...", "!", "'", '"', "\\",
            "?", ":", ";", "{", "}", "`", "#", "@", "0x", "1e", "09", "08.5", "1_", "1__0",
            "0b2", "0o8", "'\\u{110000}'", "'\\x4'", "'\\u12'", "in", "of", "new", "class",
            "function", "let", "yield", "await", "this", "super", "return", "if",
            "enum", "static", "\u00a0", "\u2028", "\u200b", "\ufeff", "é", "ß", "a·", "𝒳", "ℵ",
            "\u0301", "\\u0061", "/", "/a/gg", "/[/", "*", "++", "--", "<!--", "-->", "\n",
            "\t", "#x", "debugger", "with", "arguments", "eval", "Function",
            "constructor", "__proto__", "prototype", "0.0.0", "1..toString()", "1.e",
            "..")  # fmt: skip


def _broken(rng: random.Random) -> Case:
    source = rng.choice((_EVERYDAY[rng.randrange(len(_EVERYDAY))], _operation(rng), _chain(rng)))
    how = rng.random()
    if how < 0.3:
        cut = rng.randint(1, max(1, len(source) - 1))
        text = source[:cut]
    elif how < 0.65:
        at = rng.randint(0, len(source))
        text = source[:at] + rng.choice(_INSERTS) + source[at:]
    elif how < 0.85:
        at = rng.randint(0, max(0, len(source) - 1))
        end = min(len(source), at + rng.randint(1, 3))
        text = source[:at] + source[end:]
    else:
        at = rng.randint(0, len(source))
        text = source[:at] + " " + rng.choice(_INSERTS) + " " + rng.choice(_INSERTS) + source[at:]
    if _WRITES.search(text.replace(" ", "")) and not _WRITES.search(source.replace(" ", "")):
        return source, _scope(rng)  # a write could land on a built-in (see _tokens)
    if _unsafe(text):
        return source, _scope(rng)
    return text, _scope(rng)


# -- assignment, spread, comma, update, delete: the engine's copy of the scope changes ---------

_MUTATIONS = ("payload.count++", "++payload.count", "payload.count += 1", "payload.count -= '1'",
              "payload.status = 'x'", "payload.items.length = 1", "payload.tags.length = 0",
              "payload.items[5] = 1", "payload.o.a ??= 3", "payload.o.z ||= 1",
              "payload.o.a &&= 0", "data.count **= 2", "payload.s += 1", "payload.n >>>= 1",
              "delete payload.o.a", "delete payload.items[0]", "delete payload",
              "[payload.a, payload.b] = [1, 2]", "[x, y] = [1, 2]",
              "[payload.a, ...payload.rest] = payload.tags", "[payload.a = 9] = payload.arr",
              "[[payload.a], payload.b = payload.a] = payload.items",
              "[, payload.c] = payload.s", "[...payload.all] = payload.o",
              "[payload.a, ...payload.r, payload.b] = []", "[payload.o.a] = 5", "z = 1",
              "payload.x = payload",
              "payload.tags.push(payload.tags.length)", "payload.items.splice(1)",
              "payload.arr.unshift(0)", "payload.user.age--", "payload.missing.x = 1",
              "payload.missing?.x", "undefined = 1", "NaN = 0", "payload = 1")  # fmt: skip


def _mutations(rng: random.Random) -> Case:
    parts = [rng.choice(_MUTATIONS) for _ in range(rng.randint(1, 2))]
    parts.append(rng.choice((_read(rng), "payload", "JSON.stringify(payload)", "data",
                             "payload.count", "payload.items.length", "Object.keys(payload.o)",
                             "payload.tags", "z")))  # fmt: skip
    text = ", ".join(parts)
    # parenthesised: the engine pastes the condition into Boolean(...), where a top-level comma
    # separates arguments (only the first counts); the probe records one value the same way
    return f"({text})", _scope(rng)


# -- values at the edges of conversions and of methods' arguments -----------------------------

_ODD_ARGS = ("undefined", "null", "NaN", "-1", "-0", "0", "1.5", "2", "Infinity", "-Infinity",
             "'2'", "''", "'x'", "[]", "[3]", "[1, 2]", "true", "1e21", "2**32", "-(2**31)",
             "payload.n", "payload.s", "payload.missing", "payload.o", "payload.arr")  # fmt: skip
_CALLS = ("'{s}'.slice({a}, {b})", "'{s}'.substring({a}, {b})", "'{s}'.substr({a}, {b})",
          "'{s}'.padStart({a}, {b})", "'{s}'.padEnd({a})", "'{s}'.indexOf({a}, {b})",
          "'{s}'.lastIndexOf({a}, {b})", "'{s}'.at({a})", "'{s}'.charAt({a})",
          "'{s}'.charCodeAt({a})", "'{s}'.codePointAt({a})", "'{s}'.split({a}, {b})",
          "'{s}'.repeat({a})", "'{s}'.startsWith({a}, {b})", "'{s}'.includes({a}, {b})",
          "'{s}'.endsWith({a}, {b})", "'{s}'.concat({a}, {b})", "'{s}'.localeCompare({a})",
          "[1, 2, 3, 4].slice({a}, {b})", "[1, 2, 3, 4].at({a})", "[1, 2, 3, 4].indexOf({a}, {b})",
          "[1, 2, 3, 4].includes({a}, {b})", "[1, 2, 3, 4].fill(0, {a}, {b})",
          "[1, 2, 3, 4].copyWithin({a}, {b})", "[1, 2, 3, 4].splice({a}, {b})",
          "[1, 2, 3, 4].join({a})", "[1, 2, 3, 4].flat({a})", "[1, 2, 3, 4].lastIndexOf({a}, {b})",
          "[1, [2, [3]]].flat({a})", "Array.from({{length: 2}})", "Array({a})",
          "({a}).toFixed({b})", "({a}).toPrecision({b})", "({a}).toString({b})",
          "({a}).toExponential({b})", "Number({a})", "parseInt({a}, {b})", "parseFloat({a})",
          "Math.round({a})", "Math.max({a}, {b})", "Math.min({a}, {b})", "Math.atan2({a}, {b})",
          "Math.pow({a}, {b})", "({a}) % ({b})", "({a}) ** ({b})", "({a}) / ({b})",
          "({a}) >>> ({b})", "({a}) << ({b})", "({a}) - ({b})", "({a}) + ({b})",
          "({a}) < ({b})", "({a}) == ({b})", "({a}) === ({b})", "String({a})",
          "JSON.stringify({a})", "JSON.stringify([{a}, {b}])", "Object.is({a}, {b})",
          "new Date({a}).getTime()", "new Date({a}, {b}).getMonth()", "Date.UTC({a}, {b})",
          "new Date(Date.UTC(2026, {a})).toISOString()", "String(new Date({a}))",
          "new Date({a}).toUTCString()", "isNaN({a})", "Number.isSafeInteger({a})",
          "BigInt({a})", "Boolean({a})", "[{a}, {b}].sort()", "[{a}, {b}].toString()",
          "[{a}, {b}].map(Number)", "[{a}, {b}].map(String)", "[{a}, {b}].filter(Boolean)",
          "[{a}, {b}].map(parseInt)", "Math.sign({a}) * 0", "1 / Math.trunc({a})")  # fmt: skip


def _values(rng: random.Random) -> Case:
    template = rng.choice(_CALLS)
    s = rng.choice(("abcabc", "", "é😀x", "a,b,,c", "  pad ", "İ", "ß"))
    text = template.format(s=s, a=rng.choice(_ODD_ARGS), b=rng.choice(_ODD_ARGS))
    if rng.random() < 0.3:
        text = f"{text} {rng.choice(_COMPARE)} {_atom(rng)}"
    return text, _scope(rng)


# -- callbacks with patterns, defaults and odd comparators -----------------------------------

_PARAMS = ("x", "(x)", "([a, b])", "([a, b = 9])", "([, b])", "([a, ...rest])", "([[a]])",
           "(x, i, arr)", "(x = 1)", "([a] = [])", "(a, b)", "([a, [b]])", "(...args)",
           "([k, v], i)", "(_, i)")  # fmt: skip
_BODIES = ("x", "a", "b", "rest", "args.length", "i", "arr.length", "v", "k", "a + b",
           "typeof a", "[a, b]", "a ?? b", "b?.length", "a > b", "x?.[0]", "rest.length > 0",
           "String(a) + b", "i % 2", "!x")  # fmt: skip
_SOURCES = ("[[1, 2], [3], [], [null, 4]]", "[[1, [2]], ['a', 'b']]", "Object.entries(payload.o)",
            "payload.items", "payload.arr", "payload.tags", "[1, 2, 3]", "['b', 'a', 'c']",
            "[3, 1, 2].entries().toArray?.() ?? [[0, 3]]", "Array.from('abc').entries().next()",
            "[undefined, null, 0]", "Object.entries(payload.user ?? {})")  # fmt: skip


def _callbacks(rng: random.Random) -> Case:
    method = rng.choice(("map", "filter", "some", "every", "find", "flatMap", "findIndex",
                         "reduce", "sort", "forEach", "findLast"))  # fmt: skip
    params = rng.choice(_PARAMS)
    body = rng.choice(_BODIES)
    if method == "reduce":
        cb = f"(acc, {params.strip('()') or 'x'}) => acc + ({body})"
        extra = rng.choice(("", ", 0", ", ''", ", []"))
        text = f"{rng.choice(_SOURCES)}.reduce({cb}{extra})"
    elif method == "sort":
        text = f"{rng.choice(_SOURCES)}.slice().sort((p, q) => {rng.choice(_BODIES)})"
        text = text.replace("=> x", "=> p").replace("=> a", "=> q")
    else:
        text = f"{rng.choice(_SOURCES)}.{method}({params} => {body})"
    if rng.random() < 0.4:
        text = f"JSON.stringify({text})"
    return text, _scope(rng)


_TOKEN = re.compile(r"\s+|\w+|'[^']*'|\"[^\"]*\"|/[^/\n]+/[a-z]*|\?\.|=>|\.\.\.|[^\w\s]{1,3}")
_KEYWORDS = ("new", "typeof", "void", "delete", "in", "of", "instanceof", "function", "class",
             "let", "const", "var", "yield", "this", "super", "enum", "static",
             "null", "true", "undefined", "NaN", "async", "get", "set", "target", "meta",
             "arguments", "=>", "...", "?.", "?", ":", ",", "(", ")", "[", "]", "??", "||",
             "!", "~", "**", "/", "#a", ".", "0", "1n", "'s'",
             "/x/", "//", "<!--", "\n-->", "\\u0061", "\\u{61}", "ℹ", "\u2028")  # fmt: skip


def _tokens(rng: random.Random) -> Case:
    """Token-level damage: a token dropped, doubled, swapped with its neighbour, or a keyword,
    operator or odd character put between two."""
    source = rng.choice((rng.choice(_EVERYDAY), _operation(rng), _chain(rng), _builtin(rng)))
    parts = [t for t in _TOKEN.findall(source) if not t.isspace()]
    for _ in range(rng.randint(1, 2)):
        if not parts:
            break
        k = rng.randrange(len(parts))
        how = rng.random()
        if how < 0.25:
            del parts[k]
        elif how < 0.45:
            parts.insert(k, parts[k])
        elif how < 0.6 and k + 1 < len(parts):
            parts[k], parts[k + 1] = parts[k + 1], parts[k]
        else:
            parts.insert(k, rng.choice(_KEYWORDS))
    glue = rng.choice((" ", "", " "))
    text = glue.join(parts)
    if _WRITES.search(text.replace(" ", "")) and not _WRITES.search(source.replace(" ", "")):
        # a write the damage made could land on a built-in (`Array.isArray += 1`), which the
        # engine's process keeps for every later case of the batch
        return source, _scope(rng)
    if _unsafe(text):
        return source, _scope(rng)
    return text, _scope(rng)


_CLOCK: Final = re.compile(r"\bDate\b(?!\s*[.(])|\bDate\s*\.\s*now\b(?!\s*\()")


def _unsafe(text: str) -> bool:
    """import(...) would load a module in the engine's host; the harness pins the clock with
    a Date of its own, which prints as itself where Date or Date.now is a value."""
    return "import" in text or _CLOCK.search(text) is not None


_WRITES: Final = re.compile(r"(?<![=!<>])=(?![=>])|\+\+|--|delete|(?:<<|>>|[-+*/%&|^?])=(?!=)")


FAMILIES: dict[str, Callable[[random.Random], Case]] = {
    "heldout.tokens": _tokens,
    "heldout.values": _values,
    "heldout.callbacks": _callbacks,
    "heldout.conditions": _conditions,
    "heldout.methods": _methods,
    "heldout.builtins": _builtins,
    "heldout.everyday": _everyday,
    "heldout.broken": _broken,
    "heldout.mutations": _mutations,
}
