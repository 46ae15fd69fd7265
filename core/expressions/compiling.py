"""Conditions compiled once per dialect and text: each front end imported when first used,
and the mj front end's second chance for host names the scope itself provides. Both the
evaluator (``__init__``) and the taint check (``taint``) compile through here."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Final

from flowctx_core.base.gcpause import gc_paused
from flowctx_core.expressions.sandbox import Compiled, ExpressionError

# Each front end (and the explain tree builder) is imported when first used: a command that
# evaluates mj conditions only (``flowctx eval``) does not pay for the other three.
_FRONT_END_MODULES: Final = {
    "mj": ("flowctx_core.expressions.mj", "compile_mj"),
    "ag2": ("flowctx_core.expressions.ag2", "compile_ag2"),
    "mozaiks": ("flowctx_core.expressions.mozaiks", "compile_mozaiks"),
    "python": ("flowctx_core.expressions.python", "compile_python"),
}
_FRONT_ENDS: dict[str, Callable[[str], Compiled]] = {}


def _front_end(dialect: str) -> Callable[[str], Compiled]:
    front = _FRONT_ENDS.get(dialect)
    if front is None:
        module, name = _FRONT_END_MODULES[dialect]
        # an import's objects live as long as the process: no cycle to collect among them
        with gc_paused():
            front = _FRONT_ENDS[dialect] = getattr(importlib.import_module(module), name)
    return front


@lru_cache(maxsize=4096)
def _compile(dialect: str, text: str) -> Compiled:
    return _front_end(dialect)(text)


@lru_cache(maxsize=256)
def _compile_mj_bound(text: str, bound: frozenset[str]) -> Compiled:
    from flowctx_core.expressions.mj import compile_mj

    return compile_mj(text, bound)


def _bound_to_scope(exc: ExpressionError, text: str, scope: Any) -> Compiled | None:
    """An mj condition refused only for naming host globals (``globalThis``) that the scope
    itself provides: MemberJunction's function takes them as parameters, so they are the
    scope's values and nothing of the host is reached. None when the refusal stands."""
    from flowctx_core.expressions.js.values import DROPPED_KEYS

    names = getattr(exc, "host_names", None)
    if not names or not isinstance(scope, Mapping):
        return None
    # a key MemberJunction drops (eval, Function) is no parameter: the name is the host's own
    if not all(n in scope and n not in DROPPED_KEYS for n in names):
        return None
    try:
        return _compile_mj_bound(text, names)
    except ExpressionError:
        return None
