"""Smaller built-ins node exposes to a condition: ``call``/``apply``/``bind`` of functions,
``toExponential``, ``toString(radix)`` of fractions (V8's digit loop), ``copyWithin``, array
iterators, ``JSON.stringify`` with a replacer, ``escape``/``unescape``,
``decodeURI``/``decodeURIComponent`` (the specification's Decode), and the legacy string HTML
methods (``'x'.bold()``).

``register`` puts them in the method tables and globals; each is written from the
specification and checked against node 20.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js import prototypes
from flowctx_core.expressions.js import values as js
from flowctx_core.expressions.js.common import (
    ARGUMENTS_ALWAYS_HELD,
    LENT,
    Unsupported,
    _mutating,
    _relative,
    check_arguments,
)
from flowctx_core.expressions.js.iterators import ITERATOR_ITSELF, SEGMENTS_ITERATOR, JsIterator
from flowctx_core.expressions.js.values import (
    ELEMENT,
    MAX_STRING_LENGTH,
    UNDEFINED,
    JsError,
    JsFunction,
    JsObject,
)

# --- Function.prototype.call / apply / bind ------------------------------------------------------


def _receiver_kind(fn: JsFunction) -> str | None:
    """The prototype a method reads ``this`` from ('String.prototype'...), None: no ``this``."""
    ident = fn.ident or ""
    owner, _, _ = ident.rpartition(".")
    if owner in _CLASS_BOUND:
        return None  # its receiver must be of its own class: checked as the object's method
    if owner.endswith(".prototype") and isinstance(fn.fn, functools.partial):
        return owner
    return None


_ARTICLE: Final = {"object": "an object", "undefined": "a undefined"}


def _function_method(name: str, target: Any) -> Callable[..., Any]:
    """``Function.prototype[name]`` (call, apply, bind) run with ``target`` as its ``this``:
    the function it calls, or V8's TypeError when ``target`` is none."""
    if type(target) is JsFunction:
        member = function_member(target, name)
        assert member is not None
        return member.fn
    if name == "bind":
        raise JsError("Bind must be called on a function")

    def non_callable(this: Any = UNDEFINED, array: Any = UNDEFINED, *_: Any) -> Any:
        if name == "apply" and not js.is_nullish(array):
            kind = "null" if target is None else js.typeof(target)
            which = "null" if target is None else _ARTICLE.get(kind, f"a {kind}")
            raise JsError(
                f"Function.prototype.apply was called on {js.shown_value(target)}, which is "
                f"{which} and not a function",
                anonymous=f"Function.prototype.apply was called on a value which is {which} "
                "and not a function",
            )
        raise js.CalledNonCallable(f"{js.default_call_site(target)} is not a function")

    return non_callable


#: prototypes whose methods are bound to an object of their class (a RegExp, a Date, a
#: Map, a Set)
_CLASS_BOUND: Final = frozenset(
    {"RegExp.prototype", "Date.prototype", "Map.prototype", "Set.prototype"}
)


def _with_this(fn: JsFunction, this: Any) -> Callable[..., Any]:
    """``fn`` as a call with ``this`` as its receiver."""
    if fn.proxy is not None:  # a Proxy around a function: its apply trap sees ``this``
        return lambda *args: LENT["call_with_this"](fn, this, list(args))
    if fn.ident == ITERATOR_ITSELF:  # %IteratorPrototype%[@@iterator] returns any this
        return lambda *_: this
    if fn.ident == SEGMENTS_ITERATOR:  # its receiver checked as call_with_this checks it
        return lambda *args: LENT["call_with_this"](fn, this, list(args))
    inner = prototypes.unwrap(fn)
    if inner is not fn:  # a method read from a prototype for fn.receiver
        if this is fn.receiver:
            return fn.fn
        fn = inner
    this = prototypes.receiver(fn, this)
    if fn.ident in ("Function.prototype.call", "Function.prototype.apply",
                    "Function.prototype.bind"):  # fmt: skip
        return _function_method(fn.ident.rpartition(".")[2], this)
    host = getattr(fn.receiver, "js_call_with", None) if fn.method is not None else None
    if host is not None:  # a host class's method (typed arrays, URL...) decides
        member = fn.ident.rpartition(".")[2] if fn.ident else fn.name
        return lambda *args: host(member, this, list(args))
    kind, _, name = (fn.ident or "").partition(".prototype.")
    if kind in ("WeakMap", "WeakSet", "WeakRef"):
        if type(this).__name__ == "JsWeakCollection" and this.kind == kind:
            return this.js_get(name).fn  # its class method, whatever its chain
        raise JsError(
            f"Method {kind}.prototype.{name} called on incompatible receiver "
            f"{js.shown_value(this)}",
            anonymous=f"Method {kind}.prototype.{name} called on incompatible receiver",
        )
    if kind in ("Symbol", "BigInt"):
        # thisSymbolValue / thisBigIntValue: the primitive itself or its wrapper's
        prim = this.js_primitive() if type(this).__name__ == "JsWrapper" else this
        if js.typeof(prim) != kind.lower():
            raise JsError(f"{kind}.prototype.{name} requires that 'this' be a {kind}")
        return LENT["get_member"](prim, name).fn
    owner = _receiver_kind(fn)
    if fn.ident == "Object.prototype.toString":
        to_string_of = LENT["object_to_string"]
        return lambda *_: to_string_of(this)
    if fn.method is not None and owner in ("String.prototype", "Array.prototype"):
        # a prototype's method read from a value, called on another: ECMAScript's rules
        detached = LENT["call_with_this"]
        return lambda *args: detached(fn, this, list(args))
    if owner is None:
        if isinstance(fn.fn, functools.partial) and fn.fn.args and fn.source is None:
            # a method of a Date, RegExp, Map...: its receiver must be one of the same class
            bound = fn.fn.args[-1]
            if isinstance(bound, JsObject) and this is not bound:
                if type(this) is not type(bound) or _kind(this) != _kind(bound):
                    return _incompatible(bound, fn.name, this)
                return functools.partial(fn.fn.func, *fn.fn.args[:-1], this)
        return fn.fn  # a static function or an arrow: this is not read
    assert isinstance(fn.fn, functools.partial)
    method = fn.fn.func
    name = fn.name
    if owner == "String.prototype":
        if js.is_nullish(this):
            shown = {"trimStart": "trimLeft", "trimEnd": "trimRight"}.get(name, name)
            raise JsError(f"String.prototype.{shown} called on null or undefined")
        return functools.partial(method, js.to_string(this))
    if owner == "Array.prototype":
        if type(this) is list or type(this) is tuple:
            return functools.partial(method, this)
        # ECMAScript's array methods are generic: on another value as a detached call runs them
        detached = LENT["call_with_this"]
        return lambda *args: detached(fn, this, list(args))
    if owner == "Number.prototype":
        if not js.is_number(this):
            raise JsError(f"Number.prototype.{name} requires that 'this' be a Number")
        return functools.partial(method, this)
    if owner == "Error.prototype":
        return functools.partial(method, this)  # generic: it checks its receiver itself
    if owner == "Function.prototype":
        if type(this) is not JsFunction:
            raise JsError(f"Function.prototype.{name} requires that 'this' be a Function")
        return functools.partial(method, this)
    if owner == "Boolean.prototype":
        if this is not True and this is not False:
            raise JsError(f"Boolean.prototype.{name} requires that 'this' be a Boolean")
        return functools.partial(method, this)
    if owner == "Object.prototype" and name == "isPrototypeOf":
        return lambda v=UNDEFINED, *_: prototypes.is_prototype_of(this, v)
    keyed = name in ("hasOwnProperty", "propertyIsEnumerable")
    if owner == "Object.prototype" and keyed and js.is_nullish(this):

        def key_first(key: Any = UNDEFINED, *_: Any) -> Any:
            js.property_key(key)  # ToPropertyKey comes before ToObject(this)
            raise JsError("Cannot convert undefined or null to object")

        return key_first
    if js.is_nullish(this):
        if owner == "Object.prototype" and name == "toLocaleString":
            raise JsError("Object.prototype.toLocaleString called on null or undefined")
        raise JsError("Cannot convert undefined or null to object")
    if owner == "Object.prototype" and name == "valueOf":
        boxed = this if js.typeof(this) in ("object", "function") else LENT["new_object"](this)
        return lambda *_: boxed  # ToObject
    return functools.partial(method, this)


def _kind(obj: Any) -> str:
    """The built-in class of an object made here: Date, RegExp, Map, Set..."""
    name = type(obj).__name__
    if name == "JsCollection":
        return "Set" if obj.is_set else "Map"
    return name.removeprefix("Js")


def _incompatible(bound: Any, name: str, this: Any) -> Callable[..., Any]:
    """A Date's, RegExp's, Map's or Set's method called on another value: the generic ones
    (Date's toJSON, RegExp's toString) run, the others throw V8's TypeError for the class."""
    kind = _kind(bound)
    get_member = LENT["get_member"]
    if kind == "Date" and name == "toJSON":
        if js.is_nullish(this):
            raise JsError("Cannot convert undefined or null to object")

        def to_json(*_: Any) -> Any:
            prim = this
            if js.typeof(this) in ("object", "function"):
                prim = js.to_primitive(this, "number")
            if type(prim) in (int, float) and (prim != prim or prim in (math.inf, -math.inf)):
                return None
            method = get_member(this, "toISOString")
            if type(method) is not JsFunction:
                raise JsError("toISOString is not a function")
            return _with_this(method, this)()

        return to_json
    regexp_like = this is not None and js.typeof(this) in ("object", "function")
    if kind == "RegExp" and name == "toString" and regexp_like:
        source, flags = get_member(this, "source"), get_member(this, "flags")
        return lambda *_: f"/{js.to_string(source)}/{js.to_string(flags)}"
    if kind == "RegExp" and name.startswith("[Symbol."):
        symbol = name.removeprefix("[Symbol.").removesuffix("]")
        if regexp_like:  # run generically, through the object's exec and flags
            raise Unsupported(
                f"flowctx does not reproduce RegExp.prototype[Symbol.{symbol}] called on "
                "another object"
            )
        # V8's @@replace names no primitive receiver (it shows undefined); the others do
        shown = "undefined" if symbol == "replace" else js.shown_value(this)
        raise JsError(
            f"Method RegExp.prototype.@@{symbol} called on incompatible receiver {shown}",
            anonymous=f"Method RegExp.prototype.@@{symbol} called on incompatible receiver",
        )
    shown = js.shown_value(this)
    if kind == "Date":
        if (name.startswith("get") and name != "getYear") or name == "valueOf":
            raise JsError("this is not a Date object.")
        name = "toUTCString" if name == "toGMTString" else name
    elif kind == "Set" and name == "keys":
        name = "values"  # one function under two names
    elif kind == "RegExp" and name == "test":
        if regexp_like:

            def test_other(subject: Any = UNDEFINED, *_: Any) -> Any:
                js.to_string(subject)  # the subject is converted before exec is looked for
                raise JsError(
                    f"Method RegExp.prototype.exec called on incompatible receiver {shown}",
                    anonymous="Method RegExp.prototype.exec called on incompatible receiver",
                )

            return test_other
        shown = "undefined"
    raise JsError(
        f"Method {kind}.prototype.{name} called on incompatible receiver {shown}",
        anonymous=f"Method {kind}.prototype.{name} called on incompatible receiver",
    )


LENT["with_this"] = _with_this
LENT["function_member"] = lambda fn, key: function_member(fn, key)


def args_of(array: Any) -> list[Any]:
    if js.is_nullish(array):
        return []
    if type(array) is list or type(array) is tuple:
        charge(ELEMENT * len(array))
        if len(array) > ARGUMENTS_ALWAYS_HELD:
            check_arguments(len(array))
        return [UNDEFINED if x is js.HOLE else js.js_value(x) for x in array]
    if js.typeof(array) not in ("object", "function"):  # a primitive: BigInt, Symbol too
        raise JsError("CreateListFromArrayLike called on non-object")
    # any other object is array-like by its length (a function's arity, a typed array's)
    get_member = LENT["get_member"]
    n = int(min(max(js.to_int(get_member(array, "length")), 0), MAX_STRING_LENGTH))
    charge(ELEMENT * n)
    if n > ARGUMENTS_ALWAYS_HELD:
        check_arguments(n)
    return [get_member(array, str(i)) for i in range(n)]


def _member_of(fn: JsFunction, member: JsFunction) -> JsFunction:
    """Function.prototype's method read off ``fn``: called without it, it runs on its receiver
    (call_with_this dispatches it)."""
    member.method, member.receiver = _with_this, fn
    return member


def function_member(fn: JsFunction, key: str) -> JsFunction | None:
    """``fn.call``, ``fn.apply`` and ``fn.bind``; None for other keys."""
    if key == "call":

        def call(this: Any = UNDEFINED, *args: Any) -> Any:
            return _with_this(fn, this)(*args)

        return _member_of(fn, JsFunction("call", call, arity=1, ident="Function.prototype.call"))
    if key == "apply":

        def apply(this: Any = UNDEFINED, array: Any = UNDEFINED, *_: Any) -> Any:
            return _with_this(fn, this)(*args_of(array))

        return _member_of(fn, JsFunction("apply", apply, arity=2, ident="Function.prototype.apply"))
    if key == "bind":

        def bind(this: Any = UNDEFINED, *bound: Any) -> JsFunction:
            target = _with_this(fn, this)

            def bound_call(*args: Any) -> Any:
                return target(*bound, *args)

            # the target's own length (none: 0) and name (inherited '' once deleted)
            arity = max((fn.arity or 0) - len(bound), 0) if fn.owns_own("length") else 0
            name = fn.name if fn.owns_own("name") else ""
            return JsFunction(f"bound {name}", bound_call, arity=arity)

        return _member_of(fn, JsFunction("bind", bind, arity=1, ident="Function.prototype.bind"))
    return None


# --- numbers ------------------------------------------------------------------------------------


def to_exponential(x: Any, digits: Any = UNDEFINED, *_: Any) -> str:
    f = js.to_int(digits)
    if x != x or x in (math.inf, -math.inf):
        return js.number_to_string(x)
    if not 0 <= f <= 100:
        raise JsError("toExponential() argument must be between 0 and 100")
    sign = "-" if x < 0 else ""
    v = abs(float(x))
    if v == 0:
        mant = "0" + ("." + "0" * int(f) if digits is not UNDEFINED and f > 0 else "")
        return f"{sign if x != 0 else ''}{mant}e+0"
    if digits is UNDEFINED:
        d, point = js._shortest(v)  # the shortest digits that read back as v
        e = point - 1
        mant = d[0] + ("." + d[1:] if len(d) > 1 else "")
    else:
        from decimal import ROUND_HALF_UP, Decimal, localcontext  # with its first use

        n = int(f)
        with localcontext() as ctx:
            ctx.prec = 1200  # a double's exact decimal value has at most 767 digits
            exact = Decimal(v)
            e = exact.adjusted()
            q = exact.scaleb(-e).quantize(Decimal(1).scaleb(-n), rounding=ROUND_HALF_UP)
            if q >= 10:
                e += 1
                q = exact.scaleb(-e).quantize(Decimal(1).scaleb(-n), rounding=ROUND_HALF_UP)
            mant = f"{q:f}"
    return f"{sign}{mant}e{'+' if e >= 0 else '-'}{abs(e)}"


_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


def radix_string(value: float, radix: int) -> str:
    """V8's DoubleToRadixCString (src/numbers/conversions.cc): the integer part by repeated
    division in doubles, the fraction digit by digit until it is within half an ulp."""
    negative = value < 0
    value = abs(value)
    integer = math.floor(value)
    fraction = value - integer
    delta = max(0.5 * (math.nextafter(value, math.inf) - value), math.nextafter(0.0, 1.0))
    frac_digits: list[int] = []
    if fraction >= delta:
        while True:
            charge(ELEMENT)
            fraction *= radix
            delta *= radix
            digit = int(fraction)
            frac_digits.append(digit)
            fraction -= digit
            if (fraction > 0.5 or (fraction == 0.5 and digit & 1)) and fraction + delta > 1:
                # round up, carrying into the integer part when every digit overflows
                while True:
                    if not frac_digits:
                        integer += 1
                        break
                    last = frac_digits.pop() + 1
                    if last < radix:
                        frac_digits.append(last)
                        break
                break
            if fraction < delta:
                break
    int_digits: list[str] = []
    x = float(integer)
    while math.frexp(x / radix)[1] > 53:  # Double(integer / radix).Exponent() > 0
        x /= radix
        int_digits.append("0")
    while True:
        remainder = math.fmod(x, radix)
        int_digits.append(_DIGITS[int(remainder)])
        x = (x - remainder) / radix
        if x <= 0:
            break
    text = "".join(reversed(int_digits))
    if frac_digits:
        text += "." + "".join(_DIGITS[d] for d in frac_digits)
    return ("-" if negative else "") + text


# --- arrays -------------------------------------------------------------------------------------


def copy_within(arr: list[Any], target: Any = UNDEFINED, *args: Any) -> list[Any]:
    _mutating()
    n = len(arr)
    to = _relative(target, n, 0)
    start = _relative(args[0] if args else UNDEFINED, n, 0)
    end = _relative(args[1] if len(args) > 1 else UNDEFINED, n, n)
    count = min(end - start, n - to)
    if count > 0:
        charge(ELEMENT * count)
        arr[to : to + count] = arr[start : start + count]
    return arr


def _iterator(kind: str) -> Callable[..., JsIterator]:
    def make(arr: list[Any], *_: Any) -> JsIterator:
        charge(ELEMENT * len(arr))
        return JsIterator("Array Iterator", [], arr, kind)

    return make


# --- strings ------------------------------------------------------------------------------------


def _html(tag: str, attribute: str = "") -> Callable[..., str]:
    """``String.prototype.anchor`` and its kin: CreateHTML (a quote in the value becomes
    &quot;)."""

    def make(s: str, value: Any = UNDEFINED, *_: Any) -> str:
        open_tag = tag
        if attribute:
            shown = js.to_string(value).replace('"', "&quot;")
            open_tag = f'{tag} {attribute}="{shown}"'
        return js.check_length(f"<{open_tag}>{s}</{tag}>")

    return make


HTML_METHODS: Final[dict[str, Callable[..., str]]] = {
    "anchor": _html("a", "name"), "big": _html("big"), "blink": _html("blink"),
    "bold": _html("b"), "fixed": _html("tt"), "fontcolor": _html("font", "color"),
    "fontsize": _html("font", "size"), "italics": _html("i"), "link": _html("a", "href"),
    "small": _html("small"), "strike": _html("strike"), "sub": _html("sub"),
    "sup": _html("sup"),
}  # fmt: skip

_ESCAPE_SAFE: Final = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@*_+-./"
)


def escape(x: Any = UNDEFINED, *_: Any) -> str:
    units = js.to_units(js.to_string(x))
    charge(ELEMENT * len(units))
    out = []
    for c in units:
        o = ord(c)
        if c in _ESCAPE_SAFE:
            out.append(c)
        elif o < 256:
            out.append(f"%{o:02X}")
        else:
            out.append(f"%u{o:04X}")
    return js.check_length("".join(out))


def unescape(x: Any = UNDEFINED, *_: Any) -> str:
    s = js.to_units(js.to_string(x))
    charge(ELEMENT * len(s))
    out = []
    i, n = 0, len(s)
    hexdigits = "0123456789abcdefABCDEF"
    while i < n:
        c = s[i]
        if c == "%":
            if (
                s[i + 1 : i + 2] == "u"
                and i + 6 <= n
                and all(h in hexdigits for h in s[i + 2 : i + 6])
            ):
                out.append(chr(int(s[i + 2 : i + 6], 16)))
                i += 6
                continue
            if i + 3 <= n and all(h in hexdigits for h in s[i + 1 : i + 3]):
                out.append(chr(int(s[i + 1 : i + 3], 16)))
                i += 3
                continue
        out.append(c)
        i += 1
    return js.from_units("".join(out))


_URI_RESERVED: Final = frozenset(";/?:@&=+$,#")


def _decode(s: str, reserved: frozenset[str]) -> str:
    """The specification's Decode: %XX sequences as UTF-8 (a reserved character stays
    escaped); anything malformed is a URIError."""
    units = js.to_units(s)
    charge(ELEMENT * len(units))
    if "%" not in units:
        return s
    out: list[str] = []
    i, n = 0, len(units)
    hexdigits = "0123456789abcdefABCDEF"

    def byte_at(k: int) -> int:
        if k + 3 > n or units[k] != "%" or not all(h in hexdigits for h in units[k + 1 : k + 3]):
            raise JsError("URI malformed")
        return int(units[k + 1 : k + 3], 16)

    while i < n:
        c = units[i]
        if c != "%":
            out.append(c)
            i += 1
            continue
        b = byte_at(i)
        if b < 0x80:
            ch = chr(b)
            out.append(units[i : i + 3] if ch in reserved else ch)
            i += 3
            continue
        count = 2 if 0xC0 <= b < 0xE0 else 3 if 0xE0 <= b < 0xF0 else 4 if 0xF0 <= b < 0xF8 else 0
        if count == 0:
            raise JsError("URI malformed")
        raw = bytearray([b])
        for k in range(1, count):
            nb = byte_at(i + 3 * k)
            if nb & 0xC0 != 0x80:
                raise JsError("URI malformed")
            raw.append(nb)
        try:
            text = raw.decode("utf-8")  # strict: overlong forms and surrogates are refused
        except UnicodeDecodeError:
            raise JsError("URI malformed") from None
        out.append(js.to_units(text))
        i += 3 * count
    return js.from_units("".join(out))


def decode_uri(x: Any = UNDEFINED, *_: Any) -> str:
    return _decode(js.to_string(x), _URI_RESERVED)


def decode_uri_component(x: Any = UNDEFINED, *_: Any) -> str:
    return _decode(js.to_string(x), frozenset())


# --- JSON.stringify with a replacer -------------------------------------------------------------


class _Serializer:
    """SerializeJSONProperty and friends (ECMA-262 25.5.2), for a replacer function or list."""

    def __init__(self, fn: JsFunction | None, keys: list[str] | None, gap: str) -> None:
        self.fn, self.keys, self.gap = fn, keys, gap
        self.stack: list[int] = []
        self.size = 0

    def grow(self, n: int) -> None:
        self.size += n
        if self.size > 2 * MAX_STRING_LENGTH:
            raise js.too_long()

    def prop(self, holder: Any, key: str, value: Any, indent: str) -> str | None:
        from flowctx_core.expressions.js.bigint import JsBigInt

        JsWrapper, JsDate = LENT["JsWrapper"], LENT["JsDate"]

        charge(6 * ELEMENT)
        value = js.js_value(value)
        if value is js.HOLE:
            value = UNDEFINED
        if type(value) is JsBigInt or (
            value is not None and js.typeof(value) in ("object", "function")
        ):
            # SerializeJSONProperty: a toJSON the value has, own or inherited (a Date's),
            # called with the key, before the replacer sees the value
            to_json = LENT["get_member"](value, "toJSON")
            if type(to_json) is JsFunction:
                if to_json.method is not None:
                    value = js.js_value(LENT["call_with_this"](to_json, value, [key]))
                else:
                    value = js.js_value(to_json.fn(key))
        if isinstance(value, JsDate):
            value = value.js_json()
        if self.fn is not None:
            value = self.fn.fn(key, value)
        if isinstance(value, JsWrapper) and js.typeof(value.value) != "symbol":
            value = value.value  # a Symbol object serializes as an ordinary one
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        t = type(value)
        if t is str:
            return _quote(value)
        if t is int or t is float:
            return js.number_to_string(value) if math.isfinite(value) else "null"
        if t is JsBigInt:
            raise JsError("Do not know how to serialize a BigInt")
        if value is UNDEFINED or t is JsFunction:
            return None
        if t is list or t is tuple:
            return self.array(value, indent)
        if isinstance(value, JsObject):
            value = value.js_json()
            if not isinstance(value, dict):
                return self.prop(holder, key, value, indent)
        if isinstance(value, Mapping):
            return self.object(value, indent)
        return None

    def enter(self, value: Any) -> None:
        if id(value) in self.stack:
            raise JsError("Converting circular structure to JSON")
        if len(self.stack) > 2000:
            raise JsError("Maximum call stack size exceeded")
        self.stack.append(id(value))

    def object(self, value: Mapping[Any, Any], indent: str) -> str:
        get_member = LENT["get_member"]
        self.enter(value)
        inner = indent + self.gap
        keys = self.keys if self.keys is not None else js.own_keys(value)
        parts = []
        for k in keys:
            # a property list reads each key with Get: an object made on another
            # (Object.create) finds it along its chain
            if (
                self.keys is not None
                and not js.own_has(value, k)
                and type(value) is not js.JsCreated
            ):
                continue
            text = self.prop(value, k, get_member(value, k), inner)
            if text is not None:
                piece = _quote(k) + (": " if self.gap else ":") + text
                self.grow(len(piece) + len(inner) + 2)
                parts.append(piece)
        self.stack.pop()
        if not parts:
            return "{}"
        if self.gap:
            return "{\n" + inner + (",\n" + inner).join(parts) + "\n" + indent + "}"
        return "{" + ",".join(parts) + "}"

    def array(self, value: Any, indent: str) -> str:
        self.enter(value)
        inner = indent + self.gap
        parts = []
        for i, x in enumerate(value):
            text = self.prop(value, str(i), x, inner)
            piece = "null" if text is None else text
            self.grow(len(piece) + len(inner) + 2)
            parts.append(piece)
        self.stack.pop()
        if not parts:
            return "[]"
        if self.gap:
            return "[\n" + inner + (",\n" + inner).join(parts) + "\n" + indent + "]"
        return "[" + ",".join(parts) + "]"


def _quote(s: str) -> str:
    return LENT["quote"](s)  # type: ignore[no-any-return]


def _gap(space: Any) -> str:
    if isinstance(space, LENT["JsWrapper"]):
        space = space.value
    if js.is_number(space):
        return " " * int(min(max(js.to_int(space), 0), 10))
    if type(space) is str:
        return js.from_units(js.to_units(space)[:10])
    return ""


def stringify(
    plain: Callable[..., Any],
) -> Callable[..., Any]:
    """``JSON.stringify`` with a replacer (function or list); without one, ``plain``."""

    def call(
        value: Any = UNDEFINED, replacer: Any = UNDEFINED, space: Any = UNDEFINED, *_: Any
    ) -> Any:
        JsWrapper = LENT["JsWrapper"]
        fn: JsFunction | None = None
        keys: list[str] | None = None
        if type(replacer) is JsFunction:
            fn = replacer
        elif type(replacer) is list or type(replacer) is tuple:
            keys = []
            for item in replacer:
                if isinstance(item, JsWrapper):
                    item = item.value
                if type(item) is str or js.is_number(item):
                    k = js.to_string(item)
                    if k not in keys:
                        keys.append(k)
        else:
            if isinstance(space, JsWrapper):
                space = space.value  # new Number(3) as space is 3
            return plain(value, UNDEFINED, space)
        serializer = _Serializer(fn, keys, _gap(space))
        text = serializer.prop({"": value}, "", value, "")
        return UNDEFINED if text is None else js.check_length(text)

    return call


# --- registration -------------------------------------------------------------------------------


# --- atob / btoa (WHATWG's forgiving-base64, node's error texts) --------------------------------

_B64: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_WHITESPACE: Final = "\t\n\f\r "


def _base64_input(args: tuple[Any, ...]) -> str:
    if not args:
        raise JsError('The "input" argument must be specified')
    return js.to_string(args[0])


def btoa(*args: Any) -> str:
    """Each UTF-16 unit below 256 a byte, the bytes in base64; any other unit refused."""
    units = js.to_units(_base64_input(args))
    if any(ord(u) > 0xFF for u in units):
        raise JsError("Invalid character")
    charge(len(units) // 4 + 1)
    data = units.encode("latin-1")
    out = []
    for i in range(0, len(data), 3):
        chunk = data[i : i + 3]
        n = int.from_bytes(chunk.ljust(3, b"\0"), "big")
        digits = [_B64[(n >> s) & 63] for s in (18, 12, 6, 0)]
        out.append("".join(digits[: len(chunk) + 1]) + "=" * (3 - len(chunk)))
    return "".join(out)


def atob(*args: Any) -> str:
    """Forgiving-base64 decode: ASCII whitespace skipped, at most two '=' and only at the end
    of a length that is a multiple of four; each byte a character (latin-1)."""
    text = _base64_input(args)
    charge(len(text) // 4 + 1)
    digits: list[int] = []
    equals = 0
    for ch in text:
        if ch in _B64_WHITESPACE:
            continue
        if ch == "=":
            equals += 1
            if equals > 2:
                raise JsError("Invalid character")
            continue
        if equals or ch not in _B64:
            raise JsError("Invalid character")
        digits.append(_B64.index(ch))
    if equals and (len(digits) + equals) % 4:
        raise JsError("Invalid character")
    if len(digits) % 4 == 1:
        raise JsError("The string to be decoded is not correctly encoded.")
    out = bytearray()
    for i in range(0, len(digits), 4):
        group = digits[i : i + 4]
        n = 0
        for d in group:
            n = n << 6 | d
        n <<= 6 * (4 - len(group))
        out.extend(n.to_bytes(3, "big")[: len(group) - 1])
    return out.decode("latin-1")


def register(globals_: dict[str, Any], number_methods: dict[str, Any]) -> None:
    from flowctx_core.expressions.js.arrays import ARRAY_METHODS
    from flowctx_core.expressions.js.strings import STRING_METHODS

    ARRAY_METHODS.update(
        {"copyWithin": copy_within, "keys": _iterator("keys"), "values": _iterator("values"),
         "entries": _iterator("entries")}
    )  # fmt: skip
    STRING_METHODS.update(HTML_METHODS)
    number_methods["toExponential"] = to_exponential
    globals_["escape"] = JsFunction("escape", escape, arity=1)
    # written in JavaScript in node: their text is node's source (``values.function_text``)
    globals_["atob"] = JsFunction("atob", atob, arity=1, ident="node function atob")
    globals_["btoa"] = JsFunction("btoa", btoa, arity=1, ident="node function btoa")
    globals_["unescape"] = JsFunction("unescape", unescape, arity=1)
    globals_["decodeURI"] = JsFunction("decodeURI", decode_uri, arity=1)
    globals_["decodeURIComponent"] = JsFunction("decodeURIComponent", decode_uri_component, arity=1)
    json = globals_["JSON"]
    plain = json.members["stringify"]
    plain.fn = stringify(plain.fn)
