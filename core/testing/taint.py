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
from flowctx_core.model.matrix import Matrix
from flowctx_core.model.scenarios import secret_reasons
from flowctx_core.routing import RouteDecision, Routes
from flowctx_core.routing.decision import ConditionExplainer

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


def matrix_secrets(matrix: Matrix) -> dict[str, str]:
    """Every variable of ``matrix`` whose value is secret or holds one, by name (a record
    looked up with a secret is secret by resolution: ``flowctx_core.resolve``)."""
    out: dict[str, str] = {}
    for row in matrix.rows:
        if value_secret(row.name, row.value, row.secret) is not None:
            out[row.name] = "secret"
    return out


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
    "condition_roots",
    "decision_secret",
    "matrix_secrets",
    "row_secret",
    "value_secret",
    "withheld_text",
]
