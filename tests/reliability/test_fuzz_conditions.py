"""A long fuzz run of the condition evaluator over every dialect.

The guarantees under test (refuse by grammar, bounded work):

- ``evaluate`` is total: an ``EvalResult`` for any text and scope, never an exception;
- nothing escapes the sandbox: the raw value is plain data (JSON values, ``undefined`` or a
  sandbox function), never a Python callable, type, module, frame or generator; no file is
  written, no environment variable or builtin changes, the scope is never mutated;
- every call is bounded: the run finishes inside its hang guard and its memory stays flat; the
  CPU per call (median, p99, slowest) is reported, not asserted (timings are benchmarks).

Inputs come from a grammar that composes the dialects' operators, calls, lambdas,
comprehensions, templates and subscripts with known escape routes (dunders, ``constructor``,
``format``, ``__import__``, ``eval``, frames, generators, huge powers and repeats), plus raw
token soup and arbitrary text. ``FLOWCTX_FUZZ_EXAMPLES`` sets the number of inputs (CI runs a
short default; docs/reliability.md quotes a full-length run). The run happens in a forked child so
that a crash or a hang is a failure of this test, not of the suite.
"""

from __future__ import annotations

import builtins
import copy
import os
import time
import types
from pathlib import Path
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flowctx_core.expressions import DIALECTS, EvalResult, _compile, evaluate
from flowctx_core.expressions.ag2 import FrameObject
from flowctx_core.expressions.js.values import HOLE, UNDEFINED, JsFunction, JsNamespace, JsObject
from flowctx_core.expressions.python import PyMethod
from tests.reliability.harness import PEAK_MB, cost, record

EXAMPLES = int(os.environ.get("FLOWCTX_FUZZ_EXAMPLES", "1000"))
#: CPU milliseconds one evaluation may take (the sandbox's budgets keep real ones under 20).
#: a call slower than this is run again: a collection can land in any call
CALL_MS = 500.0

NAMES = ["payload", "data", "context", "stepResult", "flowContext", "x", "items", "s", "flag"]
ATOMS = [
    *NAMES,
    "context.apiKey",
    "data.userApproval",
    "payload.amount",
    "${x}",
    "${items}",
    "${s}",
    "${missing}",
    "0",
    "1",
    "-1",
    "2.5",
    "1e308",
    "10**9",
    "9**9**9",
    "2**10000",
    "'a'",
    '"b"',
    "''",
    "'x'*99999",
    "[1]*99999",
    "true",
    "false",
    "True",
    "None",
    "null",
    "undefined",
    "NaN",
    "Infinity",
    "this",
    "globalThis",
    "process",
    "require",
    "__builtins__",
    "__import__",
    "globals()",
    "locals()",
    "vars()",
    "eval",
    "exec",
    "open",
    "getattr",
    "type",
    "object",
    "Function",
    "constructor",
    "__proto__",
    "[]",
    "{}",
    "()",
    "ｅｖａｌ",  # NFKC-normalises to eval in Python identifiers
]
ATTRIBUTES = [
    "length",
    "constructor",
    "__proto__",
    "prototype",
    "__class__",
    "__bases__",
    "__mro__",
    "__subclasses__",
    "__globals__",
    "__code__",
    "__dict__",
    "__getattribute__",
    "__init__",
    "__builtins__",
    "gi_frame",
    "f_back",
    "f_globals",
    "format",
    "format_map",
    "mro",
    "call",
    "apply",
    "bind",
    "toString",
    "valueOf",
    "keys",
    "get",
    "includes",
    "some",
    "map",
    "filter",
    "slice",
    "split",
    "replace",
    "repeat",
    "padStart",
    "join",
    "startswith",
    "upper",
]
CALLABLES = [
    "len",
    "str",
    "int",
    "sorted",
    "sum",
    "min",
    "max",
    "any",
    "all",
    "abs",
    "round",
    "list",
    "dict",
    "getattr",
    "setattr",
    "__import__",
    "eval",
    "exec",
    "compile",
    "open",
    "breakpoint",
    "input",
    "Math.max",
    "Math.pow",
    "Object.keys",
    "Object.assign",
    "Object.defineProperty",
    "JSON.stringify",
    "JSON.parse",
    "parseInt",
    "Number",
    "String",
    "Array",
    "Function",
    "setTimeout",
]
BINARY = [
    "==",
    "!=",
    "===",
    "!==",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "**",
    "//",
    "&&",
    "||",
    "??",
    " and ",
    " or ",
    " in ",
    " not in ",
    " is ",
    " is not ",
    "&",
    "|",
    "^",
    "<<",
    ">>",
    ":=",
    "=",
    ",",
]
UNARY = ["!", "not ", "-", "+", "~", "typeof ", "void ", "delete ", "await ", "new ", "*", "**"]
WRITE_CANARY = "/tmp/flowctx-fuzz-canary"  # every escape attempt tries to create this file


# Per-dialect grammars: mostly well-formed expressions (so evaluation, not only the parser,
# is exercised), with escape routes and garbage spliced in at random depths.
GRAMMAR: dict[str, dict[str, list[str]]] = {
    "mj": {
        "atom": [
            "payload.amount",
            "payload.items",
            "data.userApproval",
            "data.tier",
            "context.apiKey",
            "context.environment",
            "stepResult.step",
            "flowContext.stepCount",
            "flowContext.completedSteps",
            "0",
            "1",
            "2.5",
            "'Success'",
            "'a'",
            "true",
            "false",
            "null",
            "undefined",
            "NaN",
            "[1, 2, 3]",
        ],
        "binary": [
            "===",
            "!==",
            "==",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
            "&&",
            "||",
            "??",
            "+",
            "-",
            "*",
            "/",
            "%",
            "in",
        ],
        "unary": ["!", "-", "typeof "],
        "member": [".length", "?.length", "[0]", "?.[0]", ".a", "?.a", "['a']"],
        "call": [
            ".includes({})",
            ".some(x => {})",
            ".every(x => {})",
            ".map(x => {})",
            ".filter(x => {})",
            ".slice({})",
            ".indexOf({})",
            ".startsWith({})",
        ],
        "function": [
            "Math.max({}, 1)",
            "Math.abs({})",
            "parseInt({})",
            "Number({})",
            "String({})",
            "JSON.stringify({})",
            "Object.keys({})",
            "Array.isArray({})",
        ],
        "ternary": ["{} ? {} : {}"],
    },
    "ag2": {
        "atom": [
            "${x}",
            "${items}",
            "${s}",
            "${flag}",
            "${missing}",
            "0",
            "1",
            "2.5",
            "'a'",
            "True",
            "False",
            "None",
            "[1, 2]",
        ],
        "binary": [
            " and ",
            " or ",
            "==",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
            " in ",
            " not in ",
            " is ",
            " is not ",
        ],
        "unary": ["not ", "-"],
        "member": [],
        "call": [],
        "function": ["len({})"],
        "ternary": [],
    },
    "python": {
        "atom": [
            "x",
            "items",
            "s",
            "payload",
            "data",
            "context",
            "stepResult",
            "0",
            "1",
            "2.5",
            "'a'",
            "True",
            "False",
            "None",
            "[1, 2]",
            "{'a': 1}",
        ],
        "binary": [
            " and ",
            " or ",
            "==",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
            " in ",
            " not in ",
            "+",
            "-",
            "*",
            "/",
            "//",
            "%",
            "**",
        ],
        "unary": ["not ", "-"],
        "member": ["[0]", "['a']", "[1:]", ".get('a')", ".keys()", ".upper()"],
        "call": [],
        "function": [
            "len({})",
            "sorted({})",
            "sum({})",
            "min({})",
            "max({})",
            "any({})",
            "all({})",
            "str({})",
            "int({})",
            "abs({})",
            "bool({})",
        ],
        "ternary": ["{1} if {0} else {2}"],
    },
}
# The Mozaiks transition evaluator reads the same ${name} text without rewriting AG2's
# spellings; the grammar adds what only it allows and what it refuses at compile time.
GRAMMAR["mozaiks"] = {
    **GRAMMAR["ag2"],
    "atom": [*GRAMMAR["ag2"]["atom"], "${ x }", "('a', 'b')", "__ctx('x')", "__ctx(1)", "len"],
    "binary": [*GRAMMAR["ag2"]["binary"], " & ", " | "],
    "unary": ["not ", "-", "!"],
}
DANGER = [
    *(f".{a}" for a in ATTRIBUTES),
    *(f"['{a}']" for a in ATTRIBUTES),
    *(f"{c}({{}})" for c in CALLABLES),
]


def generate(rnd: Random, dialect: str, depth: int = 0) -> str:
    """One expression of ``dialect``; now and then an escape route or garbage spliced in."""
    g = GRAMMAR[dialect]
    roll = rnd.random()
    if roll < 0.04:
        return rnd.choice(ESCAPES)
    if roll < 0.08:
        return rnd.choice(ATOMS)
    if depth >= rnd.randint(1, 5) or roll < 0.2:
        return rnd.choice(g["atom"])
    sub = lambda: generate(rnd, dialect, depth + 1)  # noqa: E731
    kinds = [k for k in ("binary", "unary", "member", "call", "function", "ternary") if g[k]]
    kind = "danger" if rnd.random() < 0.06 else rnd.choice([*kinds, "binary", "paren"])
    if kind == "binary":
        return f"{sub()}{rnd.choice(g['binary'])}{sub()}"
    if kind == "unary":
        return f"{rnd.choice(g['unary'])}{sub()}"
    if kind == "member":
        return f"{sub()}{rnd.choice(g['member'])}"
    if kind == "call":
        return sub() + rnd.choice(g["call"]).format(sub())
    if kind == "function":
        return rnd.choice(g["function"]).format(sub())
    if kind == "ternary":
        template = rnd.choice(g["ternary"])
        return template.format(sub(), sub(), sub())
    if kind == "paren":
        n = rnd.choice([1, 1, 2, 30, 60, 120])
        return "(" * n + sub() + ")" * n
    danger = rnd.choice(DANGER)
    return (sub() if not danger.endswith(")") else "") + danger.replace("{}", sub())


def mutate(rnd: Random, text: str) -> str:
    """Byte-level damage: what a half-typed or pasted condition looks like."""
    if not text or rnd.random() < 0.6:
        return text
    i = rnd.randrange(len(text))
    action = rnd.randrange(4)
    if action == 0:
        return text[:i] + text[i + 1 :]
    if action == 1:
        return text[:i] + rnd.choice("()[]{}.?:`'\"$!=&|<>+-*/%,; \\\n\t\x00") + text[i:]
    if action == 2:
        return text[:i] + text[i:] * rnd.randint(2, 30)
    return text[:i]


ESCAPES = [
    "[]['constructor']['constructor']('return process.pid')()",
    '[]["cons"+"tructor"]["cons"+"tructor"]("return process")()',
    "().__class__.__bases__[0].__subclasses__()",
    "''.__class__.__mro__[1].__subclasses__()",
    f"__import__('os').system('touch {WRITE_CANARY}')",
    f"open('{WRITE_CANARY}', 'w').write('x')",
    f"eval(\"__import__('os').system('touch {WRITE_CANARY}')\")",
    "(lambda: 0).__globals__['__builtins__']",
    "(x for x in []).gi_frame.f_back.f_globals",
    "'{0.__class__.__init__.__globals__}'.format(context)",
    "context.__class__.__init__.__globals__",
    "this.constructor.constructor('return this')()",
    "Object.getPrototypeOf(context).constructor",
    "context.toString.constructor('return 1')()",
    "'x'.repeat(2**30)",
    "'x' * 10**10",
    "[1] * 10**10",
    "9**9**9**9",
    "2 ** 2 ** 2 ** 2 ** 2 ** 2",
    "items.map(x => items.map(y => items.map(z => items.map(w => 1))))",
    "(lambda f: f(f))(lambda f: f(f))",
    "[x for x in range(10**9)]",
    "sum(range(10**12))",
    "context.apiKey.split('').map(c => c.charCodeAt(0))",
    "[1]*99999 == [1]*99999",  # the 100,000-input run found explain converting all of it
    "[[1]*999]*99 != []",
    "${x}.__class__",
    "len(${items}) > 0 and ${x}.__dict__",
]


@st.composite
def expressions(draw: st.DrawFn, dialect: str) -> str:
    """Mostly grammar-built (fast to draw: one seed), sometimes token soup or free text."""
    kind = draw(st.integers(0, 9))
    if kind < 7:
        rnd = Random(draw(st.integers(0, 2**32 - 1)))
        return mutate(rnd, generate(rnd, dialect))
    if kind == 7:
        tokens = ATOMS + ATTRIBUTES + CALLABLES + BINARY + UNARY + list("()[]{}.?:`'\"$")
        return "".join(draw(st.lists(st.sampled_from(tokens), max_size=40)))
    if kind == 8:
        return draw(st.sampled_from(ESCAPES))
    return draw(st.text(max_size=120))


LEAVES: list[Any] = [
    None,
    True,
    False,
    0,
    1,
    -1,
    2**70,
    2.5,
    float("nan"),
    float("inf"),
    "",
    "a",
    "Success",
    "sk-live-secret",
    "postgres://u:pw@h/db",
]
KEYS = ["a", "b", "length", "apiKey", "__class__", "constructor", "__proto__", "step", "amount"]


def json_value(rnd: Random, depth: int = 0) -> Any:
    roll = rnd.random()
    if depth > 3 or roll < 0.5:
        return rnd.choice(LEAVES)
    if roll < 0.75:
        return [json_value(rnd, depth + 1) for _ in range(rnd.randint(0, 5))]
    return {rnd.choice(KEYS): json_value(rnd, depth + 1) for _ in range(rnd.randint(0, 4))}


def make_scope(rnd: Random) -> dict[str, Any]:
    """Every name bound (so conditions get evaluated, not refused as unknown), random data."""
    scope = {name: json_value(rnd) for name in NAMES}
    scope["items"] = [json_value(rnd, 2) for _ in range(rnd.randint(0, 6))]
    scope["context"] = {"apiKey": "sk-live-secret", "environment": "production", "a": 1}
    if rnd.random() < 0.2:
        del scope[rnd.choice(NAMES)]
    return scope


# the sandbox's own function values (a JS arrow, an allowlisted bound method: nothing can be
# read off them) are values an expression may produce; anything else Python-level is an escape
# flowctx's inert stand-ins too: a hole of an array literal, an AG2 frame name's stand-in,
# JavaScript's objects (a Date, a RegExp, a BigInt, a wrapper of a primitive, a Map...) and
# namespaces (`Math`), and Python's `...` constant, which AG2's expressions may name
PLAIN_LEAVES = (
    type(None), bool, int, float, str, type(UNDEFINED), type(HOLE), JsFunction, PyMethod,
    FrameObject, JsObject, JsNamespace, type(Ellipsis),
)  # fmt: skip
DANGEROUS = (
    type,
    types.ModuleType,
    types.FrameType,
    types.CodeType,
    types.GeneratorType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
)


def escaped(value: Any, depth: int = 0) -> str | None:
    """What, if anything, in ``value`` is not plain sandbox data."""
    if depth > 200:
        return None
    if isinstance(value, (list, tuple)):
        for item in value:
            found = escaped(item, depth + 1)
            if found:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            found = escaped(key, depth + 1) or escaped(item, depth + 1)
            if found:
                return found
        return None
    if isinstance(value, DANGEROUS) or not isinstance(value, PLAIN_LEAVES):
        return f"{type(value).__name__}: {value!r:.80}"
    return None


def timed(text: str, scope: dict[str, Any], dialect: str, explain: bool) -> tuple[Any, float]:
    """One evaluation with everything a caller does with it, and its CPU milliseconds."""
    start = time.process_time()
    result = evaluate(text, scope, dialect, explain=explain)
    if explain and result.explain is not None:
        result.explain.lines()
    result.to_json(explain=explain)
    return result, (time.process_time() - start) * 1000


def fuzz(examples: int) -> dict[str, Any]:
    """Run ``examples`` inputs; return what was tried and the slowest call."""
    stats: dict[str, Any] = {"tried": 0, "slowest_ms": 0.0, "slowest": "", "ok": 0, "ms": []}
    stats.update({d: 0 for d in DIALECTS})
    env_before = dict(os.environ)
    builtins_before = dict(vars(builtins))

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data(), seed=st.integers(0, 2**32 - 1), explain=st.booleans())
    def one(data: st.DataObject, seed: int, explain: bool) -> None:
        dialect = DIALECTS[stats["tried"] % len(DIALECTS)]  # an even share for each
        text = data.draw(expressions(dialect))
        scope = make_scope(Random(seed))
        before = repr(scope)
        saved = copy.deepcopy(scope)
        result, elapsed = timed(text, scope, dialect, explain)
        if elapsed > CALL_MS:
            # a collection of everything hypothesis keeps can land in any call: a slow input
            # is slow again, compiled afresh
            _compile.cache_clear()
            result, elapsed = min(
                (result, elapsed), timed(text, scope, dialect, explain), key=lambda r: r[1]
            )
        stats["tried"] += 1
        stats["ms"].append(elapsed)
        stats[dialect] += 1
        stats["ok"] += result.success
        if elapsed > stats["slowest_ms"]:
            stats["slowest_ms"], stats["slowest"] = elapsed, f"{dialect}: {text[:80]!r}"
        assert isinstance(result, EvalResult)
        assert result.success == (result.error is None)
        assert result.value in ((True, False) if result.success else (None,))
        leak = escaped(result.raw)
        assert leak is None, f"{dialect} {text!r} returned {leak}"
        assert repr(scope) == before and repr(saved) == before, f"{text!r} changed its scope"
        assert not Path(WRITE_CANARY).exists(), f"{dialect} {text!r} wrote a file"

    one()
    assert dict(os.environ) == env_before, "the environment changed"
    assert dict(vars(builtins)) == builtins_before, "builtins changed"
    times = sorted(stats.pop("ms"))
    stats["median_ms"] = times[len(times) // 2]
    stats["p99_ms"] = times[int(len(times) * 0.99)]
    return stats


@pytest.mark.slow
def test_the_evaluator_holds_under_a_fuzz_run(request: pytest.FixtureRequest) -> None:
    Path(WRITE_CANARY).unlink(missing_ok=True)
    measured = cost(lambda: fuzz(EXAMPLES), hang_seconds=max(120.0, EXAMPLES * 0.05))
    stats = measured.result
    record(
        request,
        f"{stats['tried']:,} inputs (mj {stats['mj']:,}, ag2 {stats['ag2']:,}, "
        f"mozaiks {stats['mozaiks']:,}, python {stats['python']:,}; {stats['ok']:,} evaluated, "
        "the rest refused); "
        f"CPU per call: median {stats['median_ms']:.2f} ms, p99 {stats['p99_ms']:.1f} ms, "
        f"slowest {stats['slowest_ms']:.1f} ms ({stats['slowest']})",
        measured,
    )
    assert stats["tried"] >= EXAMPLES * 0.9  # hypothesis may stop a little early on duplicates
    assert min(stats[d] for d in DIALECTS) > 0
    assert measured.peak_mb < PEAK_MB, measured
    assert not Path(WRITE_CANARY).exists()
