"""``new`` for node's built-in constructors a condition may reach: Date, RegExp, Array, Object,
String, Number, Boolean, the Error family, Map and Set; and the objects they make (wrappers
of primitives, errors, maps and sets).

``CONSTRUCTORS`` maps each global's function object to what ``new`` does with it; a function
that is not there (an arrow, a method) is "not a constructor", as in V8.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js import dates, regexp, weak
from flowctx_core.expressions.js.common import LENT, Unsupported, too_long_array
from flowctx_core.expressions.js.iterators import JsIterator
from flowctx_core.expressions.js.values import (
    ELEMENT,
    KEPT,
    MAX_STRING_LENGTH,
    UNDEFINED,
    JsError,
    JsFunction,
    JsObject,
    JsPropsObject,
    array_index,
    changed_prototype,
    host_refusal,
    is_nullish,
    own_keys,
    shown_value,
    to_number,
    to_string,
    truthy,
    typeof,
    utf16_length,
)


def _method(owner: Any, name: str, fn: Callable[..., Any], arity: int = 0) -> JsFunction:
    return JsFunction(name, functools.partial(fn, owner), arity=arity)


# --- wrappers of primitives -----------------------------------------------------------------


class JsWrapper(JsObject):
    """``new String('a')``, ``Object(1)``, ``Object.assign(true, o)``: an object (typeof
    'object', always truthy) around a primitive that conversions unwrap, with own properties
    of its own. A String wrapper's indices and ``length`` are its own too, and read-only."""

    __slots__ = ("props", "value")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.props: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"[{typeof(self.value)} {self.value!r}]"

    @property
    def tag(self) -> str:
        """How V8's messages name it: ``[object String]``, ``[object Number]``..."""
        kind = {str: "String", bool: "Boolean", int: "Number", float: "Number"}
        if typeof(self.value) == "symbol":
            return "[object Symbol]"
        return f"[object {kind.get(type(self.value), 'BigInt')}]"

    def _fixed(self, key: str) -> bool:
        if type(self.value) is not str or type(key) is not str:
            return False
        index = array_index(key)
        return key == "length" or (index is not None and index < utf16_length(self.value))

    def js_primitive(self, hint: str = "default") -> Any:
        if not self.props:
            return self.value
        # OrdinaryToPrimitive: an own toString or valueOf shadows the prototype's
        order = ("toString", "valueOf") if hint == "string" else ("valueOf", "toString")
        for name in order:
            method = self.props.get(name, _PROTO)
            if method is _PROTO:
                return self.value if name == "valueOf" else to_string(self.value)
            if type(method) is JsFunction:
                result = method.fn()
                if not isinstance(result, (JsObject, dict, list, JsFunction)):
                    return result
        raise JsError("Cannot convert object to primitive value")

    def js_get(self, key: str) -> Any:
        from flowctx_core.expressions.js.objects import get_member

        if not self._fixed(key) and key in self.props:
            return self.props[key]
        if key == "hasOwnProperty":
            owns = functools.partial(lambda w, k=UNDEFINED, *_: LENT["has_own"](w, k), self)
            return JsFunction(key, owns, arity=1, ident="Object.prototype.hasOwnProperty")
        return get_member(self.value, key)

    def js_set(self, key: str, value: Any) -> None:
        if self._fixed(key):
            raise JsError(
                f"Cannot assign to read only property '{key}' of object '{shown_value(self)}'"
            )
        self.props[key] = value

    def js_owns(self, key: str) -> bool:
        return self._fixed(key) or key in self.props

    def js_has(self, key: str) -> bool:
        return self.js_owns(key) or self.js_get(key) is not UNDEFINED

    def js_keys(self) -> list[str]:
        own = own_keys(self.props)
        if type(self.value) is str:
            return [str(i) for i in range(utf16_length(self.value))] + own
        return own

    def js_iter(self) -> list[Any] | None:
        if type(self.value) is str:
            # String.prototype[Symbol.iterator] iterates ToString(this): its own conversions
            return list(to_string(self) if self.props else self.value)
        return None

    def js_json(self) -> Any:
        if typeof(self.value) == "symbol":  # an ordinary object to JSON: its own keys
            return {k: self.props[k] for k in own_keys(self.props)}
        if isinstance(self.value, JsObject):
            return self.value.js_json()  # a BigInt's refusal
        return self.value


_PROTO: Final = object()  # no own property: the prototype's method answers


# --- errors ---------------------------------------------------------------------------------

ERROR_NAMES: Final = (
    "Error", "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError",
    "URIError",
)  # fmt: skip


def _error_to_string(this: Any, *_: Any) -> str:
    """Error.prototype.toString, generic: any object's name and message."""
    if isinstance(this, JsErrorObject) and changed_prototype(this) is KEPT:
        return str(this.js_primitive())
    if typeof(this) not in ("object", "function") or this is None:
        shown = repr(this) if typeof(this) == "symbol" else to_string(this)
        raise JsError(
            f"Method Error.prototype.toString called on incompatible receiver {shown}",
            anonymous="Method Error.prototype.toString called on incompatible receiver",
        )
    get_member = LENT["get_member"]
    name, message = get_member(this, "name"), get_member(this, "message")
    name = "Error" if name is UNDEFINED else to_string(name)
    message = "" if message is UNDEFINED else to_string(message)
    if not message:
        return name
    return f"{name}: {message}" if name else message


class JsErrorObject(JsObject):
    __slots__ = ("message", "name", "own_message", "props")

    def __init__(self, name: str, message: Any = UNDEFINED, options: Any = UNDEFINED) -> None:
        self.name = name
        self.message = "" if message is UNDEFINED else to_string(message)
        # an error made with a message (even '') owns it; without one it inherits ''
        self.own_message = message is not UNDEFINED
        self.props: dict[str, Any] = {}
        if options is not UNDEFINED and isinstance(options, dict) and "cause" in options:
            self.props["cause"] = options["cause"]

    def __repr__(self) -> str:
        return str(self.js_primitive())

    def js_primitive(self, hint: str = "default") -> Any:
        # Error.prototype.toString: the name and the message as they are read now
        name, message = self.js_get("name"), self.js_get("message")
        name = "Error" if name is UNDEFINED else to_string(name)
        message = "" if message is UNDEFINED else to_string(message)
        if not message:
            return name
        return f"{name}: {message}" if name else message

    def js_get(self, key: str) -> Any:
        if key in self.props:
            return self.props[key]
        if key == "name":
            return self.name
        if key == "message":
            return self.message
        if key == "stack":
            raise Unsupported(
                "flowctx does not reproduce an error's stack (it names node's own files)"
            )
        if key == "toString":
            fn = JsFunction("toString", functools.partial(_error_to_string, self), arity=0)
            fn.ident = "Error.prototype.toString"  # one function object for every error
            return fn
        from flowctx_core.expressions.js.regexp import _object_proto

        return _object_proto(self, key)

    def js_set(self, key: str, value: Any) -> None:
        if key == "message" and self.own_message:
            self.message = value  # its own message stays not enumerable
        else:
            # the name (inherited) or a message it did not own: an own enumerable key now
            self.props[key] = value

    def js_json(self) -> Any:
        return {k: v for k, v in self.props.items() if k != "cause"}

    def js_keys(self) -> list[str]:
        return [k for k in self.props if k != "cause"]  # the cause it was made with is hidden


# --- Map and Set ----------------------------------------------------------------------------


def _key(v: Any) -> Any:
    """SameValueZero as a dictionary key: -0 is 0, NaN is NaN, objects by identity."""
    t = type(v)
    if t is int or t is float:
        if v != v:
            return ("number", "NaN")
        return ("number", float(v) + 0.0)
    if t is str or t is bool or v is None or v is UNDEFINED:
        return (t.__name__, v if v is not UNDEFINED else "undefined")
    big = getattr(v, "big", None)
    if big is not None:
        return ("bigint", big)
    return ("object", id(v))


class JsCollection(JsPropsObject):
    """A Map (``is_set`` false) or a Set, in insertion order."""

    __slots__ = ("entries", "is_set")

    def __init__(self, is_set: bool) -> None:
        self.is_set = is_set
        self.entries: dict[Any, tuple[Any, Any]] = {}
        self.props: dict[str, Any] | None = None  # own keys written on it (``m.x = 1``)

    def __repr__(self) -> str:
        return "[object Set]" if self.is_set else "[object Map]"

    def js_primitive(self, hint: str = "default") -> Any:
        return repr(self)

    def js_iter(self) -> list[Any]:
        charge(ELEMENT * len(self.entries))
        if self.is_set:
            return [k for k, _ in self.entries.values()]
        return [[k, v] for k, v in self.entries.values()]

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        if key == "size":
            return len(self.entries)
        method = (_SET_METHODS if self.is_set else _MAP_METHODS).get(key)
        if method is not None:
            fn, arity = method
            if key == "keys" and self.is_set:
                key = "values"  # Set.prototype.keys is Set.prototype.values itself
            return _method(self, key, fn, arity)
        from flowctx_core.expressions.js.regexp import _object_proto

        return _object_proto(self, key)

    def js_set(self, key: str, value: Any) -> None:
        if key == "size":  # a getter of the prototype, no setter
            shown = "#<Set>" if self.is_set else "#<Map>"
            raise JsError(f"Cannot set property size of {shown} which has only a getter")
        super().js_set(key, value)

    def put(self, k: Any, v: Any) -> None:
        if type(k) is float and k == 0:
            k = 0  # a -0 key is stored as +0
        key = _key(k)
        old = self.entries.get(key)
        self.entries[key] = (old[0] if old else k, v)
        if len(self.entries) > MAX_STRING_LENGTH:
            raise JsError("Map maximum size exceeded")


def _m_get(c: JsCollection, k: Any = UNDEFINED, *_: Any) -> Any:
    got = c.entries.get(_key(k))
    return UNDEFINED if got is None else got[1]


def _m_set(c: JsCollection, k: Any = UNDEFINED, v: Any = UNDEFINED, *_: Any) -> Any:
    c.put(k, v)
    return c


def _c_has(c: JsCollection, k: Any = UNDEFINED, *_: Any) -> bool:
    return _key(k) in c.entries


def _c_delete(c: JsCollection, k: Any = UNDEFINED, *_: Any) -> bool:
    return c.entries.pop(_key(k), None) is not None


def _c_clear(c: JsCollection, *_: Any) -> Any:
    c.entries.clear()
    return UNDEFINED


def _s_add(c: JsCollection, v: Any = UNDEFINED, *_: Any) -> Any:
    c.put(v, v)
    return c


def _iterator(kind: str) -> Callable[..., Any]:
    def make(c: JsCollection, *_: Any) -> JsIterator:
        items = list(c.entries.values())
        label = "Set Iterator" if c.is_set else "Map Iterator"
        if kind == "keys":
            return JsIterator(label, [k for k, _ in items])
        if kind == "values":
            return JsIterator(label, [v for _, v in items])
        return JsIterator(label, [[k, v] for k, v in items])

    return make


def _described(v: Any) -> str:
    """V8's type-and-value naming of a non-callable (Map/Set forEach): ``number 1``."""
    if v is UNDEFINED:
        return "undefined"
    if v is None:
        return "object null"
    kind = typeof(v)
    if type(v) is str:
        return f'{kind} "{v}"'
    if type(v) in (bool, int, float):
        return f"{kind} {to_string(v)}"
    return kind


def _for_each(c: JsCollection, fn: Any = UNDEFINED, *_: Any) -> Any:
    if type(fn) is not JsFunction:
        raise JsError(
            f"{_described(fn)} is not a function", anonymous=f"{typeof(fn)} is not a function"
        )
    for k, v in list(c.entries.values()):
        fn.fn(v, k, c)
    return UNDEFINED


_MAP_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "get": (_m_get, 1), "set": (_m_set, 2), "has": (_c_has, 1), "delete": (_c_delete, 1),
    "clear": (_c_clear, 0), "keys": (_iterator("keys"), 0), "values": (_iterator("values"), 0),
    "entries": (_iterator("entries"), 0), "forEach": (_for_each, 1),
}  # fmt: skip
_SET_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "add": (_s_add, 1), "has": (_c_has, 1), "delete": (_c_delete, 1), "clear": (_c_clear, 0),
    "keys": (_iterator("keys"), 0), "values": (_iterator("keys"), 0),
    "entries": (_iterator("entries"), 0), "forEach": (_for_each, 1),
}  # fmt: skip


def _iterable(v: Any, what: str) -> list[Any]:
    from flowctx_core.expressions.js.values import CHANGED, GENERIC, js_value

    walks = CHANGED.symbols or CHANGED.table or type(v).__name__ == "JsCreated"
    own = GENERIC["iterate"](v) if walks else None
    if type(own) is list:
        return own  # its own Symbol.iterator (an array's too)
    if own is None and (type(v) is list or type(v) is tuple):
        charge(ELEMENT * len(v))
        return [js_value(x) for x in v]
    if type(v) is str:
        charge(len(v))
        return list(v)
    if isinstance(v, JsObject) and own is None:
        got = v.js_iter()
        if got is not None:
            return got
    shown = "undefined" if v is UNDEFINED else typeof(v)
    tail = "is not iterable (cannot read property Symbol(Symbol.iterator))"
    if type(v) in (int, float, bool):  # V8 names a primitive with its value
        raise JsError(f"{shown} {to_string(v)} {tail}", anonymous=f"{shown} {tail}")
    raise JsError(f"{shown} {tail}")


def new_map(source: Any = UNDEFINED, *_: Any) -> JsCollection:
    c = JsCollection(False)
    if is_nullish(source):
        return c
    for entry in _iterable(source, "Map"):
        if not isinstance(entry, (list, tuple)):
            if type(entry) is dict:
                c.put(entry.get("0", UNDEFINED), entry.get("1", UNDEFINED))
                continue
            raise JsError(
                f"Iterator value {to_string(entry)} is not an entry object",
                anonymous="Iterator value is not an entry object",
            )
        c.put(entry[0] if entry else UNDEFINED, entry[1] if len(entry) > 1 else UNDEFINED)
    return c


def new_set(source: Any = UNDEFINED, *_: Any) -> JsCollection:
    c = JsCollection(True)
    if is_nullish(source):
        return c
    for v in _iterable(source, "Set"):
        c.put(v, v)
    return c


# --- Array and Object -----------------------------------------------------------------------


def new_array(*args: Any) -> list[Any]:
    if len(args) == 1 and (type(args[0]) is int or type(args[0]) is float):
        n = args[0]
        if n != n or n < 0 or not float(n).is_integer() or n >= 2**32:
            raise JsError("Invalid array length")
        if n > MAX_STRING_LENGTH:
            raise too_long_array()
        charge(int(n))
        from flowctx_core.expressions.js import values

        hole = getattr(values, "HOLE", UNDEFINED)
        return [hole] * int(n)
    return list(args)


def new_object(value: Any = UNDEFINED, *_: Any) -> Any:
    """``Object(value)`` and ``new Object(value)``: a primitive's wrapper, an object itself."""
    if is_nullish(value):
        return {}
    if type(value) in (str, int, float, bool) or typeof(value) == "bigint":
        return JsWrapper(value)
    if typeof(value) == "symbol":
        return JsWrapper(value)  # no own keys; its conversions are the symbol's
    return value


LENT["new_object"] = new_object


def instance_of(value: Any, name: str) -> bool:
    """``value instanceof <the global constructor name>`` for the classes made here."""
    host = getattr(value, "KINDS", None)  # the host classes (typed arrays...) name theirs
    if host is not None:
        return name in host
    if isinstance(value, dates.JsDate):
        return name == "Date"
    if isinstance(value, regexp.JsRegExp):
        return name == "RegExp"
    if isinstance(value, JsCollection):
        return name == ("Set" if value.is_set else "Map")
    if isinstance(value, weak.JsWeakCollection):
        return name == value.kind
    if isinstance(value, JsErrorObject):
        return name in ("Error", value.name)
    if isinstance(value, JsWrapper):
        return value.tag == f"[object {name}]"
    return False


# --- the table ------------------------------------------------------------------------------


def _not_without_new(name: str) -> Callable[..., Any]:
    def call(*_: Any) -> Any:
        raise JsError(f"Constructor {name} requires 'new'")

    return call


def error_function(name: str) -> JsFunction:
    def make(message: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> JsErrorObject:
        return JsErrorObject(name, message, options)

    # V8's default stack depth, Error's one enumerable property (node leaves it as it is),
    # and the two functions that write or shape a stack (their text names the host's files)
    members = (
        {
            "captureStackTrace": JsFunction("captureStackTrace", _stack_refused, arity=2),
            "prepareStackTrace": JsFunction(
                "ErrorPrepareStackTrace",
                _stack_refused,
                arity=2,
                ident="node class ErrorPrepareStackTrace",
            ),
            "stackTraceLimit": 10,
        }
        if name == "Error"
        else None
    )
    return JsFunction(name, make, members=members, arity=1)


def _stack_refused(*_: Any) -> Any:
    raise Unsupported(host_refusal("a stack trace", "its text names the engine's own files"))


def wrap(kind: type, convert: Callable[[Any], Any] = to_number) -> Callable[..., JsWrapper]:
    """``new String(x)``, ``new Boolean(x)``, ``new Number(x)`` (``convert`` is Number(), which
    takes a BigInt's value where ToNumber throws)."""

    def make(*args: Any) -> JsWrapper:
        if kind is str:
            return JsWrapper(to_string(args[0]) if args else "")
        if kind is bool:
            return JsWrapper(truthy(args[0]) if args else False)
        return JsWrapper(convert(args[0]) if args else 0)

    return make


def register(globals_: dict[str, Any]) -> dict[int, Callable[..., Any]]:
    """Add Map, Set and the errors to ``globals_``; the constructor of each global by id."""
    for name in ERROR_NAMES:
        globals_[name] = error_function(name)
    globals_["Map"] = JsFunction("Map", _not_without_new("Map"), arity=0)
    globals_["Set"] = JsFunction("Set", _not_without_new("Set"), arity=0)
    for weak_name in ("WeakMap", "WeakSet"):
        globals_[weak_name] = JsFunction(weak_name, _not_without_new(weak_name), arity=0)
    globals_["WeakRef"] = JsFunction("WeakRef", _not_without_new("WeakRef"), arity=1)
    table: dict[int, Callable[..., Any]] = {
        id(globals_["Date"]): dates.construct,
        id(globals_["RegExp"]): regexp.construct,
        id(globals_["Array"]): new_array,
        id(globals_["Object"]): new_object,
        id(globals_["String"]): wrap(str),
        id(globals_["Number"]): wrap(float, lambda v: globals_["Number"].fn(v)),
        id(globals_["Boolean"]): wrap(bool),
        id(globals_["Map"]): new_map,
        id(globals_["Set"]): new_set,
        id(globals_["WeakMap"]): weak.construct(False, _iterable),
        id(globals_["WeakSet"]): weak.construct(True, _iterable),
        id(globals_["WeakRef"]): weak.construct_ref,
    }
    for name in ERROR_NAMES:
        table[id(globals_[name])] = globals_[name].fn
    return table


LENT["JsWrapper"] = JsWrapper


LENT["iterable"] = _iterable
