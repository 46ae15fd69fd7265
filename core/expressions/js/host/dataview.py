"""DataView: reads and writes of every element type at any byte offset of an ArrayBuffer,
big-endian unless asked otherwise, with V8's errors (the offset converted first, then the
value, then the view's bounds)."""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.js.host.typedarrays import (
    CONVERT,
    SAFE,
    JsArrayBuffer,
    _object_proto,
    _read_value,
    bound_method,
)
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsPropsObject,
    to_int,
    truthy,
)

#: each type a DataView reads: its struct code and size, and the typed array whose element
#: conversion it shares
TYPES: Final[dict[str, tuple[str, int, str]]] = {
    "Int8": ("b", 1, "Int8Array"), "Uint8": ("B", 1, "Uint8Array"),
    "Int16": ("h", 2, "Int16Array"), "Uint16": ("H", 2, "Uint16Array"),
    "Int32": ("i", 4, "Int32Array"), "Uint32": ("I", 4, "Uint32Array"),
    "Float32": ("f", 4, "Float32Array"), "Float64": ("d", 8, "Float64Array"),
    "BigInt64": ("q", 8, "BigInt64Array"), "BigUint64": ("Q", 8, "BigUint64Array"),
}  # fmt: skip
_GETTERS: Final = ("buffer", "byteLength", "byteOffset")
_BOUNDS: Final = "Offset is outside the bounds of the DataView"


class JsDataView(JsPropsObject):
    """A view of ``buffer`` from ``offset``: ``fixed`` bytes, or (None) up to the end of a
    resizable buffer as it is now."""

    __slots__ = ("buffer", "fixed", "offset")
    TAG: Final = "DataView"
    KINDS: Final = frozenset({"DataView"})

    def __init__(self, buffer: JsArrayBuffer, offset: int, fixed: int | None) -> None:
        self.buffer = buffer
        self.offset = offset
        self.fixed = fixed
        self.props: dict[str, Any] | None = None

    def js_shown(self) -> str:
        return "#<DataView>"

    def __repr__(self) -> str:
        return "[object DataView]"

    def js_primitive(self, hint: str = "default") -> Any:
        return "[object DataView]"

    def out_of_bounds(self) -> bool:
        have = len(self.buffer.data)
        if self.offset > have:
            return True
        return self.fixed is not None and self.offset + self.fixed > have

    def size(self, name: str) -> int:
        if self.out_of_bounds():
            raise JsError(f"Cannot perform DataView.prototype.{name} on a detached ArrayBuffer")
        if self.fixed is not None:
            return self.fixed
        return len(self.buffer.data) - self.offset

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        if key == "buffer":
            return self.buffer
        if key == "byteLength":
            return self.size("byteLength")
        if key == "byteOffset":
            self.size("byteOffset")
            return self.offset
        method = METHODS.get(key)
        if method is not None:
            fn, arity = method
            return bound_method(
                self, key, functools.partial(fn, self), arity, f"DataView.prototype.{key}"
            )
        return _object_proto(self, key)

    def js_set(self, key: str, value: Any) -> None:
        if key in _GETTERS:
            raise JsError(f"Cannot set property {key} of #<DataView> which has only a getter")
        super().js_set(key, value)

    def js_has(self, key: str) -> bool:
        return key in _GETTERS or key in METHODS or super().js_has(key)

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        if isinstance(this, JsDataView):
            return this.js_get(name).fn(*args)
        # V8 names no receiver here
        raise JsError(f"Method DataView.prototype.{name} called on incompatible receiver undefined")

    def js_clone(self, cloner: Any) -> Any:
        buffer = cloner.clone(self.buffer)
        return cloner._keep(self, JsDataView(buffer, self.offset, self.fixed))


def _index(v: Any) -> int:
    n = to_int(v)
    if n < 0 or n > SAFE:
        raise JsError(_BOUNDS)
    return int(n)


def _getter(name: str) -> Callable[..., Any]:
    code, size, kind = TYPES[name]

    def get(view: JsDataView, offset: Any = UNDEFINED, little: Any = UNDEFINED, *_: Any) -> Any:
        at = _index(offset)
        order = "<" if truthy(little) else ">"
        if at + size > view.size(f"get{name}"):
            raise JsError(_BOUNDS)
        (raw,) = struct.unpack_from(f"{order}{code}", view.buffer.data, view.offset + at)
        return _read_value(kind, raw)

    return get


def _setter(name: str) -> Callable[..., Any]:
    code, size, kind = TYPES[name]
    convert = CONVERT[kind]

    def set_(
        view: JsDataView,
        offset: Any = UNDEFINED,
        value: Any = UNDEFINED,
        little: Any = UNDEFINED,
        *_: Any,
    ) -> Any:
        at = _index(offset)
        converted = convert(value)
        order = "<" if truthy(little) else ">"
        if at + size > view.size(f"set{name}"):
            raise JsError(_BOUNDS)
        struct.pack_into(f"{order}{code}", view.buffer.data, view.offset + at, converted)
        return UNDEFINED

    return set_


METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    **{f"get{name}": (_getter(name), 1) for name in TYPES},
    **{f"set{name}": (_setter(name), 2) for name in TYPES},
}


def construct(
    buffer: Any = UNDEFINED, offset: Any = UNDEFINED, length: Any = UNDEFINED, *_: Any
) -> Any:
    """``new DataView(buffer, byteOffset, byteLength)``."""
    if not isinstance(buffer, JsArrayBuffer):
        raise JsError("First argument to DataView constructor must be an ArrayBuffer")
    start = to_int(offset)
    if start < 0 or start > SAFE:
        shown = int(start) if start == int(start) else start
        raise JsError(f"Start offset {shown} is outside the bounds of the buffer")
    start = int(start)
    have = len(buffer.data)
    if start > have:
        raise JsError(f"Start offset {start} is outside the bounds of the buffer")
    if length is UNDEFINED:
        if buffer.max_length is not None:
            return JsDataView(buffer, start, None)
        return JsDataView(buffer, start, have - start)
    n = to_int(length)
    if n < 0 or n > SAFE or start + n > have:
        raise JsError(f"Invalid DataView length {int(n) if n == int(n) else n}")
    return JsDataView(buffer, start, int(n))
