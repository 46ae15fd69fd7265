"""Iterator objects built-ins hand out (``matchAll``, an array's ``keys``/``values``/
``entries``, a string's iterator): ``next()``, spread and ``Array.from`` consume them, once."""

from __future__ import annotations

from typing import Any

from flowctx_core.expressions.js.values import UNDEFINED, JsFunction, JsObject


class JsIterator(JsObject):
    __slots__ = ("items", "kind", "position")

    def __init__(self, kind: str, items: list[Any]) -> None:
        self.kind = kind  # "Array Iterator", "RegExp String Iterator"...
        self.items = items
        self.position = 0

    def __repr__(self) -> str:
        return f"[object {self.kind}]"

    def js_primitive(self, hint: str = "default") -> Any:
        return f"[object {self.kind}]"

    def js_iter(self) -> list[Any]:
        return self.rest()

    def rest(self) -> list[Any]:
        """What a spread or Array.from takes: the items not yet consumed."""
        out = self.items[self.position :]
        self.position = len(self.items)
        return out

    def js_get(self, key: str) -> Any:
        if key == "next":
            return JsFunction("next", self._next, arity=0)
        if key == "toString":
            return JsFunction("toString", lambda *_: f"[object {self.kind}]", arity=0)
        return UNDEFINED

    def _next(self, *_: Any) -> dict[str, Any]:
        if self.position < len(self.items):
            value = self.items[self.position]
            self.position += 1
            return {"value": value, "done": False}
        return {"value": UNDEFINED, "done": True}
