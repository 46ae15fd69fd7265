"""The resolvers, one per source type, by the ``source.type`` that selects them.

``file`` resolves in ``core.sources.file``; ``build_context`` in ``core.buildctx.projection``
(its value is the launch-time projection); the fallback order of ``data_reference`` is
``core.fallbacks``.
"""

from __future__ import annotations

from collections.abc import Callable

from core.buildctx import projection as build_context
from core.sources import config, data_entity, data_reference, file, pending, state
from core.sources.base import Resolved, SourceContext

Resolver = Callable[[SourceContext], Resolved]

RESOLVERS: dict[str, Resolver] = {
    "config": config.resolve,
    "data_reference": data_reference.resolve,
    "data_entity": data_entity.resolve,
    "computed": pending.resolve,
    "state": state.resolve,
    "external": pending.resolve,
    "file": file.resolve,
    "build_context": build_context.resolve,
}

__all__ = ["RESOLVERS", "Resolved", "Resolver", "SourceContext"]
