"""AggregateError: an error holding the values it was given (any iterable's), in an own
``errors`` property that is not enumerable; callable without ``new`` as every error is."""

from __future__ import annotations

from typing import Any, Final

from flowctx_core.expressions.js.constructors import JsErrorObject
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsObject,
    own_keys_all,
    to_string,
    typeof,
)


class JsAggregateError(JsErrorObject):
    __slots__ = ("errors",)
    TAG: Final = "Error"
    KINDS: Final = frozenset({"AggregateError", "Error"})

    def __init__(self, errors: list[Any], message: Any, options: Any) -> None:
        super().__init__("AggregateError", message, options)
        self.errors: Any = errors

    def js_shown(self) -> str:
        return to_string(self)

    def js_get(self, key: str) -> Any:
        if key == "errors" and key not in self.props:
            return self.errors
        return super().js_get(key)

    def js_set(self, key: str, value: Any) -> None:
        if key == "errors":
            self.errors = value  # its own property, still not enumerable
            return
        super().js_set(key, value)

    def js_owns(self, key: str) -> bool:
        return key == "errors" or (key == "message" and self.own_message) or key in self.props

    def js_has(self, key: str) -> bool:
        return key == "errors" or self.js_get(key) is not UNDEFINED

    def own_names(self) -> list[str]:
        """Object.getOwnPropertyNames: made with the stack, the message, the cause, then the
        errors, before the keys written on it."""
        message = ["message"] if self.own_message else []
        keys = own_keys_all(self.props)
        cause = keys[:1] if keys[:1] == ["cause"] else []
        return ["stack", *message, *cause, "errors", *keys[len(cause) :]]

    def js_clone(self, cloner: Any) -> Any:
        # V8's serializer keeps the standard errors' names only: an Error with the message
        copy = JsErrorObject("Error", self.message if self.own_message else UNDEFINED)
        return cloner._keep(self, copy)


def _iterated(v: Any) -> list[Any]:
    from flowctx_core.expressions.js.values import HOLE, js_value

    if type(v) is list or type(v) is tuple:
        return [UNDEFINED if x is HOLE else js_value(x) for x in v]
    if type(v) is str:
        return list(v)
    if isinstance(v, JsObject):
        got = v.js_iter()
        if got is not None:
            return list(got)
    tail = "is not iterable (cannot read property Symbol(Symbol.iterator))"
    if v is UNDEFINED:
        raise JsError(f"undefined {tail}")
    if v is None:
        raise JsError(f"object null {tail}")
    kind = typeof(v)
    if type(v) in (int, float, bool):
        raise JsError(f"{kind} {to_string(v)} {tail}", anonymous=f"{kind} {tail}")
    if kind == "bigint":
        raise JsError(f"{kind} {to_string(v)} {tail}", anonymous=f"{kind} {tail}")
    raise JsError(f"{kind} {tail}")


def construct(
    errors: Any = UNDEFINED, message: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any
) -> JsAggregateError:
    """``new AggregateError(errors, message, options)`` (and the call without ``new``): the
    message made first, then the errors iterated."""
    made = JsAggregateError([], message, options)
    made.errors = _iterated(errors)
    return made
