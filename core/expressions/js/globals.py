"""The safe JavaScript globals (``Math``, ``JSON``, ``Number``, ``Object``...) an expression may
reach, the globals refused as code execution, and what completion offers.
"""

from __future__ import annotations

import json
import math
import random
import struct
import urllib.parse
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js import (
    arrayattrs,
    atomics,
    bigint,
    clone,
    constructors,
    dates,
    descriptors,
    extras,
    fdlibm,
    host,
    intl,
    promise,
    proxies,
    reflect,
    regexp,
    symbols,
    symkeys,
    weak,
)
from flowctx_core.expressions.js.common import (
    BUILTIN_LENGTHS,
    LENT,
    Unsupported,
    _call,
    array_prop_keys,
    too_long_array,
)
from flowctx_core.expressions.js.jsonerrors import json_error, parse_deep
from flowctx_core.expressions.js.objects import (
    NUMBER_METHODS,
    _obj_has_own,
    call_with_this,
    get_member,
    integrity,
    integrity_of,
    object_to_string,
    own_descriptor,
    set_member,
)
from flowctx_core.expressions.js.prototypes import (
    ARRAY_PROTOTYPE,
    FUNCTION_PROTOTYPE,
    OBJECT_PROTOTYPE,
    JsPrototype,
    generic,
    prototype_of,
)
from flowctx_core.expressions.js.proxies import JsProxy
from flowctx_core.expressions.js.values import (
    CHANGED,
    DROPPED_KEYS,
    ELEMENT,
    GENERIC,
    HOLE,
    JS_WHITESPACE,
    MAX_STRING_LENGTH,
    UNDEFINED,
    JsCreated,
    JsError,
    JsFunction,
    JsNamespace,
    JsObject,
    array_index,
    attributes_of,
    check_length,
    default_call_site,
    from_units,
    got,
    is_nullish,
    is_number,
    js_in,
    js_value,
    keep_all_keys,
    number,
    number_to_string,
    own_keys,
    own_keys_all,
    property_key,
    strict_eq,
    to_int,
    to_int32,
    to_number,
    to_string,
    to_uint32,
    too_long,
    truthy,
    typeof,
    utf16_length,
)

# --- safe globals --------------------------------------------------------------------------


def _math(fn: Callable[[float], float]) -> Callable[..., Any]:
    """A one-argument Math function: the argument made a number, an integral result an int.

    The transcendental ones are V8's fdlibm ports (``fdlibm``), total over the doubles: NaN
    outside the domain and Infinity past the largest double, as node answers."""

    def call(x: Any = UNDEFINED, *_: Any) -> int | float:
        return _tidy(fn(float(to_number(x))))

    return call


def _tidy(r: float) -> int | float:
    if r == r and r not in (math.inf, -math.inf) and r.is_integer() and abs(r) <= 2**53:
        return int(r) if r != 0 or math.copysign(1.0, r) > 0 else r
    return r


def _math_round(x: Any = UNDEFINED, *_: Any) -> int | float:
    v = float(to_number(x))
    if v != v or v in (math.inf, -math.inf):
        return v
    if v.is_integer():
        return _tidy(v)
    # floor(v + 0.5) in floating point rounds 0.49999999999999994 up; compare exactly.
    r = math.floor(v)
    if v - r >= 0.5:
        r += 1
    if r == 0 and v < 0:
        return -0.0
    return number(int(r))


def _math_sign(x: Any = UNDEFINED, *_: Any) -> int | float:
    v = to_number(x)
    if v != v or v == 0:
        return v
    return 1 if v > 0 else -1


def _math_trunc(v: float) -> float:
    # a zero result keeps the argument's sign: Math.trunc(-0.5) and Math.trunc(-0) are -0
    return math.copysign(float(math.trunc(v)), v) if math.isfinite(v) else v


def _math_floor(v: float) -> float:
    if not math.isfinite(v):
        return v  # the infinities and NaN
    r = float(math.floor(v))
    return math.copysign(r, v) if r == 0 else r  # floor(-0) is -0


def _math_ceil(v: float) -> float:
    if not math.isfinite(v):
        return v
    r = float(math.ceil(v))
    return math.copysign(r, v) if r == 0 else r  # ceil(-0.5) and ceil(-0) are -0


def _math_extreme(pick_max: bool, *args: Any) -> int | float:
    nums = [to_number(a) for a in args]
    if not nums:
        return -math.inf if pick_max else math.inf
    if any(n != n for n in nums):
        return math.nan
    best = nums[0]
    for n in nums[1:]:
        if (n > best) if pick_max else (n < best):
            best = n
        elif n == best == 0:
            # max(0, -0) is 0 and min(0, -0) is -0
            neg = math.copysign(1.0, n) < 0
            if neg != pick_max:
                best = n
    return best


def _math_pow(x: Any = UNDEFINED, y: Any = UNDEFINED, *_: Any) -> int | float:
    from flowctx_core.expressions.js.values import js_pow

    return js_pow(x, y)


def _math_hypot(*args: Any) -> int | float:
    # V8 (node 20, its Torque MathHypot): divide by the largest magnitude, add the
    # squares with Kahan compensation, sqrt and scale back; the last digit follows from it.
    nums = [abs(float(to_number(a))) for a in args]
    if any(n == math.inf for n in nums):
        return math.inf
    if any(n != n for n in nums):
        return math.nan
    top = max(nums, default=0.0)
    if top == 0:
        return 0
    total = compensation = 0.0
    for n in nums:
        scaled = n / top
        summand = scaled * scaled - compensation
        preliminary = total + summand
        compensation = (preliminary - total) - summand
        total = preliminary
    return _tidy(math.sqrt(total) * top)


def _fround(v: float) -> float:
    try:
        return float(struct.unpack("f", struct.pack("f", v))[0])
    except OverflowError:  # rounds past the largest float32
        return math.copysign(math.inf, v)


def _math_imul(a: Any = UNDEFINED, b: Any = UNDEFINED, *_: Any) -> int:
    r = (to_int32(a) * to_int32(b)) & 0xFFFFFFFF
    return r - 0x100000000 if r >= 0x80000000 else r


def _math_clz32(x: Any = UNDEFINED, *_: Any) -> int:
    return 32 - to_uint32(x).bit_length()


def _sqrt(v: float) -> float:
    return math.sqrt(v) if v >= 0 or v != v else math.nan


def _math_atan2(y: Any = UNDEFINED, x: Any = UNDEFINED, *_: Any) -> int | float:
    return _tidy(fdlibm.atan2(float(to_number(y)), float(to_number(x))))


def _math_abs(x: Any = UNDEFINED, *_: Any) -> int | float:
    v = to_number(x)
    return abs(v) if type(v) is int else math.fabs(v)


def _math_random(*_: Any) -> float:
    return random.random()


def _math_fn(name: str, fn: Callable[..., Any]) -> JsFunction:
    return JsFunction(name, fn)


MATH: Final = JsNamespace(
    "Math",
    {
        "abs": _math_fn("abs", _math_abs),
        "ceil": _math_fn("ceil", _math(_math_ceil)),
        "floor": _math_fn("floor", _math(_math_floor)),
        "round": _math_fn("round", _math_round),
        "trunc": _math_fn("trunc", _math(_math_trunc)),
        "sign": _math_fn("sign", _math_sign),
        "sqrt": _math_fn("sqrt", _math(_sqrt)),
        "cbrt": _math_fn("cbrt", _math(fdlibm.cbrt)),
        "max": _math_fn("max", partial(_math_extreme, True)),
        "min": _math_fn("min", partial(_math_extreme, False)),
        "pow": _math_fn("pow", _math_pow),
        "random": _math_fn("random", _math_random),
        "hypot": _math_fn("hypot", _math_hypot),
        "atan2": _math_fn("atan2", _math_atan2),
        "log": _math_fn("log", _math(fdlibm.log)),
        "log2": _math_fn("log2", _math(fdlibm.log2)),
        "log10": _math_fn("log10", _math(fdlibm.log10)),
        "exp": _math_fn("exp", _math(fdlibm.exp)),
        "sin": _math_fn("sin", _math(fdlibm.sin)),
        "cos": _math_fn("cos", _math(fdlibm.cos)),
        "tan": _math_fn("tan", _math(fdlibm.tan)),
        "asin": _math_fn("asin", _math(fdlibm.asin)),
        "acos": _math_fn("acos", _math(fdlibm.acos)),
        "atan": _math_fn("atan", _math(fdlibm.atan)),
        "sinh": _math_fn("sinh", _math(fdlibm.sinh)),
        "cosh": _math_fn("cosh", _math(fdlibm.cosh)),
        "tanh": _math_fn("tanh", _math(fdlibm.tanh)),
        "asinh": _math_fn("asinh", _math(fdlibm.asinh)),
        "acosh": _math_fn("acosh", _math(fdlibm.acosh)),
        "atanh": _math_fn("atanh", _math(fdlibm.atanh)),
        "expm1": _math_fn("expm1", _math(fdlibm.expm1)),
        "log1p": _math_fn("log1p", _math(fdlibm.log1p)),
        "fround": _math_fn("fround", _math(_fround)),
        "imul": _math_fn("imul", _math_imul),
        "clz32": _math_fn("clz32", _math_clz32),
        "PI": math.pi,
        "E": math.e,
        "LN2": math.log(2),
        "LN10": math.log(10),
        "LOG2E": 1 / math.log(2),
        "LOG10E": 0.4342944819032518,  # V8's constant; 1 / ln 10 rounds one unit lower
        "SQRT2": math.sqrt(2),
        "SQRT1_2": math.sqrt(0.5),
    },
)  # fmt: skip


def _parse_int(s: Any = UNDEFINED, radix: Any = UNDEFINED, *_: Any) -> int | float:
    text = to_string(s).lstrip(JS_WHITESPACE)
    sign = -1 if text.startswith("-") else 1
    text = text[1:] if text[:1] in ("+", "-") else text
    base = to_int(radix) if radix is not UNDEFINED else 0
    base = int(base) % 2**32 if base not in (math.inf, -math.inf) else 0
    strip = True
    if base != 0:
        if not 2 <= base <= 36:
            return math.nan
        strip = base == 16
    else:
        base = 10
    if strip and text[:2] in ("0x", "0X"):
        base, text = 16, text[2:]
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"[:base]
    end = 0
    charge(ELEMENT * len(text))
    while end < len(text) and text[end].isascii() and text[end].lower() in digits:
        end += 1
    if not end:
        return math.nan
    significant = text[:end].lstrip("0")
    if len(significant) > 1100:
        # at least 2**1100: past the largest double, which JavaScript reads as Infinity
        # (and Python refuses to convert more than 4,300 decimal digits)
        return sign * math.inf
    value = sign * int(significant or "0", base)
    if value == 0 and sign < 0:
        return -0.0
    if base == 10 or abs(value) <= 2**53:
        return number(value)
    if base & (base - 1) == 0:
        return float(value)  # powers of two: rounded exactly, as V8 does
    return sign * _v8_radix_parts(significant.lower(), base)  # V8 skips leading zeros first


def _v8_radix_parts(digits: str, base: int) -> float:
    """parseInt past 2**53 in a radix that is not 10 or a power of two, as V8 computes it
    (node 20, its string-to-number conversion): parts whose multiplier fits 32 bits, each folded in
    with double arithmetic, so the last digit may differ from the exact value's rounding (the
    specification allows it)."""
    limit = 0xFFFFFFFF // 36
    result = 0.0
    i, n = 0, len(digits)
    while i < n:
        part, multiplier = 0, 1
        while i < n:
            m = multiplier * base
            if m > limit:
                break
            part = part * base + int(digits[i], 36)
            multiplier = m
            i += 1
        result = result * multiplier + part
    return result


_FLOAT_PREFIX: Final = __import__("re").compile(
    r"[+-]?(?:Infinity|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)", __import__("re").ASCII
)  # the unambiguous spelling, ASCII digits only, as values._DECIMAL


def _parse_float(s: Any = UNDEFINED, *_: Any) -> int | float:
    m = _FLOAT_PREFIX.match(to_string(s).lstrip(JS_WHITESPACE))
    if not m:
        return math.nan
    text = m.group(0)
    if text.endswith("Infinity"):
        return -math.inf if text[0] == "-" else math.inf
    f = float(text)
    if f == 0:
        return -0.0 if text[0] == "-" else 0
    return int(f) if f.is_integer() and abs(f) <= 2**53 else f


def _is_nan(x: Any = UNDEFINED, *_: Any) -> bool:
    n = to_number(x)
    return n != n


def _is_finite(x: Any = UNDEFINED, *_: Any) -> bool:
    n = to_number(x)
    return n == n and n not in (math.inf, -math.inf)


def _number_is_integer(x: Any = UNDEFINED, *_: Any) -> bool:
    return is_number(x) and _is_finite(x) and float(x).is_integer()


def _number_is_safe_integer(x: Any = UNDEFINED, *_: Any) -> bool:
    return _number_is_integer(x) and abs(x) <= 2**53 - 1


def _number_is_nan(x: Any = UNDEFINED, *_: Any) -> bool:
    return is_number(x) and x != x


def _number_is_finite(x: Any = UNDEFINED, *_: Any) -> bool:
    return is_number(x) and _is_finite(x)


def _global_name(x: Any) -> str | None:
    """The name of the global function or namespace ``x`` is, or None."""
    if type(x) is not JsFunction and type(x) is not JsNamespace:
        return None
    name: str = x.name
    return name if GLOBALS.get(name) is x else None


def _keys_of(x: Any, what: str) -> list[str]:
    if is_nullish(x):
        raise JsError("Cannot convert undefined or null to object")
    if type(x) is JsFunction and x.proxy is not None:
        x = x.proxy  # a Proxy around a function: its ownKeys trap
    if type(x) is list or type(x) is tuple:
        charge(ELEMENT * len(x))
        keys = [str(i) for i, v in enumerate(x) if v is not HOLE]  # a hole is no key
        keys += array_prop_keys(x)
        return keys if what == "getOwnPropertyNames" else arrayattrs.enumerable_keys(x, keys)
    if type(x) is str:
        charge(ELEMENT * len(x))
        return [str(i) for i in range(utf16_length(x))]
    if isinstance(x, Mapping) and type(x) is not JsNamespace:
        return own_keys_all(x) if what == "getOwnPropertyNames" else own_keys(x)
    if isinstance(x, JsObject):
        if what == "getOwnPropertyNames" and descriptors.takes_descriptors(x):
            own = own_keys_all(x.props or {})  # type: ignore[attr-defined]
            value = getattr(x, "value", None)
            if type(value) is str:  # a String object's indexes come first
                return [str(i) for i in range(utf16_length(value))] + own
            return own
        return x.js_keys()
    if type(x) is JsFunction and x.props:
        return own_keys(x.props)  # own keys written on an arrow: ordinary, enumerable
    name = _global_name(x)
    if name is not None:
        from flowctx_core.expressions.js.builtinnames import KEYS

        return list(KEYS.get(name, ()))  # the few enumerable ones (Error.stackTraceLimit)
    return []


def _object_keys(x: Any = UNDEFINED, *_: Any) -> list[str]:
    return _keys_of(x, "keys")


def _object_values(x: Any = UNDEFINED, *_: Any) -> list[Any]:
    keys = _keys_of(x, "values")
    charge(ELEMENT * len(keys))
    return [get_member(x, k) for k in _still_own(x, keys)]


def _object_entries(x: Any = UNDEFINED, *_: Any) -> list[Any]:
    keys = _keys_of(x, "entries")
    charge(2 * ELEMENT * len(keys))
    return [[k, get_member(x, k)] for k in _still_own(x, keys)]


def _still_own(x: Any, keys: list[str]) -> Any:
    """EnumerableOwnProperties' keys, each looked up again just before it is read: a getter
    on an array's element may take the later elements away (``CHANGED.elements``)."""
    if not CHANGED.elements or type(x) is not list:
        return keys
    return (k for k in keys if _own_element(x, k))


def _own_element(arr: list[Any], k: str) -> bool:
    index = array_index(k)
    return index is None or (index < len(arr) and arr[index] is not HOLE)


def _object_assign(target: Any = UNDEFINED, *sources: Any) -> Any:
    """Own enumerable keys of each source copied onto ``target`` (null and undefined sources
    skipped, a string's characters by index), through the same writes as ``target[k] = v``."""
    if is_nullish(target):
        raise JsError("Cannot convert undefined or null to object")
    target = constructors.new_object(target)  # a primitive is written through its wrapper
    for source in sources:
        if is_nullish(source) or not (
            type(source) in (str, list, tuple)
            or isinstance(source, (Mapping, constructors.JsWrapper))
            or (type(source) is JsFunction and source.props)
            or type(source) is JsProxy
            or descriptors.takes_descriptors(source)  # a Date's, a Map's own keys
            or (type(source) is JsFunction and source.proxy is not None)
            or type(source).__name__ == "JsArguments"
        ):
            continue
        for k in _still_own(source, _keys_of(source, "assign")):
            set_member(target, k, get_member(source, k))
        for sym in symkeys.own_symbols(source):  # then its enumerable symbol keys
            if type(source).__name__ == "JsArguments" and sym is symkeys.ITERATOR:
                continue  # its own Symbol.iterator is not enumerable
            if type(source) is JsProxy:
                found = source.own_property(sym)
                enumerable = isinstance(found, dict) and found["enumerable"]
            else:
                props = isinstance(source, JsObject) and descriptors.takes_descriptors(source)
                store = getattr(source, "props", None) if props else source
                enumerable = type(source) is JsFunction or attributes_of(store, sym)[1]
            if enumerable:
                set_member(target, sym, get_member(source, sym))
    return target


def _object_freeze(x: Any = UNDEFINED, *_: Any) -> Any:
    integrity(x, frozen=True)
    return x


def _object_seal(x: Any = UNDEFINED, *_: Any) -> Any:
    integrity(x, frozen=False)
    return x


def _object_prevent_extensions(x: Any = UNDEFINED, *_: Any) -> Any:
    integrity(x, frozen=None)
    return x


def _object_is_extensible(x: Any = UNDEFINED, *_: Any) -> bool:
    return not integrity_of(x, frozen=None)


def _object_own_descriptor(x: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> Any:
    return own_descriptor(x, key)


def _object_is_frozen(x: Any = UNDEFINED, *_: Any) -> bool:
    return integrity_of(x, frozen=True)


def _object_is_sealed(x: Any = UNDEFINED, *_: Any) -> bool:
    return integrity_of(x, frozen=False)


def _object_own_names(x: Any = UNDEFINED, *_: Any) -> list[str]:
    """Object.getOwnPropertyNames: the keys, and the non-enumerable own ones (``length`` of an
    array or a string, ``length`` and ``name`` of a function)."""
    if is_nullish(x):
        raise JsError("Cannot convert undefined or null to object")
    if type(x) is JsPrototype:
        return list(x.names)
    if type(x) is JsFunction and x.proxy is not None:
        x = x.proxy  # a Proxy around a function
    if type(x) is JsProxy:
        return [k for k in x.own_keys() if type(k) is str]  # its ownKeys trap
    if x is FUNCTION_PROTOTYPE:
        return ["length", "name", "arguments", "caller", "constructor", "apply", "bind", "call",
                "toString"]  # fmt: skip
    name = _global_name(x)
    if name is not None:
        from flowctx_core.expressions.js.builtinnames import OWN_NAMES

        if name in OWN_NAMES:
            return list(OWN_NAMES[name])  # node's own list, in its order
    if type(x) is JsFunction and x.members is None:
        keys = own_keys_all(x.props) if x.props else []
        at = sum(1 for k in keys if array_index(k) is not None)
        own = [k for k in ("length", "name") if x.owns_own(k)]
        return [*keys[:at], *own, *keys[at:]]  # indices first
    if type(x) is JsFunction or type(x) is JsNamespace:
        raise Unsupported("flowctx does not reproduce the own property names of built-ins")
    host = getattr(x, "own_names", None)  # a host class's own (AggregateError)
    if host is not None:
        return list(host())
    keys = _keys_of(x, "getOwnPropertyNames")
    if type(x) is regexp.JsRegExp:
        # made with the object, after the integer keys, before any other key added since
        at = sum(1 for k in keys if array_index(k) is not None)
        return [*keys[:at], "lastIndex", *keys[at:]]
    if type(x) is constructors.JsErrorObject:
        # the stack is made with the error, then the message and cause it was given, then
        # the keys written on it (the cause is not enumerable: Object.keys leaves it out)
        return ["stack", *(["message"] if x.own_message else []), *own_keys_all(x.props)]
    if type(x) in (list, tuple, str) or (
        isinstance(x, constructors.JsWrapper) and type(x.value) is str
    ):
        # length is made with the array or String object: after the indices, before the keys
        # added since
        at = sum(1 for k in keys if array_index(k) is not None)
        keys.insert(at, "length")
    return keys


def _object_get_prototype_of(x: Any = UNDEFINED, *_: Any) -> Any:
    if is_nullish(x):
        raise JsError("Cannot convert undefined or null to object")
    return prototype_of(x)


def _object_create(proto: Any = UNDEFINED, props: Any = UNDEFINED, *_: Any) -> Any:
    if proto is not None and typeof(proto) not in ("object", "function"):
        shown = "undefined" if proto is UNDEFINED else to_string(proto)
        raise JsError(
            f"Object prototype may only be an Object or null: {shown}",
            anonymous="Object prototype may only be an Object or null",
        )
    made = _created(proto)
    if props is not UNDEFINED:
        GLOBALS["Object"].members["defineProperties"].fn(made, props)  # ObjectDefineProperties
    return made


def _created(proto: Any) -> Any:
    if proto is OBJECT_PROTOTYPE:
        return {}  # an ordinary object
    if type(proto) is JsNamespace or (
        type(proto) is JsFunction and proto is not FUNCTION_PROTOTYPE and not proto.owned
    ):
        # Math, a global function: what the object would read there is the host's own
        raise Unsupported("flowctx does not reproduce objects inheriting from built-ins")
    return JsCreated(proto)


def _string_raw(strings: Any = UNDEFINED, *subs: Any) -> str:
    """String.raw called as a function (a tagged template is refused by MemberJunction: it
    forbids backticks): the ``raw`` strings interleaved with the substitutions."""
    if is_nullish(strings):
        raise JsError("Cannot convert undefined or null to object")
    raw = get_member(strings, "raw")
    if is_nullish(raw):
        raise JsError("Cannot convert undefined or null to object")
    length = to_int(get_member(raw, "length"))
    count = int(min(max(length, 0), MAX_STRING_LENGTH))
    parts: list[str] = []
    for i in range(count):
        charge(ELEMENT)
        parts.append(to_string(get_member(raw, str(i))))
        if i + 1 < count and i < len(subs):
            parts.append(to_string(subs[i]))
    return check_length("".join(parts))


def _object_has_own(x: Any = UNDEFINED, key: Any = UNDEFINED, *_: Any) -> bool:
    if is_nullish(x):
        raise JsError("Cannot convert undefined or null to object")
    return _obj_has_own(x, key)


def _object_is(a: Any = UNDEFINED, b: Any = UNDEFINED, *_: Any) -> bool:
    if is_number(a) and is_number(b):
        x, y = float(a), float(b)
        if x != x and y != y:
            return True
        return x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
    return strict_eq(a, b)


def _object_from_entries(entries: Any = UNDEFINED, *_: Any) -> dict[str, Any]:
    if is_nullish(entries):
        raise JsError("undefined is not iterable")
    walks = CHANGED.symbols or CHANGED.table or type(entries) is JsCreated
    own = GENERIC["iterate"](entries) if walks else None
    if own == "uncallable":  # an array whose chain has no Symbol.iterator any more
        raise JsError(f"{typeof(entries)} is not iterable (cannot read property "
                      "Symbol(Symbol.iterator))")  # fmt: skip
    if type(own) is list:
        items: list[Any] = own
    elif type(entries) is list or type(entries) is tuple:
        items = [js_value(x) for x in entries]
    elif type(entries) is str:
        items = list(entries)  # by code points, as the string iterator goes
    elif isinstance(entries, JsObject) and (got := entries.js_iter()) is not None:
        items = list(got)
    else:
        raise JsError(
            f"{default_call_site(entries)} is not iterable (cannot read property "
            "Symbol(Symbol.iterator))",
            anonymous="value is not iterable",
        )
    out: dict[str, Any] = {}
    keyed: list[tuple[Any, Any]] = []  # (symbol, value)
    charge(ELEMENT * len(items))
    for pair in items:
        # a string is no entry object either (Object.fromEntries(['ab']) throws)
        if is_nullish(pair) or type(pair) in (int, float, bool, str):
            raise JsError(
                f"Iterator value {to_string(pair)} is not an entry object",
                anonymous="Iterator value is not an entry object",
            )
        raw = get_member(pair, "0")  # its key read before its value
        if type(raw) is symbols.JsSymbol:
            keyed.append((raw, get_member(pair, "1")))
            continue
        out[property_key(raw)] = get_member(pair, "1")
    if not DROPPED_KEYS.isdisjoint(out):
        keep_all_keys(out)  # own data properties, '__proto__' and 'constructor' too
    for sym, value in keyed:  # symbol keys come after the strings in any case
        LENT["set_member"](out, sym, value)
    return out


_ESCAPES: Final = {
    '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
}  # fmt: skip


def _quote(s: str) -> str:
    charge(ELEMENT * len(s))  # an interpreted loop over the characters
    out = ['"']
    for c in s:
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif c < " " or "\ud800" <= c <= "\udfff":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


#: node 20 under MemberJunction serialises arrays and objects nested 4,111 deep, and runs out of
#: stack at one more (measured: arrays, objects and both alternating); data nested deeper than
#: flowctx's own stack allows is refused by the evaluator's recursion guard, which says it is
#: flowctx's bound
_JSON_DEPTH: Final = 4_111


#: the containers being serialised, each with the key it was reached by (for V8's message)
_Path = list[tuple[Any, str | int]]


def _stringify(
    v: Any,
    indent: str,
    prefix: str,
    depth: int,
    room: list[int],
    path: _Path | None = None,
    key: str = "",
) -> str | None:
    """JSON text of ``v`` (the value of ``key`` in its holder); ``room`` holds the characters
    still allowed, so the text is refused while it is being built, not after (references to
    one array nest cheaply)."""
    if depth > _JSON_DEPTH:
        raise JsError("Maximum call stack size exceeded")
    charge(6 * ELEMENT)  # measured: about 3 us of interpreted work a value
    v = js_value(v)
    if (
        (type(v) is dict and "toJSON" in v)
        or (type(v) is JsCreated and js_in("toJSON", v))
        or (type(v) is list and "toJSON" in array_prop_keys(v))  # an array's own named one
        or (type(v) is JsFunction and v.owned and "toJSON" in (v.props or ()))
    ):
        to_json = get_member(v, "toJSON")  # SerializeJSONProperty: its toJSON, given the key
        if type(to_json) is JsFunction:
            if to_json.method is not None:
                v = js_value(call_with_this(to_json, v, [key]))
            else:
                v = js_value(to_json.fn(key))
    if (CHANGED.table or type(v) is JsCreated) and generic(v):
        v = _along_chain(v)
    elif (
        isinstance(v, JsObject)
        and descriptors.takes_descriptors(v)
        and "toJSON" in (getattr(v, "props", None) or ())
    ):
        v = _along_chain(v)  # an own toJSON stands before its class's (a Date's)
    elif type(v) is constructors.JsWrapper and v.props and typeof(v.value) != "symbol":
        v = _unwrapped(v)  # its own toString or valueOf may stand in the way
    if isinstance(v, JsObject):
        v = v.js_json()
        if type(v) is bigint.JsBigInt:
            v.js_json()  # a Date's own toISOString gave a BigInt: V8's TypeError
    if v is None:
        text = "null"
    elif v is True:
        text = "true"
    elif v is False:
        text = "false"
    else:
        t = type(v)
        if t is str:
            text = _quote(v)
        elif t is int or t is float:
            text = number_to_string(v) if v == v and v not in (math.inf, -math.inf) else "null"
        elif v is UNDEFINED or t is JsFunction:
            return None
        else:
            return _stringify_container(v, indent, prefix, depth, room, path or [(v, "")])
    _use(room, len(text))
    return text


def _along_chain(v: Any) -> Any:
    """SerializeJSONProperty's first steps for an object whose chain was changed or leads to
    a built-in prototype: the toJSON it inherits (Date.prototype's), else its own data."""
    to_json = get_member(v, "toJSON")
    if type(to_json) is JsFunction:
        if to_json.method is not None:
            return js_value(call_with_this(to_json, v, [""]))
        return js_value(to_json.fn(""))
    if isinstance(v, constructors.JsWrapper):
        return _unwrapped(v)
    if isinstance(v, JsObject):
        # a Date or a Map that no longer inherits its class's methods: its own keys only
        return {k: get_member(v, k) for k in v.js_keys()}
    return v


def _unwrapped(v: Any) -> Any:
    """JSON of a Number or String object: ToNumber / ToString of it (which read its toString
    and valueOf); a Boolean's or BigInt's is its value."""
    if CHANGED.symbols and GENERIC["symbol_keyed"](v):  # its own Symbol.toPrimitive
        hint = "string" if type(v.value) is str else "number"
        if type(v.value) in (str, int, float):
            primitive = GENERIC["to_primitive"](v, hint, True)
            return to_string(primitive) if hint == "string" else to_number(primitive)
    if type(v.value) is str:
        return to_string(v)
    return to_number(v) if type(v.value) in (int, float) else v.value


def _use(room: list[int], n: int) -> None:
    room[0] -= n
    if room[0] < 0:
        raise too_long()


def _circular(path: _Path, again: Any, key: str | int) -> JsError:
    """V8's TypeError for a value that holds itself: where the circle starts, the first two
    and the last step around it (an ellipsis between), and the key that closes it."""

    def ctor(o: Any) -> str:
        return "Array" if type(o) in (list, tuple) else "Object"

    def named(k: str | int) -> str:
        return f"index {k}" if type(k) is int else f"property '{k}'"

    start = next(i for i, (o, _) in enumerate(path) if o is again)
    lines = [f"    --> starting at object with constructor '{ctor(path[start][0])}'"]
    rest = path[start + 1 :]
    shown = rest if len(rest) <= 3 else [*rest[:2], None, rest[-1]]
    for step in shown:
        if step is None:
            lines.append("    |     ...")
        else:
            lines.append(f"    |     {named(step[1])} -> object with constructor '{ctor(step[0])}'")
    lines.append(f"    --- {named(key)} closes the circle")
    return JsError("Converting circular structure to JSON\n" + "\n".join(lines))


def _nested(
    x: Any, key: str | int, indent: str, inner: str, depth: int, room: list[int], path: _Path
) -> str | None:
    x = js_value(x)
    if type(x) in (list, tuple) or isinstance(x, Mapping):
        if any(o is x for o, _ in path):
            raise _circular(path, x, key)
        path.append((x, key))
        try:
            return _stringify(x, indent, inner, depth + 1, room, path, str(key))
        finally:
            path.pop()
    return _stringify(x, indent, inner, depth + 1, room, path, str(key))


def _stringify_container(
    v: Any, indent: str, prefix: str, depth: int, room: list[int], path: _Path
) -> str | None:
    t = type(v)
    inner = prefix + indent
    # separators and the line breaks of indented output take room too
    step = len(inner) + 2 if indent else 1
    if t is list or t is tuple:
        items = []
        # the length is read once: a getter on an element may shorten the array, and the
        # indexes it took away read undefined
        elements = got(v) if CHANGED.elements else v
        for i, x in enumerate(elements):
            items.append(_nested(x, i, indent, inner, depth, room, path) or "null")
            if items[-1] == "null" and x is not None:
                _use(room, 4)
            _use(room, step)
        if not items:
            return "[]"
        _use(room, 2 + len(prefix) + 1 if indent else 2)
        if indent:
            return "[\n" + inner + (",\n" + inner).join(items) + "\n" + prefix + "]"
        return "[" + ",".join(items) + "]"
    if isinstance(v, Mapping) or t is JsNamespace:
        members = v.members if t is JsNamespace else v
        parts = []
        for k in own_keys(members) if t is not JsNamespace else []:
            text = _nested(get_member(members, k), k, indent, inner, depth, room, path)
            if text is not None:
                key = _quote(k)
                _use(room, len(key) + step + 2)
                parts.append(key + (": " if indent else ":") + text)
        if not parts:
            return "{}"
        _use(room, 2 + len(prefix) + 1 if indent else 2)
        if indent:
            return "{\n" + inner + (",\n" + inner).join(parts) + "\n" + prefix + "}"
        return "{" + ",".join(parts) + "}"
    return None


def _json_stringify(
    v: Any = UNDEFINED, replacer: Any = UNDEFINED, space: Any = UNDEFINED, *_: Any
) -> Any:
    if not is_nullish(replacer):
        raise Unsupported("flowctx does not reproduce JSON.stringify with a replacer")
    indent = ""
    if is_number(space):
        indent = " " * int(min(max(to_int(space), 0), 10))
    elif type(space) is str:
        indent = space[:10]
    # the room counts what is built (a separator or key overcounted by at most what it adds
    # itself, so twice the limit never refuses a text within it); the text is checked exactly
    # at the end, as before
    text = _stringify(v, indent, "", 0, [2 * MAX_STRING_LENGTH])
    return UNDEFINED if text is None else check_length(text)


def _from_json(v: Any) -> Any:
    if type(v) is int:
        return number(v)
    if type(v) is list:
        return [_from_json(x) for x in v]
    if type(v) is dict:
        out = {k: _from_json(x) for k, x in v.items()}
        if not DROPPED_KEYS.isdisjoint(out):
            keep_all_keys(out)  # JSON.parse keeps '__proto__', 'constructor'... as own keys
        return out
    return v


def _internalize(holder: Any, name: str, reviver: JsFunction) -> Any:
    """ECMAScript's InternalizeJSONProperty: the value's elements or own keys first, each
    replaced by what the reviver returns for it (undefined deletes it), then the value."""
    value = get_member(holder, name)
    if type(value) is list:
        for i in range(len(value)):
            revived = _internalize(value, str(i), reviver)
            value[i] = HOLE if revived is UNDEFINED else revived
    elif type(value) is dict:
        for key in own_keys(value):
            revived = _internalize(value, key, reviver)
            if revived is UNDEFINED:
                value.pop(key, None)
            else:
                value[key] = revived
    return reviver.fn(name, value)


def _json_parse(text: Any = UNDEFINED, reviver: Any = UNDEFINED, *_: Any) -> Any:
    s = to_string(text)
    charge(ELEMENT * len(s) // 2 + 1)  # an element may take two characters, and is rebuilt
    try:
        parsed = _from_json(
            json.loads(
                s.strip(" \t\n\r"),
                parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)),
                parse_int=lambda n: -0.0 if n == "-0" else int(n),  # JSON.parse('-0') is -0
            )
        )
    except ValueError:
        message, anonymous = json_error(s)
        raise JsError(message, anonymous=anonymous) from None
    except RecursionError:
        parsed = parse_deep(s)  # nested past Python's json: V8's parser reads any depth
    if type(reviver) is not JsFunction:
        return parsed  # not callable: no reviver
    if reviver.ident or reviver.members is not None:
        raise Unsupported("flowctx does not reproduce JSON.parse with a built-in reviver")
    return _internalize({"": parsed}, "", reviver)


def _string_from_char_code(*codes: Any) -> str:
    return from_units("".join(chr(int(to_int(c)) % 65536 if _is_finite(c) else 0) for c in codes))


def _string_from_code_point(*codes: Any) -> str:
    out = []
    for c in codes:
        n = to_number(c)
        if n != n or not float(n).is_integer() or not 0 <= n <= 0x10FFFF:
            raise JsError(f"Invalid code point {number_to_string(n)}")
        out.append(chr(int(n)))
    return from_units("".join(out))


def _array_of(*items: Any) -> list[Any]:
    return list(items)


def _array_from(src: Any = UNDEFINED, fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    if fn is not UNDEFINED:
        _call(fn, "Array.from")  # the mapping function is checked first
    if is_nullish(src):
        shown = "object null" if src is None else "undefined"
        raise JsError(f"{shown} is not iterable (cannot read property Symbol(Symbol.iterator))")
    chained = (CHANGED.table or type(src) is JsCreated) and symkeys.chained(src)
    method = symkeys.get(src, symkeys.ITERATOR) if chained else UNDEFINED
    if type(src) is str:
        charge(len(src))
        items: list[Any] = list(src)
    elif chained and method is not UNDEFINED and method is not None:
        if type(method) is not JsFunction:
            raise JsError(
                "%Array%.from requires that the property of the first argument, "
                "items[Symbol.iterator], when exists, be a function"
            )
        items = symkeys.run_iterator(method, src)  # the iterator its chain gives it
    elif chained:  # none along its chain: an array-like
        length = to_int(get_member(src, "length"))
        _array_from_length(length)
        charge(ELEMENT * int(max(length, 0)))
        items = [get_member(src, str(i)) for i in range(int(max(length, 0)))]
    elif type(src) is list and CHANGED.symbols and (by_symbol := _by_symbol(src)) is not None:
        items = by_symbol  # an array with its own Symbol.iterator
    elif type(src) is list or type(src) is tuple:
        charge(ELEMENT * len(src))
        items = [js_value(x) for x in src]
    elif isinstance(src, JsObject) and (got := _iterated(src)) is not None:
        charge(ELEMENT * len(got))
        items = got
    elif (by_symbol := _by_symbol(src)) is not None:
        items = by_symbol  # an object with its own Symbol.iterator
    elif isinstance(src, Mapping) or type(src) is JsFunction:  # array-likes (a function's
        length = to_int(get_member(src, "length"))  # length is its parameters')
        _array_from_length(length)
        charge(ELEMENT * int(max(length, 0)))
        items = [get_member(src, str(i)) for i in range(int(max(length, 0)))]
    else:
        items = []
    if fn is UNDEFINED:
        return items
    call = _call(fn, "Array.from")
    return [call(x, i) for i, x in enumerate(items)]


def _iterated(src: JsObject) -> list[Any] | None:
    if type(src) is JsProxy:  # its Symbol.iterator read once, Array.from's error if uncallable
        return src.js_iter(array_from=True)
    return src.js_iter()


def _by_symbol(src: Any) -> list[Any] | None:
    if type(src) is list and symkeys.iterate_method(src) in (UNDEFINED, None):
        return None  # an array's own undefined Symbol.iterator: Array.from reads it by length
    if (
        symkeys.iterate_method(src) not in (UNDEFINED, None)
        and type(symkeys.iterate_method(src)) is not JsFunction
    ):
        raise JsError(
            "%Array%.from requires that the property of the first argument, "
            "items[Symbol.iterator], when exists, be a function"
        )
    return symkeys.iterate(src)


def _is_array(x: Any = UNDEFINED, *_: Any) -> bool:
    if type(x) is JsProxy:
        return x.is_array()  # its target's
    # Array.prototype is itself an array exotic object (ECMAScript's %Array.prototype%)
    return type(x) is list or type(x) is tuple or x is ARRAY_PROTOTYPE


def _uri(fn: Callable[[str], str], name: str) -> Callable[..., str]:
    def call(x: Any = UNDEFINED, *_: Any) -> str:
        s = to_string(x)
        charge(ELEMENT * len(s))
        if any("\ud800" <= c <= "\udfff" for c in s):
            raise JsError("URI malformed")
        if name.startswith("encode") and len(s) > MAX_STRING_LENGTH:
            raise too_long(len(s))  # encoding never shortens; each pass may triple it
        try:
            return check_length(fn(s))
        except UnicodeDecodeError:
            raise JsError("URI malformed") from None

    return call


def _decode(s: str, reserved: str) -> str:
    if "%" in s:
        # a % not followed by two hex digits is malformed in JavaScript
        i = s.find("%")
        while i >= 0:
            if (
                i + 2 >= len(s) + 0
                or not all(c in "0123456789abcdefABCDEF" for c in s[i + 1 : i + 3])
                or len(s[i + 1 : i + 3]) < 2
            ):
                raise JsError("URI malformed")
            i = s.find("%", i + 3)
    out = urllib.parse.unquote(s, errors="strict")
    if reserved:
        raise Unsupported("flowctx does not reproduce decodeURI")
    return out


def _fn(name: str, fn: Callable[..., Any], members: Mapping[str, Any] | None = None) -> JsFunction:
    return JsFunction(name, fn, members)


_NUMBER_MEMBERS: Final = {
    "isInteger": _fn("isInteger", _number_is_integer),
    "isSafeInteger": _fn("isSafeInteger", _number_is_safe_integer),
    "isNaN": _fn("isNaN", _number_is_nan),
    "isFinite": _fn("isFinite", _number_is_finite),
    "parseFloat": _fn("parseFloat", _parse_float),
    "parseInt": _fn("parseInt", _parse_int),
    "MAX_SAFE_INTEGER": 2**53 - 1,
    "MIN_SAFE_INTEGER": -(2**53 - 1),
    "EPSILON": 2.0**-52,
    "MAX_VALUE": 1.7976931348623157e308,
    "MIN_VALUE": 5e-324,
    "POSITIVE_INFINITY": math.inf,
    "NEGATIVE_INFINITY": -math.inf,
    "NaN": math.nan,
}


def _number_call(*args: Any) -> int | float:
    return to_number(args[0]) if args else 0


def _string_call(*args: Any) -> str:
    if args and symbols.is_symbol(args[0]):
        return str(args[0].shown())  # String() alone describes a symbol
    return to_string(args[0]) if args else ""


def _boolean_call(*args: Any) -> bool:
    return truthy(args[0]) if args else False


# The globals an expression may reach (the scope's own keys shadow them, as parameters of
# the function MemberJunction builds do).
GLOBALS: Final[dict[str, Any]] = {
    "undefined": UNDEFINED,
    "NaN": math.nan,
    "Infinity": math.inf,
    "Math": MATH,
    "JSON": JsNamespace(
        "JSON",
        {"stringify": _fn("stringify", _json_stringify), "parse": _fn("parse", _json_parse)},
    ),
    "Number": _fn("Number", _number_call, _NUMBER_MEMBERS),
    "String": _fn(
        "String",
        _string_call,
        {
            "fromCharCode": _fn("fromCharCode", _string_from_char_code),
            "fromCodePoint": _fn("fromCodePoint", _string_from_code_point),
            "raw": _fn("raw", _string_raw),
        },
    ),
    "Boolean": _fn("Boolean", _boolean_call),
    "Array": _fn(
        "Array",
        constructors.new_array,
        {
            "isArray": _fn("isArray", _is_array),
            "of": _fn("of", _array_of),
            "from": _fn("from", _array_from),
        },
    ),
    "Object": _fn(
        "Object",
        constructors.new_object,
        {
            "keys": _fn("keys", _object_keys),
            "values": _fn("values", _object_values),
            "entries": _fn("entries", _object_entries),
            "hasOwn": _fn("hasOwn", _object_has_own),
            "is": _fn("is", _object_is),
            "fromEntries": _fn("fromEntries", _object_from_entries),
            "assign": _fn("assign", _object_assign),
            "freeze": _fn("freeze", _object_freeze),
            "seal": _fn("seal", _object_seal),
            "isFrozen": _fn("isFrozen", _object_is_frozen),
            "isSealed": _fn("isSealed", _object_is_sealed),
            "preventExtensions": _fn("preventExtensions", _object_prevent_extensions),
            "isExtensible": _fn("isExtensible", _object_is_extensible),
            "getOwnPropertyDescriptor": _fn("getOwnPropertyDescriptor", _object_own_descriptor),
            "getOwnPropertyNames": _fn("getOwnPropertyNames", _object_own_names),
            "getPrototypeOf": _fn("getPrototypeOf", _object_get_prototype_of),
            "create": _fn("create", _object_create),
        },
    ),
    "Date": _fn(
        "Date",
        dates.call_date,
        {
            "now": _fn("now", dates.date_now),
            "parse": _fn("parse", dates.date_parse),
            "UTC": _fn("UTC", dates.date_utc),
        },
    ),
    "RegExp": _fn("RegExp", regexp.call_regexp),
    # one function object each, as in JavaScript: parseInt === Number.parseInt
    "parseInt": _NUMBER_MEMBERS["parseInt"],
    "parseFloat": _NUMBER_MEMBERS["parseFloat"],
    "isNaN": _fn("isNaN", _is_nan),
    "isFinite": _fn("isFinite", _is_finite),
    "encodeURIComponent": _fn(
        "encodeURIComponent",
        _uri(lambda s: urllib.parse.quote(s, safe="-_.!~*'()"), "encodeURIComponent"),
    ),
    "encodeURI": _fn(
        "encodeURI",
        _uri(lambda s: urllib.parse.quote(s, safe="-_.!~*'();/?:@&=+$,#"), "encodeURI"),
    ),
    "decodeURIComponent": _fn("decodeURIComponent", _uri(lambda s: _decode(s, ""), "d")),
}


def _global_to_string() -> JsFunction:
    """``toString``: the global object's, Object.prototype's (``toString.call(x)`` gives x's
    tag; called plainly, ``this`` is undefined in MemberJunction's strict function)."""
    fn = JsFunction(
        "toString", lambda *_: "[object Undefined]", arity=0, ident="Object.prototype.toString"
    )
    fn.method, fn.receiver = (lambda this, *_: object_to_string(this)), UNDEFINED
    return fn


GLOBALS["toString"] = _global_to_string()
# The global object inherits Object.prototype: its other methods are names of the global
# scope too (``valueOf``, ``hasOwnProperty('x')``), called with ``this`` undefined
for _name in (
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
):
    GLOBALS[_name] = get_member({}, _name)
LENT["globals"] = GLOBALS
LENT["object_prototype"] = OBJECT_PROTOTYPE


def _prototype_sample(kind: str) -> Any:
    """A value of ``kind``: a built-in prototype's methods are the ones its values read."""
    if kind == "Date":
        return dates.JsDate(0)
    if kind == "RegExp":
        return regexp.JsRegExp("a", "")
    if kind in ("Map", "Set"):
        return constructors.new_set() if kind == "Set" else constructors.new_map()
    if kind in ("WeakMap", "WeakSet"):
        return weak.JsWeakCollection(kind == "WeakSet")
    if kind == "WeakRef":
        return weak.construct_ref({})
    if kind == "Promise":
        return promise.JsPromise()
    if kind == "Symbol":
        return symbols.JsSymbol(UNDEFINED)
    if kind == "BigInt":
        return bigint.JsBigInt(0)
    if kind.endswith("Error"):
        return constructors.JsErrorObject(kind)
    return {"Array": [], "String": "", "Number": 0, "Boolean": False}[kind]


LENT["prototype_sample"] = _prototype_sample

#: what ``new`` does with each constructor global, by the function object's id
CONSTRUCTORS: Final = constructors.register(GLOBALS)
bigint.register(GLOBALS)
reflect.register(GLOBALS, CONSTRUCTORS)
clone.register(GLOBALS)
symbols.register(GLOBALS)
promise.register(GLOBALS, CONSTRUCTORS)
intl.register(GLOBALS, CONSTRUCTORS)
atomics.register(GLOBALS)
host.register(GLOBALS, CONSTRUCTORS)
proxies.register(GLOBALS, CONSTRUCTORS)
extras.register(GLOBALS, NUMBER_METHODS)
LENT["quote"] = _quote


def _constructor_of(fn: JsFunction) -> Callable[..., Any] | None:
    """What ``new fn(...)`` runs, or None where ``fn`` is no constructor."""
    make = CONSTRUCTORS.get(id(fn))
    if make is None or (GLOBALS.get(fn.name) is not fn and id(fn) not in intl.CONSTRUCTOR_IDS):
        return None
    return make  # type: ignore[no-any-return]


LENT["constructor_of"] = _constructor_of


def _plain_function_construct(fn: JsFunction) -> Callable[..., Any]:
    """``new`` on one of node's globals written as a plain function (atob, btoa): the
    function runs, and, as it returns a primitive, ``new`` gives the object it made."""

    def construct(*args: Any) -> Any:
        fn.fn(*args)
        return {}

    return construct


for _name in ("atob", "btoa"):
    CONSTRUCTORS[id(GLOBALS[_name])] = _plain_function_construct(GLOBALS[_name])

# Globals of node through which the published evaluator runs code or reaches the host; an
# expression that names one is refused, never evaluated. (``require``, ``module``, ``window``,
# ``__dirname``... are not here: a function made by ``new Function`` sees only the global scope,
# where node has none of them, so the engine answers "require is not defined".)
EXECUTING_GLOBALS: Final = frozenset(
    {
        "globalThis", "global", "process", "Function", "eval", "import", "setTimeout",
        "setInterval", "setImmediate", "queueMicrotask", "clearTimeout", "clearInterval",
        "clearImmediate", "fetch", "WebAssembly", "console",
        "performance", "crypto", "FinalizationRegistry",
    }
)  # fmt: skip
# Why a host global is refused, where more can be said than that it reaches code or the host.
HOST_REASONS: Final[dict[str, str]] = {
    "console": "'console' writes to the host's output (console.log, console.error...)",
    "process": "'process' is the host's process: its environment, exit, its files",
    "globalThis": "'globalThis' reaches every global, Function and process among them",
    "global": "'global' reaches every global, Function and process among them",
    "fetch": "'fetch' reaches the network",
    "setTimeout": "'setTimeout' runs code after the condition has returned",
    "setInterval": "'setInterval' runs code after the condition has returned",
    "setImmediate": "'setImmediate' runs code after the condition has returned",
    "queueMicrotask": "'queueMicrotask' runs code after the condition has returned",
}
# Host globals whose call or construction is predicted from its arguments alone: objects, which
# the engine finds no function or constructor (``hostcalls``).
HOST_CALLEES: Final = frozenset(
    {"globalThis", "global", "process", "console", "performance", "crypto", "WebAssembly"}
)  # fmt: skip
# Names of node flowctx does not reproduce, and why (refused, never guessed).
NOT_REPRODUCED_WHY: Final[dict[str, str]] = {
    **host.WHY,
}
# Other globals node has: valid, harmless, but not reproduced by flowctx.
OTHER_GLOBALS: Final = frozenset(
    {
        "AggregateError", "ArrayBuffer", "Uint8Array",
        "Int8Array", "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float32Array",
        "Float64Array", "Uint8ClampedArray", "BigUint64Array", "BigInt64Array", "DataView",
        "URL", "URLSearchParams", "DOMException", "AbortController", "AbortSignal", "Event",
        "EventTarget", "TextEncoder", "TextDecoder", "Blob", "File",
        "FormData", "Headers", "Request", "Response", "BroadcastChannel", "MessageChannel",
        "MessagePort", "MessageEvent", "CustomEvent", "Crypto", "CryptoKey", "SubtleCrypto",
        *host.STREAMS, *host.PERFORMANCE,
    }
    - host.NAMES
)  # fmt: skip
# typeof of node 20's other globals, as measured inside MemberJunction's function (strict mode,
# an ES module's process): typeof reads only a binding's type, so it is predicted, never run.
HOST_TYPES: Final[dict[str, str]] = {
    "AbortController": "function", "AbortSignal": "function", "AggregateError": "function",
    "ArrayBuffer": "function", "AsyncFunction": "undefined", "Atomics": "object",
    "BigInt": "function", "BigInt64Array": "function", "BigUint64Array": "function",
    "Blob": "function", "BroadcastChannel": "function", "Buffer": "function",
    "Crypto": "function", "CryptoKey": "function", "CustomEvent": "function",
    "DOMException": "function", "DataView": "function", "Error": "function",
    "EvalError": "function", "Event": "function", "EventTarget": "function", "File": "function",
    "FinalizationRegistry": "function", "Float32Array": "function", "Float64Array": "function",
    "FormData": "function", "Function": "function", "GeneratorFunction": "undefined",
    "Headers": "function", "Int16Array": "function", "Int32Array": "function",
    "Int8Array": "function", "Intl": "object", "Map": "function", "MessageChannel": "function",
    "MessageEvent": "function", "MessagePort": "function", "Promise": "function",
    "Proxy": "function", "RangeError": "function", "ReferenceError": "function",
    "Reflect": "object", "RegExp": "function", "Request": "function", "Response": "function",
    "Set": "function", "SharedArrayBuffer": "function", "SubtleCrypto": "function",
    "Symbol": "function", "SyntaxError": "function", "TextDecoder": "function",
    "TextEncoder": "function", "TypeError": "function", "URIError": "function",
    "URL": "function", "URLSearchParams": "function", "Uint16Array": "function",
    "Uint32Array": "function", "Uint8Array": "function", "Uint8ClampedArray": "function",
    "WeakMap": "function", "WeakRef": "function", "WeakSet": "function",
    "WebAssembly": "object", "Worker": "undefined", "__dirname": "undefined",
    "__filename": "undefined", "arguments": "object", "atob": "function", "btoa": "function",
    "clearImmediate": "function", "clearInterval": "function", "clearTimeout": "function",
    "console": "object", "crypto": "object", "decodeURI": "function", "document": "undefined",
    "escape": "function", "eval": "function", "exports": "undefined", "fetch": "function",
    "global": "object", "globalThis": "object", "module": "undefined", "performance": "object",
    "process": "object", "queueMicrotask": "function", "require": "undefined",
    "self": "undefined", "setImmediate": "function", "setInterval": "function",
    "setTimeout": "function", "structuredClone": "function", "unescape": "function",
    "window": "undefined",
    **{name: "function" for name in (*host.STREAMS, *host.PERFORMANCE)},
}  # fmt: skip

# Namespaces and the members completion offers on them.
NAMESPACES: Final[dict[str, frozenset[str]]] = {
    name: frozenset(k for k in value.members if not k.isupper() and k[0].islower())
    for name, value in GLOBALS.items()
    if isinstance(value, (JsFunction, JsNamespace)) and value.members
}

# What completion offers: the methods and globals MemberJunction documents (the SAFE_METHODS list
# of @memberjunction/global 5.51.3), not every built-in the evaluator reproduces.
COMPLETION_STRING_METHODS: Final = (
    "includes", "startsWith", "endsWith", "indexOf", "lastIndexOf", "toLowerCase",
    "toUpperCase", "trim", "trimStart", "trimEnd", "split", "slice", "replace",
)  # fmt: skip
COMPLETION_ARRAY_METHODS: Final = (
    "includes", "indexOf", "lastIndexOf", "slice", "join", "some", "every", "filter", "find",
    "map", "reduce",
)  # fmt: skip
COMPLETION_NAMESPACES: Final[dict[str, frozenset[str]]] = {
    "Math": frozenset({"abs", "max", "min", "round", "floor", "ceil"}),
    "Array": frozenset({"isArray"}),
    "Object": frozenset({"keys", "values", "entries"}),
    "JSON": frozenset({"stringify"}),
    "Number": frozenset({"isInteger"}),
    "Date": frozenset({"now"}),
}
COMPLETION_GLOBALS: Final = (
    "Number", "String", "Boolean", "parseInt", "parseFloat", "isNaN", "isFinite", "undefined",
)  # fmt: skip


def _set_arities() -> None:
    for name, value in GLOBALS.items():
        if isinstance(value, JsFunction):
            value.arity = BUILTIN_LENGTHS.get(name)
        if isinstance(value, JsFunction | JsNamespace) and value.members:
            for member, fn in value.members.items():
                if isinstance(fn, JsFunction):
                    # a module that registered a length of its own keeps it (host.register)
                    fn.arity = BUILTIN_LENGTHS.get(f"{name}.{member}", fn.arity)


_set_arities()
regexp.register()


def _array_from_length(length: float) -> None:
    """Array.from of an array-like: its ArrayCreate throws past 2**32 - 1; below that node
    builds what flowctx does not past its bound."""
    if length >= 2**32:
        raise JsError("Invalid array length")
    if length > MAX_STRING_LENGTH:
        raise too_long_array("node builds one")
