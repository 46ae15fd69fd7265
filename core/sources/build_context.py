"""The ``build_context`` source: ``None`` at load, then what the build-context projection gave
the variable (``flowctx_core.buildctx.projection``); launch values winning over it is
``resolve``'s job.
"""

from __future__ import annotations

from flowctx_core.buildctx.projected import BuildContextProjection
from flowctx_core.model.matrix import TraceStep
from flowctx_core.sources.base import Resolved, SourceContext


def apply_projection(projection: BuildContextProjection, name: str, resolved: Resolved) -> Resolved:
    """A build_context row's load result after projection (launch values are applied later)."""
    result = projection.explain(name)
    warnings = [*resolved.warnings, *result.warnings]
    if name in projection.errors:
        trace = [*resolved.trace, *result.trace]
        return Resolved(None, "error", result.origin, trace, warnings, error=result.origin)
    if name in projection.values:
        trace = [
            TraceStep(s.step, "shadowed", s.detail) if s.outcome == "skipped" else s
            for s in resolved.trace
        ]
        trace.extend(result.trace)
        return Resolved(result.value, "resolved", result.origin, trace, warnings)
    trace = [*resolved.trace, *result.trace]
    return Resolved(resolved.value, resolved.status, result.origin, trace, warnings)


def resolve(ctx: SourceContext) -> Resolved:
    """The ``build_context`` source: ``None`` at load, then what the projection gave."""
    trace = [
        TraceStep(
            "load",
            "skipped",
            "None at load: filled at launch by a build-context registry when the provider is on",
        )
    ]
    pending = Resolved(None, "pending", "build_context (pending)", trace)
    if ctx.projection is None:
        return pending
    return apply_projection(ctx.projection, ctx.name, pending)
