"""The ways flowctx declines to predict a MemberJunction condition, each with its own kind."""

from __future__ import annotations

from flowctx_core.expressions.sandbox import ExpressionError


class SecurityRefusal(ExpressionError):
    """The published evaluator would run this text as code; flowctx never evaluates it."""

    kind = "security"
    #: when every refused name is a host global (``globalThis``, ``console``...): those names;
    #: a scope that provides all of them makes them its own values, nothing host-side is read
    host_names: frozenset[str] | None = None


class Unpredicted(ExpressionError):
    """Valid JavaScript whose semantics flowctx does not reproduce: refused, never guessed."""

    kind = "unsupported"


class EngineRefusal(ExpressionError):
    """MemberJunction's own pre-checks refuse the text (its exact message)."""

    kind = "engine"


#: the body MemberJunction 5.51.3 builds around a condition before V8 parses it
WRAPPER = "return Boolean(<condition>);"


def wrapper_hint(text: str, message: str, start: int | None) -> str | None:
    """Why a syntax error names a ``)`` or ``;`` the author never typed: the condition is the
    argument list of the engine's ``Boolean(...)``, so a condition that stops early (``a ===``)
    meets the wrapper's own ``)``. The engine's message is kept as it is; this only explains it.
    """
    if start is None or start < len(text.rstrip()):
        return None
    for token in (")", ";"):
        if message == f"Unexpected token '{token}'":
            return (
                f"the '{token}' is MemberJunction's, not yours: it runs '{WRAPPER}', so a "
                f"condition that is incomplete at its end meets that '{token}'"
            )
    return None
