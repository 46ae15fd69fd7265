"""``state``: ``default`` (coerced) at load; triggers change it at run time."""

from __future__ import annotations

from flowctx_core.base.coercion import coerce
from flowctx_core.base.secrets import is_secret_key
from flowctx_core.model.matrix import TraceStep
from flowctx_core.sources.base import Resolved, SourceContext


def resolve(ctx: SourceContext) -> Resolved:
    src = ctx.source
    value, warn = coerce(src.default, ctx.type_name, conceal=is_secret_key(ctx.name))
    n = len(src.triggers)
    trace = [TraceStep("default", "used", "source.default (state starts here)")]
    if n:
        kinds = ", ".join(sorted({t.type for t in src.triggers}))
        trace.append(TraceStep("triggers", "skipped", f"{n} trigger(s) ({kinds}) act at run time"))
    return Resolved(value, "default", "state default", trace, [warn] if warn else [])
