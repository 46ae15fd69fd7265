"""The condition evaluator: one sandbox, four front ends.

- ``mj``: MemberJunction flow-agent path conditions (JavaScript-flavoured), as
  ``@memberjunction/global`` 5.51.3 evaluates them;
- ``ag2``: AG2's ContextExpression (ag2 0.14.0), as Mozaiks handoffs.yaml uses it;
- ``mozaiks``: the Mozaiks transition_graph.yaml ``${var}`` evaluator (mozaiks 0.2.0,
  ``mozaiksai/core/adapters/ag2_transition_conditions.py``);
- ``python``: plain Python expressions over JSON data.

Every result names the engine (and version) whose answer it predicts, and carries the
warnings for answers that would surprise an author.

``compile_expression`` parses and validates once (cached by dialect and text);
``evaluate`` never raises for a bad expression or scope: failures come back as
``EvalResult(success=False, error=ExprError(message, start, end))``.

Every evaluation runs under one budget (``flowctx_core.expressions.budget``): bounded work, bounded
values, refused before they are built, and an optional ``deadline``/``cancel`` for callers that
evaluate in a worker thread.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from flowctx_core.base import clock
from flowctx_core.base.record import Record, replace
from flowctx_core.base.secrets import MASK
from flowctx_core.expressions import budget
from flowctx_core.expressions.compiling import (
    _FRONT_END_MODULES,
    _bound_to_scope,
    _compile,
)
from flowctx_core.expressions.engines import ENGINES
from flowctx_core.expressions.sandbox import (
    Compiled,
    ExprError,
    ExpressionError,
    TooMuchWork,
    anonymous_errors,
    error_message,
    evaluator_for,
    quoted_a_value,
    quoting_begin,
    span_of,
)

if TYPE_CHECKING:
    from flowctx_core.expressions.explain import ExplainNode, SecretPaths

DIALECTS: Final = ("mj", "ag2", "mozaiks", "python")


def __getattr__(name: str) -> Any:
    """``ExplainNode``, re-exported from the explain module when first asked for."""
    if name == "ExplainNode":
        from flowctx_core.expressions.explain import ExplainNode

        return ExplainNode
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Secret paths when the caller names none. A path condition's `context` may carry API keys, so
# it is never shown (masking by provenance); anything else is masked only when it is secret by
# itself (a secret-looking key, a URI password). Callers that know more (the app knows which
# workflow variables are secret-sourced) pass their own paths, so a plain `context` value of
# the workflow is shown there.
_FROM_CONTEXT: Final = {"context": "read from context, which may carry API keys"}
DEFAULT_SECRET_ROOTS: Final[dict[str, SecretPaths]] = {
    "mj": _FROM_CONTEXT,
    "python": _FROM_CONTEXT,
    "ag2": frozenset(),
    "mozaiks": frozenset(),
}


class EvalResult(Record):
    __slots__ = (
        *("success", "value", "error", "elapsed_ms", "raw", "explain", "dialect", "warnings"),
        *("engine", "clock"),
    )
    success: bool
    value: bool | None
    error: ExprError | None
    elapsed_ms: float
    raw: Any  # the value before boolean coercion (may be a secret: never displayed)
    explain: ExplainNode | None
    dialect: str
    warnings: tuple[str, ...]  # answers that would surprise an author, and why
    engine: str  # the engine and version the answer is predicted for
    clock: str  # the instant the condition read as "now" (ISO 8601), when it read one

    def __init__(
        self,
        success: bool,
        value: bool | None,
        error: ExprError | None,
        elapsed_ms: float,
        raw: Any = None,
        explain: ExplainNode | None = None,
        dialect: str = "mj",
        warnings: tuple[str, ...] = (),
        engine: str = "",
        clock: str = "",
    ) -> None:
        init = object.__setattr__
        init(self, "success", success)
        init(self, "value", value)
        init(self, "error", error)
        init(self, "elapsed_ms", elapsed_ms)
        init(self, "raw", raw)
        init(self, "explain", explain)
        init(self, "dialect", dialect)
        init(self, "warnings", warnings)
        init(self, "engine", engine)
        init(self, "clock", clock)

    def to_json(self, explain: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "success": self.success,
            "value": self.value,
            "error": self.error.message if self.error else None,
            "error_span": (
                [self.error.start, self.error.end]
                if self.error is not None and self.error.start is not None
                else None
            ),
            "elapsed_ms": round(self.elapsed_ms, 3),
            "engine": self.engine,
            "warnings": list(self.warnings),
            "clock": self.clock or None,
        }
        if explain:
            out["explain"] = self.explain.to_json() if self.explain is not None else None
        return out


# A cached condition is re-evaluated on every keystroke and route decision, so the success
# path builds its frozen result through the slot descriptors: about half the cost of the
# generated frozen __init__ (which goes through object.__setattr__ field by field).
_new = object.__new__
_SET = tuple(
    EvalResult.__dict__[f].__set__
    for f in (
        "success", "value", "error", "elapsed_ms", "raw", "explain", "dialect", "warnings",
        "engine", "clock",
    )
)  # fmt: skip


def _ok(
    value: bool, elapsed_ms: float, raw: Any, dialect: str, warnings: tuple[str, ...]
) -> EvalResult:
    result = _new(EvalResult)
    (
        s_success,
        s_value,
        s_error,
        s_elapsed,
        s_raw,
        s_explain,
        s_dialect,
        s_warn,
        s_engine,
        s_clock,
    ) = _SET
    s_success(result, True)
    s_value(result, value)
    s_error(result, None)
    s_elapsed(result, elapsed_ms)
    s_raw(result, raw)
    s_explain(result, None)
    s_dialect(result, dialect)
    s_warn(result, warnings)
    s_engine(result, ENGINES[dialect])
    s_clock(result, "")
    return result


def compile_expression(text: str, dialect: str = "mj") -> Compiled:
    """Parse and validate ``text`` once; raises ``ExpressionError`` with a span."""
    if dialect not in _FRONT_END_MODULES:
        raise ExpressionError(
            f"Unknown dialect {dialect!r} (expected one of {', '.join(DIALECTS)})"
        )
    if not isinstance(text, str):
        raise ExpressionError("Expression must be a non-empty string", 0, 0)
    return _compile(dialect, text)


def referenced_names(text: str, dialect: str) -> frozenset[str]:
    """The top-level names ``text`` reads (for ag2, its ``${names}``)."""
    return compile_expression(text, dialect).names


def _parameters_first(scope: Any) -> ExprError | None:
    """V8 reads the function's parameters (the scope's keys) before its body: a key that is
    a syntax error there is the error, ahead of the condition's own."""
    from flowctx_core.expressions.mj.evaluator import scope_problem

    if not isinstance(scope, Mapping):
        return None
    problem = scope_problem(scope)
    if isinstance(problem, str) and problem[:1].isupper():
        return ExprError(problem)
    return None


def _elapsed(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000.0


def evaluate(
    text: str,
    scope: Mapping[str, Any],
    dialect: str = "mj",
    *,
    explain: bool = False,
    secret_roots: SecretPaths | None = None,
    reveal_secrets: bool = False,
    deadline: float | None = None,
    cancel: budget.Flag | None = None,
    now: clock.Clock | None = None,
) -> EvalResult:
    """Evaluate a condition against ``scope``; never raises for a bad expression or scope.

    With ``explain=True`` the result carries an ``ExplainNode`` tree, also on failure.
    Explain values read under ``secret_roots`` (dotted paths, optionally mapped to the reason
    shown: ``{"context.db": "secret-sourced (env DB_PASSWORD)"}``), through a secret-looking
    key, or holding a URI password are masked unless ``reveal_secrets``.

    The evaluation runs under a fresh budget (``flowctx_core.expressions.budget``); ``deadline`` (a
    ``time.monotonic()`` value) and ``cancel`` (anything with ``is_set()``, e.g. a
    ``threading.Event``) stop it early with an "evaluation stopped" error.

    ``now`` is the instant ``new Date()``/``Date.now()``/``Date()`` read (default: the one
    pinned with ``clock.pin``, else the current time); a result that read it carries it in
    ``clock`` and says so in its warnings and explain tree.
    """
    t0 = time.perf_counter()
    try:
        previous = budget.begin(deadline, cancel)
    except budget.Cancelled as exc:
        return _failed(ExprError(str(exc)), t0, dialect, text, explain)
    # the clock's state, set and restored inline: this is the hot path of every evaluation
    state = clock.STATE
    outer = state.clock, state.used
    state.clock, state.used = now or clock.PINNED, None
    try:
        quoting_begin()
        result = _evaluate(text, scope, dialect, explain, secret_roots, reveal_secrets, t0)
        if not result.success and not reveal_secrets:
            if quoted_a_value():
                result = _without_quoted_secrets(
                    result, text, scope, dialect, explain, secret_roots, t0
                )
            result = _without_secret_strings(result, text, scope, dialect, secret_roots)
        used = state.used
        return result if used is None else _clocked(result, used)
    finally:
        state.clock, state.used = outer
        budget.end(previous)


def _without_quoted_secrets(
    result: EvalResult,
    text: str,
    scope: Mapping[str, Any],
    dialect: str,
    explain: bool,
    secret_roots: SecretPaths | None,
    t0: float,
) -> EvalResult:
    """A failure whose message quotes a value, of a condition that read a secret: the same
    evaluation again with messages that quote nothing."""
    from flowctx_core.expressions.taint import secret_read

    roots = DEFAULT_SECRET_ROOTS[dialect] if secret_roots is None else secret_roots
    if secret_read(text, scope, dialect, roots) is None:
        return result
    anonymous_errors(True)
    try:
        return _evaluate(text, scope, dialect, explain, secret_roots, False, t0)
    finally:
        anonymous_errors(False)


def _without_secret_strings(
    result: EvalResult,
    text: str,
    scope: Mapping[str, Any],
    dialect: str,
    secret_roots: SecretPaths | None,
) -> EvalResult:
    """The last guard on a failure's words: a message that still holds a secret string of the
    scope (a refusal naming an option read from ``context``, a message without an anonymous
    form), of a condition that read a secret, has each such string masked."""
    error = result.error
    if error is None or not error.message or not isinstance(scope, Mapping):
        return result
    if not _quotes_the_scope(error.message, scope):
        return result  # the common failure: its words hold no text of the scope at all
    from flowctx_core.expressions.explain import secret_strings_of
    from flowctx_core.expressions.taint import secret_read

    roots = DEFAULT_SECRET_ROOTS.get(dialect, ()) if secret_roots is None else secret_roots
    found = [s for s in secret_strings_of(scope, roots) if s in error.message]
    if not found or secret_read(text, scope, dialect, roots) is None:
        return result
    from flowctx_core.expressions.explain import errors_scrubbed

    message = error.message
    for secret in found:
        message = message.replace(secret, MASK)
    tree = result.explain
    tree = errors_scrubbed(tree, found) if tree is not None else None
    return replace(result, error=ExprError(message, error.start, error.end), explain=tree)


def _quotes_the_scope(message: str, scope: Mapping[str, Any]) -> bool:
    """Whether ``message`` holds a string of ``scope`` four characters or longer (a quick
    look before the secret strings are worked out)."""
    stack: list[Any] = [scope]
    longest = len(message)
    seen = 0
    while stack:
        seen += 1
        if seen > 200_000:
            return True  # a scope this large (or holding itself) gets the full look
        value = stack.pop()
        if isinstance(value, str):
            if 4 <= len(value) <= longest and value in message:
                return True
        elif isinstance(value, Mapping):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            stack.extend(value)
    return False


def _clocked(result: EvalResult, used: clock.Clock) -> EvalResult:
    """The result of a condition that read the clock: it says so, and at which instant."""
    note = used.note()
    warnings = (*result.warnings, note)
    tree = result.explain
    if tree is not None:
        from flowctx_core.expressions.explain import with_warnings

        tree = with_warnings(tree, (*tree.warnings, note))
    return replace(result, warnings=warnings, explain=tree, clock=used.iso())


def _evaluate(
    text: str,
    scope: Mapping[str, Any],
    dialect: str,
    explain: bool,
    secret_roots: SecretPaths | None,
    reveal_secrets: bool,
    t0: float,
) -> EvalResult:
    try:
        if dialect in _FRONT_END_MODULES and type(text) is str:
            compiled = _compile(dialect, text)
        else:
            compiled = compile_expression(text, dialect)
    except ExpressionError as exc:
        bound = _bound_to_scope(exc, text, scope) if dialect == "mj" else None
        if bound is None:
            error = exc.error
            if dialect == "mj" and exc.kind == "syntax":
                error = _parameters_first(scope) or error
            return _failed(error, t0, dialect, text, explain, exc.warnings)
        compiled = bound
    except Exception as exc:  # a front-end bug must not take the caller down
        return _failed(
            ExprError(f"Internal error: {type(exc).__name__}"), t0, dialect, text, explain
        )
    if type(scope) is not dict and not isinstance(scope, Mapping):
        message = "The scope must be a mapping of names to values"
        return _failed(ExprError(message), t0, dialect, text, explain)
    problem = None
    for name, start, end in compiled.required:  # inlined Compiled.check_scope: the hot path
        if name not in scope and name not in compiled.builtins:
            problem = ExprError(compiled.missing(name), start, end)
            break
    if problem is not None and dialect == "ag2":
        problem = _ag2_first_lookup_error(compiled, scope, problem)
    if explain:
        roots = DEFAULT_SECRET_ROOTS[dialect] if secret_roots is None else secret_roots
        return _explained(compiled, scope, problem, t0, roots, reveal_secrets)
    warn = compiled.warnings if compiled.warn is None else _warnings(compiled, scope)
    if problem is not None:
        return _error(problem, t0, dialect, warn)
    try:
        runner = getattr(compiled.tree, "fx_runner", None)  # mj: compiled closures
        if runner is not None:
            raw = runner(scope)
        else:
            raw = evaluator_for(compiled.evaluator).run(compiled, scope)
        value = compiled.truthy(raw)
    except Exception as exc:
        return _error(_located(compiled, scope, exc), t0, dialect, warn)
    if dialect == "ag2":
        warn = (*warn, *_ag2_result_warnings(raw))
    return _ok(value, (time.perf_counter() - t0) * 1000.0, raw, dialect, warn)


def _ag2_first_lookup_error(
    compiled: Compiled, scope: Mapping[str, Any], missing: ExprError
) -> ExprError:
    from flowctx_core.expressions.ag2 import first_lookup_error

    return first_lookup_error(compiled, scope, missing)


def _ag2_result_warnings(raw: Any) -> tuple[str, ...]:
    from flowctx_core.expressions.ag2 import result_warnings

    return result_warnings(raw)


def _warnings(compiled: Compiled, scope: Mapping[str, Any]) -> tuple[str, ...]:
    assert compiled.warn is not None
    try:
        return compiled.warnings + compiled.warn(scope)
    except Exception:  # a warning must never cost the verdict
        return compiled.warnings


def _error(
    error: ExprError,
    t0: float,
    dialect: str,
    warnings: tuple[str, ...] = (),
    explain: ExplainNode | None = None,
) -> EvalResult:
    return EvalResult(
        False,
        None,
        error,
        _elapsed(t0),
        explain=explain,
        dialect=dialect,
        warnings=warnings,
        engine=ENGINES.get(dialect, ""),
    )


def _failed(
    error: ExprError,
    t0: float,
    dialect: str,
    text: Any,
    explain: bool,
    warnings: tuple[str, ...] = (),
) -> EvalResult:
    if not explain:
        return _error(error, t0, dialect, warnings)
    from flowctx_core.expressions.explain import failed_explain, with_warnings

    tree = failed_explain(text if isinstance(text, str) else "", error.message)
    if warnings:
        tree = with_warnings(tree, warnings)
    return _error(error, t0, dialect, warnings, explain=tree)


def _located(compiled: Compiled, scope: Mapping[str, Any], exc: Exception) -> ExprError:
    """The error with the span of the innermost failing node (found by a traced re-run;
    errors are the rare path, so the fast path carries no bookkeeping)."""
    message = error_message(exc)
    if isinstance(exc, (TooMuchWork, budget.BudgetExceeded, RecursionError, MemoryError)):
        return ExprError(message, 0, len(compiled.text))
    # the traced re-run spends what the first run left: a condition costs one budget in all
    # (past it, the error keeps its message and loses only its span)
    try:
        trace = compiled.run_traced(scope)
    except Exception:
        return ExprError(message)
    if trace.error_node is None:
        return ExprError(message)
    return ExprError(message, *span_of(trace.error_node))


def _explained(
    compiled: Compiled,
    scope: Mapping[str, Any],
    problem: ExprError | None,
    t0: float,
    roots: SecretPaths,
    reveal: bool,
) -> EvalResult:
    from flowctx_core.expressions.explain import (
        build_explain,
        failed_explain,
        with_error,
        with_warnings,
    )

    dialect = compiled.dialect
    warn = compiled.warnings if compiled.warn is None else _warnings(compiled, scope)
    try:
        trace = compiled.run_traced(scope)
        tree = build_explain(
            compiled, trace, secret_roots=roots, reveal_secrets=reveal, scope=scope
        )
    except Exception as exc:
        error = problem or ExprError(error_message(exc))
        tree = failed_explain(compiled.text, error.message)
        return _error(error, t0, dialect, warn, with_warnings(tree, warn))
    if problem is not None:
        tree = with_error(tree, problem.message) if tree.error is None else tree
        return _error(problem, t0, dialect, warn, with_warnings(tree, warn))
    if trace.error is not None:
        node = trace.error_node
        span = span_of(node) if node is not None else (None, None)
        error = ExprError(error_message(trace.error), *span)
        return _error(error, t0, dialect, warn, with_warnings(tree, warn))
    try:
        value = compiled.truthy(trace.value)
    except Exception as exc:
        error = ExprError(error_message(exc))
        return _error(error, t0, dialect, warn, with_warnings(tree, warn))
    if dialect == "ag2":
        warn = (*warn, *_ag2_result_warnings(trace.value))
    return EvalResult(
        True,
        value,
        None,
        _elapsed(t0),
        raw=trace.value,
        explain=with_warnings(tree, warn),
        dialect=dialect,
        warnings=warn,
        engine=ENGINES[dialect],
    )


__all__ = [
    "DIALECTS",
    "ENGINES",
    "Compiled",
    "EvalResult",
    "ExplainNode",
    "ExprError",
    "ExpressionError",
    "compile_expression",
    "evaluate",
    "referenced_names",
]
