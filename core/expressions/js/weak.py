"""WeakMap and WeakSet: keyed by object identity, only objects as keys, no size and no
iteration (nothing a condition could observe of the collection's contents but its own answers);
WeakRef: one target, which ``deref`` gives back for as long as the condition runs (ECMAScript
keeps a target alive until the end of the job that made or read it, and a condition is one
synchronous job). Each method checks its receiver and its key with V8's TypeErrors."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.values import (
    ELEMENT,
    UNDEFINED,
    JsError,
    JsFunction,
    JsPropsObject,
    is_nullish,
    shown_value,
    to_string,
    typeof,
)


def _holdable(v: Any) -> bool:
    """CanBeHeldWeakly, for the values an expression makes: objects and functions (a symbol
    is refused too; flowctx's symbols are compared by description, not held)."""
    return v is not None and typeof(v) in ("object", "function")


class JsWeakCollection(JsPropsObject):
    """A WeakMap (``is_set`` false) or a WeakSet: its entries by the key object's identity; a
    WeakRef (``kind``) holds its target as its one entry."""

    __slots__ = ("entries", "is_set", "kind")

    def __init__(self, is_set: bool, kind: str | None = None) -> None:
        self.is_set = is_set
        self.kind = kind or ("WeakSet" if is_set else "WeakMap")
        self.entries: dict[int, tuple[Any, Any]] = {}  # id(key) -> (key, value)
        self.props: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"[object {self.kind}]"

    def js_primitive(self, hint: str = "default") -> Any:
        return repr(self)

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        method = _METHODS[self.kind].get(key)
        if method is not None:
            fn, arity = method
            return JsFunction(
                key,
                lambda *args: fn(self, *args),
                arity=arity,
                ident=f"{self.kind}.prototype.{key}",
            )
        from flowctx_core.expressions.js.regexp import _object_proto

        return _object_proto(self, key)

    def put(self, k: Any, v: Any) -> None:
        if not _holdable(k):
            shown = "in weak set" if self.is_set else "as weak map key"
            raise JsError(f"Invalid value used {shown}")
        self.entries[id(k)] = (k, v)


def _found(c: JsWeakCollection, k: Any) -> tuple[Any, Any] | None:
    got = c.entries.get(id(k))
    return got if got is not None and got[0] is k else None


def _get(c: JsWeakCollection, k: Any = UNDEFINED, *_: Any) -> Any:
    got = _found(c, k)
    return UNDEFINED if got is None else got[1]


def _set(c: JsWeakCollection, k: Any = UNDEFINED, v: Any = UNDEFINED, *_: Any) -> Any:
    c.put(k, v)
    return c


def _add(c: JsWeakCollection, v: Any = UNDEFINED, *_: Any) -> Any:
    c.put(v, v)
    return c


def _has(c: JsWeakCollection, k: Any = UNDEFINED, *_: Any) -> bool:
    return _found(c, k) is not None


def _delete(c: JsWeakCollection, k: Any = UNDEFINED, *_: Any) -> bool:
    if _found(c, k) is None:
        return False
    del c.entries[id(k)]
    return True


def _deref(c: JsWeakCollection, *_: Any) -> Any:
    return next(iter(c.entries.values()))[0]


_MAP_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "get": (_get, 1), "set": (_set, 2), "has": (_has, 1), "delete": (_delete, 1),
}  # fmt: skip
_SET_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "add": (_add, 1), "has": (_has, 1), "delete": (_delete, 1),
}  # fmt: skip
_METHODS: Final = {"WeakMap": _MAP_METHODS, "WeakSet": _SET_METHODS,
                   "WeakRef": {"deref": (_deref, 0)}}  # fmt: skip


def construct_ref(target: Any = UNDEFINED, *_: Any) -> JsWeakCollection:
    """``new WeakRef(target)``: an object, a function or a symbol no registry holds."""
    from flowctx_core.expressions.js.symbols import JsSymbol, registered

    if not _holdable(target) and not (type(target) is JsSymbol and not registered(target)):
        raise JsError("WeakRef: invalid target")
    ref = JsWeakCollection(False, "WeakRef")
    ref.entries[id(target)] = (target, target)
    return ref


def construct(is_set: bool, iterable: Callable[[Any, str], list[Any]]) -> Callable[..., Any]:
    """``new WeakMap(entries)`` / ``new WeakSet(values)``; ``iterable`` is the Map and Set
    constructors' own reading of their argument (its TypeErrors for what is not iterable)."""

    def make(source: Any = UNDEFINED, *_: Any) -> JsWeakCollection:
        c = JsWeakCollection(is_set)
        if is_nullish(source):
            return c
        items = iterable(source, c.kind)
        charge(ELEMENT * len(items))
        for item in items:
            if is_set:
                c.put(item, item)
                continue
            if not _holdable(item):
                raise JsError(
                    f"Iterator value {to_string(item)} is not an entry object",
                    anonymous="Iterator value is not an entry object",
                )
            from flowctx_core.expressions.js.objects import get_member

            c.put(get_member(item, "0"), get_member(item, "1"))
        return c

    return make


def receiver_error(bound: JsWeakCollection, name: str, this: Any) -> JsError:
    return JsError(
        f"Method {bound.kind}.prototype.{name} called on incompatible receiver {shown_value(this)}",
        anonymous=f"Method {bound.kind}.prototype.{name} called on incompatible receiver",
    )
