"""Generator families for regular expressions, ``new``, Date and the clock (issue 23).

``FAMILIES`` maps a family name to a function drawing one ``(expr, scope)`` from a
``random.Random`` (the shape ``draw.py`` merges). Every case is judged at the pinned instant of
``draw.NOW``: node's ``Date`` is swapped for one reading that instant (``mj_oracle.mjs``) and
flowctx is given the same ``now``. Texts pass MemberJunction's own pre-checks (no braces, so
no ``{n}`` quantifiers; balanced parentheses even inside patterns) or are refused by them
alike.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Case = tuple[str, dict[str, Any]]

# --- regular expressions ---------------------------------------------------------------------

PATTERNS = [
    "a", "^a", "a$", "^AB", "\\d+", "\\d", "\\w+", "\\W", "\\s+", "\\S+", "\\b\\w", "\\B",
    "[a-c]+", "[^a-c]", ".", ".+", "(a)(b)?", "(?<x>\\d)(?<y>\\w)?", "a|b", "(a|ab)(c|bcd)",
    "(?=a)", "(?!a)\\w", "(?<=a)b", "(?<!a)b", "x*", "a*?", "(\\w)\\1", "é", "😀", ".$",
    "^.$", "\\u00e9", "[😀]", "\\p" + "L", "ß", "k", "K", "İ", "(?:)", "-", ",\\s*", "(-)",
    "\\.", "[.]", "\\n", "^$", "(a)|(b)", "\\x41", "[\\d-]+", "(?<d>\\d)+",
    # empty matches V8 finds between the halves of a surrogate pair under u/v
    "(?<!a)(?!a)", "\\B.?", "(\\B)", "\\B$",
    # without u, /i compares by toUpperCase: ſ, the Kelvin sign, the ohm match only themselves
    "[a-z]+", "[\\u2100-\\u2200]", "s", "ω", "[^\\u0100-\\u0200]", "[\\u0000-\\uffff]",
]  # fmt: skip
FLAGS = ["", "g", "i", "gi", "m", "s", "u", "y", "gy", "d", "gu", "v", "gv", "dg", "im", "su"]
TEXTS = [
    "", "a", "abc", "ABC", "aaa", "aXbxc", "a-b-c", "a, b,c", "123 456", "x😀y", "😀", "café",
    "Straße", "İstanbul", "\u212a", "ab\ncd", "a1b22c", "  pad  ", "abab", "cost $42",
    "ORDER-1234", "é", "e\u0301", "\ud83d", "1-2-3", "bab", "aab", "a😀b", "😀😀", "a😀😀b",
    "ſK\u212aı", "Ωω\u2126", "ᾀᾈ",
]  # fmt: skip
STRING_OPS = [
    "s.match({r})", "s.match({r})?.index", "s.match({r})?.length", "s.search({r})",
    "s.replace({r}, '[$&]')", "s.replace({r}, '$1|$2')", "s.replace({r}, \"$`|$'\")",
    "s.replace({r}, '$<x>')", "s.replace({r}, '$$')", "s.replace({r}, (m, ...a) => m.length)",
    "s.replace({r}, (m, p1, off) => off)", "s.split({r})", "s.split({r}, 2)",
    "s.split({r}).length", "[...s.matchAll({r})].length", "[...s.matchAll({r})].map(m => m.index)",
    "s.replaceAll({r}, '_')", "{r}.test(s)", "{r}.exec(s)", "{r}.exec(s)?.index",
    "{r}.exec(s)?.groups", "{r}.exec(s)?.indices", "JSON.stringify({r}.exec(s))",
    "(r => [r.test(s), r.lastIndex, r.test(s), r.lastIndex])({r})", "String({r})",
    "{r}.source", "{r}.flags", "{r}.global", "{r}.sticky", "{r}.unicode", "{r}.hasIndices",
    "{r}.lastIndex", "typeof {r}", "s.split({r}, 0)", "s.includes({r})",
    "(r => (r.lastIndex = 2, [r.exec(s)?.index, r.lastIndex]))({r})",
]  # fmt: skip


def _literal(r: random.Random) -> str:
    pattern = r.choice(PATTERNS).replace("/", "\\/")
    return f"/{pattern}/{r.choice(FLAGS)}"


def regex_methods(r: random.Random) -> Case:
    op = r.choice(STRING_OPS)
    return op.replace("{r}", _literal(r)), {"s": r.choice(TEXTS)}


def regex_paths(r: random.Random) -> Case:
    """How conditions use them: a test on a payload field."""
    field = r.choice(["code", "email", "status", "n", "missing"])
    pattern = r.choice(["^AB", "@", "^[a-z]+@[a-z]+\\.com$", "^\\d+$", "fail|error", "^$"])
    flags = r.choice(["", "i"])
    text = f"/{pattern}/{flags}.test(payload.{field})"
    if r.random() < 0.3:
        text = f"!{text} && payload.n > 1"
    payload = {
        "code": r.choice(["ABC", "abc", "XAB", ""]),
        "email": r.choice(["a@b.com", "A@B.COM", "nope"]),
        "status": r.choice(["failed", "ok", "Error"]),
        "n": r.choice([0, 5, 12]),
    }
    return text, {"payload": payload}


CTOR_SOURCES = ["'a+'", "'^a'", "'\\\\d'", "'('", "'[b-a]'", "''", "'a/b'", "'\\n'", "s",
                "/x/g", "/x/", "undefined", "null", "1", "'(?<n>a)\\\\k<n>'"]  # fmt: skip
CTOR_FLAGS = ["", ", 'g'", ", 'gi'", ", 'gg'", ", 'x'", ", 'uv'", ", undefined", ", 'y'"]
CTOR_OPS = ["String({c})", "{c}.test(s)", "{c}.source", "{c}.flags", "s.replace({c}, '#')",
            "s.split({c}).length", "typeof {c}", "{c}.lastIndex", "s.match({c})"]  # fmt: skip


def regex_ctor(r: random.Random) -> Case:
    ctor = f"{r.choice(['new RegExp', 'RegExp'])}({r.choice(CTOR_SOURCES)}{r.choice(CTOR_FLAGS)})"
    return r.choice(CTOR_OPS).replace("{c}", ctor), {"s": r.choice(TEXTS)}


def regex_division(r: random.Random) -> Case:
    """'/' after a value divides; after an operator it starts a regular expression."""
    return r.choice([
        ("a / 2 / b", {"a": 8, "b": 2}), ("a /2/ b", {"a": 8, "b": 2}), ("[8][0] /2/ 1", {}),
        ("(8) / 2 / 1", {}), ("a.n / 2", {"a": {"n": 4}}), ("typeof /a/", {}),
        ("!/a/.test(s)", {"s": "b"}), ("x => /a/.test(x)", {}), ("1 + /a/.source", {}),
        ("[/a/, /b/g].length", {}), ("s ? /a/ : /b/", {"s": ""}),
        ("a/b/c", {"a": 1, "b": 2, "c": 4}),
        ("/=/.test(s)", {"s": "a=b"}), ("a /= 2", {"a": 8}), ("/[/]/.test(s)", {"s": "/"}),
        ("/\\//.test(s)", {"s": "/"}), ("void /a/", {}), ("typeof /[)]/", {}),
    ])  # fmt: skip


# --- Date and the clock -----------------------------------------------------------------------

INSTANTS = ["0", "1796115600000", "-1", "8.64e15", "8.64e15 + 1", "NaN", "1e12", "-62198755200000",
            "951782400000", "'2026-12-01'", "'2026-12-01T09:00'", "'2026-12-01T09:00:00Z'",
            "'2026-02-30'", "'2026-13-01'", "'Dec 1, 2026'", "'2026/12/01'", "'12/01/2026'",
            "'Tue, 01 Dec 2026 09:00:00 GMT'", "'1 December 2026 10:30'", "'x'", "''",
            "'2026-12-01T09:00:00.123456+01:00'", "'2026-12-01T24:00:00Z'", "2026, 11",
            "2026, 0, 31", "99, 1, 1", "2026, 11, 1, 25, 61", "2026, 1, 29", "-1, 0", "2026",
            "new Date(0)", "true", "null"]  # fmt: skip
GETTERS = ["getTime", "valueOf", "getFullYear", "getMonth", "getDate", "getDay", "getHours",
           "getMinutes", "getSeconds", "getMilliseconds", "getUTCFullYear", "getUTCMonth",
           "getUTCDate", "getUTCDay", "getUTCHours", "getTimezoneOffset", "getYear",
           "toISOString", "toJSON", "toString", "toDateString", "toTimeString", "toUTCString",
           "toLocaleDateString", "toLocaleTimeString", "toLocaleString"]  # fmt: skip
SETTERS = ["setFullYear(2030)", "setMonth(13)", "setDate(0)", "setDate(31)", "setHours(25)",
           "setMinutes(-1)", "setSeconds(90)", "setMilliseconds(1500)", "setTime(5)",
           "setUTCHours(0, 0, 0, 0)", "setFullYear(2021, 1, 29)", "setYear(99)", "setMonth(NaN)",
           "setUTCDate(1)", "setTime()"]  # fmt: skip


def date_values(r: random.Random) -> Case:
    date = f"new Date({r.choice(INSTANTS)})"
    kind = r.random()
    if kind < 0.55:
        return f"{date}.{r.choice(GETTERS)}()", {}
    if kind < 0.75:
        setter = r.choice(SETTERS)
        return r.choice([f"{date}.{setter}", f"(d => [d.{setter}, d.toISOString()])({date})"]), {}
    return r.choice([
        f"String({date})", f"JSON.stringify({date})", f"{date} < new Date(1e12)", f"+{date}",
        f"{date} - 0", f"{date} + ''", f"typeof {date}", f"{date} == {date}",
        f"JSON.stringify([{date}])", f"isNaN({date})", f"Number({date})",
    ]), {}  # fmt: skip


PARSE_TEXTS = ["'2026-12-01'", "'2026-12-01T09:00'", "'2026-12-01T09:00Z'", "'+002026-12-01'",
               "'2026-12'", "'2026'", "'Dec 1, 2026'", "'December 1, 2026 10:00'",
               "'2026/12/01'", "'12/01/2026'", "'2026-12-01 09:00'", "'2026-12-01T9:00Z'",
               "'Tue Dec 01 2026 09:00:00 GMT+0000 (Coordinated Universal Time)'",
               "'Tue, 01 Dec 2026 09:00:00 GMT'", "'2026-12-01T09:00:00+0100'", "''", "'x'",
               "'2026-12-01T09:00:00.000+01:00'", "'0000-01-01'", "'1 Jan 2000'",
               "'Jan 1 2000 10:00 PM'", "'2000-01-01T00:00:00.000Z'", "s"]  # fmt: skip
UTC_ARGS = ["", "2026", "2026, 11", "2026, 11, 1", "99, 1", "2026, 11, 1, 9, 30, 15, 500",
            "NaN", "2026, 12", "-1, 0", "275760, 8, 13", "275760, 8, 14",
            "'2026', '1'"]  # fmt: skip


# more of V8's legacy forms (month names, zone words, missing years, unknown words)
PARSE_TEXTS += ["'Mon, 01 Dec 2026 09:00:00 +0000'", "'1 Dec 2026 09:00 GMT+0100'",
                "'2026-12-1'", "'12-01-2026'", "'2026.12.01'", "'Tuesday, December 1, 2026'",
                "'12/1/26'", "'2026-12-01 09:00:00 UTC'", "'Dec 01 2026 09:00:00 GMT-0500 (EST)'",
                "'2026-12-01T09:00:00+01'", "'2026 Dec 1'", "'1/2/3'", "'today'", "'2026-W49'",
                "'June 2026'", "'June 5'", "'12/5'", "'1 Dec 2026 10:00 EST'", "'foo Dec 1 2026'",
                "'Dec 1 2026 foo'", "'2026-12-01 at 10:00'", "'12/5/2026 PST'"]  # fmt: skip


def date_statics(r: random.Random) -> Case:
    if r.random() < 0.6:
        text = f"Date.parse({r.choice(PARSE_TEXTS)})"
    else:
        text = f"Date.UTC({r.choice(UTC_ARGS)})"
    if r.random() < 0.3:
        text = f"new Date({text}).toISOString()"
    return text, {"s": r.choice(["2026-12-01", "Dec 1, 2026", "nope"])}


CLOCK = ["new Date().getTime()", "Date.now()", "Date()", "typeof Date()",
         "new Date().toISOString()", "new Date().getHours() >= 9",
         "Date.now() - new Date(0).getTime()", "String(new Date())",
         "new Date() > new Date('2026-06-01')", "new Date().getDay()",
         "Date.now() === +new Date()", "new Date().getFullYear() === 2026",
         "Date().slice(0, 15)", "new Date(Date.now()).getUTCDate()",
         "(Date.now() - payload.created) / 86400000 > 30", "new Date().getMonth() === 11",
         "Date.now() > payload.created", "new Date(payload.iso) < new Date()",
         "new Date().toLocaleDateString()", "new Date().getTimezoneOffset()",
         "new Date", "JSON.stringify(new Date())", "Date.now() % 1000"]  # fmt: skip


def date_clock(r: random.Random) -> Case:
    payload = {"created": r.choice([0, 1790000000000, 1796115600000]),
               "iso": r.choice(["2026-11-01T00:00:00Z", "2027-01-01", "nope"])}  # fmt: skip
    return r.choice(CLOCK), {"payload": payload}


# --- the other constructors -------------------------------------------------------------------

NEW_CASES = [
    "new Map([['a', 1], ['b', 2]]).get('b')", "new Map([[1, 'x']]).has('1')", "new Map().size",
    "[...new Map([['a', 1]])]", "[...new Map([['a', 1]]).keys()]", "new Map([[NaN, 1]]).get(NaN)",
    "new Map([[0, 1]]).get(-0)", "String(new Map())", "JSON.stringify(new Map([[1, 2]]))",
    "new Set([1, 1, 2]).size", "[...new Set('hello')]", "new Set([1, '1']).has(1)",
    "new Set([NaN, NaN]).size", "[...new Set([3, 1, 3]).values()]", "String(new Set())",
    "new Map([['a', 1]]).set('b', 2).size", "new Set().add(1).add(1).size",
    "new Map([['a', 1]]).delete('a')", "typeof new Map()", "Map()", "Set([1])",
    "String(new Error('boom'))", "new Error('m').message", "new TypeError('x').name",
    "String(RangeError('r'))", "String(new Error())", "JSON.stringify(new Error('x'))",
    "new Error('x') instanceof Error", "typeof new String('a')", "new String('ab').length",
    "new String('ab') == 'ab'", "new String('ab') === 'ab'", "new Number(5) + 1",
    "typeof new Number(5)", "new Boolean(false) ? 1 : 2", "JSON.stringify(new String('x'))",
    "JSON.stringify([new Number(1), new Boolean(false)])", "new Array(3).length",
    "String(new Array(3))", "new Array(1, 2).join('-')", "new Array('3').length",
    "Array(2).length", "new Array(-1)", "new Array(1.5)", "new Object() instanceof Object",
    "typeof new Object(1)", "JSON.stringify(new Object())", "new Object(null)",
    "new (x => x)", "new Math.max()", "new Date(0) instanceof Date",
    "new RegExp('a') instanceof RegExp",
    "[...'ab'.matchAll(/./g)][1][0]", "Array.from(new Set([1, 2]))", "new Set([[1]]).size",
    "Object.keys(new Map())", "new String('ab')[1]", "[...new String('ab')]",
    "new Map(payload.pairs).get('k')", "new Set(payload.items).has(2)",
]  # fmt: skip


def constructors(r: random.Random) -> Case:
    return r.choice(NEW_CASES), {"payload": {"pairs": [["k", 1], ["j", 2]], "items": [1, 2, 2]}}


# --- BigInt -------------------------------------------------------------------------------------

BIGS = ["0n", "1n", "-1n", "10n", "2n ** 64n", "0x1Fn", "1_000n", "BigInt(7)", "BigInt('0x10')",
        "BigInt(' 12 ')", "-(2n ** 70n)", "BigInt(true)"]  # fmt: skip
OTHERS = ["1", "1.5", "'1'", "'x'", "NaN", "Infinity", "true", "null", "undefined", "[]", "0",
          "'0x1f'", "-0"]  # fmt: skip
BIG_BINARY = ["+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>", ">>>", "==", "===", "!=",
              "!==", "<", "<=", ">", ">=", "&&", "||", "??"]  # fmt: skip
BIG_UNARY = ["typeof {a}", "-{a}", "~{a}", "!{a}", "+{a}", "String({a})", "Number({a})",
             "{a}.toString(16)", "{a}.toString()", "JSON.stringify({a})", "{a} ? 1 : 2",
             "[{a}].includes({a})", "new Set([{a}, {a}]).size", "BigInt({a})", "isNaN({a})",
             "Math.abs({a})", "({a}).toLocaleString()", "{a} + ''", "[{a}].indexOf({a})",
             "Object.is({a}, {a})"]  # fmt: skip


def bigints(r: random.Random) -> Case:
    a = r.choice(BIGS)
    kind = r.random()
    if kind < 0.45:
        return f"({a}) {r.choice(BIG_BINARY)} ({r.choice(BIGS)})", {}
    if kind < 0.75:
        left, right = (a, r.choice(OTHERS)) if r.random() < 0.5 else (r.choice(OTHERS), a)
        return f"({left}) {r.choice(BIG_BINARY)} ({right})", {}
    return r.choice(BIG_UNARY).replace("{a}", f"({a})"), {}


def bigint_calls(r: random.Random) -> Case:
    return r.choice([
        "BigInt(1.5)", "BigInt('1.5')", "BigInt('')", "BigInt('-5')", "BigInt('0b101')",
        "BigInt(undefined)", "BigInt(null)", "BigInt('1e3')", "BigInt(2 ** 60)", "new BigInt(1)",
        "BigInt(Number.MAX_SAFE_INTEGER) + 2n", "1n / 0n", "2n ** -1n", "5n % 0n", "x * 2n",
        "BigInt(x) * 2n", "BigInt(s) > 10n", "typeof BigInt", "10n > x", "s == 10n", "x == 10n",
        "08n", "1.5n", "1e3n", "0b102n", "1nn", "[1n, 2n].map(b => b * b)", "1n ? 'y' : 'n'",
        "10n.toString()", "(10n).toString(2)", "-0n", "Object.is(-0n, 0n)",
    ]), {"x": 10, "s": "10"}  # fmt: skip


# --- call/apply/bind, numbers, arrays, JSON, URIs, HTML --------------------------------------

FUNCTION_CASES = [
    "''.trim.call('  a ')", "'x'.toUpperCase.apply('abc')", "Math.max.apply(null, [1, 5, 2])",
    "[].slice.call([1, 2, 3], 1)", "'abc'.slice.bind('hello', 1)()",
    "((a, b) => a + b).call(null, 1, 2)",
    "parseInt.call(null, '42px')", "'a'.concat.apply('x', ['y', 'z'])", "(1).toFixed.call(2.5, 1)",
    "(1).toFixed.call('2', 1)", "''.trim.call(null)", "Math.max.bind(null, 10).length",
    "Math.max.bind(null, 10)(3, 20)", "String(Math.max.bind(null).name)",
    "new Date(0).getTime.call(new Date(5))",
    "Math.min.apply(null, payload.list)", "payload.list.map(Number.call, Number)",
    "[].concat.apply([], [[1], [2, 3]])", "Array.prototype", "''.includes.call(payload.s, 'b')",
    "payload.list.indexOf.call(payload.list, 3)", "Math.max.apply(null, 'ab')",
    "Math.max.apply(null, undefined)", "((x = 1) => x).call(null)", "''.trim.bind('  q ')()",
    "typeof ''.trim.call", "''.trim.call.length", "[].join.call([1, 2], '+')",
    "payload.hasOwnProperty.call(payload, 's')", "payload.hasOwnProperty.call(payload.list, 0)",
    "Object.keys.call(null, payload)", "JSON.stringify.apply(null, [payload.list])",
]  # fmt: skip


def functions(r: random.Random) -> Case:
    return r.choice(FUNCTION_CASES), {"payload": {"list": [3, 1, 2], "s": "abc"}}


EXP_NUMBERS = ["0", "-0", "1", "1.25", "1.35", "123.456", "123456", "-1e-7", "1e21", "5e-324",
               "1.7976931348623157e308", "0.000001234", "NaN", "-Infinity", "9.995", "2.5",
               "0.1", "1e100", "x"]  # fmt: skip
EXP_DIGITS = ["", "0", "1", "2", "3", "5", "20", "100", "101", "-1", "'2'", "undefined", "NaN"]
RADIX_FRACTIONS = [
    "0.5",
    "0.1",
    "-255.5",
    "3.14159",
    "0.3",
    "1 / 3",
    "2 ** -30",
    "123.456",
    "-0.75",
    "1e-7",
    "1.5e15 + 0.25",
    "0.000001",
    "x / 7",
    "Math.PI",
    "Math.E",
]
RADIXES = ["2", "3", "7", "8", "16", "32", "36", "12", "5"]


def numbers(r: random.Random) -> Case:
    if r.random() < 0.5:
        n, d = r.choice(EXP_NUMBERS), r.choice(EXP_DIGITS)
        return f"({n}).toExponential({d})", {"x": r.choice([12.5, -0.001, 1e-300, 7])}
    return f"({r.choice(RADIX_FRACTIONS)}).toString({r.choice(RADIXES)})", {"x": 22}


ARRAY_CASES = [
    "[1, 2, 3, 4, 5].copyWithin(0, 3)", "[1, 2, 3, 4, 5].copyWithin(-2, 0, 2)",
    "[1, 2, 3, 4, 5].copyWithin(1)", "[1, 2, 3].copyWithin(0, 1, -1)", "[1, 2, 3].copyWithin(5)",
    "payload.list.copyWithin(0, 1)", "payload.list.copyWithin(0, 1) === payload.list",
    "[1, , 3].copyWithin(0, 1)", "[...['a', 'b'].entries()]", "[...['a', 'b'].keys()]",
    "[...['a', 'b'].values()]", "String(['a'].values())", "['a', 'b'].entries().next().value",
    "JSON.stringify(['a'].keys().next())", "Array.from([5, 6].entries())", "[...[, 'x'].values()]",
    "[...[, 'x'].keys()]",
    "(it => [it.next().value, it.next().value, it.next().done])([7].values())",
    "typeof [].keys()", "[...payload.list.entries()].length",
    "Array.from('ab'.matchAll(/./g)).length",
]  # fmt: skip


def arrays(r: random.Random) -> Case:
    return r.choice(ARRAY_CASES), {"payload": {"list": [3, 1, 2]}}


REPLACERS = ["['a']", "['b', 'a']", "['n', 'n']", "[1, 'a']", "[]", "(k, v) => v",
             "(k, v) => typeof v === 'number' ? v * 2 : v", "(k, v) => k === 'a' ? undefined : v",
             "(k, v) => k === '' ? v : String(v)", "(k, v) => 1", "(k, v) => undefined",
             "(k, v) => k", "null", "(k, v) => Array.isArray(v) ? v.length : v",
             "(k, v) => v === null ? 'N' : v", "[new String('a')]", "['0', '1']"]  # fmt: skip
SPACES = ["", ", 2", ", '--'", ", 20", ", '\t'", ", 0", ", -1", ", 'abcdefghijklmn'",
          ", new Number(3)", ", null"]  # fmt: skip
JSON_VALUES = ["payload", "payload.list", "[new Date(0), /a/, 1n > 0n]", "[undefined, x => x]",
               "'s'", "1", "[[1, [2]], {a: 1}]", "new Map([[1, 2]])", "[NaN, -0, Infinity]",
               "payload.nested", "[new Error('e')]"]  # fmt: skip


def json_replacer(r: random.Random) -> Case:
    value = r.choice(JSON_VALUES)
    if "{" in value:
        value = "payload.nested"
    payload = {"a": 1, "b": [2, "x", None], "n": 5, "list": [1, [2, [3]]],
               "nested": {"a": {"a": 1, "n": 2}, "z": None, "1": "one"}}  # fmt: skip
    return f"JSON.stringify({value}, {r.choice(REPLACERS)}{r.choice(SPACES)})", {"payload": payload}


URI_CASES = [
    "decodeURI('%3B%2F%41%20')", "decodeURIComponent('%3B%2F')", "decodeURIComponent('%C0%80')",
    "decodeURIComponent('%E2%82')", "decodeURIComponent('%E2%82%AC')", "decodeURI('%F0%9F%98%80')",
    "decodeURIComponent('%ED%A0%80')", "decodeURIComponent('%')", "decodeURIComponent('%4')",
    "decodeURIComponent('%zz')", "decodeURI('%23%24%26%2B%2C')", "decodeURI('%25')",
    "decodeURIComponent(s)", "decodeURI(s)", "decodeURIComponent('%F8%80%80%80%80')",
    "decodeURIComponent('%80')", "decodeURIComponent('a+b%20c')", "decodeURI('%E4%BD%A0%E5%A5%BD')",
    "escape('a b+c/ä€😀')", "escape(s)", "unescape('%u20AC%41%zz%')", "unescape('%u12')",
    "unescape(escape(s)) === s", "escape('@*_+-./')", "unescape('%F0%9F')", "escape(1.5)",
    "decodeURIComponent(encodeURIComponent(s)) === s", "unescape('%uD83D%uDE00')",
]  # fmt: skip


def uris(r: random.Random) -> Case:
    return r.choice(URI_CASES), {"s": r.choice(["a%20b", "%E2%82%AC", "x😀y", "50%", "ok"])}


HTML = ["anchor('a\"b')", "anchor()", "big()", "blink()", "bold()", "fixed()", "fontcolor('red')",
        "fontsize(7)", "italics()", "link('http://x/?a=\"1\"')", "small()", "strike()", "sub()",
        "sup()", "fontcolor()", "link(null)"]  # fmt: skip


def html(r: random.Random) -> Case:
    target = r.choice(["'x'", "s", "''", "'<b>'"])
    return f"{target}.{r.choice(HTML)}", {"s": r.choice(["text", 'a"q', ""])}


#: RegExp's legacy statics after one to three operations: every operation that matches (exec,
#: test, match, matchAll, replace with a string or a function reading them, replaceAll,
#: search, split with a limit), failing ones between them
LEGACY_READS = ["RegExp.$1", "RegExp.$2", "RegExp.$9", "RegExp.input", "RegExp.lastMatch",
                "RegExp.lastParen", "RegExp.leftContext", "RegExp.rightContext", "RegExp['$_']",
                "RegExp['$&']", "RegExp['$+']", "RegExp['$`']", "RegExp[\"$'\"]",
                "RegExp['$' + 3]", "'$1' in RegExp", "typeof RegExp.$1"]  # fmt: skip
LEGACY_OPS = ["s.match({r})", "s.search({r})", "s.replace({r}, '#')",
              "s.replace({r}, m => RegExp.leftContext.length + RegExp.$1)",
              "s.replaceAll({r}, '_')", "s.split({r})", "s.split({r}, 1)", "s.split({r}, 2)",
              "{r}.test(s)", "{r}.exec(s)", "[...s.matchAll({r})].length",
              "(r => [r.test(s), r.test(s)])({r})", "'zzz'.match({r})"]  # fmt: skip


def regex_legacy(r: random.Random) -> Case:
    steps = []
    for _ in range(r.randint(1, 3)):
        op = r.choice(LEGACY_OPS).replace("{r}", _literal(r))
        if "matchAll" in op or "replaceAll" in op:
            op = op.replace("/g", "/").replace("/", "/", 1)
            op = op[: op.rindex("/") + 1] + "g" + op[op.rindex("/") + 1 :].replace("g", "")
        steps.append(op)
    reads = [r.choice(LEGACY_READS) for _ in range(r.randint(1, 4))]
    return f"(/(.)/.exec('!'), {', '.join(steps)}, JSON.stringify([{', '.join(reads)}]))", {
        "s": r.choice(TEXTS)
    }


#: pieces of patterns, well and badly formed in each mode: groups of every kind, quantifiers
#: and braces, escapes (octal, hex, Unicode, control, property, named references), classes
#: with ranges, and the v flag's nested classes, operators and \q{...}
SYNTAX_PIECES = ["a", "b", "[", "]", "(", ")", "{", "}", "|", "*", "+", "?", "^", "$", ".", "-",
                 "\\", "\\d", "\\w", "\\b", "\\B", "\\k", "\\p{L}", "\\P", "\\u", "\\u{61}",
                 "\\x4", "\\x41", "\\c", "\\cA", "\\c1", "\\1", "\\2", "\\10", "\\0", "\\01",
                 "\\08", "\\377", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<a>", "(?<b>",
                 "\\k<a>", "(?<a", "(?<1a>", "(?<\\u0061>", "(?<𝒜>", "&&", "--", "[a", "[^",
                 "]]", "{1}", "{1,2}", "{,2}", "{2,1}", "{1,}", "{99999999999}", "\\q{ab}",
                 "[\\q{a|bc}]", "\\/", "/", "é", "😀", "\\-", "\\]", "[[", "]a", "(?i:",
                 "\\n", "\\s", "-[", "\\p{RGI_Emoji}", "\\p{Script=Greek}", "\\p{Lu=}",
                 "\\p{gc=Lu}", "\\p{Lu}", "\\p{letter}", "\\p{ASCII}", "\\p{Any}", "~", "!!",
                 "[z-a]", "[a-z]", "[\\d-z]", "[\\b]", "[\\c1]", "[😀-a]", "\\ud83d\\ude00",
                 "[a&&b]", "[[a]--[b]]", "[^\\q{a}]", "(?<=a)?", "(?=a)*", "a**",
                 "a+?"]  # fmt: skip
SYNTAX_FLAGS = ["", "u", "v", "i", "g", "iu", "y", "uv", "dgimsuy", "x", "gg", "s"]


def regex_syntax(r: random.Random) -> Case:
    """A pattern made of random pieces under random flags: V8's error words and their order
    (the first error V8 meets), or the match where V8 accepts it."""
    source = "".join(r.choice(SYNTAX_PIECES) for _ in range(r.randint(1, 6)))
    scope = {"payload": {"p": source, "f": r.choice(SYNTAX_FLAGS),
                         "s": r.choice(["a", "ab", "x", "", "A😀b", "\\b"])}}  # fmt: skip
    use = r.choice(["new RegExp(payload.p, payload.f).test(payload.s)",
                    "String(new RegExp(payload.p, payload.f).exec(payload.s))",
                    "payload.s.replace(new RegExp(payload.p, payload.f), '-')"])  # fmt: skip
    return use, scope


FAMILIES: dict[str, Callable[[random.Random], Case]] = {
    "bigint": bigints,
    "bigint.calls": bigint_calls,
    "functions": functions,
    "numbers": numbers,
    "arrays": arrays,
    "json.replacer": json_replacer,
    "uri": uris,
    "html": html,
    "regex.methods": regex_methods,
    "regex.paths": regex_paths,
    "regex.ctor": regex_ctor,
    "regex.syntax": regex_syntax,
    "regex.division": regex_division,
    "regex.legacy": regex_legacy,
    "date.values": date_values,
    "date.statics": date_statics,
    "date.clock": date_clock,
    "new": constructors,
}
