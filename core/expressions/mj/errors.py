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
