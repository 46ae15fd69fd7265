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
]  # fmt: skip
FLAGS = ["", "g", "i", "gi", "m", "s", "u", "y", "gy", "d", "gu", "v", "gv", "dg", "im", "su"]
TEXTS = [
    "", "a", "abc", "ABC", "aaa", "aXbxc", "a-b-c", "a, b,c", "123 456", "x😀y", "😀", "café",
    "Straße", "İstanbul", "\u212a", "ab\ncd", "a1b22c", "  pad  ", "abab", "cost $42",
    "ORDER-1234", "é", "e\u0301", "\ud83d", "1-2-3", "bab", "aab",
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


FAMILIES: dict[str, Callable[[random.Random], Case]] = {
    "regex.methods": regex_methods,
    "regex.paths": regex_paths,
    "regex.ctor": regex_ctor,
    "regex.division": regex_division,
    "date.values": date_values,
    "date.statics": date_statics,
    "date.clock": date_clock,
    "new": constructors,
}
