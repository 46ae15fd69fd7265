"""The built-in prototypes as values (``Object.getPrototypeOf([])``, ``Reflect.getPrototypeOf
(new Date(0))``): one object each, so two reads are ``===`` and a method read from one is the
method every value of its kind inherits.

ECMAScript makes some prototypes objects of their own class: Array.prototype is an array (length
0), String.prototype a String object of '', Number.prototype one of 0, Boolean.prototype one of
false, Function.prototype a function that returns undefined. The others (Date, RegExp, Map,
Set, Error...) are ordinary objects, so their own methods refuse them as a receiver, with V8's
TypeErrors. Their property names are node's own (``builtinnames.PROTO_NAMES``).

Nothing here writes to a prototype: in the engine such a write changes the host's built-ins
for every later evaluation of the process, which no condition's result can show.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Final

from flowctx_core.expressions.js.builtinnames import PROTO_NAMES
from flowctx_core.expressions.js.common import LENT, Unsupported
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsCreated,
    JsError,
    JsFunction,
    JsNamespace,
    JsObject,
    typeof,
)

#: the prototypes that hold a primitive of their kind (their methods accept them)
_PRIMITIVES: Final[dict[str, Any]] = {"String": "", "Number": 0, "Boolean": False}
_ERRORS: Final = ("TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError",
                  "URIError")  # fmt: skip
#: how V8's TypeErrors name the prototype objects whose class has a toStringTag
_TAGGED: Final = frozenset({"Map", "Set", "WeakMap", "WeakSet", "Symbol", "BigInt"})
#: a change to a built-in the engine's host process keeps
HOST_CHANGE: Final = (
    "flowctx does not reproduce changing a built-in prototype: the engine's host process "
    "keeps the change for every later evaluation"
)


class JsPrototype(JsObject):
    """``<Kind>.prototype`` (all but Function.prototype, which is a function)."""

    __slots__ = ("kind",)

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"{self.kind}.prototype"

    @property
    def names(self) -> tuple[str, ...]:
        return PROTO_NAMES[self.kind]

    def js_primitive(self, hint: str = "default") -> Any:
        kind = self.kind
        if kind in _PRIMITIVES:
            return _PRIMITIVES[kind]
        if kind == "Array":
            return ""
        if kind == "Date":
            if hint == "number":
                raise JsError("this is not a Date object.")
            raise JsError(
                "Method Date.prototype.toString called on incompatible receiver [object Object]"
            )
        if kind == "RegExp":
            return "/(?:)/"
        if kind == "Error" or kind in _ERRORS:
            return kind
        if kind == "Symbol":
            raise JsError("Symbol.prototype [ @@toPrimitive ] requires that 'this' be a Symbol")
        if kind == "BigInt":
            which = "toString" if hint == "string" else "valueOf"
            raise JsError(f"BigInt.prototype.{which} requires that 'this' be a BigInt")
        if kind in _TAGGED:
            return f"[object {kind}]"
        return "[object Object]"

    def js_json(self) -> Any:
        kind = self.kind
        if kind in _PRIMITIVES:
            return _PRIMITIVES[kind]
        if kind == "Array":
            return []
        if kind == "Date":  # toJSON: ToPrimitive(this, number) runs valueOf
            raise JsError("this is not a Date object.")
        return {}

    def js_get(self, key: str) -> Any:
        if key in self.names:
            return self._own(key)
        if key == "__proto__":
            return parent(self)
        up = parent(self)
        if type(up) is JsPrototype and up.kind != "Object":
            return up.js_get(key)  # TypeError.prototype inherits Error.prototype's
        return UNDEFINED  # Object.prototype's own: get_member binds them to this object

    def js_has(self, key: str) -> bool:
        up = parent(self)
        return key in self.names or (up is not None and up.js_has(key))

    def js_owns(self, key: str) -> bool:
        return key in self.names

    def js_set(self, key: str, value: Any) -> None:
        raise Unsupported(HOST_CHANGE)

    def shown(self) -> str:
        """How V8's TypeErrors name it (NoSideEffectsToString)."""
        return f"#<{self.kind}>" if self.kind in _TAGGED else "[object Object]"

    def tag(self) -> str:
        """Object.prototype.toString of it."""
        if self.kind in ("Array", "String", "Number", "Boolean", "Symbol", "BigInt") or (
            self.kind in _TAGGED
        ):
            return f"[object {self.kind}]"
        return "[object Object]"

    def _own(self, key: str) -> Any:
        kind = self.kind
        if key == "constructor":
            return LENT["globals"][kind]
        if key == "__proto__":
            return None  # Object.prototype's accessor, on Object.prototype itself
        if key == "length":
            return 0
        if kind == "Error" or kind in _ERRORS:
            if key == "name":
                return kind
            if key == "message":
                return ""
        if kind == "RegExp" and key in ("source", "flags"):
            return "(?:)" if key == "source" else ""
        if kind == "RegExp" and key not in ("exec", "compile", "toString", "test"):
            return UNDEFINED  # the flag accessors: undefined for RegExp.prototype itself
        if kind == "Object":
            return UNDEFINED  # its methods: get_member binds them to this object
        if kind in ("Map", "Set") and key == "size":
            raise JsError(
                f"Method get {kind}.prototype.size called on incompatible receiver #<{kind}>"
            )
        if kind == "Symbol" and key == "description":
            raise JsError("Symbol.prototype.description requires that 'this' be a Symbol")
        sample = LENT["prototype_sample"](kind)
        method = LENT["get_member"](sample, key)
        if type(method) is not JsFunction:
            return method
        out = JsFunction(
            method.name, partial(_on_prototype, method, self), arity=method.arity,
            ident=method.ident or f"{kind}.prototype.{key}",
        )  # fmt: skip
        out.method, out.receiver = method.method or _on_prototype, self
        return out


def _on_prototype(method: JsFunction, proto: JsPrototype, *args: Any) -> Any:
    """A method read from a prototype, called on it."""
    return LENT["call_with_this"](method, proto, list(args))


def unwrap(fn: JsFunction) -> JsFunction:
    """The method a prototype's member stands for (the one every value of its kind reads)."""
    f = fn.fn
    if type(f) is partial and f.func is _on_prototype:
        inner: JsFunction = f.args[0]
        return inner
    return fn


def receiver(fn: JsFunction, this: Any) -> Any:
    """``this`` as the method ``fn`` sees it: String.prototype is a String object of '' to
    String.prototype's methods, Number.prototype one of 0, Boolean.prototype one of false."""
    kind = (fn.ident or "").partition(".prototype.")[0]
    if kind not in _PRIMITIVES:
        return this
    if type(this) is JsPrototype and this.kind == kind:
        return _PRIMITIVES[kind]
    if type(this).__name__ == "JsWrapper" and this.tag == f"[object {kind}]":
        return this.value  # thisStringValue / thisNumberValue / thisBooleanValue
    return this


def on_array_prototype(fn: JsFunction, args: list[Any]) -> Any:
    """An Array.prototype method called on Array.prototype (an empty array): run on an empty
    array; a call that would add elements changes the host's built-in, refused."""
    scratch: list[Any] = []
    name = (fn.ident or "").rpartition(".")[2]
    result = LENT["get_member"](scratch, name).fn(*args)
    if scratch:
        raise Unsupported(HOST_CHANGE)
    return ARRAY_PROTOTYPE if result is scratch else result


_BY_KIND: dict[str, Any] = {}


def prototype(kind: str) -> Any:
    """``<kind>.prototype``, one object per kind."""
    if kind == "Function":
        return FUNCTION_PROTOTYPE
    got = _BY_KIND.get(kind)
    if got is None:
        got = _BY_KIND[kind] = JsPrototype(kind)
    return got


def _function_prototype(*_: Any) -> Any:
    return UNDEFINED  # Function.prototype is a function that returns undefined


FUNCTION_PROTOTYPE: Final = JsFunction("", _function_prototype, arity=0, ident="Function.prototype")
OBJECT_PROTOTYPE: Final = prototype("Object")
ARRAY_PROTOTYPE: Final = prototype("Array")


def parent(proto: JsPrototype) -> Any:
    """The prototype of a built-in prototype."""
    if proto.kind == "Object":
        return None
    if proto.kind in _ERRORS:
        return prototype("Error")
    return OBJECT_PROTOTYPE


#: the prototype of each class of object made here, by its Python class's name
_CLASS_PROTOTYPES: Final = {
    "JsDate": "Date", "JsRegExp": "RegExp", "JsSymbol": "Symbol", "JsBigInt": "BigInt",
    "JsArguments": "Object",
}  # fmt: skip


def prototype_of(x: Any) -> Any:
    """[[GetPrototypeOf]] of ``x`` (a primitive's is its wrapper's): a prototype, or None."""
    t = type(x)
    if t is dict:
        return OBJECT_PROTOTYPE
    if t is JsCreated:
        return x.proto
    if t is list or t is tuple:
        return ARRAY_PROTOTYPE
    if t is str:
        return prototype("String")
    if t is bool:
        return prototype("Boolean")
    if t is int or t is float:
        return prototype("Number")
    if t is JsPrototype:
        return parent(x)
    if t is JsNamespace:
        return OBJECT_PROTOTYPE  # Math, JSON, Reflect, Atomics, Intl
    if t is JsFunction:
        if x is FUNCTION_PROTOTYPE:
            return OBJECT_PROTOTYPE
        if x.name in _ERRORS and LENT["globals"].get(x.name) is x:
            return LENT["globals"]["Error"]  # TypeError's prototype is Error
        return FUNCTION_PROTOTYPE
    name = t.__name__
    kind = _CLASS_PROTOTYPES.get(name)
    if kind is not None:
        return prototype(kind)
    if name == "JsCollection":
        return prototype("Set" if x.is_set else "Map")
    if name == "JsWeakCollection":
        return prototype(x.kind)
    if name == "JsErrorObject":
        return prototype(x.name if x.name in _ERRORS else "Error")
    if name == "JsWrapper":
        return prototype(x.tag[len("[object ") : -1])
    raise Unsupported(f"flowctx does not reproduce the prototype of {typeof(x)} values")


def is_prototype_of(proto: Any, x: Any) -> bool:
    """Object.prototype.isPrototypeOf: ``proto`` on the chain of the object ``x``."""
    if typeof(x) not in ("object", "function") or x is None:
        return False
    if proto is None or proto is UNDEFINED:
        raise JsError("Cannot convert undefined or null to object")
    p = prototype_of(x)
    while p is not None:
        if p is proto:
            return True
        p = prototype_of(p)
    return False
