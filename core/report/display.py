"""Turning results into display-ready data (masked unless revealed), shared by CLI and app."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from flowctx_core.base.secrets import MASK, mask_text, mask_value
from flowctx_core.model.matrix import ABSENT_ORIGIN, Matrix, Row
from flowctx_core.runtime.policy import VariableAuthority, policy_of


def display_value(row: Row, *, reveal: bool = False) -> Any:
    """The row's value as it may be shown: masked when the row or a key in it is secret."""
    if reveal:
        return row.value
    if row.secret and row.value is not None:
        return MASK
    return mask_value(row.value)


class _Full(Exception):
    pass


def _bounded_json(value: Any, limit: int) -> str:
    """JSON text of ``value``, stopping once ``limit`` characters are produced.

    Values can be megabytes (file sources, seed documents); the table shows forty characters,
    so rendering must cost what is shown, not what is stored.
    """
    out: list[str] = []
    size = 0

    def put(text: str) -> None:
        nonlocal size
        out.append(text)
        size += len(text)
        if size > limit:
            raise _Full

    def walk(v: Any, depth: int) -> None:
        if depth > 100:
            put("…")
        elif isinstance(v, dict):
            put("{")
            for i, (k, x) in enumerate(v.items()):
                put((", " if i else "") + json.dumps(str(k), ensure_ascii=False) + ": ")
                walk(x, depth + 1)
            put("}")
        elif isinstance(v, (list, tuple)):
            put("[")
            for i, x in enumerate(v):
                if i:
                    put(", ")
                walk(x, depth + 1)
            put("]")
        elif isinstance(v, str):
            put(json.dumps(v[: limit + 2], ensure_ascii=False))
        else:
            put(json.dumps(v, default=str, ensure_ascii=False))

    with contextlib.suppress(_Full):
        walk(value, 0)
    return "".join(out)


def short_value(value: Any, width: int = 40) -> str:
    """One line, at most ``width`` characters: JSON for containers, plain text for strings."""
    if isinstance(value, str):
        text = value[: width + 1]
    else:
        text = _bounded_json(value, width + 1)
    text = text.replace("\n", "⏎ ")
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def row_to_json(
    row: Row, *, reveal: bool = False, authority: VariableAuthority | None = None
) -> dict[str, Any]:
    out = {
        "name": row.name,
        "type": row.type,
        "source": row.source,
        "status": row.status,
        "value": display_value(row, reveal=reveal),
        "origin": mask_text(row.origin),
        "warnings": [mask_text(w) for w in row.warnings],
        "error": mask_text(row.error) if row.error else None,
        "trace": [
            {"step": s.step, "outcome": s.outcome, "detail": mask_text(s.detail)} for s in row.trace
        ],
        "agents": list(row.agents),
        "location": str(row.loc) if row.loc else None,
        "secret": row.secret,
        # the runtime sets no such key (``value`` None stands for it)
        "absent": row.origin == ABSENT_ORIGIN,
    }
    if authority is not None:
        # the runtime's authority policy for this variable (mozaiks 0.2.0, authority.py)
        out["authority"] = authority.to_json()
    return out


def matrix_to_json(matrix: Matrix, *, reveal: bool = False) -> dict[str, Any]:
    policy = policy_of(matrix)
    return {
        "workspace": matrix.workspace,
        "workflow": matrix.workflow,
        # the runtime profile every row and problem below was judged against
        "runtime": matrix.runtime,
        "refused": matrix.refused.to_json() if matrix.refused else None,
        "variables": [
            row_to_json(
                r,
                reveal=reveal,
                authority=policy.get(r.name) if policy is not None else None,
            )
            for r in matrix.rows
        ],
        "errors": [{**d.to_json(), "runtime": matrix.runtime} for d in matrix.diagnostics],
        "notes": [mask_text(n) for n in matrix.notes],
    }
