"""hypothesis strategies: MemberJunction conditions and the scopes they run against.

Scopes mix every JSON type (big and negative-zero numbers, NaN/Infinity, Unicode and JS
whitespace, keys the evaluator drops, objects with their own ``constructor``/``toString``);
expressions cover the constructs @memberjunction/global 5.51.3 accepts (paths, optional chains
and calls, ``??``, ternaries, ``typeof``, ``in``, arrows, methods, safe globals, comparisons and
arithmetic, assignments, syntax errors, forbidden words, names that are not defined).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

KEYS = ["a", "b", "status", "count", "items", "name", "x", "0", "1", "length", "eval",
        "constructor", "toString", "valueOf", "__proto__", "prototype", "Function", "é", "try",
        "with space"]  # fmt: skip
TOP = ["payload", "data", "context", "stepResult", "flowContext", "a", "b"]
WORDS = ["", " ", "a", "A", "abc", "pending", "Success", "try again", "constructor", "0", "1",
         "42", " 7 ", "0x10", "1e3", "-0", "NaN", "Infinity", "true", "null", "😀", "😀x",
         "é", "e\u0301", "\u3000x\u3000", "\u00a0", "\ufeff1", "\u2028", "a,b", "line\nline",
         "ß", "İ", "Σ", "\ud83d", "{", ";", "this", "class", "$", "\\"]  # fmt: skip

numbers = st.one_of(
    st.integers(-5, 5),
    st.integers(-(2**64), 2**64),
    st.sampled_from([2**53, 2**53 + 1, -(2**53) - 1, 10**21, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True, width=64),
    st.sampled_from([0.1, 0.5, 1.5, 2.5, -2.5, -0.0, 1e-7, 1e21, 0.1 + 0.2, 5e-324]),
)
strings = st.one_of(st.sampled_from(WORDS), st.text(max_size=6))
scalars = st.one_of(st.none(), st.booleans(), numbers, strings)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(KEYS), inner, max_size=4),
    ),
    max_leaves=12,
)
scopes = st.dictionaries(
    st.sampled_from(TOP),
    json_values,
    min_size=1,
    max_size=5,
)


def _quote(s: str) -> str:
    # JSON string syntax is valid JavaScript (minus U+2028/9, which JS accepts too).
    return json.dumps(s) if len(s) < 20 else json.dumps(s[:20])


num_lit = st.one_of(
    st.integers(0, 100).map(str),
    st.sampled_from(["0.5", ".5", "5.", "1e3", "1E-7", "0x1F", "0b11", "0o7", "1_000", "08",
                     "010", "9007199254740993", "1e21", "Infinity", "NaN", "-0"]),
)  # fmt: skip
str_lit = st.one_of(
    strings.map(_quote),
    st.sampled_from(["'a'", "'try again'", "'\\u00e9'", "'\\u{1F600}'", "'\\x41'", "'\\08'",
                     "'it\\'s'", "\"constructor\"", "'catch'", "''"]),
)  # fmt: skip
literal = st.one_of(
    num_lit, str_lit, st.sampled_from(["true", "false", "null", "undefined", "[]", "[1, 2]"])
)


def _path(draw: Any) -> str:
    base = draw(st.sampled_from([*TOP, "missingVar"]))
    for _ in range(draw(st.integers(0, 3))):
        key = draw(st.sampled_from([k for k in KEYS if k.isidentifier() or k == "é"]))
        step = draw(st.sampled_from([".", "?.", "[]", "?.[]"]))
        if step in (".", "?."):
            base += f"{step}{key}"
        else:
            inner = draw(st.sampled_from([_quote(key), "0", "1", "'length'"]))
            base += f"{step[:-2]}[{inner}]"
    return base


paths = st.composite(_path)()

METHODS = [
    "length", "includes({})", "startsWith({})", "endsWith({})", "indexOf({})", "trim()",
    "toLowerCase()", "toUpperCase()", "slice({})", "split({})", "replace({}, 'x')",
    "some(v => v {op} {lit})", "every(v => v {op} {lit})", "filter(v => v).length",
    "find(v => v {op} {lit})", "map(v => typeof v).join()", "join('-')", "at(-1)",
    "toString()", "lastIndexOf({})", "trimStart()", "padStart(3, '0')", "charAt(0)",
    "reduce((s, v) => s + v, 0)", "nope()", "toFixed(1)",
]  # fmt: skip
GLOBALS = ["Math.max({}, {})", "Math.min({})", "Math.abs({})", "Number({})", "String({})",
           "Boolean({})", "Object.keys({}).length", "JSON.stringify({})", "parseInt({})",
           "parseFloat({})", "isNaN({})", "isFinite({})", "Array.isArray({})",
           "Number.isInteger({})", "Math.round({})", "Object.values({}).length"]  # fmt: skip
BINARY = ["===", "!==", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "??", "+", "-", "*", "/",
          "%", "**", "in", "&", "|", "<<", ">>>"]  # fmt: skip
REFUSED = ["globalThis.undefined", "typeof process", "[]['cons' + 'tructor']", "this.a",
           "eval('1')", "payload.constructor", "a; b", "{}", "`x`", "arguments.length",
           "typeof Reflect"]  # fmt: skip


@st.composite
def expressions(draw: Any, depth: int = 0) -> str:
    if depth > 3 or draw(st.integers(0, 9)) < 3:
        return draw(st.one_of(literal, paths, paths))
    # sampled_from spreads evenly; integers() favours its bounds
    kind = draw(st.sampled_from(range(14)))
    sub = lambda: draw(expressions(depth + 1))  # noqa: E731
    if kind <= 3:
        return f"{sub()} {draw(st.sampled_from(BINARY))} {sub()}"
    if kind == 4:
        return f"{draw(st.sampled_from(['!', '-', '+', 'typeof ', '~', 'void ']))}{sub()}"
    if kind == 5:
        return f"{sub()} ? {sub()} : {sub()}"
    if kind == 6:
        return f"({sub()})"
    if kind in (7, 8):
        method = draw(st.sampled_from(METHODS))
        text = (
            method.format(sub(), op=draw(st.sampled_from(BINARY[:8])), lit=draw(literal))
            if "{op}" in method
            else method.format(sub())
        )
        dot = draw(st.sampled_from([".", ".", "?."]))
        return f"{draw(paths)}{dot}{text}"
    if kind == 9:
        return draw(st.sampled_from(GLOBALS)).format(sub(), sub())
    if kind == 10:
        return f"{draw(paths)}{draw(st.sampled_from(['?.()', '()', '?.[0]', '.length']))}"
    if kind == 11:
        return draw(
            st.sampled_from(
                [
                    f"{draw(paths)} = {sub()}",
                    f"{sub()}, {sub()}",
                    f"{sub()} ?? {sub()} || {sub()}",
                    f"[{sub()}, {sub()}]",
                ]
            )
        )
    if kind == 12:
        return draw(st.sampled_from(REFUSED))
    return f"{draw(str_lit)} in {draw(paths)}"


def case_batches(size: int) -> st.SearchStrategy[list[tuple[str, dict[str, Any]]]]:
    case = st.tuples(expressions(), scopes)
    return st.lists(case, min_size=size, max_size=size)
