"""Arrays' own properties with attributes other than an assignment's: elements and named keys
defined read-only, hidden from enumeration or not configurable, and a read-only ``length``
(ECMAScript's array exotic [[DefineOwnProperty]] and ArraySetLength, with V8's TypeErrors).

The attributes sit in ``values.ATTRIBUTES`` beside the list, keyed by the property's name
(``"0"``, ``"x"``, ``"length"``), for the evaluation's copy only; a plain array has no entry
and keeps the fast path. An array's seal or freeze is applied on top (``effective``).
"""

from __future__ import annotations

from typing import Any, Final

from flowctx_core.expressions.js.common import LENT, _mutating, _state
from flowctx_core.expressions.js.values import (
    ATTRIBUTES,
    CHANGED,
    GENERIC,
    HOLE,
    ORDINARY,
    UNDEFINED,
    Accessor,
    Attributes,
    JsError,
    JsFunction,
    array_index,
    attributes_of,
    defined_attributes,
    set_attributes,
)

_ARRAY: Final = "[object Array]"


def has_attributes(arr: Any) -> bool:
    """Whether any of ``arr``'s own properties was defined with other attributes."""
    return bool(ATTRIBUTES.table) and bool(defined_attributes(arr))


def length_writable(arr: Any) -> bool:
    level = LENT["integrity_level"](arr)
    if level is not None and level >= 2:
        return False
    return not ATTRIBUTES.table or attributes_of(arr, "length")[0]


def effective(arr: Any, k: Any) -> Attributes:
    """``k``'s attributes (an own element or named key) with the array's seal or freeze."""
    writable, enumerable, configurable = attributes_of(arr, k)
    level = LENT["integrity_level"](arr)
    if level is not None and level >= 1:
        configurable = False
        if level >= 2:
            writable = False
    return writable, enumerable, configurable


def enumerable_keys(arr: Any, keys: list[str]) -> list[str]:
    """``keys`` without the ones defined not enumerable."""
    defined = defined_attributes(arr) if ATTRIBUTES.table else None
    if not defined:
        return keys
    return [k for k in keys if defined.get(k, ORDINARY)[1]]


def read_only(k: str) -> JsError:
    return JsError(f"Cannot assign to read only property '{k}' of object '{_ARRAY}'")


def check_set(arr: list[Any], k: Any, index: int | None, value: Any = UNDEFINED) -> bool:
    """``arr[k] = value``: V8's TypeError where the property or the length is read-only;
    True when ``k`` is an accessor whose setter took the value."""
    if index is not None:
        if index < len(arr) and arr[index] is not HOLE:
            held = arr[index]
            if type(held) is Accessor:
                return _set_through(held, k, value)
            if not attributes_of(arr, k)[0]:
                raise read_only(k)
        elif index >= len(arr) and not length_writable(arr):
            raise read_only("length")
        return False
    named = getattr(_state, "array_props", {}).get(id(arr))
    if named is None or named[0] is not arr or k not in named[1]:
        return False
    raw = named[1][k]
    shown = k if type(k) is str else k.shown()
    if type(raw) is Accessor:
        return _set_through(raw, shown, value)
    if not effective(arr, k)[0]:
        raise read_only(shown)
    return False


def _set_through(accessor: Accessor, shown: str, value: Any) -> bool:
    """An assignment to an accessor: its setter runs, or V8's TypeError for a getter alone."""
    if type(accessor.setter) is JsFunction:
        accessor.setter.fn(value)
        return True
    raise JsError(f"Cannot set property {shown} of {_ARRAY} which has only a getter")


def holds_accessor(arr: Any) -> bool:
    """Whether an element of ``arr`` is an accessor (asked only once one was defined)."""
    return CHANGED.elements and any(type(x) is Accessor for x in arr)


def descriptor(arr: list[Any], k: Any) -> dict[str, Any]:
    """FromPropertyDescriptor of an own element, named or symbol key of ``arr``."""
    writable, enumerable, configurable = effective(arr, k)
    named = getattr(_state, "array_props", {}).get(id(arr))
    raw = named[1].get(k) if named is not None and named[0] is arr else None
    index = array_index(k) if type(k) is str else None
    if index is not None and index < len(arr):
        raw = arr[index]
    if type(raw) is Accessor:
        return {"get": raw.getter, "set": raw.setter, "enumerable": enumerable,
                "configurable": configurable}  # fmt: skip
    value = LENT["get_member"](arr, k) if type(k) is str else GENERIC["symbol_get"](arr, k)
    return {"value": value, "writable": writable, "enumerable": enumerable,
            "configurable": configurable}  # fmt: skip


def truncate(arr: list[Any], n: int) -> int | None:
    """ArraySetLength's deletions from the end down to ``n``: they stop above the first
    element that is not configurable, whose index is returned (the length is then one more)."""
    level = LENT["integrity_level"](arr)
    sealed = level is not None and level >= 1
    stop = None
    for i in range(len(arr) - 1, n - 1, -1):
        if arr[i] is not HOLE and (sealed or not attributes_of(arr, str(i))[2]):
            stop = i
            break
    keep = n if stop is None else stop + 1
    if ATTRIBUTES.table:
        for i in range(keep, len(arr)):
            set_attributes(arr, str(i), None)
    del arr[keep:]
    return stop


def set_length(arr: list[Any], n: int) -> None:
    """``arr.length = n`` where attributes are about (a read-only length, elements that are
    not configurable)."""
    if not length_writable(arr):
        raise read_only("length")
    if n < len(arr):
        stop = truncate(arr, n)
        if stop is not None:
            raise JsError(f"Cannot delete property '{stop}' of {_ARRAY}")
    else:
        arr.extend([HOLE] * (n - len(arr)))


def forget_index(arr: Any, k: str) -> None:
    if ATTRIBUTES.table:
        set_attributes(arr, k, None)


def delete_named(arr: Any, k: str) -> None:
    """An array's own named key deleted (its attributes go with it)."""
    _mutating()
    named = getattr(_state, "array_props", {}).get(id(arr))
    if named is not None and named[0] is arr:
        named[1].pop(k, None)
    forget_index(arr, k)


def _write(arr: list[Any], k: Any, index: int | None, value: Any) -> None:
    """An own data property written with no check (the definition has validated it)."""
    _mutating()
    if index is None:
        _state.array_props.setdefault(id(arr), (arr, {}))[1][k] = value
        return
    if index >= len(arr):
        arr.extend([HOLE] * (index + 1 - len(arr)))
    if type(value) is Accessor:
        CHANGED.elements = True
    arr[index] = value


def define(arr: list[Any], k: Any, d: dict[str, Any], throw: bool, length: int | None) -> bool:
    """[[DefineOwnProperty]] of an array's element, named key or (``length`` the converted
    value, or None without one) its length, the descriptor ``d`` a data one."""
    from flowctx_core.expressions.js.values import js_value, same_value

    level = LENT["integrity_level"](arr)

    def fail(message: str) -> bool:
        if throw:
            raise JsError(message)
        return False

    redefine = f"Cannot redefine property: {k}"
    if k == "length":
        if d.get("configurable") is True or d.get("enumerable") is True:
            return fail(redefine)
        if not length_writable(arr):
            if d.get("writable") is True or (length is not None and length != len(arr)):
                return fail(redefine)
            return True
        _mutating()
        if length is not None and length != len(arr):
            if length > len(arr):
                arr.extend([HOLE] * (length - len(arr)))
            else:
                stop = truncate(arr, length)
                if stop is not None:
                    if d.get("writable") is False:
                        set_attributes(arr, "length", (False, False, False))
                    return fail(f"Cannot delete property '{stop}' of {_ARRAY}")
        if d.get("writable") is False:
            set_attributes(arr, "length", (False, False, False))
        return True
    if type(k) is not str:
        CHANGED.symbols = True  # a symbol key: conversions and iteration look at it
    index = array_index(k) if type(k) is str else None  # a symbol key is no index
    named = getattr(_state, "array_props", {}).get(id(arr))
    current: Any
    if index is not None:
        exists = index < len(arr) and arr[index] is not HOLE
        current = arr[index] if exists else UNDEFINED
    else:
        exists = named is not None and named[0] is arr and k in named[1]
        current = named[1][k] if exists and named is not None else UNDEFINED
    accessor = "get" in d or "set" in d
    if not exists:
        if level is not None:
            return fail(f"Cannot define property {k}, object is not extensible")
        if index is not None and index >= len(arr) and not length_writable(arr):
            return fail(f"Cannot define property {k}, object is not extensible")
        if accessor:
            _write(arr, k, index, Accessor(d.get("get", UNDEFINED), d.get("set", UNDEFINED)))
        else:
            _write(arr, k, index, d.get("value", UNDEFINED))
        attributes = tuple(bool(d.get(f, False)) for f in ("writable", "enumerable",
                                                           "configurable"))  # fmt: skip
        set_attributes(arr, k, attributes)  # type: ignore[arg-type]
        return True
    writable, enumerable, configurable = effective(arr, k)
    was_accessor = type(current) is Accessor
    if not configurable:
        if d.get("configurable") is True:
            return fail(redefine)
        if "enumerable" in d and d["enumerable"] != enumerable:
            return fail(redefine)
        generic = not accessor and "value" not in d and "writable" not in d
        if not generic and accessor != was_accessor:
            return fail(redefine)
        if not generic and was_accessor:
            for name, held_fn in (("get", current.getter), ("set", current.setter)):
                if name in d and d[name] is not held_fn:
                    return fail(redefine)
        elif not generic and not writable:
            if d.get("writable") is True:
                return fail(redefine)
            if "value" in d and not same_value(d["value"], js_value(current)):
                return fail(redefine)
    if accessor:
        getter = current.getter if was_accessor else UNDEFINED
        setter = current.setter if was_accessor else UNDEFINED
        _write(arr, k, index, Accessor(d.get("get", getter), d.get("set", setter)))
        writable = False
    elif was_accessor and ("value" in d or "writable" in d):
        _write(arr, k, index, d.get("value", UNDEFINED))  # an accessor made a data property
        writable = False
    elif "value" in d:
        _write(arr, k, index, d["value"])
    else:
        _mutating()
    held = attributes_of(arr, k)
    wanted = (bool(d.get("writable", writable)), bool(d.get("enumerable", enumerable)),
              bool(d.get("configurable", configurable)))  # fmt: skip
    if level == 1 and index is not None and wanted != (True, True, False) and not _indexed(arr):
        # V8 moves a sealed array's elements to a dictionary to change one, and the others
        # lose the seal there (configurable again); named keys keep theirs
        _state.integrity[id(arr)] = (arr, 0)
        for name in list(named[1]) if named is not None and named[0] is arr else []:
            w, e, _ = attributes_of(arr, name)
            set_attributes(arr, name, (w, e, False))
        level = 0
    if level is not None:  # a seal or freeze stays on top of what is defined
        wanted = (wanted[0] if level < 2 else held[0], wanted[1],
                  wanted[2] if level < 1 else held[2])  # fmt: skip
    set_attributes(arr, k, wanted)
    return True


def _indexed(arr: Any) -> bool:
    """Whether an element of ``arr`` has attributes of its own (V8's dictionary elements)."""
    defined = defined_attributes(arr) if ATTRIBUTES.table else None
    if not defined:
        return False
    return any(type(k) is str and array_index(k) is not None for k in defined)


def integrity(arr: list[Any], frozen: bool) -> bool:
    """TestIntegrityLevel of a non-extensible array as V8 reads it: its elements and named
    keys, never its length (an empty one is frozen whatever its length says)."""
    keys = [str(i) for i, v in enumerate(arr) if v is not HOLE]
    named = getattr(_state, "array_props", {}).get(id(arr))
    names = list(named[1]) if named is not None and named[0] is arr else []
    for k in keys + names:
        writable, _, configurable = effective(arr, k)
        if configurable or (frozen and writable):
            return False
    return True
