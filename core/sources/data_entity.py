"""``data_entity``: the runtime injects a write manager; flowctx shows a placeholder.

Without a collection, or without a database name (the source's own, else the contract's
default database), the runtime logs a warning and sets nothing: the key is absent.
"""

from __future__ import annotations

from flowctx_core.model.matrix import ABSENT_ORIGIN, TraceStep
from flowctx_core.sources.base import Resolved, SourceContext


def resolve(ctx: SourceContext) -> Resolved:
    src = ctx.source
    rules = ctx.inputs.runtime.sources
    db = src.database_name or _contract_default_database(ctx)
    if not db or not src.collection:
        missing = " and ".join(
            what for what, v in (("database_name", db), ("collection", src.collection)) if not v
        )
        msg = (
            f"no {missing}: the runtime logs 'Skipping data_entity {ctx.name}' and sets nothing "
            "(the key is absent from the context)"
        )
        trace = [TraceStep("manager", "skipped", msg)]
        if rules.data_entity_incomplete == "error":
            why = f"a data_entity needs a database_name and a collection (missing: {missing})"
            return Resolved(None, "error", "invalid definition", trace, error=why)
        return Resolved(None, "pending", ABSENT_ORIGIN, trace, [msg])
    if rules.data_entity_value == "manager":
        value: object = f"<DataEntityManager {db}.{src.collection}>"
    else:
        # the newest loader stores a marker dict, and keeps the manager beside the context
        value = {"kind": "data_entity", "name": ctx.name}
    trace = [TraceStep("manager", "used", f"DataEntityManager for {db}.{src.collection}")]
    return Resolved(value, "resolved", f"data_entity {db}.{src.collection}", trace)


def _contract_default_database(ctx: SourceContext) -> str | None:
    """``default_database_name``/``default_database`` at the contract's root: read by every
    loader, but only a runtime that ignores unknown root keys lets a contract carry it."""
    if ctx.inputs.runtime.contract.extra != "ignore" or ctx.workflow.doc is None:
        return None
    raw = ctx.workflow.doc.data
    if isinstance(raw, dict) and isinstance(raw.get("context_variables"), dict):
        raw = raw["context_variables"]
    if not isinstance(raw, dict):
        return None
    found = raw.get("default_database_name") or raw.get("default_database")
    return str(found) if found else None
