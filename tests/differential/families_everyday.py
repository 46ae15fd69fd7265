"""Everyday conditions (issue 36): what an author writes over what a run carries, drawn as
a whole rather than one rule at a time. Paths into payload, data, stepResult and flowContext
(optional chains, indexes, quoted keys) over JSON of every shape (missing keys, nulls, numbers
as strings, dates as text, nested lists), combined by comparisons, logic, ternaries, the
everyday methods with callbacks, and the safe globals. Errors arise anywhere in a chain, so
the order of evaluation and V8's call printer are compared along with the values.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Case = tuple[str, dict[str, Any]]

SCALARS = [0, 1, -1, 2.5, 100, 1e21, -0.0, "", "done", "Pending", " 42 ", "2026-01-15",
           "2026-01-15T10:00:00Z", "a,b,c", "ERROR: x", "true", "null", None, True, False, "é",
           "😀", 3, 7, "x@y.com", "12.50", "N/A"]  # fmt: skip
KEYS = ["status", "count", "items", "name", "score", "tags", "date", "user", "id", "total",
        "flags", "meta", "price", "qty", "email", "type"]  # fmt: skip
READ = [*KEYS, "length", "missing"]
ROOTS = ["payload", "data", "stepResult", "flowContext", "payload.result", "stepResult.result",
         "data.meta"]  # fmt: skip
LITERALS = ["0", "1", "2", "3", "10", "0.5", "100", "'done'", "'pending'", "'Done'", "''", "null",
            "undefined", "true", "false", "'2026-01-01'", "-1", "'a'", "[]", "NaN"]  # fmt: skip
CALLBACKS = ["x => x", "x => !!x", "x => x.status === 'done'", "x => x?.score > 0.5",
             "x => typeof x === 'number'", "(x, i) => i > 0", "x => x.length",
             "x => String(x).trim()", "x => Number(x)", "(a, b) => a + b", "(a, b) => a - b",
             "(a, b) => String(a).localeCompare(String(b))", "x => x && x.id", "([k, v]) => v",
             "x => x > 2"]  # fmt: skip
OPERATORS = ["===", "!==", "==", "!=", ">", ">=", "<", "<=", "&&", "||", "??", "+", "-", "*",
             "/", "%", "in", "instanceof"]  # fmt: skip
GLOBALS = ["Number({})", "String({})", "Boolean({})", "parseInt({})", "parseFloat({})",
           "isNaN({})", "Array.isArray({})", "Object.keys({})", "Object.values({})",
           "Object.entries({})", "JSON.stringify({})", "JSON.parse({})", "Math.max({}, 1)",
           "Math.round({})", "Math.abs({})", "new Date({}).getTime()", "Date.parse({})",
           "new Date({}) < new Date()", "Number.isInteger({})", "Math.floor({} / 2)",
           "Object.keys({} ?? []).length", "[...{}].length", "new Set({}).size", "Array.from({})",
           "encodeURIComponent({})", "String({}).length"]  # fmt: skip


def _methods(r: random.Random) -> list[str]:
    lit, cb = r.choice(LITERALS), r.choice(CALLBACKS)
    return [".length", f".includes({lit})", ".toLowerCase()", ".toUpperCase()", ".trim()",
            ".startsWith('d')", ".endsWith('e')", ".split(',')", ".indexOf('a')", ".slice(1)",
            ".slice(-1)[0]", f".filter({cb})", f".map({cb})", f".some({cb})", f".every({cb})",
            f".find({cb})", f".reduce({cb}, 0)", f".reduce({cb})", f".sort({cb})", ".join('-')",
            ".toFixed(2)", ".at(-1)", ".flat()", ".concat([1])", f".findIndex({cb})",
            ".replace('a', 'b')", ".match(/\\d+/)", ".padStart(3, '0')", ".localeCompare('b')",
            "?.length", "?.includes('x')", ".toString()", ".valueOf()", ".keys", "[0]",
            "?.[0]?.status"]  # fmt: skip


def _value(r: random.Random, depth: int = 0) -> Any:
    pick = r.random()
    if depth > 2 or pick < 0.45:
        return r.choice(SCALARS)
    if pick < 0.75:
        return [_value(r, depth + 1) for _ in range(r.randint(0, 4))]
    return {k: _value(r, depth + 1) for k in r.sample(KEYS, r.randint(0, 5))}


def _path(r: random.Random) -> str:
    path = r.choice(ROOTS)
    for _ in range(r.randint(0, 2)):
        key, i = r.choice(READ), r.randint(0, 2)
        path += r.choice([f".{key}", f"?.{key}", f"['{key}']", f"[{i}]", f"?.[{i}]"])
    return path


def _expression(r: random.Random, depth: int = 0) -> str:
    pick = r.random()
    if depth > 2 or pick < 0.25:
        return r.choice([_path(r), _path(r), r.choice(LITERALS)])
    if pick < 0.45:
        op = r.choice(OPERATORS)
        right = "Array" if op == "instanceof" else _expression(r, depth + 1)
        return f"{_expression(r, depth + 1)} {op} {right}"
    if pick < 0.55:
        operand = r.choice([_path(r), f"({_expression(r, depth + 1)})"])
        return r.choice(["!", "!!", "typeof ", "-", "+"]) + operand
    if pick < 0.62:
        parts = [_expression(r, depth + 1) for _ in range(3)]
        return f"{parts[0]} ? {parts[1]} : {parts[2]}"
    if pick < 0.85:
        base = r.choice([_path(r), _path(r), f"({_expression(r, depth + 1)})"])
        return base + r.choice(_methods(r))
    return r.choice(GLOBALS).format(_expression(r, depth + 1))


def _step_results(r: random.Random) -> list[Any]:
    return [None, {"success": True, "result": _value(r), "status": "done"},
            {"result": {"score": 0.7, "items": [1, 2]}}]  # fmt: skip


def everyday(r: random.Random) -> Case:
    scope = {
        "payload": {k: _value(r) for k in r.sample(KEYS, r.randint(2, 8))} | {"result": _value(r)},
        "data": {k: _value(r) for k in r.sample(KEYS, r.randint(0, 5))} | {"meta": _value(r)},
        "stepResult": r.choice(_step_results(r)),
        "flowContext": r.choice([{}, {"count": 2}, None]),
        "context": {},
    }
    return _expression(r), scope


FAMILIES: dict[str, Callable[[random.Random], Case]] = {"everyday": everyday}
