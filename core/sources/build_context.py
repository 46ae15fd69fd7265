"""``build_context``: ``None`` at load; the launch-time projection (core.buildctx) fills it."""

from __future__ import annotations

from core.results import TraceStep
from core.sources.base import Resolved, SourceContext


def resolve(ctx: SourceContext) -> Resolved:
    trace = [
        TraceStep(
            "load",
            "skipped",
            "None at load: filled at launch by a build-context registry when the provider is on",
        )
    ]
    return Resolved(None, "pending", "build_context (pending)", trace)
