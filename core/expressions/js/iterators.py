"""Iterator objects built-ins hand out (``matchAll``, an array's ``keys``/``values``/
``entries``, a string's iterator): ``next()``, spread and ``Array.from`` consume them, once."""

from __future__ import annotations

from typing import Any, Final

from flowctx_core.expressions.js.values import (
    CHANGED,
    UNDEFINED,
    JsFunction,
    JsObject,
    js_value,
)

#: the ident of %IteratorPrototype%[Symbol.iterator], which returns its this
ITERATOR_ITSELF: Final = "Iterator.prototype[Symbol.iterator]"
#: the ident of %SegmentsPrototype%[Symbol.iterator], which only a Segments object takes
SEGMENTS_ITERATOR: Final = "Segments.prototype[Symbol.iterator]"


class JsIterator(JsObject):
    __slots__ = ("array", "items", "kind", "mode", "position")

    def __init__(
        self, kind: str, items: list[Any], array: list[Any] | None = None, mode: str = ""
    ) -> None:
        self.kind = kind  # "Array Iterator", "RegExp String Iterator"...
        self.items = items
        self.position = 0
        # an array's keys / values / entries read the array as they go (CreateArrayIterator):
        # its length and each element when next() asks, so a getter runs then, and elements
        # pushed before the end are seen; ``items`` is unused then
        self.array = array
        self.mode = mode

    def __repr__(self) -> str:
        return f"[object {self.kind}]"

    def js_primitive(self, hint: str = "default") -> Any:
        return f"[object {self.kind}]"

    def js_iter(self) -> list[Any]:
        return self.rest()

    def rest(self) -> list[Any]:
        """What a spread or Array.from takes: the items not yet consumed."""
        arr = self.array
        if arr is not None and self.mode == "values" and not CHANGED.elements:
            out = list(map(js_value, arr[self.position :]))  # no getter can change the array
            self.array, self.position = None, 0
            return out
        if arr is not None:  # every step left, each read as next() would read it
            out = []
            i, keys, values = self.position, self.mode == "keys", self.mode == "values"
            while i < len(arr):
                value = i if keys else js_value(arr[i])
                out.append(value if keys or values else [i, value])
                i += 1
            self.array, self.position = None, 0
            return out
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
        arr = self.array
        if arr is not None:
            i = self.position
            if i >= len(arr):
                self.array = None  # done for good, whatever is pushed later
                self.items, self.position = [], 0
                return {"value": UNDEFINED, "done": True}
            self.position = i + 1
            if self.mode == "keys":
                return {"value": i, "done": False}
            value = js_value(arr[i])
            return {"value": value if self.mode == "values" else [i, value], "done": False}
        if self.position < len(self.items):
            value = self.items[self.position]
            self.position += 1
            return {"value": value, "done": False}
        return {"value": UNDEFINED, "done": True}
