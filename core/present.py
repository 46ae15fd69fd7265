"""Turning results into display-ready data (masked unless revealed), shared by CLI and app."""

from __future__ import annotations

import json
from typing import Any

from core.results import Matrix, Row
from core.secrets import MASK, mask_text, mask_value


def display_value(row: Row, *, reveal: bool = False) -> Any:
    """The row's value as it may be shown: masked when the row or a key in it is secret."""
    if reveal:
        return row.value
    if row.secret and row.value is not None:
        return MASK
    return mask_value(row.value)


def short_value(value: Any, width: int = 40) -> str:
    """One line, at most ``width`` characters: JSON for containers, plain text for strings."""
    if isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, default=str, ensure_ascii=False)
    text = text.replace("\n", "⏎ ")
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def row_to_json(row: Row, *, reveal: bool = False) -> dict[str, Any]:
    return {
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
    }


def matrix_to_json(matrix: Matrix, *, reveal: bool = False) -> dict[str, Any]:
    return {
        "workspace": matrix.workspace,
        "workflow": matrix.workflow,
        "variables": [row_to_json(r, reveal=reveal) for r in matrix.rows],
        "errors": [d.to_json() for d in matrix.diagnostics],
        "notes": [mask_text(n) for n in matrix.notes],
    }
