"""Exact values: the four projections the node harness gives (``probe``), from flowctx's value.

A boolean agreement hides wrong values (``[1,,3].map(x => 2)`` is truthy whether its middle is a
hole or ``2``), so a probed case also compares ``typeof``, ``String()``, ``JSON.stringify`` and
``Object.is(v, -0)`` of the condition's value before ``Boolean()``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

from flowctx_core.expressions import EvalResult
from flowctx_core.expressions.js import values as js
from flowctx_core.expressions.js.globals import GLOBALS


def _attempt(fn: Callable[[], Any]) -> str:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))  # node converts 400-deep arrays; so must this
    try:
        v = fn()
    except js.JsError as e:
        return f"throws: {e}"
    finally:
        sys.setrecursionlimit(limit)
    return "undefined" if v is js.UNDEFINED else str(v)


def projection(result: EvalResult) -> dict[str, Any] | None:
    """typeof / String / JSON.stringify / -0 of flowctx's value, as the harness spells them."""
    if not result.success:
        return None
    v = result.raw
    stringify = GLOBALS["JSON"].members["stringify"].fn
    return {
        "typeof": js.typeof(v),
        "string": _attempt(lambda: GLOBALS["String"].fn(v)),
        "json": _attempt(lambda: stringify(v)),
        "negzero": type(v) is float and v == 0.0 and str(v).startswith("-"),
    }


def same(real: Mapping[str, Any] | None, ours: Mapping[str, Any] | None) -> bool:
    """Equal projections; a thrown message is compared by kind only (wording is node's)."""
    if real is None or ours is None:
        return real is None and ours is None
    for key in ("typeof", "string", "json", "negzero"):
        a, b = real[key], ours[key]
        if isinstance(a, str) and isinstance(b, str) and a.startswith("throws: "):
            if not b.startswith("throws: "):
                return False
        elif a != b:
            return False
    return True
