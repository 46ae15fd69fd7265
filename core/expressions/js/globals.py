"""The safe JavaScript globals (``Math``, ``JSON``, ``Number``, ``Object``...) an expression may
reach, the globals refused as code execution, and what completion offers.
"""

from __future__ import annotations

import json
import math
import random
import time
import urllib.parse
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.common import BUILTIN_LENGTHS, Unsupported, _call
from flowctx_core.expressions.js.objects import _obj_has_own, get_member
from flowctx_core.expressions.js.values import (
    ELEMENT,
    JS_WHITESPACE,
    MAX_STRING_LENGTH,
    UNDEFINED,
    JsError,
    JsFunction,
    JsNamespace,
    check_length,
    from_units,
    is_nullish,
    is_number,
    js_value,
    number,
    number_to_string,
    own_keys,
    property_key,
    strict_eq,
    to_int,
    to_number,
    to_string,
    too_long,
    truthy,
    utf16_length,
)

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
    from flowctx_core.expressions.js.values import js_pow

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
                    fn.arity = BUILTIN_LENGTHS.get(f"{name}.{member}")


_set_arities()
