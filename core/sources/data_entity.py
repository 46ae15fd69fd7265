"""``data_entity``: the runtime injects a write manager; flowctx shows a placeholder."""

from __future__ import annotations

from core.database import DEFAULT_DATABASE
from core.results import TraceStep
from core.sources.base import Resolved, SourceContext


def resolve(ctx: SourceContext) -> Resolved:
    src = ctx.source
    db = src.database_name or DEFAULT_DATABASE
    value = {"kind": "data_entity", "name": ctx.name, "database": db, "collection": src.collection}
    trace = [TraceStep("manager", "used", f"DataEntityManager for {db}.{src.collection}")]
    return Resolved(value, "resolved", f"data_entity {db}.{src.collection}", trace)
