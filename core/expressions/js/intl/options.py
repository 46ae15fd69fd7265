"""ECMA-402's option readers with V8's errors: GetOption, GetNumberOption, the options
object coerced."""

from __future__ import annotations

import math
from typing import Any, ClassVar

from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsObject,
    to_number,
    to_string,
    truthy,
)


def coerce_options(options: Any) -> Any:
    """CoerceOptionsToObject: undefined is an empty object; null is a TypeError."""
    if options is None:
        raise JsError("Cannot convert undefined or null to object")
    return options


def read(options: Any, name: str) -> Any:
    if options is UNDEFINED:
        return UNDEFINED
    from flowctx_core.expressions.js.common import LENT

    return LENT["get_member"](options, name)  # objects.py's, which reaches Intl


def get_option(
    options: Any,
    name: str,
    kind: str,
    allowed: tuple[str, ...] | None,
    default: Any,
    service: str,
) -> Any:
    value = read(options, name)
    if value is UNDEFINED:
        return default
    if kind == "boolean":
        return truthy(value)
    text = to_string(value)
    if allowed is not None and text not in allowed:
        raise JsError(f"Value {text} out of range for {service} options property {name}")
    return text


def number_option(value: Any, name: str, low: int, high: int, default: Any) -> Any:
    """DefaultNumberOption: undefined is the default; else a number in range, floored."""
    if value is UNDEFINED:
        return default
    n = to_number(value)
    if n != n or n < low or n > high:
        raise JsError(f"{name} value is out of range.")
    return math.floor(n)


def get_number_option(options: Any, name: str, low: int, high: int, default: Any) -> Any:
    return number_option(read(options, name), name, low, high, default)


class IntlObject(JsObject):
    """An instance of an Intl service: ``[object Intl.<tag>]`` as text, its own methods from
    ``member``, everything else from Object.prototype."""

    __slots__ = ()
    tag: ClassVar[str] = ""

    def __repr__(self) -> str:
        return f"[object Intl.{self.tag}]"

    def js_primitive(self, hint: str = "default") -> Any:
        return repr(self)

    def js_get(self, key: str) -> Any:
        found = self.member(key)
        if found is not None:
            return found
        from flowctx_core.expressions.js.common import LENT

        return LENT["object_proto"](self, key)  # regexp.py's, which reaches Intl

    def member(self, key: str) -> Any:
        """The service's own method named ``key``, or None."""
        return None
