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
from flowctx_core.expressions.js.common import LENT, Unsupported, _mutating, security
from flowctx_core.expressions.js.symbols import WELL_KNOWN
from flowctx_core.expressions.js.values import (
    CHANGED,
    GENERIC,
    KEPT,
    UNDEFINED,
    CalledNonCallable,
    JsCreated,
    JsError,
    JsFunction,
    JsNamespace,
    JsObject,
    changed_prototype,
    default_call_site,
    function_text,
    host_refusal,
    shown_value,
    truthy,
    typeof,
)

#: the prototypes that hold a primitive of their kind (their methods accept them)
_PRIMITIVES: Final[dict[str, Any]] = {"String": "", "Number": 0, "Boolean": False}
_ERRORS: Final = ("TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError",
                  "URIError")  # fmt: skip
#: how V8's TypeErrors name the prototype objects whose class has a toStringTag
_TAGGED: Final = frozenset(
    {"Map", "Set", "WeakMap", "WeakSet", "WeakRef", "Promise", "Symbol", "BigInt"}
)
#: a change to a built-in the engine's host process keeps
HOST_CHANGE: Final = host_refusal(
    "changing a built-in prototype", "its process keeps the change for every later evaluation"
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
        return self.lookup(key, self)

    def lookup(self, key: str, this: Any) -> Any:
        """``key`` read from this prototype or its chain for ``this`` (the object the read
        began at): a method comes bound to it, an accessor runs with it as its receiver."""
        proto: Any = self
        while type(proto) is JsPrototype:
            if key in proto.names:
                return proto.own(key, this)
            proto = parent(proto)
        return UNDEFINED

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

    def to_string_tag(self) -> str:
        """Object.prototype.toString of it."""
        if self.kind in ("Array", "String", "Number", "Boolean", "Symbol", "BigInt") or (
            self.kind in _TAGGED
        ):
            return f"[object {self.kind}]"
        return "[object Object]"

    def own(self, key: str, this: Any) -> Any:
        """Its own property ``key``, read for ``this``."""
        kind = self.kind
        if key == "constructor":
            return LENT["globals"][kind]
        if key == "__proto__":  # Object.prototype's accessor
            return prototype_of(this)
        if key == "length":
            return 0
        if kind == "Error" or kind in _ERRORS:
            if key == "name":
                return kind
            if key == "message":
                return ""
        if kind == "RegExp" and key not in ("exec", "compile", "toString", "test"):
            return _regexp_accessor(key, this)
        if kind in ("Map", "Set") and key == "size":
            if type(this).__name__ == "JsCollection" and this.is_set == (kind == "Set"):
                return len(this.entries)
            raise JsError(
                f"Method get {kind}.prototype.size called on incompatible receiver {shown(this)}",
                anonymous=f"Method get {kind}.prototype.size called on incompatible receiver",
            )
        if kind == "Symbol" and key == "description":
            if typeof(this) == "symbol":
                return this.description
            raise JsError("Symbol.prototype.description requires that 'this' be a Symbol")
        sample = {} if kind == "Object" else LENT["prototype_sample"](kind)
        method = LENT["get_member"](sample, key)
        if type(method) is not JsFunction:
            return method
        return bound_to(method, this)


def _regexp_accessor(key: str, this: Any) -> Any:
    """RegExp.prototype's flag, source and flags getters run on ``this``."""
    if type(this).__name__ == "JsRegExp":  # its own slots, whatever its chain
        return this.js_get(key)
    if key == "flags":  # generic: each flag read from this, in the getter's order
        if typeof(this) not in ("object", "function") or this is None:
            raise JsError(
                f"RegExp.prototype.flags getter called on non-object {shown(this)}",
                anonymous="RegExp.prototype.flags getter called on non-object",
            )
        get_member = LENT["get_member"]
        return "".join(flag for name, flag in _FLAG_GETTERS if truthy(get_member(this, name)))
    if this is prototype("RegExp"):
        return "(?:)" if key == "source" else UNDEFINED
    raise JsError(f"RegExp.prototype.{key} getter called on non-RegExp object")


#: RegExp.prototype.flags's reads, in its order
_FLAG_GETTERS: Final = (("hasIndices", "d"), ("global", "g"), ("ignoreCase", "i"),
                        ("multiline", "m"), ("dotAll", "s"), ("unicode", "u"),
                        ("unicodeSets", "v"), ("sticky", "y"))  # fmt: skip


def shown(v: Any) -> str:
    """V8's NoSideEffectsToString of ``v``, as its TypeErrors name it."""
    if not generic(v) or type(v) is JsFunction:
        return shown_value(v)  # a function by its text, whatever its chain
    if type(v).__name__ == "JsErrorObject":  # its name and message along its chain, as data
        get_member = LENT["get_member"]
        parts = [get_member(v, "name"), get_member(v, "message")]
        return ": ".join(p for p in parts if type(p) is str and p)
    p = prototype_of(v)
    while p is not None:
        if type(p) is JsPrototype and p.kind in _TAGGED:
            return f"#<{p.kind}>"  # its toStringTag, from the chain
        if type(p) is JsPrototype:
            break
        p = prototype_of(p)
    end: Any = v
    while type(end) in (dict, JsCreated) and changed_prototype(end) is KEPT:
        end = end.proto if type(end) is JsCreated else OBJECT_PROTOTYPE
    if end is OBJECT_PROTOTYPE and type(v) in (dict, JsCreated):
        return "#<Object>"  # its constructor, read along the chain, is Object
    name = type(v).__name__
    if name == "JsCollection":  # V8 names an object by its class, not ECMAScript's builtinTag
        return "[object Set]" if v.is_set else "[object Map]"
    if name == "JsWeakCollection":
        return f"[object {v.kind}]"
    return f"[object {builtin_tag(v)}]"


def builtin_tag(v: Any) -> str:
    """The tag Object.prototype.toString starts from: what the object is, whatever its chain."""
    t = type(v)
    if t is list or t is tuple:
        return "Array"
    if t is JsFunction:
        return "Function"
    name = t.__name__
    if name == "JsWrapper":
        return str(v.tag)[len("[object ") : -1]
    if name == "JsErrorObject":
        return "Error"
    if name in ("JsDate", "JsRegExp"):
        return name[2:]
    if name == "JsArguments":
        return "Arguments"
    return "Object"


def to_string_tag(v: Any) -> str:
    """Object.prototype.toString of an object with a changed chain: its @@toStringTag, read
    from the chain (Map.prototype's...), or its built-in tag."""
    if CHANGED.symbols and GENERIC["symbol_keyed"](v):
        tag = GENERIC["symbol_get"](v, WELL_KNOWN["toStringTag"])
        if type(tag) is str:
            return f"[object {tag}]"
        if GENERIC["holds_symbol"](v, WELL_KNOWN["toStringTag"]):
            return f"[object {builtin_tag(v)}]"  # one of its own shadows the prototype's
    p = prototype_of(v)
    while p is not None:
        if type(p) is JsPrototype and p.kind in _TAGGED:
            return f"[object {p.kind}]"
        p = prototype_of(p)
    return f"[object {builtin_tag(v)}]"


def bound_to(method: JsFunction, this: Any) -> JsFunction:
    """``method`` as read from ``this``: called without another receiver, it runs on it."""
    if method.receiver is this:
        return method
    inner = unwrap(method)
    out = JsFunction(
        inner.name, partial(_on_prototype, inner, this), arity=inner.arity,
        ident=inner.ident,
    )  # fmt: skip
    out.method, out.receiver = inner.method or _on_prototype, this
    return out


def _on_prototype(method: JsFunction, this: Any, *args: Any) -> Any:
    """A method read from a prototype for ``this``, called on it."""
    return LENT["call_with_this"](method, this, list(args))


def read_through(this: Any, proto: Any, key: str) -> Any:
    """[[Get]] of ``key`` for ``this`` along the chain that starts at ``proto``."""
    get_member = LENT["get_member"]
    has_own = LENT["has_own"]
    while proto is not None:
        if type(proto) is JsPrototype:
            return proto.lookup(key, this)
        if proto is FUNCTION_PROTOTYPE:
            return _function_prototype_get(key, this)
        if has_own(proto, key):
            return get_member(proto, key)
        proto = prototype_of(proto)
    return UNDEFINED


def _function_prototype_get(key: str, this: Any) -> Any:
    if key in ("length", "name"):
        return 0 if key == "length" else ""
    if key in ("call", "apply", "bind", "toString"):
        if type(this) is JsFunction and key == "toString":
            text = JsFunction(
                "toString", lambda *_: function_text(this), arity=0,
                ident="Function.prototype.toString",
            )  # fmt: skip
            text.method, text.receiver = _on_prototype, this
            return text
        if type(this) is JsFunction:
            return bound_to(LENT["function_member"](this, key), this)
        return JsFunction(
            key,
            partial(_not_a_function, key, this),
            arity=0 if key == "toString" else 1 if key != "apply" else 2,
            ident=f"Function.prototype.{key}",
        )
    if key in ("caller", "arguments"):
        raise JsError(
            "'caller', 'callee', and 'arguments' properties may not be accessed on strict "
            "mode functions or the arguments objects for calls to them"
        )
    if key == "constructor":
        raise security("reading 'constructor' of Function.prototype leads to Function")
    return OBJECT_PROTOTYPE.lookup(key, this)


def _not_a_function(key: str, this: Any, *_: Any) -> Any:
    """Function.prototype's methods run on an object that inherits them but is no function."""
    if key == "toString":
        raise JsError("Function.prototype.toString requires that 'this' be a Function")
    if key == "bind":
        raise JsError("Bind must be called on a function")
    raise CalledNonCallable(  # named by the call
        f"{default_call_site(this)} is not a function", anonymous="value is not a function"
    )


def has_through(proto: Any, key: str) -> bool:
    """``key in`` an object whose own keys lack it, along the chain from ``proto``."""
    has_own = LENT["has_own"]
    while proto is not None:
        if type(proto) is JsPrototype:
            return proto.js_has(key)
        if proto is FUNCTION_PROTOTYPE:
            return key in PROTO_NAMES["Function"] or OBJECT_PROTOTYPE.js_has(key)
        if has_own(proto, key):
            return True
        proto = prototype_of(proto)
    return False


def generic(v: Any) -> bool:
    """Whether ``v``'s chain is one the conversions must walk: changed by the condition, or
    made by Object.create from a built-in prototype."""
    if changed_prototype(v) is not KEPT:
        return True
    if CHANGED.symbols and GENERIC["symbol_keyed"](v):
        return True
    if CHANGED.symbols and type(v) is not dict and type(v) is not JsCreated:
        has_own = LENT["has_own"]  # an array, function, Date... that owns toString / valueOf
        if has_own(v, "toString") or has_own(v, "valueOf"):
            return True
        if type(v) is list and has_own(v, "join"):
            return True  # Array.prototype.toString calls it
    if type(v) is JsCreated:
        end = v.proto
        while type(end) is JsCreated:
            end = end.proto
        if end is None or type(end) in (dict, list, tuple):
            return False  # the created object's own conversions cover these chains
        return type(end).__name__ != "JsWrapper" or changed_prototype(end) is not KEPT
    return False


def to_primitive(v: Any, hint: str, runtime: bool = False) -> Any:
    """ToPrimitive of an object whose chain ``generic`` walks: Date.prototype's and
    Symbol.prototype's @@toPrimitive when the chain has them, else OrdinaryToPrimitive
    (``runtime``: as V8's runtime converts for JSON and a few built-ins, whose words for a
    @@toPrimitive that is no function name the property)."""
    p = prototype_of(v)
    if CHANGED.symbols and GENERIC["symbol_keyed"](v):
        exotic = GENERIC["symbol_get"](v, WELL_KNOWN["toPrimitive"])
        if exotic is not UNDEFINED and exotic is not None:
            if type(exotic) is not JsFunction and runtime:
                raise JsError(
                    f"'{shown(exotic)}' returned for property 'Symbol(Symbol.toPrimitive)' of "
                    f"object '{shown(v)}' is not a function",
                    anonymous="Symbol.toPrimitive is not a function",
                )
            if type(exotic) is not JsFunction:
                raise JsError(
                    f"{default_call_site(exotic)} is not a function",
                    anonymous="Symbol.toPrimitive is not a function",
                )
            result = exotic.fn(hint)  # a function the condition made: it reads no this
            if typeof(result) in ("object", "function") and result is not None:
                raise JsError("Cannot convert object to primitive value")
            return result
        if GENERIC["holds_symbol"](v, WELL_KNOWN["toPrimitive"]):
            p = None  # an own undefined one shadows Date.prototype's: OrdinaryToPrimitive
            hint = "number" if hint == "default" else hint
    while p is not None:
        if type(p) is JsPrototype and p.kind in ("Date", "Symbol"):
            if p.kind == "Symbol":
                raise JsError("Symbol.prototype [ @@toPrimitive ] requires that 'this' be a Symbol")
            hint = "string" if hint == "default" else hint
            break
        p = prototype_of(p)
    get_member = LENT["get_member"]
    order = ("toString", "valueOf") if hint == "string" else ("valueOf", "toString")
    for name in order:
        method = get_member(v, name)
        if type(method) is JsFunction:
            if method.method is not None:
                result = LENT["call_with_this"](method, v, [])
            else:
                result = method.fn()
            if typeof(result) not in ("object", "function") or result is None:
                return result
    raise JsError("Cannot convert object to primitive value")


def has(v: Any, key: str) -> bool:
    """``key in v`` for an object whose chain ``generic`` walks."""
    return bool(LENT["has_own"](v, key)) or has_through(prototype_of(v), key)


GENERIC.update(walks=generic, to_primitive=to_primitive, has=has, shown=shown)


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


#: the global constructors whose instances' prototype flowctx holds as an object
_HELD: Final = frozenset({"Object", "Array", "String", "Boolean", "Number", "Date", "RegExp",
                          "Symbol", "BigInt", "Map", "Set", "WeakMap", "WeakSet", "WeakRef",
                          "Promise", "Error",
                          *_ERRORS})  # fmt: skip


def constructor_prototype(name: str) -> Any:
    """``<name>.prototype`` of a global constructor: the object its instances are made with
    (None: one flowctx does not hold, such as URL's)."""
    return prototype(name) if name in _HELD else None


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
    "JsArguments": "Object", "JsPromise": "Promise",
}  # fmt: skip


def prototype_of(x: Any) -> Any:
    """[[GetPrototypeOf]] of ``x`` (a primitive's is its wrapper's): a prototype, or None."""
    changed = changed_prototype(x)
    if changed is not KEPT:
        return changed
    return _natural(x)


def _natural(x: Any) -> Any:
    """The prototype ``x`` was made with."""
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
        if x.proxy is not None:
            return x.proxy.prototype()  # a Proxy around a function: its getPrototypeOf trap
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
    if name == "JsProxy":
        return x.prototype()  # its getPrototypeOf trap
    raise Unsupported(f"flowctx does not reproduce the prototype of {typeof(x)} values")


def refusal_to_change(target: Any, proto: Any) -> str | None:
    """Why [[SetPrototypeOf]] of ``target`` to ``proto`` returns false (V8's TypeError for
    Object.setPrototypeOf), or None when it may change: the same prototype is no change,
    Object.prototype's is immutable, a non-extensible object keeps its own, and no chain
    may come back to the object."""
    if prototype_of(target) is proto:
        return None
    if target is OBJECT_PROTOTYPE:
        return "Immutable prototype object 'Object.prototype' cannot have their prototype set"
    if not LENT["globals"]["Object"].members["isExtensible"].fn(target):
        return f"{shown(target)} is not extensible"
    p = proto
    while p is not None:
        if p is target:
            return "Cyclic __proto__ value"
        p = prototype_of(p)
    return None


def change_prototype(target: Any, proto: Any) -> None:
    """[[SetPrototypeOf]] once ``refusal_to_change`` found nothing against it."""
    if prototype_of(target) is proto:
        return
    t = type(target)
    if t is JsPrototype or t is JsNamespace or (t is JsFunction and not target.owned):
        raise Unsupported(HOST_CHANGE)  # Array.prototype, Math, parseInt: the host's own
    _mutating()
    if t is JsCreated:
        target.proto = proto
        return
    table = CHANGED.table
    if table is None:
        table = CHANGED.table = {}
    if proto is _natural(target):
        table.pop(id(target), None)
    else:
        table[id(target)] = (target, proto)


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
