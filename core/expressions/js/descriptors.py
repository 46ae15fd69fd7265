"""Property descriptors of plain objects (Object.defineProperty, defineProperties, Reflect's,
``__defineGetter__`` / ``__defineSetter__``): ECMAScript's ToPropertyDescriptor and
ValidateAndApplyPropertyDescriptor with V8's TypeErrors.

A property defined here keeps its attributes in ``values.ATTRIBUTES`` (an assignment's, all
true, are not recorded); an accessor sits in the object's dict as a ``values.Accessor`` that
every read resolves (``js_value``). Only plain and created objects take descriptors here:
arrays, functions and the built-in classes are refused by name.
"""

from __future__ import annotations

from typing import Any, Final

from flowctx_core.expressions.js import arrayattrs
from flowctx_core.expressions.js.common import (
    LENT,
    Unsupported,
    _mutating,
)
from flowctx_core.expressions.js.symbols import JsSymbol
from flowctx_core.expressions.js.values import (
    CHANGED,
    ORDINARY,
    UNDEFINED,
    Accessor,
    Attributes,
    JsCreated,
    JsError,
    JsFunction,
    array_index,
    attributes_of,
    js_in,
    js_value,
    own_has,
    property_key,
    same_value,
    set_attributes,
    shown_value,
    to_number,
    to_uint32,
    truthy,
    typeof,
    utf16_length,
)

#: ToPropertyDescriptor's fields, in the order it reads them
_FIELDS: Final = ("enumerable", "configurable", "value", "writable", "get", "set")
_FLAGS: Final = frozenset({"enumerable", "configurable", "writable"})


def to_descriptor(desc: Any) -> dict[str, Any]:
    """ToPropertyDescriptor of an object (the caller has checked it is one)."""
    get_member = LENT["get_member"]
    out: dict[str, Any] = {}
    for name in _FIELDS:
        if js_in(name, desc):
            value = get_member(desc, name)
            out[name] = truthy(value) if name in _FLAGS else value
    for name, word in (("get", "Getter"), ("set", "Setter")):
        fn = out.get(name, UNDEFINED)
        if fn is not UNDEFINED and type(fn) is not JsFunction:
            raise JsError(
                f"{word} must be a function: {shown_value(fn)}",
                anonymous=f"{word} must be a function",
            )
    if ("get" in out or "set" in out) and ("value" in out or "writable" in out):
        raise JsError(
            "Invalid property descriptor. Cannot both specify accessors and a value or "
            f"writable attribute, {shown_value(desc)}"
        )
    return out


def _store(obj: Any) -> dict[Any, Any]:
    """Where ``obj``'s own properties are: a plain object's dict, a function's or a built-in
    object's ``props``."""
    if type(obj) is JsFunction or type(obj).__name__ in _PROPS_CLASSES:
        if obj.props is None:
            obj.props = {}
        return obj.props  # type: ignore[no-any-return]
    return obj  # type: ignore[no-any-return]


#: the built-in classes whose own properties are all the condition's (a Date's time, a Map's
#: entries, a Number's or Boolean's value are internal): they take descriptors as a plain
#: object does; a String wrapper (its indexes), a RegExp (lastIndex) and an Error are refused
_PROPS_CLASSES: Final = frozenset({"JsDate", "JsCollection", "JsWrapper", "JsRegExp"})
#: the keys of a RegExp that are no property of its own here: lastIndex (its own, held as
#: ``last_index``) and its prototype's accessors
_REGEXP_HELD: Final = frozenset(
    {"lastIndex", "source", "flags", "global", "ignoreCase", "multiline", "dotAll", "unicode",
     "unicodeSets", "sticky", "hasIndices"}
)  # fmt: skip


def _props_object(obj: Any) -> bool:
    name = type(obj).__name__
    if name not in _PROPS_CLASSES:
        return False
    if name == "JsWrapper":
        return type(obj.value) in (int, float, bool, str)
    return True


def _held_elsewhere(obj: Any, k: Any) -> bool:
    """A key a built-in object answers from its own state, not its ``props``: a RegExp's
    lastIndex and flags, a String object's indexes and length."""
    name = type(obj).__name__
    if name == "JsRegExp":
        return k in _REGEXP_HELD
    if name == "JsWrapper" and type(obj.value) is str and type(k) is str:
        index = array_index(k)
        return k == "length" or (index is not None and index < utf16_length(obj.value))
    return False


def _effective(obj: Any, key: Any) -> Attributes:
    """``key``'s attributes with the object's seal or freeze applied."""
    writable, enumerable, configurable = attributes_of(_store(obj), key)
    level = LENT["integrity_level"](obj)
    if level is not None and level >= 1:
        configurable = False
        if level >= 2:
            writable = False
    return writable, enumerable, configurable


def takes_descriptors(obj: Any) -> bool:
    """A plain or created object, or a function the condition made."""
    t = type(obj)
    return t is dict or t is JsCreated or (t is JsFunction and obj.owned) or _props_object(obj)


def _define_held(obj: Any, k: str, d: dict[str, Any], throw: bool) -> bool:
    """ValidateAndApplyPropertyDescriptor of a String object's index or length (read-only,
    not configurable: only the same value passes) or a RegExp's lastIndex (writable, not
    configurable: its value may change)."""
    regexp = type(obj).__name__ == "JsRegExp"
    if regexp and k != "lastIndex":
        raise Unsupported(f"flowctx does not reproduce an own {k} on a RegExp")
    if regexp:
        writable = not obj.fixed and (LENT["integrity_level"](obj) or 0) < 2
        held = {"value": obj.last_index, "writable": writable, "enumerable": False}
    else:
        held = {"value": LENT["get_member"](obj.value, k), "writable": False,
                "enumerable": k != "length"}  # fmt: skip
    if (
        d.get("configurable") is True
        or ("enumerable" in d and d["enumerable"] != held["enumerable"])
        or "get" in d
        or "set" in d
        or (not held["writable"] and d.get("writable") is True)
        or (not held["writable"] and "value" in d and not same_value(d["value"], held["value"]))
    ):
        if throw:
            raise JsError(f"Cannot redefine property: {k}")
        return False
    if regexp and ("value" in d or d.get("writable") is False):
        _mutating()
        if "value" in d:
            obj.last_index = d["value"]
        if d.get("writable") is False:
            obj.fixed = True
    return True


def _takes_descriptors(obj: Any, k: Any, d: dict[str, Any]) -> None:
    if not takes_descriptors(obj):
        what = "arrays" if type(obj) in (list, tuple) else f"{typeof(obj)} values of this kind"
        if type(obj) is JsFunction:
            what = "built-in functions"
        raise Unsupported(f"flowctx does not reproduce property descriptors on {what}")
    if type(obj) is JsFunction and k in ("length", "name", "caller", "arguments"):
        raise Unsupported(f"flowctx does not reproduce redefining a function's {k}")
    for name in ("get", "set"):
        fn = d.get(name, UNDEFINED)
        if type(fn) is JsFunction and not fn.owned:
            # a built-in method as a getter reads this object as its receiver
            raise Unsupported("flowctx does not reproduce built-in functions as accessors")


def define(obj: Any, key: Any, d: dict[str, Any], throw: bool) -> bool:
    """[[DefineOwnProperty]] of ``key`` on ``obj`` with the descriptor ``d``: False (or
    V8's TypeError when ``throw``) where ValidateAndApplyPropertyDescriptor refuses."""
    k = key if type(key) is JsSymbol else property_key(key)
    if type(obj) is JsFunction and obj.proxy is not None:
        obj = obj.proxy  # a Proxy around a function
    if type(obj).__name__ == "JsProxy":
        return bool(obj.define(k, d, throw))  # its defineProperty trap
    if type(obj) is list:
        return _define_on_array(obj, k, d, throw)  # a symbol key beside its named keys
    if type(k) is str and _props_object(obj) and _held_elsewhere(obj, k):
        return _define_held(obj, k, d, throw)
    _takes_descriptors(obj, k, d)
    store = _store(obj)

    def fail(message: str) -> bool:
        if throw:
            raise JsError(message)
        return False

    accessor = "get" in d or "set" in d
    if not own_has(store, k):
        if not LENT["globals"]["Object"].members["isExtensible"].fn(obj):
            return fail(f"Cannot define property {k}, object is not extensible")
        if type(obj) is not JsFunction:
            _mutating()
        if type(k) is JsSymbol or (k in ("toString", "valueOf") and type(obj) is not dict):
            CHANGED.symbols = True  # conversions look at the object's own keys then
        if accessor:
            store[k] = Accessor(d.get("get", UNDEFINED), d.get("set", UNDEFINED))
        else:
            store[k] = d.get("value", UNDEFINED)
        attributes = (
            bool(d.get("writable", False)),
            bool(d.get("enumerable", False)),
            bool(d.get("configurable", False)),
        )
        set_attributes(store, k, attributes)
        return True
    current = store[k]
    was_accessor = type(current) is Accessor
    writable, enumerable, configurable = _effective(obj, k)
    redefine = f"Cannot redefine property: {k}"
    if not configurable:
        if d.get("configurable") is True:
            return fail(redefine)
        if "enumerable" in d and d["enumerable"] != enumerable:
            return fail(redefine)
        generic = not accessor and "value" not in d and "writable" not in d
        if not generic:
            if accessor != was_accessor:
                return fail(redefine)
            if was_accessor:
                for name, held in (("get", current.getter), ("set", current.setter)):
                    if name in d and d[name] is not held:
                        return fail(redefine)
            elif not writable:
                if d.get("writable") is True:
                    return fail(redefine)
                if "value" in d and not same_value(d["value"], js_value(current)):
                    return fail(redefine)
    if type(obj) is not JsFunction:
        _mutating()
    if accessor:
        getter = current.getter if was_accessor else UNDEFINED
        setter = current.setter if was_accessor else UNDEFINED
        store[k] = Accessor(d.get("get", getter), d.get("set", setter))
        writable = False
    elif "value" in d or "writable" in d or not was_accessor:
        if was_accessor:
            store[k], writable = UNDEFINED, False  # an accessor made a data property
        if "value" in d:
            store[k] = d["value"]
        writable = bool(d.get("writable", writable))
    enumerable = bool(d.get("enumerable", enumerable))
    configurable = bool(d.get("configurable", configurable))
    level = LENT["integrity_level"](obj)
    if level is None:
        set_attributes(store, k, (writable, enumerable, configurable))
    else:  # a sealed or frozen object keeps what its level says beside what is defined
        held = attributes_of(store, k)
        set_attributes(
            store, k, (writable if level < 2 else held[0], enumerable,
                     configurable if level < 1 else held[2]),
        )  # fmt: skip
    return True


def _define_on_array(arr: list[Any], k: Any, d: dict[str, Any], throw: bool) -> bool:
    """[[DefineOwnProperty]] of an array (ArraySetLength for ``length``), data properties
    with any attributes (``arrayattrs``); accessors on arrays are refused."""
    length = None
    if k == "length":
        if "value" in d:  # ArraySetLength converts the value before anything is checked
            number = to_number(d["value"])
            length = to_uint32(number)
            if length != number:
                raise JsError("Invalid array length")
        if "get" in d or "set" in d:
            if throw:
                raise JsError(f"Cannot redefine property: {k}")
            return False
    for name in ("get", "set"):
        fn = d.get(name, UNDEFINED)
        if type(fn) is JsFunction and not fn.owned:
            raise Unsupported("flowctx does not reproduce built-in functions as accessors")
    return arrayattrs.define(arr, k, d, throw, length)


def descriptor_of(obj: Any, k: Any) -> dict[str, Any]:
    """FromPropertyDescriptor of an object's own ``k`` (the caller checked it is own)."""
    if _props_object(obj) and _held_elsewhere(obj, k):
        return LENT["own_descriptor"](obj, k)  # type: ignore[no-any-return]
    raw = _store(obj)[k]
    writable, enumerable, configurable = _effective(obj, k)
    if type(raw) is Accessor:
        return {"get": raw.getter, "set": raw.setter, "enumerable": enumerable,
                "configurable": configurable}  # fmt: skip
    return {"value": js_value(raw), "writable": writable, "enumerable": enumerable,
            "configurable": configurable}  # fmt: skip


def assign(obj: Any, k: Any, value: Any) -> None:
    """``obj[k] = value`` on a plain or created object when descriptors are about: a setter
    runs (or V8's TypeError for a getter alone), a read-only property refuses, along the
    chain too; otherwise an own data property is written."""
    target: Any = obj
    while takes_descriptors(target):
        store = _store(target)
        if own_has(store, k):
            raw = store[k]
            if type(raw) is Accessor:
                if type(raw.setter) is JsFunction:
                    raw.setter.fn(value)
                    return
                raise JsError(
                    f"Cannot set property {k} of {shown_value(obj)} which has only a getter"
                )
            if not _effective(target, k)[0]:
                what = "function" if type(obj) is JsFunction else "object"
                raise JsError(
                    f"Cannot assign to read only property '{k}' of {what} '{shown_value(obj)}'"
                )
            break
        target = target.proto if type(target) is JsCreated else None
    if type(obj) is not JsFunction:
        _mutating()
    store = _store(obj)
    held = type(obj).__name__ in ("JsCollection", "JsRegExp", "JsWrapper")
    if held and type(k) is str and not own_has(store, k):
        obj.js_set(k, value)  # its class's answer: a getter alone (size, source), lastIndex
        return
    store[k] = value


def lookup_accessor(obj: Any, key: Any, setter: bool) -> Any:
    """__lookupGetter__ / __lookupSetter__ along a plain object's chain."""
    k = key if type(key) is JsSymbol else property_key(key)
    target: Any = obj
    while takes_descriptors(target):
        store = _store(target)
        if own_has(store, k):
            raw = store[k]
            if type(raw) is Accessor:
                return raw.setter if setter else raw.getter
            return UNDEFINED
        target = target.proto if type(target) is JsCreated else None
    return UNDEFINED


def forget(obj: Any, k: Any) -> None:
    """A deleted property's attributes go with it."""
    set_attributes(_store(obj), k, None)


def configurable(obj: Any, k: Any) -> bool:
    if _props_object(obj) and _held_elsewhere(obj, k):
        return False  # a String object's index or length, a RegExp's lastIndex
    return attributes_of(_store(obj), k)[2]


__all__ = ["ORDINARY", "assign", "configurable", "define", "descriptor_of", "forget",
           "lookup_accessor", "takes_descriptors", "to_descriptor"]  # fmt: skip


LENT["takes_descriptors"] = takes_descriptors
