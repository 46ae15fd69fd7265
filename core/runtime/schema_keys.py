"""Runtime-injected schema capability keys, present even when not declared (mozaiks 0.2.0,
``mozaiksai/core/workflow/context/variables.py``)."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from flowctx_core.model.database import DatabaseError
from flowctx_core.model.inputs import ResolveInputs
from flowctx_core.model.matrix import Row, TraceStep

DEFAULT_TRUNCATE = 4000
#: Keys the runtime injects into context without a declaration.
RUNTIME_KEYS = frozenset(
    {
        "database_schema_available",
        "database_schema_db",
        "schema_overview",
        "collections_first_docs_full",
    }
)


def overview_text(database: str, first_docs: dict[str, Any]) -> str:
    """The overview as mozaiks 0.2.0 writes it (mozaiksai/core/workflow/context/variables.py
    ``_get_database_schema_async``): a header, then each collection with a sample document as
    its field names and Python type names (``_id`` left out; ``[app-specific]`` when the
    sample has an ``app_id``); empty collections are counted but not listed."""
    lines = [f"DATABASE: {database}", f"TOTAL COLLECTIONS: {len(first_docs)}", ""]
    for name, doc in first_docs.items():
        if not doc:
            continue
        fields = {k: type(v).__name__ for k, v in doc.items() if k != "_id"}
        app = " [app-specific]" if "app_id" in doc else ""
        lines.append(f"{name.upper()}{app}:")
        lines.append("  Fields:")
        lines.extend(f"    - {field}: {kind}" for field, kind in fields.items())
        lines.append("")
    return "\n".join(lines)


def schema_rows(inputs: ResolveInputs, declared: Container[str]) -> list[Row]:
    include = inputs.env_flag("CONTEXT_INCLUDE_SCHEMA")
    schema_db = str(inputs.env.get("CONTEXT_SCHEMA_DB", "") or "") or None
    rows: list[Row] = []
    available = bool(include and schema_db and inputs.database is not None)
    why = (
        "CONTEXT_INCLUDE_SCHEMA is not true"
        if not include
        else "CONTEXT_SCHEMA_DB is not set"
        if not schema_db
        else inputs.database_note
        if inputs.database is None
        else f"schema database {schema_db}"
    )
    overview: str | None = None
    first_docs: dict[str, Any] = {}
    if available:
        assert inputs.database is not None and schema_db is not None
        try:
            names = inputs.database.collection_names(schema_db)
            for name in names:
                first_docs[name] = inputs.database.first_document(schema_db, name)
            overview = overview_text(schema_db, first_docs)
            try:
                limit = int(inputs.env.get("CONTEXT_SCHEMA_TRUNCATE_CHARS", DEFAULT_TRUNCATE))
            except ValueError:
                limit = DEFAULT_TRUNCATE
            if len(overview) > limit:
                # variables.py: the cut is marked with how much was dropped
                overview = f"{overview[:limit]}... [truncated {len(overview) - limit} chars]"
        except DatabaseError as exc:
            available = False
            why = f"schema database error: {exc}"

    def row(name: str, type_: str, value: Any, detail: str) -> Row:
        return Row(
            name=name,
            type=type_,
            source="runtime",
            status="resolved",
            value=value,
            origin="runtime-injected",
            trace=(TraceStep("runtime", "used", detail),),
        )

    candidates = [
        row("database_schema_available", "boolean", available, why),
        row("database_schema_db", "string", schema_db if available else None, why),
    ]
    if include and schema_db:
        candidates.append(row("schema_overview", "string", overview, why))
        candidates.append(row("collections_first_docs_full", "object", first_docs, why))
    for r in candidates:
        if r.name not in declared:
            rows.append(r)
    return rows
