"""The resolvers, one per source type, by the ``source.type`` that selects them.

``file`` resolves in ``flowctx_core.sources.file``; ``build_context`` in
``flowctx_core.sources.build_context`` (its value is the launch-time projection); the fallback
order of ``data_reference`` is ``flowctx_core.model.fallbacks``.
"""

from __future__ import annotations

from collections.abc import Callable

from flowctx_core.base.coercion import coerce
from flowctx_core.base.secrets import is_secret_key
from flowctx_core.model.matrix import TraceStep
from flowctx_core.sources import (
    build_context,
    config,
    data_entity,
    data_reference,
    file,
    pending,
    runtime,
    state,
)
from flowctx_core.sources.base import Resolved, SourceContext

Resolver = Callable[[SourceContext], Resolved]


def _with_projection(resolver: Resolver) -> Resolver:
    """A registry's projection into a declared variable that is not ``build_context``: the
    runtime's ``merge_build_context`` puts it in the launch context, so it replaces what the
    source loaded (explicit launch values, applied after this, still win)."""

    def resolve(ctx: SourceContext) -> Resolved:
        result = resolver(ctx)
        projected = ctx.projection.launch_values.get(ctx.name) if ctx.projection else None
        if projected is None:
            return result
        trace = [
            TraceStep(s.step, "shadowed", s.detail + " (a build-context projection wins)")
            if s.outcome == "used"
            else s
            for s in result.trace
        ]
        trace.extend(projected.trace)
        return Resolved(projected.value, "resolved", projected.origin, trace, [*result.warnings])

    return resolve


def _coerced(resolver: Resolver) -> Resolver:
    """What the source loaded, coerced to the declared boolean or integer type when the runtime
    coerces this source type (mozaiks 0.2.0 ``_coerce_value`` on a file's content or default
    and on a document, its field, its default or a fallback); config and state coerce their
    own values."""

    def resolve(ctx: SourceContext) -> Resolved:
        result = resolver(ctx)
        if result.value is None or ctx.source.type not in ctx.inputs.runtime.sources.coerced:
            return result
        secret = is_secret_key(ctx.name) or data_reference.secret_field(ctx.source) is not None
        value, warn = coerce(result.value, ctx.type_name, conceal=secret)
        warnings = [*result.warnings, warn] if warn else result.warnings
        return Resolved(value, result.status, result.origin, result.trace, warnings, result.error)

    return resolve


RESOLVERS: dict[str, Resolver] = {
    "config": _with_projection(config.resolve),
    "data_reference": _with_projection(_coerced(data_reference.resolve)),
    "data_entity": _with_projection(data_entity.resolve),
    "computed": _with_projection(pending.resolve),
    "state": _with_projection(state.resolve),
    "external": _with_projection(pending.resolve),
    "file": _with_projection(_coerced(file.resolve)),
    "build_context": build_context.resolve,
    # the host's runtime context: immutable runtime authority, no projection replaces it
    "runtime": runtime.resolve,
}

__all__ = ["RESOLVERS", "Resolved", "Resolver", "SourceContext"]
