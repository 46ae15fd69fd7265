"""The public API: result shapes, caching, never raising, threads, time bounds, read-only."""

from __future__ import annotations

import copy
import threading
from typing import Any

import pytest

from flowctx_core.expressions import (
    DIALECTS,
    ENGINES,
    EvalResult,
    ExprError,
    ExpressionError,
    compile_expression,
    evaluate,
    referenced_names,
)


def test_dialects() -> None:
    assert DIALECTS == ("mj", "ag2", "mozaiks", "python")
    for dialect in DIALECTS:
        assert evaluate("1", {}, dialect).engine == ENGINES[dialect]
    assert ENGINES["ag2"] == "AG2 ContextExpression 0.14.0"
    assert ENGINES["mozaiks"].startswith("Mozaiks transition evaluator")


def test_result_shape_and_json() -> None:
    result = evaluate("a > 1", {"a": 2})
    assert isinstance(result, EvalResult)
    assert (result.success, result.value, result.error, result.raw, result.dialect) == (
        True, True, None, True, "mj",
    )  # fmt: skip
    # the time is reported (a float the JSON rounds), never judged here: that is the benchmarks'
    assert isinstance(result.elapsed_ms, float)
    assert result.to_json() == {
        "success": True,
        "value": True,
        "error": None,
        "error_span": None,
        "elapsed_ms": round(result.elapsed_ms, 3),
        "engine": "MemberJunction SafeExpressionEvaluator 5.51.3",
        "warnings": [],
        "clock": None,  # the condition did not read the clock
    }
    failed = evaluate("a ===", {"a": 1}).to_json()
    # V8 reads the ")" MemberJunction appends: Boolean(a ===)
    assert failed["error"] == "Unexpected token ')'" and failed["error_span"] == [5, 5]
    assert failed["engine"] == "MemberJunction SafeExpressionEvaluator 5.51.3"


def test_results_are_frozen() -> None:
    result = evaluate("true", {})
    with pytest.raises(AttributeError):
        result.value = False  # type: ignore[misc]


def test_compile_is_cached_and_raises_expression_error() -> None:
    assert compile_expression("a > 1") is compile_expression("a > 1", "mj")
    assert compile_expression("a > 1", "python") is not compile_expression("a > 1")
    with pytest.raises(ExpressionError) as info:
        compile_expression("a >", "mj")
    assert isinstance(info.value.error, ExprError)
    with pytest.raises(ExpressionError):
        compile_expression("a", "perl")
    with pytest.raises(ExpressionError):
        referenced_names("a ===", "mj")


@pytest.mark.parametrize(
    ("text", "scope", "dialect"),
    [(None, {}, "mj"), (42, {}, "python"), ("a", None, "mj"), ("a", [1], "ag2"),
     ("a", {"a": 1}, "cobol"), ("${x}", "not a mapping", "ag2"), (["a"], {}, "mj")],
)  # fmt: skip
def test_evaluate_never_raises_for_bad_input(text: Any, scope: Any, dialect: str) -> None:
    result = evaluate(text, scope, dialect)
    assert not result.success and result.value is None and result.error is not None
    explained = evaluate(text, scope, dialect, explain=True)
    assert not explained.success and explained.explain is not None


def test_non_json_scope_values_are_not_reached_into() -> None:
    class Secretive:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError("attribute access on a scope object")

    obj = Secretive()
    assert evaluate("o.anything === undefined", {"o": obj}).value is True
    assert not evaluate("o.anything", {"o": obj}, "python").success


def test_threads_get_their_own_evaluator() -> None:
    failures: list[str] = []

    def work(n: int) -> None:
        for i in range(300):
            scope = {"data": {"n": n, "i": i}, "items": list(range(n))}
            result = evaluate("data.n === items.length && items.every(x => x < data.n)", scope)
            if result.value is not True:
                failures.append(f"{n}/{i}: {result}")
            py = evaluate("data.n == len(items)", scope, "python")
            if py.value is not True:
                failures.append(f"py {n}/{i}: {py}")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(1, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


HOSTILE_SCOPE = {"a": 1, "t": True, "s": "a" * 50_000, "items": list(range(40))}
HOSTILE = [
    ("mj", "(" * 499 + "a" + ")" * 499),
    ("mj", "!" * 999 + "a"),
    ("mj", "a" + "+a" * 499),
    ("mj", "items.map(x => items.map(y => items.map(z => x + y + z)))"),
    ("mj", "s + s + s + s + s + s + s + s"),
    ("mj", "JSON.stringify(items) + JSON.stringify(items)"),
    ("mj", '[]["cons"+"tructor"]["cons"+"tructor"]("return process.pid")()'),
    ("mj", "'a'.repeat(1e9)"),
    ("python", "9**9**9"),
    ("python", "'x' * 10**9"),
    ("python", "[1] * 10**9"),
    ("python", "(" * 199 + "1" + ")" * 199),
    ("python", "2**9999 * 2**9999 * 2**9999"),
    ("python", "s.replace('a', s).replace('a', s)"),
    ("python", "str(items) * 1000"),
    ("ag2", "len(${items}) > 0 and " * 40 + "${t}"),
    ("ag2", "not " * 240 + "${t}"),
]


@pytest.mark.parametrize(("dialect", "text"), HOSTILE, ids=[f"{d}:{t[:30]}" for d, t in HOSTILE])
def test_hostile_inputs_get_an_answer(dialect: str, text: str) -> None:
    # how long they take is tests/benchmarks/bench_hostile_expressions.py's to measure
    scope = HOSTILE_SCOPE
    assert len(text) <= 1000
    result = evaluate(text, scope, dialect)
    explained = evaluate(text, scope, dialect, explain=True)
    assert isinstance(result, EvalResult) and isinstance(explained, EvalResult)
    assert result.success == (result.error is None)
    assert explained.success == result.success


def test_callback_budget_stops_runaway_nesting() -> None:
    scope = {"items": list(range(100))}
    text = "items.some(a => items.some(b => items.some(c => a + b + c < 0)))"
    result = evaluate(text, scope)
    assert not result.success and "too much work" in result.error.message


def test_read_only_against_every_dialect() -> None:
    scope = {"payload": {"items": [3, 1, 2], "meta": {"k": "v"}}, "data": {}, "context": {}}
    snapshot = copy.deepcopy(scope)
    texts = {
        "mj": ["payload.items.map(x => x).slice(0).filter(x => x > 1).length > 0",
               "payload.items.push(4)", "payload.meta.k = 1", "Object.keys(payload.meta)"],
        "python": ["sorted(payload.items) == [1, 2, 3]", "payload.items.sort()",
                   "payload.meta.update({'k': 2})", "payload.items.append(1)",
                   "payload.meta.setdefault('x', 1)", "list(payload.items).reverse()"],
    }  # fmt: skip
    for dialect, exprs in texts.items():
        for text in exprs:
            evaluate(text, scope, dialect)
            evaluate(text, scope, dialect, explain=True)
    assert scope == snapshot
