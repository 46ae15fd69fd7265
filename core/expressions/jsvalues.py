"""JavaScript value semantics over JSON data, for the MemberJunction (``mj``) dialect.

Values are plain JSON data (dict, list, str, int, float, bool, None) plus the ``UNDEFINED``
sentinel and ``JsFunction`` (methods and safe globals). Nothing here ever calls ``getattr`` on
a value: member access reads dict keys, list indexes, ``length`` and a fixed table of
non-mutating methods, so an expression can only ever reach plain data.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Final

from core.expressions.sandbox import SandboxError


class JsError(SandboxError):
    """An error the JavaScript runtime would throw (TypeError, ReferenceError...).

    Messages never contain values from the scope (they may be secrets), only names and keys
    written in the expression itself.
    """


class _Undefined:
    """JavaScript ``undefined``: falsy, distinct from ``None`` (null)."""

    __slots__ = ()
    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        # Pickling and deep copies must keep the singleton identity.
        return "UNDEFINED"


UNDEFINED: Final = _Undefined()


class JsFunction:
    """A callable an expression may invoke: a bound method, a safe global or an arrow function."""

    __slots__ = ("fn", "name")

    def __init__(self, name: str, fn: Callable[..., Any]) -> None:
        self.name = name
        self.fn = fn

    def __repr__(self) -> str:
        return f"function {self.name}"


# Keys that lead from data to the JavaScript object model; refused however they are spelled.
FORBIDDEN_KEYS: Final = frozenset({"constructor", "prototype", "__proto__"})
MAX_SAFE_INTEGER: Final = 2**53
MAX_STRING_LENGTH: Final = 100_000


def forbidden_key(key: str) -> bool:
    return key in FORBIDDEN_KEYS or "__" in key


# --- conversions ---------------------------------------------------------------------------


def is_number(v: Any) -> bool:
    t = type(v)
    return t is int or t is float


def is_nullish(v: Any) -> bool:
    return v is None or v is UNDEFINED


def truthy(v: Any) -> bool:
    """JavaScript truthiness: '' 0 NaN null undefined false are false; [] and {} are true."""
    if v is True:
        return True
    if v is False or v is None or v is UNDEFINED:
        return False
    t = type(v)
    if t is int:
        return v != 0
    if t is float:
        return v != 0.0 and v == v
    if t is str:
        return len(v) > 0
    return True


def number(r: int | float) -> int | float:
    """Keep integer results exact while JavaScript would; beyond 2**53 it has only doubles."""
    if type(r) is int and not -MAX_SAFE_INTEGER <= r <= MAX_SAFE_INTEGER:
        try:
            return float(r)
        except OverflowError:
            return math.inf if r > 0 else -math.inf
    return r


_NUMERIC = re.compile(r"[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)")
_WS = " \t\n\r\v\f\u00a0\ufeff\u2028\u2029"


def to_number(v: Any) -> int | float:
    if v is True:
        return 1
    if v is False or v is None:
        return 0
    t = type(v)
    if t is int or t is float:
        return v
    if v is UNDEFINED:
        return math.nan
    if t is str:
        s = v.strip(_WS)
        if not s:
            return 0
        if _NUMERIC.fullmatch(s):
            f = float(s)
            return number(int(f)) if f.is_integer() and "e" not in s.lower() else f
        low = s.lower()
        if low[:2] in ("0x", "0o", "0b") and s[:2] == low[:2]:
            try:
                return number(int(s, 0))
            except ValueError:
                return math.nan
        if s in ("Infinity", "+Infinity"):
            return math.inf
        if s == "-Infinity":
            return -math.inf
        return math.nan
    if t is list or t is tuple:
        return to_number(to_string(v))
    return math.nan


def number_to_string(n: int | float) -> str:
    if type(n) is int:
        return str(n) if abs(n) < 10**21 else number_to_string(float(n))
    if n != n:
        return "NaN"
    if n in (math.inf, -math.inf):
        return "Infinity" if n > 0 else "-Infinity"
    if n.is_integer() and abs(n) < 1e21:
        return str(int(n))
    text = repr(n)
    if "e" in text:
        # Python writes 1e-07 / 1e+21; JavaScript writes 1e-7 / 1e+21.
        mant, exp = text.split("e")
        sign = "-" if exp[0] == "-" else "+"
        return f"{mant}e{sign}{exp.lstrip('+-').lstrip('0') or '0'}"
    return text


def to_string(v: Any) -> str:
    t = type(v)
    if t is str:
        return v
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if t is int or t is float:
        return number_to_string(v)
    if t is list or t is tuple:
        return ",".join("" if is_nullish(x) else to_string(x) for x in v)
    if isinstance(v, JsFunction):
        return f"function {v.name}() {{ [native code] }}"
    if isinstance(v, Mapping):
        return "[object Object]"
    return "[object Object]"


def to_primitive(v: Any) -> Any:
    t = type(v)
    if t is list or t is tuple or isinstance(v, (Mapping, JsFunction)):
        return to_string(v)
    return v


def property_key(key: Any) -> str:
    return key if type(key) is str else to_string(key)


def typeof(v: Any) -> str:
    if v is UNDEFINED:
        return "undefined"
    if v is True or v is False:
        return "boolean"
    t = type(v)
    if t is str:
        return "string"
    if t is int or t is float:
        return "number"
    if isinstance(v, JsFunction):
        return "function"
    return "object"


# --- operators -----------------------------------------------------------------------------


def strict_eq(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if ta is tb:
        if ta is list or ta is dict or ta is tuple or ta is JsFunction:
            return a is b
        return bool(a == b)
    # int and float are both JavaScript numbers; bool is not a number (true === 1 is false).
    if (ta is int or ta is float) and (tb is int or tb is float):
        return bool(a == b)
    return False


def strict_ne(a: Any, b: Any) -> bool:
    return not strict_eq(a, b)


def loose_eq(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if ta is tb or (is_number(a) and is_number(b)):
        return strict_eq(a, b)
    a_null, b_null = is_nullish(a), is_nullish(b)
    if a_null or b_null:
        return a_null and b_null
    if ta is bool:
        return loose_eq(int(a), b)
    if tb is bool:
        return loose_eq(a, int(b))
    if is_number(a) and tb is str:
        return bool(a == to_number(b))
    if ta is str and is_number(b):
        return bool(to_number(a) == b)
    a_obj = not (ta is str or is_number(a))
    b_obj = not (tb is str or is_number(b))
    if a_obj and not b_obj:
        return loose_eq(to_primitive(a), b)
    if b_obj and not a_obj:
        return loose_eq(a, to_primitive(b))
    return False


def loose_ne(a: Any, b: Any) -> bool:
    return not loose_eq(a, b)


def _relational(a: Any, b: Any) -> tuple[Any, Any] | None:
    """Operands ready for a Python comparison, or None when JavaScript answers false (NaN)."""
    a, b = to_primitive(a), to_primitive(b)
    if type(a) is str and type(b) is str:
        return a, b
    x, y = to_number(a), to_number(b)
    if x != x or y != y:
        return None
    return x, y


def js_lt(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return a < b
    pair = _relational(a, b)
    return pair is not None and pair[0] < pair[1]


def js_le(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return a <= b
    pair = _relational(a, b)
    return pair is not None and pair[0] <= pair[1]


def js_gt(a: Any, b: Any) -> bool:
    return js_lt(b, a)


def js_ge(a: Any, b: Any) -> bool:
    return js_le(b, a)


def _check_length(s: str) -> str:
    if len(s) > MAX_STRING_LENGTH:
        raise JsError(f"String result too long (over {MAX_STRING_LENGTH} characters)")
    return s


def js_add(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        return number(a + b)
    if ta is str and tb is str:
        return _check_length(a + b)
    a, b = to_primitive(a), to_primitive(b)
    if type(a) is str or type(b) is str:
        return _check_length(to_string(a) + to_string(b))
    return number(to_number(a) + to_number(b))


def js_sub(a: Any, b: Any) -> int | float:
    return number(to_number(a) - to_number(b))


def js_mul(a: Any, b: Any) -> int | float:
    x, y = to_number(a), to_number(b)
    if type(x) is int and type(y) is int:
        return number(x * y)
    return float(x) * float(y)


def js_div(a: Any, b: Any) -> float:
    x, y = float(to_number(a)), float(to_number(b))
    if y == 0.0:
        if x != x or x == 0.0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    return x / y


def js_mod(a: Any, b: Any) -> int | float:
    x, y = to_number(a), to_number(b)
    if type(x) is int and type(y) is int and y != 0:
        return int(math.fmod(x, y)) if abs(x) < MAX_SAFE_INTEGER else math.fmod(x, y)
    try:
        return math.fmod(x, y)
    except ValueError:  # fmod(inf, y) and fmod(x, 0) are NaN in JavaScript
        return math.nan


def js_neg(a: Any) -> int | float:
    return number(-to_number(a))


def js_pos(a: Any) -> int | float:
    return to_number(a)


def js_not(a: Any) -> bool:
    return not truthy(a)


def js_in(key: Any, obj: Any) -> bool:
    if isinstance(obj, Mapping):
        return property_key(key) in obj
    if type(obj) is list or type(obj) is tuple:
        k = property_key(key)
        if k == "length":
            return True
        index = _array_index(k)
        return index is not None and index < len(obj)
    raise JsError(f"Cannot use 'in' operator to search for a key in {typeof(obj)} {_kind(obj)}")


def _kind(v: Any) -> str:
    return "null" if v is None else ("undefined" if v is UNDEFINED else "value")


# --- member access -------------------------------------------------------------------------


def _array_index(key: str) -> int | None:
    if key.isdigit() and (key == "0" or key[0] != "0") and key.isascii():
        return int(key)
    return None


def utf16_length(s: str) -> int:
    if s.isascii():
        return len(s)
    return len(s.encode("utf-16-le")) // 2


def get_member(obj: Any, key: Any) -> Any:
    """``obj[key]`` with JavaScript semantics on JSON data; the key is already vetted."""
    if type(obj) is dict:
        k = key if type(key) is str else property_key(key)
        value = obj.get(k, UNDEFINED)
        if value is UNDEFINED and type(key) is not str and key in obj:
            value = obj[key]  # YAML may give integer keys; JavaScript would see them as strings
        return value
    k = key if type(key) is str else property_key(key)
    t = type(obj)
    if t is str:
        if k == "length":
            return utf16_length(obj)
        index = _array_index(k)
        if index is not None:
            return obj[index] if index < len(obj) else UNDEFINED
        method = STRING_METHODS.get(k)
        return JsFunction(k, partial(method, obj)) if method is not None else UNDEFINED
    if t is list or t is tuple:
        if k == "length":
            return len(obj)
        index = _array_index(k)
        if index is not None:
            return obj[index] if index < len(obj) else UNDEFINED
        method = ARRAY_METHODS.get(k)
        return JsFunction(k, partial(method, obj)) if method is not None else UNDEFINED
    if obj is None or obj is UNDEFINED:
        raise JsError(
            f"Cannot read properties of {'null' if obj is None else 'undefined'} (reading '{k}')"
        )
    if isinstance(obj, Mapping):
        return obj.get(k, UNDEFINED)
    # Numbers, booleans, functions and any non-JSON object: no readable properties here.
    return UNDEFINED


# --- string methods ------------------------------------------------------------------------


def _int_arg(v: Any, default: int) -> int:
    if v is UNDEFINED:
        return default
    n = to_number(v)
    if n != n:
        return 0
    if n in (math.inf, -math.inf):
        return 2**31 if n > 0 else -(2**31)
    return int(n)


def _str_includes(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED) -> bool:
    return to_string(search) in s[max(_int_arg(position, 0), 0) :]


def _str_starts(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED) -> bool:
    return s.startswith(to_string(search), max(_int_arg(position, 0), 0))


def _str_ends(s: str, search: Any = UNDEFINED, end: Any = UNDEFINED) -> bool:
    return s[: max(_int_arg(end, len(s)), 0)].endswith(to_string(search))


def _str_index_of(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED) -> int:
    return s.find(to_string(search), max(_int_arg(position, 0), 0))


def _str_lower(s: str, *_: Any) -> str:
    return s.lower()


def _str_upper(s: str, *_: Any) -> str:
    return s.upper()


def _str_trim(s: str, *_: Any) -> str:
    return s.strip(_WS)


def _str_split(s: str, sep: Any = UNDEFINED, limit: Any = UNDEFINED) -> list[str]:
    if sep is UNDEFINED:
        parts = [s]
    else:
        sep_s = to_string(sep)
        parts = list(s) if sep_s == "" else s.split(sep_s)
    if limit is not UNDEFINED:
        parts = parts[: max(_int_arg(limit, len(parts)), 0)]
    return parts


def _slice_bounds(length: int, start: Any, end: Any) -> slice:
    return slice(_int_arg(start, 0), _int_arg(end, length))


def _str_slice(s: str, start: Any = UNDEFINED, end: Any = UNDEFINED) -> str:
    return s[_slice_bounds(len(s), start, end)]


def _str_replace(s: str, pattern: Any = UNDEFINED, replacement: Any = UNDEFINED) -> str:
    if isinstance(pattern, JsFunction) or isinstance(replacement, JsFunction):
        raise JsError("replace() takes strings here (no functions, no regular expressions)")
    pat, rep = to_string(pattern), to_string(replacement)
    at = s.find(pat)
    if at < 0:
        return s
    # Only the substitutions that need no regular expression: $$ and $&.
    rep = rep.replace("$$", "\0").replace("$&", pat).replace("\0", "$")
    return _check_length(s[:at] + rep + s[at + len(pat) :])


STRING_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "includes": _str_includes,
    "startsWith": _str_starts,
    "endsWith": _str_ends,
    "indexOf": _str_index_of,
    "toLowerCase": _str_lower,
    "toUpperCase": _str_upper,
    "trim": _str_trim,
    "split": _str_split,
    "slice": _str_slice,
    "replace": _str_replace,
}


# --- array methods -------------------------------------------------------------------------


def same_value_zero(a: Any, b: Any) -> bool:
    if type(a) is float and type(b) is float and a != a and b != b:
        return True
    return strict_eq(a, b)


def _arr_includes(arr: list[Any], search: Any = UNDEFINED, *_: Any) -> bool:
    return any(same_value_zero(x, search) for x in arr)


def _arr_index_of(arr: list[Any], search: Any = UNDEFINED, *_: Any) -> int:
    for i, x in enumerate(arr):
        if strict_eq(x, search):
            return i
    return -1


def _arr_slice(arr: list[Any], start: Any = UNDEFINED, end: Any = UNDEFINED) -> list[Any]:
    return list(arr[_slice_bounds(len(arr), start, end)])


def _arr_join(arr: list[Any], sep: Any = UNDEFINED) -> str:
    sep_s = "," if sep is UNDEFINED else to_string(sep)
    return _check_length(sep_s.join("" if is_nullish(x) else to_string(x) for x in arr))


def _callback(fn: Any, method: str) -> Callable[..., Any]:
    if not isinstance(fn, JsFunction):
        raise JsError(f"{typeof(fn)} is not a function (argument of {method})")
    return fn.fn


def _arr_some(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> bool:
    call = _callback(fn, "some")
    return any(truthy(call(x, i, arr)) for i, x in enumerate(arr))


def _arr_every(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> bool:
    call = _callback(fn, "every")
    return all(truthy(call(x, i, arr)) for i, x in enumerate(arr))


def _arr_filter(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    call = _callback(fn, "filter")
    return [x for i, x in enumerate(arr) if truthy(call(x, i, arr))]


def _arr_find(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> Any:
    call = _callback(fn, "find")
    for i, x in enumerate(arr):
        if truthy(call(x, i, arr)):
            return x
    return UNDEFINED


def _arr_map(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    call = _callback(fn, "map")
    return [call(x, i, arr) for i, x in enumerate(arr)]


ARRAY_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "includes": _arr_includes,
    "indexOf": _arr_index_of,
    "slice": _arr_slice,
    "join": _arr_join,
    "some": _arr_some,
    "every": _arr_every,
    "filter": _arr_filter,
    "find": _arr_find,
    "map": _arr_map,
}
# Methods whose argument may be an arrow function (the grammar allows arrows nowhere else).
ARROW_METHODS: Final = frozenset({"some", "every", "filter", "find", "map"})


# --- safe globals --------------------------------------------------------------------------


def _math_abs(x: Any = UNDEFINED, *_: Any) -> int | float:
    return abs(to_number(x))


def _math_extreme(pick: Callable[..., Any], empty: float, *args: Any) -> int | float:
    nums = [to_number(a) for a in args]
    if not nums:
        return empty
    if any(n != n for n in nums):
        return math.nan
    return pick(nums)


def _parse_int(s: Any = UNDEFINED, radix: Any = UNDEFINED) -> int | float:
    text = to_string(s).strip(_WS)
    sign = -1 if text.startswith("-") else 1
    text = text[1:] if text[:1] in "+-" else text
    base = _int_arg(radix, 0)
    if base == 0:
        base = 10
        if text[:2].lower() == "0x":
            base, text = 16, text[2:]
    elif base == 16 and text[:2].lower() == "0x":
        text = text[2:]
    if not 2 <= base <= 36:
        return math.nan
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"[:base]
    end = 0
    while end < len(text) and text[end].lower() in digits:
        end += 1
    return number(sign * int(text[:end], base)) if end else math.nan


_FLOAT_PREFIX = re.compile(r"[+-]?(?:Infinity|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)")


def _parse_float(s: Any = UNDEFINED, *_: Any) -> int | float:
    m = _FLOAT_PREFIX.match(to_string(s).strip(_WS))
    if not m:
        return math.nan
    f = float(m.group(0).replace("Infinity", "inf"))
    return number(int(f)) if f.is_integer() and abs(f) < MAX_SAFE_INTEGER else f


def _is_nan(x: Any = UNDEFINED, *_: Any) -> bool:
    n = to_number(x)
    return n != n


def _is_finite(x: Any = UNDEFINED, *_: Any) -> bool:
    n = to_number(x)
    return n == n and n not in (math.inf, -math.inf)


def _number_is_integer(x: Any = UNDEFINED, *_: Any) -> bool:
    return is_number(x) and _is_finite(x) and float(x).is_integer()


def _object_keys(x: Any = UNDEFINED, *_: Any) -> list[str]:
    if is_nullish(x):
        raise JsError("Cannot convert undefined or null to object")
    if isinstance(x, Mapping):
        return [property_key(k) for k in x]
    if type(x) is list or type(x) is tuple or type(x) is str:
        return [str(i) for i in range(len(x))]
    return []


def _json_ready(v: Any, depth: int = 0) -> Any:
    """The value JSON.stringify would serialise (undefined and functions dropped, NaN -> null)."""
    if depth > 200:
        raise JsError("JSON.stringify: structure too deep")
    t = type(v)
    if t is float:
        if v != v or v in (math.inf, -math.inf):
            return None
        return int(v) if v.is_integer() and abs(v) < 1e21 else v
    if t is list or t is tuple:
        return [
            None if (x is UNDEFINED or isinstance(x, JsFunction)) else _json_ready(x, depth + 1)
            for x in v
        ]
    if isinstance(v, Mapping):
        return {
            property_key(k): _json_ready(x, depth + 1)
            for k, x in v.items()
            if x is not UNDEFINED and not isinstance(x, JsFunction)
        }
    if v is None or t is bool or t is int or t is str:
        return v
    return None


def _json_stringify(v: Any = UNDEFINED, *_: Any) -> Any:
    if v is UNDEFINED or isinstance(v, JsFunction):
        return UNDEFINED
    return _check_length(
        json.dumps(_json_ready(v), separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    )


def _is_array(x: Any = UNDEFINED, *_: Any) -> bool:
    return type(x) is list or type(x) is tuple


def _date_now(*_: Any) -> int:
    return int(time.time() * 1000)


def _global(name: str, fn: Callable[..., Any]) -> JsFunction:
    return JsFunction(name, fn)


# Qualified names (``Math.abs``) are not valid identifiers, so they can never collide with a
# scope key; the parser turns ``Math.abs`` into a single name lookup.
GLOBALS: Final[dict[str, Any]] = {
    "Math.abs": _global("abs", _math_abs),
    "Math.max": _global("max", partial(_math_extreme, max, -math.inf)),
    "Math.min": _global("min", partial(_math_extreme, min, math.inf)),
    "Number": _global("Number", lambda x=0, *_: to_number(x)),
    "String": _global("String", lambda x="", *_: to_string(x)),
    "Boolean": _global("Boolean", lambda x=False, *_: truthy(x)),
    "Array.isArray": _global("isArray", _is_array),
    "Object.keys": _global("keys", _object_keys),
    "JSON.stringify": _global("stringify", _json_stringify),
    "parseInt": _global("parseInt", _parse_int),
    "parseFloat": _global("parseFloat", _parse_float),
    "isNaN": _global("isNaN", _is_nan),
    "isFinite": _global("isFinite", _is_finite),
    "Number.isInteger": _global("isInteger", _number_is_integer),
    "Date.now": _global("now", _date_now),
}
# Namespace objects and the members an expression may use on them.
NAMESPACES: Final[dict[str, frozenset[str]]] = {
    "Math": frozenset({"abs", "max", "min"}),
    "Array": frozenset({"isArray"}),
    "Object": frozenset({"keys"}),
    "JSON": frozenset({"stringify"}),
    "Number": frozenset({"isInteger"}),
    "Date": frozenset({"now"}),
}
