"""Symbols: ``Symbol()``, ``Symbol('d')``, ``Symbol.for``/``keyFor`` and the well-known
symbols, as primitive values (typeof 'symbol', equal only to themselves). ``String(sym)`` and
``sym.toString()`` give ``Symbol(d)``; every implicit conversion throws V8's TypeError
("Cannot convert a Symbol value to a string" / "... to a number"); JSON leaves them out.
Properties keyed by a symbol live in symkeys.py (plain and created objects, a condition's
functions); where a key is converted to a string elsewhere (an array's, a Map's), a symbol
is refused rather than guessed."""

from __future__ import annotations

import threading
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported, not_callable
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsFunction,
    JsObject,
    to_string,
)

TO_STRING: Final = "Cannot convert a Symbol value to a string"
TO_NUMBER: Final = "Cannot convert a Symbol value to a number"


class JsSymbol(JsObject):
    """A symbol: its identity is the Python object's."""

    __slots__ = ("description",)

    def __init__(self, description: Any) -> None:
        self.description = description  # a string, or UNDEFINED

    def __repr__(self) -> str:
        return self.shown()

    def shown(self) -> str:
        """SymbolDescriptiveString: what String() and toString() give."""
        return f"Symbol({'' if self.description is UNDEFINED else self.description})"

    def js_typeof(self) -> str:
        return "symbol"

    def js_primitive(self, hint: str = "default") -> Any:
        if hint == "string":
            raise JsError(TO_STRING)
        if hint == "number":
            raise JsError(TO_NUMBER)
        return self  # a primitive already: the conversion that follows throws

    def js_json(self) -> Any:
        return UNDEFINED  # left out, as undefined is

    def js_iter(self) -> list[Any] | None:
        return None

    def js_get(self, key: str) -> Any:
        if key == "description":
            return self.description
        if key == "toString":
            return JsFunction(
                "toString", lambda *_: self.shown(), arity=0, ident="Symbol.prototype.toString"
            )
        if key == "valueOf":
            return JsFunction("valueOf", lambda *_: self, arity=0, ident="Symbol.prototype.valueOf")
        return UNDEFINED

    def js_has(self, key: str) -> bool:
        return key in ("description", "toString", "valueOf")

    def key_refusal(self) -> Unsupported:
        return Unsupported("flowctx does not reproduce properties keyed by a symbol")

    def js_set(self, key: str, value: Any) -> None:
        raise JsError(
            f"Cannot create property '{key}' on symbol '{self.shown()}'",
            anonymous=f"Cannot create property '{key}' on a symbol",
        )


def is_symbol(v: Any) -> bool:
    return type(v) is JsSymbol


#: the well-known symbols node 20 has, one value each for every evaluation
WELL_KNOWN: Final = {
    name: JsSymbol(f"Symbol.{name}")
    for name in (
        "asyncIterator", "hasInstance", "isConcatSpreadable", "iterator", "match", "matchAll",
        "replace", "search", "species", "split", "toPrimitive", "toStringTag", "unscopables",
    )
}  # fmt: skip

#: Symbol.dispose and Symbol.asyncDispose: node 20 defines them as registered symbols
#: (Symbol.for('nodejs.dispose')), before any condition runs
NODE_REGISTERED: Final = {
    "dispose": JsSymbol("nodejs.dispose"),
    "asyncDispose": JsSymbol("nodejs.asyncDispose"),
}

_registry = threading.local()


def _table() -> dict[str, JsSymbol]:
    table: dict[str, JsSymbol] | None = getattr(_registry, "table", None)
    if table is None or len(table) > 10_000:
        table = _registry.table = {sym.description: sym for sym in NODE_REGISTERED.values()}
    return table


def _symbol(description: Any = UNDEFINED, *_: Any) -> JsSymbol:
    return JsSymbol(UNDEFINED if description is UNDEFINED else to_string(description))


def _symbol_for(key: Any = UNDEFINED, *_: Any) -> JsSymbol:
    """Symbol.for: one symbol per key string (the registry is the process's in node; here
    the thread's, which holds for one evaluation and the ones after it)."""
    k = to_string(key)
    table = _table()
    found = table.get(k)
    if found is None:
        found = table[k] = JsSymbol(k)
    return found


def registered(sym: JsSymbol) -> bool:
    """Whether Symbol.for made it (a registered symbol cannot be held weakly)."""
    description: Any = sym.description
    return type(description) is str and _table().get(description) is sym


def _symbol_key_for(sym: Any = UNDEFINED, *_: Any) -> Any:
    if type(sym) is not JsSymbol:
        raise JsError(f"{not_callable(sym)} is not a symbol", anonymous="value is not a symbol")
    description: Any = sym.description
    registered = _table().get(description) if type(description) is str else None
    return description if registered is sym else UNDEFINED


def register(globals_: dict[str, Any]) -> None:
    members: dict[str, Any] = {
        "for": JsFunction("for", _symbol_for, arity=1),
        "keyFor": JsFunction("keyFor", _symbol_key_for, arity=1),
        **WELL_KNOWN,
        **NODE_REGISTERED,
    }
    globals_["Symbol"] = JsFunction("Symbol", _symbol, members)
