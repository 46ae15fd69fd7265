"""One resolver per source type, behind a small registry."""

from __future__ import annotations

from collections.abc import Callable

from core.sources import build_context, config, data_entity, data_reference, file, pending, state
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
