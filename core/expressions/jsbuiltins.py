"""JavaScript's built-in methods and globals, over the values of ``jsvalues``.

Property access (``get_member``) lives here because reading ``s.trim`` or ``Math.max`` means
handing out a built-in. Methods that change their receiver (``push``, ``sort``, assignment)
only ever run on MemberJunction's copy of the context: when the evaluator is reading the
author's own data they raise ``NeedsCopy`` and the evaluation starts again on a copy.
"""

from __future__ import annotations

import functools
import json
import math
import random
import threading
import time
import unicodedata
import urllib.parse
from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal
from functools import partial
from typing import Any, Final

from core.expressions.budget import BUDGET, charge
from core.expressions.jsvalues import (
    ARRAY_PROTO,
    DROPPED_KEYS,
    ELEMENT,
    JS_WHITESPACE,
    MAX_STRING_LENGTH,
    OBJECT_MODEL_KEYS,
    OBJECT_PROTO,
    STRING_PROTO,
    UNDEFINED,
    JsError,
    JsFunction,
    JsNamespace,
    JsSecurityRefusal,
    array_index,
    check_length,
    from_units,
    is_nullish,
    is_number,
    join_bounded,
    js_value,
    number,
    number_to_string,
    own_get,
    own_has,
    own_keys,
    property_key,
    same_value_zero,
    strict_eq,
    to_int,
    to_number,
    to_string,
    to_units,
    too_long,
    truthy,
    typeof,
    utf16_length,
)

ENGINE_VERSION: Final = "MemberJunction 5.51.3"


class NeedsCopy(Exception):
    """A mutation met the author's data: evaluate again on a copy, as MemberJunction does."""


class Unsupported(JsError):
    """Valid JavaScript that flowctx does not reproduce: refused rather than guessed."""


_state = threading.local()


def mutation_allowed() -> bool:
    return getattr(_state, "on_copy", False)


def set_on_copy(on_copy: bool) -> None:
    _state.on_copy = on_copy
    # Named properties written on arrays of the copy (Python lists cannot hold them), by id.
    _state.array_props = {}


def _array_prop(arr: Any, key: str) -> Any:
    props = getattr(_state, "array_props", None)
    if props:
        entry = props.get(id(arr))
        if entry is not None and entry[0] is arr and key in entry[1]:
            return entry[1][key]
    return _MISSING_PROP


_MISSING_PROP: Final = object()


def _mutating() -> None:
    if not getattr(_state, "on_copy", False):
        raise NeedsCopy


def security(what: str) -> JsSecurityRefusal:
    return JsSecurityRefusal(f"{ENGINE_VERSION} would execute this as code ({what})")


# ``length`` of node 20's built-in functions (measured), by owner: "name:length" pairs.
_LENGTHS: Final[dict[str, str]] = {
    "Object.prototype": (
        "constructor:1 __defineGetter__:2 __defineSetter__:2 hasOwnProperty:1 "
        "__lookupGetter__:1 __lookupSetter__:1 isPrototypeOf:1 propertyIsEnumerable:1 "
        "toString:0 valueOf:0 toLocaleString:0 "
    ),
    "Array.prototype": (
        "constructor:1 at:1 concat:1 copyWithin:2 fill:1 find:1 findIndex:1 findLast:1 "
        "findLastIndex:1 lastIndexOf:1 pop:0 push:1 reverse:0 shift:0 unshift:1 slice:2 "
        "sort:1 splice:2 includes:1 indexOf:1 join:1 keys:0 entries:0 values:0 "
        "forEach:1 filter:1 flat:0 flatMap:1 map:1 every:1 some:1 reduce:1 "
        "reduceRight:1 toLocaleString:0 toString:0 toReversed:0 toSorted:1 toSpliced:2 "
        "with:2 "
    ),
    "String.prototype": (
        "constructor:1 anchor:1 at:1 big:0 blink:0 bold:0 charAt:1 charCodeAt:1 "
        "codePointAt:1 concat:1 endsWith:1 fontcolor:1 fontsize:1 fixed:0 includes:1 "
        "indexOf:1 isWellFormed:0 italics:0 lastIndexOf:1 link:1 localeCompare:1 "
        "match:1 matchAll:1 normalize:0 padEnd:1 padStart:1 repeat:1 replace:2 "
        "replaceAll:2 search:1 slice:2 small:0 split:2 strike:0 sub:0 substr:2 "
        "substring:2 sup:0 startsWith:1 toString:0 toWellFormed:0 trim:0 trimStart:0 "
        "trimLeft:0 trimEnd:0 trimRight:0 toLocaleLowerCase:0 toLocaleUpperCase:0 "
        "toLowerCase:0 toUpperCase:0 valueOf:0 "
    ),
    "Number.prototype": (
        "constructor:1 toExponential:1 toFixed:1 toPrecision:1 toString:1 valueOf:0 "
        "toLocaleString:0 "
    ),
    "Boolean.prototype": ("constructor:1 toString:0 valueOf:0 "),
    "Math": (
        "abs:1 acos:1 acosh:1 asin:1 asinh:1 atan:1 atanh:1 atan2:2 ceil:1 cbrt:1 "
        "expm1:1 clz32:1 cos:1 cosh:1 exp:1 floor:1 fround:1 hypot:2 imul:2 log:1 "
        "log1p:1 log2:1 log10:1 max:2 min:2 pow:2 random:0 round:1 sign:1 sin:1 sinh:1 "
        "sqrt:1 tan:1 tanh:1 trunc:1 "
    ),
    "JSON": ("parse:2 stringify:3 "),
    "Number": ("isFinite:1 isInteger:1 isNaN:1 isSafeInteger:1 parseFloat:1 parseInt:2 "),
    "String": ("fromCharCode:1 fromCodePoint:1 raw:1 "),
    "Array": ("isArray:1 from:1 of:0 "),
    "Object": (
        "assign:2 getOwnPropertyDescriptor:2 getOwnPropertyDescriptors:1 "
        "getOwnPropertyNames:1 getOwnPropertySymbols:1 hasOwn:2 is:2 "
        "preventExtensions:1 seal:1 create:2 defineProperties:2 defineProperty:3 "
        "freeze:1 getPrototypeOf:1 setPrototypeOf:2 isExtensible:1 isFrozen:1 "
        "isSealed:1 keys:1 entries:1 fromEntries:1 values:1 "
    ),
    "Date": ("now:0 parse:1 UTC:7 "),
    "": (
        "Number:1 String:1 Boolean:1 Array:1 Object:1 Date:7 parseInt:2 parseFloat:1 "
        "isNaN:1 isFinite:1 encodeURIComponent:1 encodeURI:1 decodeURIComponent:1 "
    ),
}
BUILTIN_LENGTHS: Final[dict[str, int]] = {
    f"{owner}.{name}" if owner else name: int(n)
    for owner, pairs in _LENGTHS.items()
    for name, _, n in (pair.partition(":") for pair in pairs.split())
}


# --- helpers -------------------------------------------------------------------------------


def _relative(v: Any, length: int, default: int) -> int:
    """A start/end argument of slice-like methods, clamped into [0, length]."""
    if v is UNDEFINED:
        return default
    n = to_int(v)
    if n < 0:
        return int(max(length + n, 0))
    return int(min(n, length))


def _call(fn: Any, method: str) -> Callable[..., Any]:
    if type(fn) is not JsFunction:
        raise JsError(f"{typeof(fn)} is not a function (argument of {method})")
    return fn.fn


def _elements(arr: list[Any]) -> list[Any]:
    return [js_value(x) for x in arr]


# --- string methods ------------------------------------------------------------------------


def _units_op(s: str) -> str:
    return to_units(s)


def _str_at(s: str, i: Any = UNDEFINED, *_: Any) -> Any:
    u = to_units(s)
    n = to_int(i)
    n = n + len(u) if n < 0 else n
    return u[int(n)] if 0 <= n < len(u) else UNDEFINED


def _str_char_at(s: str, i: Any = UNDEFINED, *_: Any) -> str:
    u = to_units(s)
    n = to_int(i)
    return u[int(n)] if 0 <= n < len(u) else ""


def _str_char_code_at(s: str, i: Any = UNDEFINED, *_: Any) -> int | float:
    u = to_units(s)
    n = to_int(i)
    return ord(u[int(n)]) if 0 <= n < len(u) else math.nan


def _str_code_point_at(s: str, i: Any = UNDEFINED, *_: Any) -> Any:
    u = to_units(s)
    n = to_int(i)
    if not 0 <= n < len(u):
        return UNDEFINED
    n = int(n)
    first = ord(u[n])
    if 0xD800 <= first <= 0xDBFF and n + 1 < len(u) and 0xDC00 <= ord(u[n + 1]) <= 0xDFFF:
        return 0x10000 + ((first - 0xD800) << 10) + ord(u[n + 1]) - 0xDC00
    return first


def _str_concat(s: str, *args: Any) -> str:
    out = s
    for a in args:
        text = to_string(a)
        if len(out) + len(text) > MAX_STRING_LENGTH:
            raise too_long(len(out) + len(text))
        out = from_units(out + text)
    return out


def _no_regexp(search: Any, method: str) -> str:
    return to_string(search)


def _str_includes(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED) -> bool:
    u = to_units(s)
    return to_units(_no_regexp(search, "includes")) in u[_relative_pos(position, len(u)) :]


def _relative_pos(v: Any, length: int) -> int:
    if v is UNDEFINED:
        return 0
    return int(min(max(to_int(v), 0), length))


def _str_starts(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED) -> bool:
    u = to_units(s)
    return u.startswith(to_units(to_string(search)), _relative_pos(position, len(u)))


def _str_ends(s: str, search: Any = UNDEFINED, end: Any = UNDEFINED) -> bool:
    u = to_units(s)
    stop = len(u) if end is UNDEFINED else _relative_pos(end, len(u))
    return u[:stop].endswith(to_units(to_string(search)))


def _str_index_of(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED) -> int:
    u = to_units(s)
    return u.find(to_units(to_string(search)), _relative_pos(position, len(u)))


def _str_last_index_of(s: str, search: Any = UNDEFINED, position: Any = UNDEFINED) -> int:
    u, needle = to_units(s), to_units(to_string(search))
    pos = to_number(position)
    start = len(u) if pos != pos else int(min(max(to_int(pos), 0), len(u)))
    return u.rfind(needle, 0, start + len(needle))


def _str_locale_compare(s: str, other: Any = UNDEFINED, *_: Any) -> int:
    o = to_string(other)
    a, b = (s.casefold(), s.swapcase()), (o.casefold(), o.swapcase())
    return -1 if a < b else (1 if a > b else 0)


def _str_normalize(s: str, form: Any = UNDEFINED, *_: Any) -> str:
    f = "NFC" if form is UNDEFINED else to_string(form)
    if f not in ("NFC", "NFD", "NFKC", "NFKD"):
        raise JsError("The normalization form should be one of NFC, NFD, NFKC, NFKD.")
    return unicodedata.normalize(f, s)  # type: ignore[arg-type]  # checked just above


def _pad(s: str, length: Any, fill: Any, at_start: bool) -> str:
    u = to_units(s)
    target = to_int(length)
    filler = " " if fill is UNDEFINED else to_units(to_string(fill))
    if target <= len(u) or not filler:
        return s
    if target > MAX_STRING_LENGTH:
        raise too_long(int(target) if target != math.inf else None)
    need = int(target) - len(u)
    pad = (filler * (need // len(filler) + 1))[:need]
    return from_units(pad + u if at_start else u + pad)


def _str_pad_start(s: str, length: Any = UNDEFINED, fill: Any = UNDEFINED, *_: Any) -> str:
    return _pad(s, length, fill, True)


def _str_pad_end(s: str, length: Any = UNDEFINED, fill: Any = UNDEFINED, *_: Any) -> str:
    return _pad(s, length, fill, False)


def _str_repeat(s: str, count: Any = UNDEFINED, *_: Any) -> str:
    n = to_int(count)
    if n < 0 or n == math.inf:
        raise JsError("Invalid count value")
    if not s:
        return ""  # ''.repeat(1e300) is '' (no string of 1e300 copies is ever built)
    if len(s) * n > MAX_STRING_LENGTH:
        raise too_long(int(len(s) * n))
    charge(int(len(s) * n) >> 3)
    return s * int(n)


def _substitute(rep: str, matched: str, before: str, after: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(rep):
        c = rep[i]
        if c == "$" and i + 1 < len(rep):
            nxt = rep[i + 1]
            if nxt == "$":
                out.append("$")
            elif nxt == "&":
                out.append(matched)
            elif nxt == "`":
                out.append(before)
            elif nxt == "'":
                out.append(after)
            else:
                out.append(c)
                i += 1
                continue
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _replace(s: str, pattern: Any, replacement: Any, every: bool) -> str:
    pat = to_units(to_string(pattern))
    u = to_units(s)
    positions: list[int] = []
    at = u.find(pat)
    while at >= 0:
        positions.append(at)
        if not every:
            break
        at = u.find(pat, at + max(len(pat), 1))
        if not pat and at > len(u):
            break
    if not positions:
        return s
    out: list[str] = []
    last = 0
    total = 0  # the length so far, so the result is refused before it is built
    rep = "" if type(replacement) is JsFunction else to_units(to_string(replacement))
    plain = "$" not in rep
    for at in positions:
        charge(ELEMENT)
        out.append(u[last:at])
        if type(replacement) is JsFunction:
            piece = to_units(to_string(replacement.fn(from_units(pat), at, s)))
        elif plain:
            piece = rep
        else:
            piece = _substitute(rep, pat, u[:at], u[at + len(pat) :])
        out.append(piece)
        total += at - last + len(piece)
        last = at + len(pat)
        if total > MAX_STRING_LENGTH:
            raise too_long()
    if total + len(u) - last > MAX_STRING_LENGTH:
        raise too_long()
    out.append(u[last:])
    return from_units("".join(out))


def _str_replace(s: str, pattern: Any = UNDEFINED, replacement: Any = UNDEFINED, *_: Any) -> str:
    return _replace(s, pattern, replacement, False)


def _str_replace_all(
    s: str, pattern: Any = UNDEFINED, replacement: Any = UNDEFINED, *_: Any
) -> str:
    return _replace(s, pattern, replacement, True)


def _str_slice(s: str, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> str:
    u = to_units(s)
    a, b = _relative(start, len(u), 0), _relative(end, len(u), len(u))
    return from_units(u[a:b]) if a < b else ""


def _str_substring(s: str, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> str:
    u = to_units(s)
    a = _relative_pos(start, len(u))
    b = len(u) if end is UNDEFINED else _relative_pos(end, len(u))
    a, b = min(a, b), max(a, b)
    return from_units(u[a:b])


def _str_substr(s: str, start: Any = UNDEFINED, length: Any = UNDEFINED, *_: Any) -> str:
    u = to_units(s)
    a = _relative(start, len(u), 0)
    n = len(u) - a if length is UNDEFINED else int(min(max(to_int(length), 0), len(u) - a))
    return from_units(u[a : a + n]) if n > 0 else ""


def _str_split(s: str, sep: Any = UNDEFINED, limit: Any = UNDEFINED, *_: Any) -> list[str]:
    lim = 2**32 - 1 if limit is UNDEFINED else to_int(limit) % 2**32
    if lim == 0:
        return []
    if sep is UNDEFINED:
        return [s]
    u, sep_u = to_units(s), to_units(to_string(sep))
    count = len(u) if sep_u == "" else u.count(sep_u) + 1  # counted before the parts are built
    if count > MAX_STRING_LENGTH:
        raise JsError(f"split() result too long (over {MAX_STRING_LENGTH:,} parts; {BUDGET})")
    charge(ELEMENT * min(count, int(lim)))
    parts = list(u) if sep_u == "" else u.split(sep_u)
    return [from_units(p) for p in parts[: int(lim)]]


def _str_lower(s: str, *_: Any) -> str:
    return s.lower()


def _str_upper(s: str, *_: Any) -> str:
    return s.upper()


def _str_trim(s: str, *_: Any) -> str:
    return s.strip(JS_WHITESPACE)


def _str_trim_start(s: str, *_: Any) -> str:
    return s.lstrip(JS_WHITESPACE)


def _str_trim_end(s: str, *_: Any) -> str:
    return s.rstrip(JS_WHITESPACE)


def _str_self(s: str, *_: Any) -> str:
    return s


def _str_well_formed(s: str, *_: Any) -> bool:
    charge(ELEMENT * len(s))
    return not any("\ud800" <= c <= "\udfff" for c in s)


def _str_to_well_formed(s: str, *_: Any) -> str:
    charge(ELEMENT * len(s))
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in s)


def _needs_regexp(method: str) -> Callable[..., Any]:
    def refuse(s: str, *_: Any) -> Any:
        raise Unsupported(
            f"flowctx does not reproduce String.prototype.{method} (regular expressions)"
        )

    return refuse


STRING_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "at": _str_at,
    "charAt": _str_char_at,
    "charCodeAt": _str_char_code_at,
    "codePointAt": _str_code_point_at,
    "concat": _str_concat,
    "endsWith": _str_ends,
    "includes": _str_includes,
    "indexOf": _str_index_of,
    "isWellFormed": _str_well_formed,
    "lastIndexOf": _str_last_index_of,
    "localeCompare": _str_locale_compare,
    "match": _needs_regexp("match"),
    "matchAll": _needs_regexp("matchAll"),
    "normalize": _str_normalize,
    "padEnd": _str_pad_end,
    "padStart": _str_pad_start,
    "repeat": _str_repeat,
    "replace": _str_replace,
    "replaceAll": _str_replace_all,
    "search": _needs_regexp("search"),
    "slice": _str_slice,
    "split": _str_split,
    "startsWith": _str_starts,
    "substr": _str_substr,
    "substring": _str_substring,
    "toLocaleLowerCase": _str_lower,
    "toLocaleUpperCase": _str_upper,
    "toLowerCase": _str_lower,
    "toString": _str_self,
    "toUpperCase": _str_upper,
    "toWellFormed": _str_to_well_formed,
    "trim": _str_trim,
    "trimEnd": _str_trim_end,
    "trimLeft": _str_trim_start,
    "trimRight": _str_trim_end,
    "trimStart": _str_trim_start,
    "valueOf": _str_self,
}


# --- array methods -------------------------------------------------------------------------


def _arr_at(arr: list[Any], i: Any = UNDEFINED, *_: Any) -> Any:
    n = to_int(i)
    n = n + len(arr) if n < 0 else n
    return js_value(arr[int(n)]) if 0 <= n < len(arr) else UNDEFINED


def _arr_concat(arr: list[Any], *args: Any) -> list[Any]:
    out = list(arr)
    for a in args:
        if type(a) is list or type(a) is tuple:
            out.extend(a)
        else:
            out.append(a)
        if len(out) > MAX_STRING_LENGTH:
            raise JsError("concat() result too long")
    return out


def _arr_includes(arr: list[Any], search: Any = UNDEFINED, start: Any = UNDEFINED) -> bool:
    begin = _relative(start, len(arr), 0)
    return any(same_value_zero(js_value(x), search) for x in arr[begin:])


def _arr_index_of(arr: list[Any], search: Any = UNDEFINED, start: Any = UNDEFINED) -> int:
    begin = _relative(start, len(arr), 0)
    for i in range(begin, len(arr)):
        if strict_eq(js_value(arr[i]), search):
            return i
    return -1


def _arr_last_index_of(arr: list[Any], search: Any = UNDEFINED, *rest: Any) -> int:
    last = len(arr) - 1
    if rest:
        n = to_int(rest[0])
        last = int(min(n, len(arr) - 1)) if n >= 0 else int(len(arr) + n)
    for i in range(last, -1, -1):
        if strict_eq(js_value(arr[i]), search):
            return i
    return -1


def _arr_join(arr: list[Any], sep: Any = UNDEFINED, *_: Any) -> str:
    sep_s = "," if sep is UNDEFINED else to_string(sep)
    parts = ("" if is_nullish(x) else to_string(js_value(x)) for x in arr)
    return from_units(join_bounded(sep_s, parts))


def _arr_slice(arr: list[Any], start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> list[Any]:
    a, b = _relative(start, len(arr), 0), _relative(end, len(arr), len(arr))
    return list(arr[a:b])


def _iterate(arr: list[Any], fn: Any, method: str) -> Any:
    call = _call(fn, method)
    return ((call(js_value(arr[i]), i, arr), i) for i in range(len(arr)) if i < len(arr))


def _arr_some(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> bool:
    call = _call(fn, "some")
    i = 0
    while i < len(arr):
        if truthy(call(js_value(arr[i]), i, arr)):
            return True
        i += 1
    return False


def _arr_every(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> bool:
    call = _call(fn, "every")
    i = 0
    while i < len(arr):
        if not truthy(call(js_value(arr[i]), i, arr)):
            return False
        i += 1
    return True


def _arr_filter(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    call = _call(fn, "filter")
    out = []
    for i in range(len(arr)):
        x = js_value(arr[i])
        if truthy(call(x, i, arr)):
            out.append(x)
    return out


def _find(arr: list[Any], fn: Any, method: str, reverse: bool) -> tuple[int, Any]:
    call = _call(fn, method)
    indexes = range(len(arr) - 1, -1, -1) if reverse else range(len(arr))
    for i in indexes:
        x = js_value(arr[i]) if i < len(arr) else UNDEFINED
        if truthy(call(x, i, arr)):
            return i, x
    return -1, UNDEFINED


def _arr_find(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> Any:
    return _find(arr, fn, "find", False)[1]


def _arr_find_index(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> int:
    return _find(arr, fn, "findIndex", False)[0]


def _arr_find_last(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> Any:
    return _find(arr, fn, "findLast", True)[1]


def _arr_find_last_index(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> int:
    return _find(arr, fn, "findLastIndex", True)[0]


def _arr_map(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    call = _call(fn, "map")
    return [call(js_value(arr[i]), i, arr) for i in range(len(arr))]


def _arr_for_each(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> Any:
    call = _call(fn, "forEach")
    for i in range(len(arr)):
        call(js_value(arr[i]), i, arr)
    return UNDEFINED


def _flatten(arr: list[Any] | tuple[Any, ...], depth: float, out: list[Any]) -> None:
    # every element visited is charged: arrays of empty arrays add nothing to ``out``
    charge(ELEMENT * len(arr) + 1)
    for x in arr:
        if (type(x) is list or type(x) is tuple) and depth >= 1:
            _flatten(x, depth - 1, out)
        else:
            out.append(x)
        if len(out) > MAX_STRING_LENGTH:
            raise JsError("flat() result too long")


def _arr_flat(arr: list[Any], depth: Any = UNDEFINED, *_: Any) -> list[Any]:
    d = 1 if depth is UNDEFINED else to_int(depth)
    out: list[Any] = []
    _flatten(arr, min(d, 200), out)
    return out


def _arr_flat_map(arr: list[Any], fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    out: list[Any] = []
    _flatten(_arr_map(arr, fn), 1, out)
    return out


def _reduce(arr: list[Any], args: tuple[Any, ...], method: str, reverse: bool) -> Any:
    call = _call(args[0] if args else UNDEFINED, method)
    indexes = list(range(len(arr) - 1, -1, -1) if reverse else range(len(arr)))
    if len(args) > 1:
        acc = args[1]
    elif not indexes:
        raise JsError("Reduce of empty array with no initial value")
    else:
        acc = js_value(arr[indexes.pop(0)])
    for i in indexes:
        if i < len(arr):
            acc = call(acc, js_value(arr[i]), i, arr)
    return acc


def _arr_reduce(arr: list[Any], *args: Any) -> Any:
    return _reduce(arr, args, "reduce", False)


def _arr_reduce_right(arr: list[Any], *args: Any) -> Any:
    return _reduce(arr, args, "reduceRight", True)


def _sort_key(compare: Any) -> Callable[[Any], Any]:
    if compare is UNDEFINED:
        return functools.cmp_to_key(_default_compare)
    call = _call(compare, "sort")

    def cmp(a: Any, b: Any) -> int:
        if a is UNDEFINED or b is UNDEFINED:
            return _default_compare(a, b)
        r = to_number(call(js_value(a), js_value(b)))
        return 0 if r != r else (-1 if r < 0 else (1 if r > 0 else 0))

    return functools.cmp_to_key(cmp)


def _default_compare(a: Any, b: Any) -> int:
    if a is UNDEFINED or b is UNDEFINED:
        return (a is UNDEFINED) - (b is UNDEFINED)
    x, y = to_units(to_string(js_value(a))), to_units(to_string(js_value(b)))
    return -1 if x < y else (1 if x > y else 0)


def _sort_cost(arr: list[Any]) -> None:
    # n log2 n comparisons, each an interpreted call (what they convert is charged there)
    charge(ELEMENT * len(arr) * max(1, len(arr).bit_length()))


def _arr_to_sorted(arr: list[Any], compare: Any = UNDEFINED, *_: Any) -> list[Any]:
    _sort_cost(arr)
    return sorted(arr, key=_sort_key(compare))


def _arr_sort(arr: list[Any], compare: Any = UNDEFINED, *_: Any) -> list[Any]:
    _mutating()
    _sort_cost(arr)
    arr[:] = sorted(arr, key=_sort_key(compare))
    return arr


def _arr_to_reversed(arr: list[Any], *_: Any) -> list[Any]:
    return arr[::-1]


def _arr_reverse(arr: list[Any], *_: Any) -> list[Any]:
    _mutating()
    arr.reverse()
    return arr


def _arr_push(arr: list[Any], *items: Any) -> int:
    _mutating()
    if len(arr) + len(items) > MAX_STRING_LENGTH:
        raise JsError(f"push() result too long (over {MAX_STRING_LENGTH:,} elements; {BUDGET})")
    arr.extend(items)
    return len(arr)


def _arr_pop(arr: list[Any], *_: Any) -> Any:
    _mutating()
    return arr.pop() if arr else UNDEFINED


def _arr_shift(arr: list[Any], *_: Any) -> Any:
    _mutating()
    return arr.pop(0) if arr else UNDEFINED


def _arr_unshift(arr: list[Any], *items: Any) -> int:
    _mutating()
    if len(arr) + len(items) > MAX_STRING_LENGTH:
        raise JsError(f"unshift() result too long (over {MAX_STRING_LENGTH:,} elements; {BUDGET})")
    arr[:0] = items
    return len(arr)


def _splice_args(arr: list[Any], args: tuple[Any, ...]) -> tuple[int, int, tuple[Any, ...]]:
    start = _relative(args[0] if args else UNDEFINED, len(arr), 0)
    if not args:
        count = 0
    elif len(args) == 1:
        count = len(arr) - start
    else:
        count = int(min(max(to_int(args[1]), 0), len(arr) - start))
    return start, count, args[2:]


def _arr_splice(arr: list[Any], *args: Any) -> list[Any]:
    _mutating()
    start, count, items = _splice_args(arr, args)
    removed = arr[start : start + count]
    arr[start : start + count] = items
    return removed


def _arr_to_spliced(arr: list[Any], *args: Any) -> list[Any]:
    start, count, items = _splice_args(arr, args)
    return [*arr[:start], *items, *arr[start + count :]]


def _arr_with(arr: list[Any], index: Any = UNDEFINED, value: Any = UNDEFINED, *_: Any) -> list[Any]:
    n = to_int(index)
    n = n + len(arr) if n < 0 else n
    if not 0 <= n < len(arr):
        raise JsError("Invalid index")
    out = list(arr)
    out[int(n)] = value
    return out


def _arr_fill(arr: list[Any], value: Any = UNDEFINED, *args: Any) -> list[Any]:
    _mutating()
    a = _relative(args[0] if args else UNDEFINED, len(arr), 0)
    b = _relative(args[1] if len(args) > 1 else UNDEFINED, len(arr), len(arr))
    for i in range(a, b):
        arr[i] = value
    return arr


def _arr_to_string(arr: list[Any], *_: Any) -> str:
    return _arr_join(arr)


def _arr_iterator(arr: list[Any], *_: Any) -> Any:
    raise Unsupported("flowctx does not reproduce array iterators (keys, values, entries)")


ARRAY_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "at": _arr_at,
    "concat": _arr_concat,
    "entries": _arr_iterator,
    "every": _arr_every,
    "fill": _arr_fill,
    "filter": _arr_filter,
    "find": _arr_find,
    "findIndex": _arr_find_index,
    "findLast": _arr_find_last,
    "findLastIndex": _arr_find_last_index,
    "flat": _arr_flat,
    "flatMap": _arr_flat_map,
    "forEach": _arr_for_each,
    "includes": _arr_includes,
    "indexOf": _arr_index_of,
    "join": _arr_join,
    "keys": _arr_iterator,
    "lastIndexOf": _arr_last_index_of,
    "map": _arr_map,
    "pop": _arr_pop,
    "push": _arr_push,
    "reduce": _arr_reduce,
    "reduceRight": _arr_reduce_right,
    "reverse": _arr_reverse,
    "shift": _arr_shift,
    "slice": _arr_slice,
    "some": _arr_some,
    "sort": _arr_sort,
    "splice": _arr_splice,
    "toLocaleString": _arr_to_string,
    "toReversed": _arr_to_reversed,
    "toSorted": _arr_to_sorted,
    "toSpliced": _arr_to_spliced,
    "toString": _arr_to_string,
    "unshift": _arr_unshift,
    "values": _arr_iterator,
    "with": _arr_with,
}
MUTATING_METHODS: Final = frozenset(
    {"push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"}
)
# Methods whose argument may be an arrow function (completion offers arrows for these).
ARROW_METHODS: Final = frozenset(
    {"some", "every", "filter", "find", "findIndex", "findLast", "findLastIndex", "map",
     "flatMap", "forEach", "reduce", "reduceRight", "sort", "toSorted"}
)  # fmt: skip


# --- number, boolean and object methods ----------------------------------------------------


def _exact(x: float) -> Decimal:
    return Decimal(x)


def _num_to_fixed(x: int | float, digits: Any = UNDEFINED, *_: Any) -> str:
    f = to_int(digits)
    if not 0 <= f <= 100:
        raise JsError("toFixed() digits argument must be between 0 and 100")
    if x != x:
        return "NaN"
    if abs(x) >= 1e21 or x in (math.inf, -math.inf):
        return number_to_string(x)
    sign = "-" if x < 0 else ""
    q = _exact(abs(float(x))).quantize(Decimal(1).scaleb(-int(f)), rounding=ROUND_HALF_UP)
    text = f"{q:f}"
    return (sign if q != 0 or sign else "") + text if sign and q != 0 else text


def _num_to_string(x: int | float, radix: Any = UNDEFINED, *_: Any) -> str:
    r = 10 if radix is UNDEFINED else to_int(radix)
    if not 2 <= r <= 36:
        raise JsError("toString() radix must be between 2 and 36")
    if r == 10:
        return number_to_string(x)
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return number_to_string(x)
    if float(x).is_integer():
        n = int(x)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"
        out = ""
        m = abs(n)
        while True:
            out = digits[m % int(r)] + out
            m //= int(r)
            if m == 0:
                break
        return ("-" if n < 0 else "") + out
    raise Unsupported("flowctx does not reproduce toString(radix) of fractions")


def _num_to_precision(x: int | float, precision: Any = UNDEFINED, *_: Any) -> str:
    if precision is UNDEFINED:
        return number_to_string(x)
    p = to_int(precision)
    if x != x or x in (math.inf, -math.inf):
        return number_to_string(x)
    if not 1 <= p <= 100:
        raise JsError("toPrecision() argument must be between 1 and 100")
    p = int(p)
    if x == 0:
        return "0" if p == 1 else "0." + "0" * (p - 1)
    sign = "-" if x < 0 else ""
    d = _exact(abs(float(x)))
    e = d.adjusted()
    q = d.scaleb(-e).quantize(Decimal(1).scaleb(-(p - 1)), rounding=ROUND_HALF_UP)
    if q >= 10:
        e += 1
        q = d.scaleb(-e).quantize(Decimal(1).scaleb(-(p - 1)), rounding=ROUND_HALF_UP)
    digits = f"{q:f}".replace(".", "")
    if e < -6 or e >= p:
        mant = digits[0] + ("." + digits[1:] if p > 1 else "")
        return f"{sign}{mant}e{'+' if e >= 0 else '-'}{abs(e)}"
    if e >= 0:
        whole, frac = digits[: e + 1], digits[e + 1 :]
        return sign + whole + ("." + frac if frac else "")
    return sign + "0." + "0" * (-e - 1) + digits


def _num_value_of(x: Any, *_: Any) -> Any:
    return x


NUMBER_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "toFixed": _num_to_fixed,
    "toString": _num_to_string,
    "toPrecision": _num_to_precision,
    "valueOf": _num_value_of,
}
BOOLEAN_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "toString": lambda b, *_: "true" if b else "false",
    "valueOf": _num_value_of,
}


def _obj_has_own(obj: Any, key: Any = UNDEFINED, *_: Any) -> bool:
    k = property_key(key)
    if type(obj) is list or type(obj) is tuple:
        index = array_index(k)
        return k == "length" or (index is not None and index < len(obj))
    if type(obj) is str:
        index = array_index(k)
        return k == "length" or (index is not None and index < utf16_length(obj))
    if isinstance(obj, Mapping):
        return own_has(obj, k)
    return False


OBJECT_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "hasOwnProperty": _obj_has_own,
    "propertyIsEnumerable": lambda o, k=UNDEFINED, *_: k != "length" and _obj_has_own(o, k),
    "isPrototypeOf": lambda o, *_: False,
    "toString": lambda o, *_: "[object Array]" if type(o) is list else "[object Object]",
    "toLocaleString": lambda o, *_: to_string(o),
    "valueOf": _num_value_of,
}


_OWNER: Final = {
    list: "Array.prototype", tuple: "Array.prototype", str: "String.prototype",
    int: "Number.prototype", float: "Number.prototype", bool: "Boolean.prototype",
}  # fmt: skip


def _bind(name: str, method: Callable[..., Any], obj: Any) -> JsFunction:
    # the prototype chain: a name the value's own prototype does not define (an array's
    # valueOf, a string's hasOwnProperty) is Object.prototype's function and has its length
    owner = _OWNER.get(type(obj), "Object.prototype")
    arity = BUILTIN_LENGTHS.get(f"{owner}.{name}")
    if arity is None:
        arity = BUILTIN_LENGTHS.get(f"Object.prototype.{name}")
    return JsFunction(name, partial(method, obj), arity=arity)


def get_member(obj: Any, key: Any) -> Any:
    """``obj[key]`` with JavaScript semantics on MemberJunction's copy of the context."""
    k = key if type(key) is str else property_key(key)
    t = type(obj)
    if t is dict:
        if k in obj and k not in DROPPED_KEYS:
            return js_value(obj[k])
        return _object_member(obj, k)
    if t is list or t is tuple:
        index = array_index(k)
        if index is not None:
            return js_value(obj[index]) if index < len(obj) else UNDEFINED
        if k == "length":
            return len(obj)
        written = _array_prop(obj, k)
        if written is not _MISSING_PROP:
            return written
        method = ARRAY_METHODS.get(k)
        if method is not None:
            # the array methods loop over the elements in interpreted code: charged here,
            # before the call, what one pass costs (callbacks and conversions charge their own)
            charge(ELEMENT * len(obj))
            return _bind(k, method, obj)
        return _proto_member(obj, k, ARRAY_PROTO)
    if t is str:
        if k == "length":
            return utf16_length(obj)
        index = array_index(k)
        if index is not None:
            u = to_units(obj)
            return u[index] if index < len(u) else UNDEFINED
        method = STRING_METHODS.get(k)
        if method is not None:
            charge((len(obj) >> 2) + 1)  # one pass over the characters, in C
            return _bind(k, method, obj)
        return _proto_member(obj, k, STRING_PROTO)
    if obj is None or obj is UNDEFINED:
        kind = "null" if obj is None else "undefined"
        raise JsError(f"Cannot read properties of {kind} (reading '{k}')")
    if t is int or t is float:
        method = NUMBER_METHODS.get(k)
        if method is not None:
            return _bind(k, method, number(obj))
        return _proto_member(
            obj, k, frozenset(NUMBER_METHODS) | {"toExponential", "toLocaleString"}
        )
    if t is bool:
        method = BOOLEAN_METHODS.get(k)
        if method is not None:
            return _bind(k, method, obj)
        return _proto_member(obj, k, frozenset())
    if t is JsFunction or t is JsNamespace:
        if k in OBJECT_MODEL_KEYS:
            raise security(f"reading '{k}' of a built-in leads to Function")
        if obj.members is not None and k in obj.members:
            return obj.members[k]
        if t is JsFunction and k == "name":
            return obj.name
        if t is JsFunction and k == "length":
            if obj.arity is None:
                raise Unsupported("flowctx does not reproduce the length of built-in functions")
            return obj.arity
        if k in ("call", "apply", "bind"):
            raise Unsupported(f"flowctx does not reproduce Function.prototype.{k}")
        return _proto_member(obj, k, frozenset())
    if isinstance(obj, Mapping):
        if own_has(obj, k):
            return own_get(obj, k)
        return _object_member(obj, k)
    return UNDEFINED


def _object_member(obj: Any, k: str) -> Any:
    method = OBJECT_METHODS.get(k)
    if method is not None:
        return _bind(k, method, obj)
    return _proto_member(obj, k, frozenset())


def _proto_member(obj: Any, k: str, proto: frozenset[str]) -> Any:
    if k in OBJECT_MODEL_KEYS:
        raise security(f"reading '{k}' reaches the object model, and from there Function")
    if k in OBJECT_METHODS and not (type(obj) in (int, float, bool, str) and k == "toString"):
        return _bind(k, OBJECT_METHODS[k], obj)
    if k in proto or k in OBJECT_PROTO:
        raise Unsupported(f"flowctx does not reproduce '{k}' on {typeof(obj)} values")
    return UNDEFINED


def set_member(obj: Any, key: Any, value: Any) -> None:
    """``obj[key] = value`` on MemberJunction's copy."""
    k = property_key(key)
    if obj is None or obj is UNDEFINED:
        kind = "null" if obj is None else "undefined"
        raise JsError(f"Cannot set properties of {kind} (setting '{k}')")
    if k in OBJECT_MODEL_KEYS:
        raise security(f"writing '{k}' changes the object model")
    t = type(obj)
    if t is dict:
        _mutating()
        obj[k] = value
        return
    if t is list:
        _mutating()
        index = array_index(k)
        if k == "length":
            n = to_number(value)
            if n != n or n < 0 or not float(n).is_integer():
                raise JsError("Invalid array length")
            n = int(n)
            if n > MAX_STRING_LENGTH:
                raise JsError("Invalid array length")
            charge(n)
            if n < len(obj):
                del obj[n:]
            else:
                obj.extend([UNDEFINED] * (n - len(obj)))
            return
        if index is None:
            entry = _state.array_props.setdefault(id(obj), (obj, {}))
            entry[1][k] = value
            return
        if index >= len(obj):
            if index > MAX_STRING_LENGTH:
                raise JsError("Array index too large")
            charge(index)
            obj.extend([UNDEFINED] * (index + 1 - len(obj)))
        obj[index] = value
        return
    if t in (str, int, float, bool):
        raise JsError(f"Cannot create property '{k}' on {typeof(obj)}")
    raise Unsupported("flowctx does not reproduce writing properties of built-ins")


# --- safe globals --------------------------------------------------------------------------


def _math(fn: Callable[[float], float]) -> Callable[..., Any]:
    def call(x: Any = UNDEFINED, *_: Any) -> int | float:
        v = float(to_number(x))
        try:
            r = fn(v)
        except (ValueError, OverflowError):
            return math.nan
        return _tidy(r)

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
    return float(math.trunc(v)) if v not in (math.inf, -math.inf) else v


def _math_floor(v: float) -> float:
    return float(math.floor(v)) if v not in (math.inf, -math.inf) else v


def _math_ceil(v: float) -> float:
    if v in (math.inf, -math.inf):
        return v
    r = float(math.ceil(v))
    return -0.0 if r == 0 and v < 0 else r


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
    from core.expressions.jsvalues import js_pow

    return js_pow(x, y)


def _math_hypot(*args: Any) -> int | float:
    nums = [float(to_number(a)) for a in args]
    if any(n in (math.inf, -math.inf) for n in nums):
        return math.inf
    return _tidy(math.hypot(*nums))


def _math_atan2(y: Any = UNDEFINED, x: Any = UNDEFINED, *_: Any) -> int | float:
    return _tidy(math.atan2(float(to_number(y)), float(to_number(x))))


def _math_abs(x: Any = UNDEFINED, *_: Any) -> int | float:
    v = to_number(x)
    return abs(v) if type(v) is int else math.fabs(v)


def _math_random(*_: Any) -> float:
    return random.random()


def _math_fn(name: str, fn: Callable[..., Any]) -> JsFunction:
    return JsFunction(name, fn)


def _logarithm(fn: Callable[[float], float]) -> Callable[[float], float]:
    def log(v: float) -> float:
        if v != v or v < 0:
            return math.nan
        return -math.inf if v == 0 else fn(v)

    return log


def _cbrt(v: float) -> float:
    return math.copysign(abs(v) ** (1 / 3), v) if v == v else v


MATH: Final = JsNamespace(
    "Math",
    {
        "abs": _math_fn("abs", _math_abs),
        "ceil": _math_fn("ceil", _math(_math_ceil)),
        "floor": _math_fn("floor", _math(_math_floor)),
        "round": _math_fn("round", _math_round),
        "trunc": _math_fn("trunc", _math(_math_trunc)),
        "sign": _math_fn("sign", _math_sign),
        "sqrt": _math_fn("sqrt", _math(lambda v: math.sqrt(v) if v >= 0 or v != v else math.nan)),
        "cbrt": _math_fn("cbrt", _math(_cbrt)),
        "max": _math_fn("max", partial(_math_extreme, True)),
        "min": _math_fn("min", partial(_math_extreme, False)),
        "pow": _math_fn("pow", _math_pow),
        "random": _math_fn("random", _math_random),
        "hypot": _math_fn("hypot", _math_hypot),
        "atan2": _math_fn("atan2", _math_atan2),
        "log": _math_fn("log", _math(_logarithm(math.log))),
        "log2": _math_fn("log2", _math(_logarithm(math.log2))),
        "log10": _math_fn("log10", _math(_logarithm(math.log10))),
        "exp": _math_fn("exp", _math(math.exp)),
        "sin": _math_fn("sin", _math(math.sin)),
        "cos": _math_fn("cos", _math(math.cos)),
        "tan": _math_fn("tan", _math(math.tan)),
        "PI": math.pi,
        "E": math.e,
        "LN2": math.log(2),
        "LN10": math.log(10),
        "LOG2E": 1 / math.log(2),
        "LOG10E": 1 / math.log(10),
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
    return number(value) if base == 10 or abs(value) <= 2**53 else float(value)


_FLOAT_PREFIX: Final = __import__("re").compile(
    r"[+-]?(?:Infinity|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
)  # the unambiguous spelling, as jsvalues._DECIMAL


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


def _keys_of(x: Any, what: str) -> list[str]:
    if is_nullish(x):
        raise JsError("Cannot convert undefined or null to object")
    if type(x) is list or type(x) is tuple:
        charge(ELEMENT * len(x))
        return [str(i) for i in range(len(x))]
    if type(x) is str:
        charge(ELEMENT * len(x))
        return [str(i) for i in range(utf16_length(x))]
    if isinstance(x, Mapping) and type(x) is not JsNamespace:
        return own_keys(x)
    return []


def _object_keys(x: Any = UNDEFINED, *_: Any) -> list[str]:
    return _keys_of(x, "keys")


def _object_values(x: Any = UNDEFINED, *_: Any) -> list[Any]:
    keys = _keys_of(x, "values")
    charge(ELEMENT * len(keys))
    return [get_member(x, k) for k in keys]


def _object_entries(x: Any = UNDEFINED, *_: Any) -> list[Any]:
    keys = _keys_of(x, "entries")
    charge(2 * ELEMENT * len(keys))
    return [[k, get_member(x, k)] for k in keys]


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
    if type(entries) is not list:
        raise Unsupported("flowctx reproduces Object.fromEntries of arrays only")
    out: dict[str, Any] = {}
    charge(ELEMENT * len(entries))
    for pair in entries:
        if is_nullish(pair) or type(pair) in (int, float, bool):
            raise JsError("Iterator value is not an entry object")
        out[property_key(get_member(pair, "0"))] = get_member(pair, "1")
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


def _stringify(v: Any, indent: str, prefix: str, depth: int, room: list[int]) -> str | None:
    """JSON text of ``v``; ``room`` holds the characters still allowed, so the text is
    refused while it is being built, not after (references to one array nest cheaply)."""
    if depth > 200:
        raise JsError("Maximum call stack size exceeded")
    charge(6 * ELEMENT)  # measured: about 3 us of interpreted work a value
    v = js_value(v)
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
            return _stringify_container(v, indent, prefix, depth, room)
    _use(room, len(text))
    return text


def _use(room: list[int], n: int) -> None:
    room[0] -= n
    if room[0] < 0:
        raise too_long()


def _stringify_container(
    v: Any, indent: str, prefix: str, depth: int, room: list[int]
) -> str | None:
    t = type(v)
    inner = prefix + indent
    # separators and the line breaks of indented output take room too
    step = len(inner) + 2 if indent else 1
    if t is list or t is tuple:
        items = []
        for x in v:
            items.append(_stringify(x, indent, inner, depth + 1, room) or "null")
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
            text = _stringify(get_member(members, k), indent, inner, depth + 1, room)
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
        return {k: _from_json(x) for k, x in v.items()}
    return v


def _json_parse(text: Any = UNDEFINED, reviver: Any = UNDEFINED, *_: Any) -> Any:
    if not is_nullish(reviver):
        raise Unsupported("flowctx does not reproduce JSON.parse with a reviver")
    s = to_string(text)
    charge(ELEMENT * len(s) // 2 + 1)  # an element may take two characters, and is rebuilt
    try:
        value = json.loads(
            s.strip(" \t\n\r"),
            parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)),
        )
    except (ValueError, RecursionError):
        raise JsError("Unexpected token in JSON") from None
    return _from_json(value)


def _string_from_char_code(*codes: Any) -> str:
    return from_units("".join(chr(int(to_int(c)) % 65536 if _is_finite(c) else 0) for c in codes))


def _string_from_code_point(*codes: Any) -> str:
    out = []
    for c in codes:
        n = to_number(c)
        if n != n or not float(n).is_integer() or not 0 <= n <= 0x10FFFF:
            raise JsError("Invalid code point")
        out.append(chr(int(n)))
    return from_units("".join(out))


def _array_of(*items: Any) -> list[Any]:
    return list(items)


def _array_from(src: Any = UNDEFINED, fn: Any = UNDEFINED, *_: Any) -> list[Any]:
    if is_nullish(src):
        raise JsError("Cannot convert undefined or null to object")
    if type(src) is str:
        charge(len(src))
        items: list[Any] = list(src)
    elif type(src) is list or type(src) is tuple:
        charge(ELEMENT * len(src))
        items = [js_value(x) for x in src]
    elif isinstance(src, Mapping):
        length = to_int(get_member(src, "length"))
        if length > MAX_STRING_LENGTH:
            raise JsError("Invalid array length")
        charge(ELEMENT * int(max(length, 0)))
        items = [get_member(src, str(i)) for i in range(int(max(length, 0)))]
    else:
        items = []
    if fn is UNDEFINED:
        return items
    call = _call(fn, "Array.from")
    return [call(x, i) for i, x in enumerate(items)]


def _is_array(x: Any = UNDEFINED, *_: Any) -> bool:
    return type(x) is list or type(x) is tuple


def _date_now(*_: Any) -> int:
    return int(time.time() * 1000)


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
    return to_string(args[0]) if args else ""


def _boolean_call(*args: Any) -> bool:
    return truthy(args[0]) if args else False


def _not_callable(name: str) -> Callable[..., Any]:
    def call(*_: Any) -> Any:
        raise Unsupported(f"flowctx does not reproduce calling {name}()")

    return call


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
        },
    ),
    "Boolean": _fn("Boolean", _boolean_call),
    "Array": _fn(
        "Array",
        _not_callable("Array"),
        {
            "isArray": _fn("isArray", _is_array),
            "of": _fn("of", _array_of),
            "from": _fn("from", _array_from),
        },
    ),
    "Object": _fn(
        "Object",
        _not_callable("Object"),
        {
            "keys": _fn("keys", _object_keys),
            "values": _fn("values", _object_values),
            "entries": _fn("entries", _object_entries),
            "hasOwn": _fn("hasOwn", _object_has_own),
            "is": _fn("is", _object_is),
            "fromEntries": _fn("fromEntries", _object_from_entries),
        },
    ),
    "Date": _fn("Date", _not_callable("Date"), {"now": _fn("now", _date_now)}),
    "parseInt": _fn("parseInt", _parse_int),
    "parseFloat": _fn("parseFloat", _parse_float),
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

# Globals of node through which the published evaluator runs code or reaches the host; an
# expression that names one is refused, never evaluated.
EXECUTING_GLOBALS: Final = frozenset(
    {
        "globalThis", "global", "process", "Function", "eval", "Reflect", "Proxy", "require",
        "module", "exports", "arguments", "import", "setTimeout", "setInterval", "setImmediate",
        "queueMicrotask", "clearTimeout", "clearInterval", "clearImmediate", "Buffer", "fetch",
        "WebAssembly", "console", "structuredClone", "Atomics", "SharedArrayBuffer", "Worker",
        "performance", "crypto", "self", "window", "document", "FinalizationRegistry",
        "WeakRef", "Symbol", "Promise", "__filename", "__dirname", "AsyncFunction",
        "GeneratorFunction",
    }
)  # fmt: skip
# Other globals node has: valid, harmless, but not reproduced by flowctx.
OTHER_GLOBALS: Final = frozenset(
    {
        "RegExp", "Error", "AggregateError", "EvalError", "RangeError", "ReferenceError",
        "SyntaxError", "TypeError", "URIError", "Intl", "ArrayBuffer", "Uint8Array",
        "Int8Array", "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float32Array",
        "Float64Array", "Uint8ClampedArray", "BigUint64Array", "BigInt64Array", "DataView",
        "Map", "BigInt", "Set", "WeakMap", "WeakSet", "decodeURI", "escape", "unescape",
        "URL", "URLSearchParams", "DOMException", "AbortController", "AbortSignal", "Event",
        "EventTarget", "TextEncoder", "TextDecoder", "atob", "btoa", "Blob", "File",
        "FormData", "Headers", "Request", "Response", "BroadcastChannel", "MessageChannel",
        "MessagePort", "MessageEvent", "CustomEvent", "Crypto", "CryptoKey", "SubtleCrypto",
    }
)  # fmt: skip
# Namespaces and the members completion offers on them.
NAMESPACES: Final[dict[str, frozenset[str]]] = {
    name: frozenset(k for k in value.members if not k.isupper() and k[0].islower())
    for name, value in GLOBALS.items()
    if isinstance(value, (JsFunction, JsNamespace)) and value.members
}

# What completion offers: the methods and globals MemberJunction documents (REFERENCE.md
# section 7 and the engine's SAFE_METHODS list), not every built-in the evaluator reproduces.
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
                    fn.arity = BUILTIN_LENGTHS.get(f"{name}.{member}")


_set_arities()
