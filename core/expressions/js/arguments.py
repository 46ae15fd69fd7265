"""``arguments``: the arguments object of the function MemberJunction builds, an ordinary
value. The function takes one parameter per key of MemberJunction's copy of the context (the
keys it drops left out), in that copy's key order, and is called with their values; strict
mode makes the object unmapped and ``callee`` a TypeError. Arrow functions have none of their
own, so one inside the condition sees this one."""

from __future__ import annotations

from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsObject,
    array_index,
)

_CALLEE: Final = (
    "'caller', 'callee', and 'arguments' properties may not be accessed on strict mode "
    "functions or the arguments objects for calls to them"
)


class JsArguments(JsObject):
    __slots__ = ("gone", "props", "values")

    def __init__(self, values: list[Any]) -> None:
        self.values = values
        # keys written since (an index past the end, a name, ``length``: unmapped in strict
        # mode, so a write changes this object alone)
        self.props: dict[str, Any] = {}
        # its own keys deleted since (an index or length: configurable)
        self.gone: set[str] = set()

    def __repr__(self) -> str:
        return "[object Arguments]"

    def js_primitive(self, hint: str = "default") -> Any:
        return "[object Arguments]"

    def js_get(self, key: str) -> Any:
        if key in self.props:
            return self.props[key]
        index = array_index(key)
        if index is not None:
            return (
                self.values[index]
                if index < len(self.values) and key not in self.gone
                else UNDEFINED
            )
        if key == "length" and key not in self.gone:
            return len(self.values)
        if key == "callee" and key not in self.gone:
            raise JsError(_CALLEE)
        from flowctx_core.expressions.js.regexp import _object_proto

        return _object_proto(self, key)

    def js_has(self, key: str) -> bool:
        if self.js_owns(key):
            return True
        return self.js_get(key) is not UNDEFINED

    def js_owns(self, key: str) -> bool:
        if key in self.props:
            return True
        if key in self.gone:
            return False
        index = array_index(key)
        return key in ("length", "callee") or (index is not None and index < len(self.values))

    def js_keys(self) -> list[str]:
        written = [k for k in self.props if k != "length"]
        made = [str(i) for i in range(len(self.values)) if str(i) not in self.gone]
        indices = sorted(
            (k for k in written if array_index(k) is not None and k not in made), key=int
        )
        names = [k for k in written if array_index(k) is None]
        return sorted([*made, *indices], key=int) + names

    def own_names(self) -> list[str]:
        """Object.getOwnPropertyNames: the indices, then length and callee (made with the
        object, not enumerable), then the names written since."""
        keys = self.js_keys()
        at = sum(1 for k in keys if array_index(k) is not None)
        made = [k for k in ("length", "callee") if k not in self.gone and k not in self.props]
        return [*keys[:at], *made, *keys[at:]]

    def js_delete(self, key: str) -> None:
        if key == "callee" and key not in self.gone and key not in self.props:
            # strict mode's callee is a poisoned accessor that cannot be configured
            raise JsError("Cannot delete property 'callee' of #<Object>")
        self.props.pop(key, None)
        index = array_index(key)
        if key in ("length", "callee") or (index is not None and index < len(self.values)):
            self.gone.add(key)

    def js_iter(self) -> list[Any]:
        if self.props or "length" in self.gone:
            raise Unsupported("flowctx does not reproduce iterating a written 'arguments'")
        # Array.prototype.values reads each index up to the length: a deleted one is undefined
        return [UNDEFINED if str(i) in self.gone else v for i, v in enumerate(self.values)]

    def js_json(self) -> Any:
        return {k: self.js_get(k) for k in self.js_keys()}

    def js_set(self, key: str, value: Any) -> None:
        if key in self.gone:
            self.gone.discard(key)
            if key in ("length", "callee"):
                self.props[key] = value  # made again, after the keys written before
                return
        index = array_index(key)
        if index is not None and index < len(self.values):
            self.values[index] = value
        else:
            self.props[key] = value
