"""Which verdicts of a test run read a secret, so they are withheld rather than shown.

A test file is often someone else's (a pull request's), and CI runs it with secrets in the
environment. Masking values is not enough there: a verdict computed from a secret is a bit of
it, and a file asks for one bit per case (``charCodeAt(i) & 2**b``), or one guess per case
(``values: {api_key: ...}``, ``prompt: contains 'sk-a'``). So an expectation whose judgement
reads a secret is reported as withheld, naming the secret, unless the user reveals it.

What is secret is what the rest of flowctx masks: the matrix's secret variables (a
secret-looking name, or a source reading a secret-looking env var), secret-looking keys at any
depth and URI passwords. Whether a judgement reads a secret is decided from what it read
before it (``flowctx_core.expressions.taint``), none of which is secret, so the choice to
withhold is itself no oracle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flowctx_core.base.secrets import is_secret_key, mask_value
from flowctx_core.model.matrix import Matrix, Row
from flowctx_core.model.scenarios import secret_reasons
from flowctx_core.routing import RouteDecision, Routes
from flowctx_core.routing.decision import ConditionExplainer
from flowctx_core.sources.data_reference import from_the_process

#: candidate outcomes whose condition was evaluated against the scope
_EVALUATED = frozenset({"true", "false", "error"})


def withheld_text(secret: str) -> str:
    return f"withheld: reads secret `{secret}`"


def value_secret(name: str, value: Any, secret: bool) -> str | None:
    """The secret a resolved value is or holds (a secret variable, a secret-keyed entry, a
    URI password), or None."""
    if secret or is_secret_key(name):
        return name
    if value is not None and mask_value(value, name) != value:
        return name
    return None


def machine_sourced(row: Row) -> bool:
    """Whether the row's value was read from this machine's environment (not from the
    workspace, a test case or a typed ``--env``): a test file chooses which variables it
    reads, and on a CI runner that is where the secrets are, whatever their names
    (``CI_JOB_JWT``, ``SLACK_WEBHOOK_URL``)."""
    return from_the_process(row)


def matrix_secrets(matrix: Matrix) -> dict[str, str]:
    """Every variable of ``matrix`` whose value is secret, holds one or was read from this
    machine's environment, by name (a record looked up with a secret is secret by resolution:
    ``flowctx_core.resolve``)."""
    out: dict[str, str] = {}
    for row in matrix.rows:
        if value_secret(row.name, row.value, row.secret) is not None:
            out[row.name] = "secret"
        elif machine_sourced(row):
            out[row.name] = "read from this machine's environment"
    return out


def without_secrets(matrix: Matrix) -> Matrix:
    """``matrix`` with its secrets taken out (``clean_values``): what to decide over when only
    the rules a decision weighs are wanted, or when its conditions read no secret (the same
    outcomes, and explain trees with no secret to mask: masking a value because it equals a
    secret would tell that it does)."""
    from dataclasses import replace

    secret = matrix_secrets(matrix)
    if not secret:
        return matrix
    rows = tuple(
        replace(r, value=_clean(r.name, r.value, r.secret or machine_sourced(r)))
        if r.name in secret
        else r
        for r in matrix.rows
    )
    return replace(matrix, rows=rows)


def clean_values(matrix: Matrix, values: Mapping[str, Any]) -> dict[str, Any]:
    """Context ``values`` (the matrix's, overlaid by a case's) with the secrets taken out: a
    secret variable reads as None, a value holding a secret inside keeps the rest with the
    secret masked."""
    secret = matrix_secrets(matrix)
    out: dict[str, Any] = {}
    for name, value in values.items():
        row = matrix.row(name)
        whole = name in secret and (
            row is None or row.secret or is_secret_key(name) or machine_sourced(row)
        )
        out[name] = None if whole or is_secret_key(name) else mask_value(value, name)
    return out


def _clean(name: str, value: Any, secret: bool) -> Any:
    return None if secret or is_secret_key(name) else mask_value(value, name)


def without_secret_problems(matrix: Matrix) -> Matrix:
    """``matrix`` with the errors and warnings of its secret rows left out: what they say
    depends on the secret's value (whether it reads as a number, as JSON, whether a lookup by
    it found a record), so a count of problems must not include them."""
    from dataclasses import replace

    secret = matrix_secrets(matrix)
    rows = tuple(
        replace(row, error=None, warnings=())
        if row.name in secret and (row.error or row.warnings)
        else row
        for row in matrix.rows
    )
    return replace(matrix, rows=rows)


def coerced_secret(matrix: Matrix) -> str | None:
    """A secret the loader converts to a type other than text (a config or runtime value read
    as an integer, a boolean, JSON...), or None. When the conversion fails the workflow does
    not load, so whether it loads is then a bit of the secret."""
    secret = matrix_secrets(matrix)
    for row in matrix.rows:
        if row.name in secret and row.source in ("config", "runtime") and row.type != "string":
            return row.name
    return None


def row_secret(matrix: Matrix, name: str) -> str | None:
    """The secret the variable ``name`` of ``matrix`` is, holds or was looked up with."""
    return name if name in matrix_secrets(matrix) else None


def condition_roots(matrix: Matrix, dialect: str) -> dict[str, str]:
    """The secret paths a condition of ``dialect`` reads the matrix's variables at."""
    root = "context" if dialect in ("mj", "python") else None
    out = secret_reasons(matrix, root)
    for name, why in matrix_secrets(matrix).items():
        out.setdefault(f"{root}.{name}" if root else name, why)
    return out


def decision_secret(
    decisions: Iterable[RouteDecision],
    routes: Routes,
    matrix: Matrix,
    context: Mapping[str, Any],
) -> str | None:
    """The secret any condition evaluated for these decisions read, or None. Every candidate
    that was evaluated counts, not only the winner: which rule wins first says what the rules
    before it answered."""
    from flowctx_core.expressions.taint import secret_read

    flow_roots = condition_roots(matrix, "mj")
    name_roots = condition_roots(matrix, "mozaiks")
    for decision in decisions:
        for cand in decision.candidates:
            if cand.outcome not in _EVALUATED:
                continue
            explained = cand.explained
            if isinstance(explained, ConditionExplainer):
                roots = flow_roots if decision.kind == "flow" else name_roots
                found = secret_read(explained.text, explained.scope, explained.dialect, roots)
                if found is not None:
                    return found
                continue
            key = _equals_key(routes, decision.kind, cand.index)
            if key is not None:
                value = context.get(key)
                if key in name_roots or value_secret(key, value, False) is not None:
                    return key
    return None


def source_secret(
    routes: Routes,
    matrix: Matrix,
    source: str,
    *,
    data: Mapping[str, Any] | None = None,
    context_overrides: Mapping[str, Any] | None = None,
    context_removed: Iterable[str] = (),
    payload: Any = None,
    step_result: Any = None,
    flow_context: Mapping[str, Any] | None = None,
) -> str | None:
    """The secret any rule from ``source`` would read under these inputs (``decide``'s), or
    None; asked before deciding, so that a decision that reads a secret is never made at all.
    Every rule counts, reached or not (the one after a winner too), and each condition is
    evaluated only up to its first value derived from a secret: how long the question takes
    says nothing of a secret, where deciding would spend what a secret-dependent branch
    spends."""
    from flowctx_core.expressions.pathcontext import build_path_context
    from flowctx_core.expressions.taint import secret_read
    from flowctx_core.routing import Router, default_flow_context
    from flowctx_core.routing.flow import paths_from
    from flowctx_core.routing.handoffs import rules_for as handoff_rules
    from flowctx_core.routing.handoffs import runtime_condition
    from flowctx_core.routing.transitions import rules_for as transition_rules

    if not matrix_secrets(matrix):
        return None  # nothing secret to read (what a case or scenario gives is its own)
    context = Router(
        routes, matrix, context_overrides=context_overrides, context_removed=context_removed
    ).context
    flow_roots = condition_roots(matrix, "mj")
    name_roots = condition_roots(matrix, "mozaiks")
    if routes.flow is not None:
        entries = paths_from(routes.flow, source)
        if entries:
            scope = build_path_context(
                payload=payload,
                step_result=step_result,
                flow_context=default_flow_context(source, flow_context),
                data=dict(data or {}),
                context=context,
            )
            for entry in entries:
                text = entry.model.condition if entry.model is not None else None
                if text and text.strip():
                    found = secret_read(text, scope, "mj", flow_roots)
                    if found is not None:
                        return found
    if routes.transitions is not None:
        for rule in transition_rules(routes.transitions, source):
            model = rule.model
            if model is None:
                continue
            if model.condition_type == "context_equals" and model.condition_key:
                key = str(model.condition_key)
                if key in name_roots or value_secret(key, context.get(key), False):
                    return key
            elif model.condition_type != "tool_called" and model.condition:
                found = secret_read(model.condition, context, "mozaiks", name_roots)
                if found is not None:
                    return found
    if routes.handoffs is not None:
        for handoff in handoff_rules(routes.handoffs, source):
            hmodel = handoff.model
            if hmodel is None or not hmodel.condition:
                continue
            found = secret_read(runtime_condition(hmodel.condition), context, "ag2", name_roots)
            if found is not None:
                return found
    return None


def _equals_key(routes: Routes, kind: str, index: int) -> str | None:
    """The variable a ``context_equals`` transition rule compares, if the rule is one."""
    if kind != "transition_graph" or routes.transitions is None:
        return None
    for entry in routes.transitions.rules:
        if entry.index == index and entry.model is not None:
            model = entry.model
            if model.condition_type == "context_equals" and model.condition_key:
                return str(model.condition_key)
    return None


__all__ = [
    "clean_values",
    "coerced_secret",
    "condition_roots",
    "decision_secret",
    "machine_sourced",
    "matrix_secrets",
    "row_secret",
    "source_secret",
    "value_secret",
    "withheld_text",
    "without_secret_problems",
    "without_secrets",
]
