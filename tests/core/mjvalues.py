"""Helpers for tests of MemberJunction conditions: a condition's value as ``String()`` gives
it, and the words of its failure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flowctx_core.expressions import evaluate
from flowctx_core.expressions.js.globals import GLOBALS


def string_of(expr: str, scope: Mapping[str, Any]) -> str:
    result = evaluate(expr, scope, "mj")
    assert result.success, f"{expr!r}: {result.error}"
    return str(GLOBALS["String"].fn(result.raw))


def error_of(expr: str, scope: Mapping[str, Any]) -> str:
    result = evaluate(expr, scope, "mj")
    assert not result.success and result.error is not None, f"{expr!r} gave {result.raw!r}"
    return result.error.message
