"""``computed`` and ``external``: ``None`` at load, filled later by tools or integrations."""

from __future__ import annotations

from flowctx_core.model.matrix import TraceStep
from flowctx_core.sources.base import Resolved, SourceContext

_WHO = {
    "computed": "populated later by tools or agents",
    "external": "populated later by integration tools",
}


def resolve(ctx: SourceContext) -> Resolved:
    kind = ctx.source.type
    detail = _WHO[kind]
    src = ctx.source
    if kind == "external" and src.service:
        detail += f" (service {src.service}{'.' + src.operation if src.operation else ''})"
    trace = [TraceStep("load", "skipped", f"None at load: {detail}")]
    if src.default is not None:
        trace.append(TraceStep("default", "skipped", "the runtime ignores default for " + kind))
    return Resolved(None, "pending", f"{kind} (pending)", trace)
