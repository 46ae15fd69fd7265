"""Stopping a long stage that a newer change superseded, without loading the evaluator.

Resolving and checking call ``stop_if_cancelled`` once per definition. The cancel flag lives
with the evaluation budget (``flowctx_core.expressions.budget``), which registers its check
here when it is imported; before that nothing can have set a flag, so the check does nothing,
and a plain ``flowctx check`` never imports the evaluator for it.
"""

from __future__ import annotations

from collections.abc import Callable

_CHECKS: list[Callable[[], None]] = []


def register(check: Callable[[], None]) -> None:
    """``check`` raises when the current work was cancelled (the budget's own test)."""
    _CHECKS[:] = [check]


def stop_if_cancelled() -> None:
    for check in _CHECKS:
        check()
