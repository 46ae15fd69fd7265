"""Whether a condition's verdict reads a secret: the question a test verdict, a coverage mark
or a witness must answer before it is shown.

The explain tree masks every secret-derived value except booleans: a verdict says no more
about a secret than whether the condition matched. That is one bit, and a file that is
someone else's (a test file in a pull request) can ask for as many bits as it has cases:
``(context.api_key.charCodeAt(i) & 2**b) !== 0`` for every ``i`` and ``b`` spells the key.
So whoever shows a verdict asks ``secret_read`` first, and withholds the verdict when the
answer names a secret.

The answer comes from one traced evaluation and the values' provenance
(``flowctx_core.expressions.provenance``): the verdict reads a secret when the facts of the
condition's value, or of whatever it had read when it failed or was stopped, are judged
secret: a read at or under a secret path, through a secret-looking key (judged on the key's
runtime value, so ``data['api' + '_key']`` counts), of a container that holds a secret, or of
a URI password. A choice (``&&``, ``?:``) derives from every operand it evaluated, so the
branch taken is part of what was read. Whether a secret is read at all depends only on what
was read before it, none of which is secret, so withholding is itself no oracle.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flowctx_core.base import clock
from flowctx_core.expressions import budget
from flowctx_core.expressions.compiling import _bound_to_scope, _compile
from flowctx_core.expressions.explain import SecretPaths, _taint_reasons, secret_paths
from flowctx_core.expressions.provenance import (
    SecretRead,
    dotted,
    secret_origin,
    stop_at_secrets,
)
from flowctx_core.expressions.sandbox import Compiled, ExpressionError

#: said when a condition's run could not be traced (it ended outside the evaluator's hooks)
UNTRACED = "a value it may have read (its evaluation could not be traced)"


def _compiled(text: str, scope: Mapping[str, Any], dialect: str) -> Compiled | None:
    try:
        return _compile(dialect, text)
    except ExpressionError as exc:
        return _bound_to_scope(exc, text, scope) if dialect == "mj" else None
    except Exception:
        return None


def secret_read(
    text: str, scope: Mapping[str, Any], dialect: str, secret_roots: SecretPaths
) -> str | None:
    """The secret the verdict of ``text`` over ``scope`` reads (``context.api_key``), or None
    when it reads none. ``secret_roots`` are the caller's secret paths, as ``evaluate`` takes
    them; secret-looking keys and URI passwords count whatever they are."""
    if not isinstance(text, str) or not isinstance(scope, Mapping):
        return None
    compiled = _compiled(text, scope, dialect)
    if compiled is None:
        return None  # refused before it runs: nothing is read
    for name, _, _ in compiled.required:
        if name not in scope and name not in compiled.builtins:
            return None  # fails on a missing name before reading anything
    paths = secret_paths(secret_roots)
    state = clock.STATE
    outer = state.clock, state.used
    state.clock, state.used = clock.PINNED, None
    previous = budget.begin(None, None)
    try:
        # stopped at the first value derived from a secret: what ran before it read none,
        # so the time this takes says nothing of the secret either
        with stop_at_secrets(paths):
            trace = compiled.run_traced(scope)
    except SecretRead as read:
        return read.secret
    except Exception:
        return UNTRACED if paths else None
    finally:
        budget.end(previous)
        state.clock, state.used = outer
    flow = trace.flow
    if flow is None:
        # a front end that records only verdicts: judged by what the text reads
        reasons = _taint_reasons(compiled.tree, paths)
        if reasons.get(id(compiled.tree)) is None:
            return None
        return _named(compiled, paths) or "a secret-looking key"
    facts: set[Any] = set()
    root = flow.prov.get(id(compiled.tree))
    if root is not None:
        facts |= root.facts
    for frame in flow.frames:  # what a stopped or failed evaluation had read so far
        facts |= frame.facts
        for _, prov in frame.entries:
            facts |= prov.facts
    return secret_origin(facts, paths, flow.holds)


def _named(compiled: Compiled, paths: Mapping[tuple[str, ...], str]) -> str | None:
    """The first secret path the text spells, for the message."""
    import ast

    from flowctx_core.expressions.explain import _path_of

    for node in ast.walk(compiled.tree):
        path = _path_of(node)
        if path is None:
            continue
        for secret in paths:
            if path[: len(secret)] == secret:
                return dotted(secret)
    return None


__all__ = ["UNTRACED", "secret_read"]
