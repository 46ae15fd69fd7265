"""JavaScript BigInt: literals (``10n``, ``0x1Fn``), ``BigInt()``, arithmetic, comparison and
equality with V8's rules and messages (mixing a BigInt with a Number in arithmetic is a
TypeError; comparing them is allowed and exact).

BigInts only come from the condition's own text (a JSON scope cannot hold one), so the
compiler uses the BigInt-aware operators here only for a condition that mentions them; every
other condition keeps the plain operators of ``values``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.base.lazyre import pattern
from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js import values as js
from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.values import (
    JS_WHITESPACE,
    UNDEFINED,
    JsError,
    JsFunction,
    JsObject,
)

#: the largest BigInt flowctx builds, in bits
MAX_BITS: Final = 1_000_000
#: V8's own limit: past it node throws "Maximum BigInt size exceeded"
V8_MAX_BITS: Final = 2**30


def _too_big(bits: int) -> Exception:
    if bits > V8_MAX_BITS:
        return JsError("Maximum BigInt size exceeded")
    return Unsupported(
        f"flowctx's bound: BigInts of more than {MAX_BITS:,} bits are not built (node's own "
        "limit is 2**30 bits; node would go on)"
    )


MIX: Final = "Cannot mix BigInt and other types, use explicit conversions"
#: Python converts at most 4,300 decimal digits at once (a guard against its quadratic
#: conversion); larger ones are split in halves, each converted on its own
_DIRECT_DIGITS: Final = 4000


def decimal_text(n: int) -> str:
    """``str(n)`` at any size."""
    if n < 0:
        return "-" + decimal_text(-n)
    if n.bit_length() <= _DIRECT_DIGITS * 3:  # fewer than ~3,600 digits
        return str(n)
    charge(n.bit_length() // 64)
    half = int(n.bit_length() * 0.30102999566398) // 2
    high, low = divmod(n, 10**half)
    return decimal_text(high) + decimal_text(low).zfill(half)


def decimal_value(digits: str) -> int:
    """``int(digits)`` (ASCII digits, a sign first at most) at any length."""
    if len(digits) <= _DIRECT_DIGITS:
        return int(digits)
    sign = -1 if digits[0] == "-" else 1
    digits = digits.lstrip("+-")
    charge(len(digits) // 16)
    half = len(digits) // 2
    return sign * (decimal_value(digits[:-half]) * 10**half + decimal_value(digits[-half:]))


class JsBigInt(JsObject):
    """A BigInt value (a primitive: typeof 'bigint', equal by value)."""

    __slots__ = ("big",)

    def __init__(self, big: int) -> None:
        if big.bit_length() > MAX_BITS:
            raise _too_big(big.bit_length())
        self.big = big

    def __repr__(self) -> str:
        return f"{decimal_text(self.big)}n"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JsBigInt) and other.big == self.big

    def __hash__(self) -> int:
        return hash(("bigint", self.big))

    def js_typeof(self) -> str:
        return "bigint"

    def js_primitive(self, hint: str = "default") -> Any:
        if hint == "number":
            raise JsError("Cannot convert a BigInt value to a number")
        return decimal_text(self.big)

    def js_truthy(self) -> bool:
        return self.big != 0

    def js_json(self) -> Any:
        raise JsError("Do not know how to serialize a BigInt")

    def js_get(self, key: str) -> Any:
        ident = f"BigInt.prototype.{key}"
        if key == "toString":
            return JsFunction("toString", self._to_string, arity=0, ident=ident)
        if key == "valueOf":
            return JsFunction(key, lambda *_: self, arity=0, ident=ident)
        if key == "toLocaleString":  # en-US grouping, as node 20 prints it; else Intl's
            return JsFunction(key, self._to_locale_string, arity=0, ident=ident)
        return UNDEFINED

    def js_set(self, key: str, value: Any) -> None:
        raise JsError(
            f"Cannot create property '{key}' on bigint '{decimal_text(self.big)}'",
            anonymous=f"Cannot create property '{key}' on bigint",
        )

    def _to_locale_string(self, locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> str:
        from flowctx_core.expressions.js.intl.locales import default_locale, refuse_cached_empty

        refuse_cached_empty(locales, options, "BigInt.prototype.toLocaleString")
        if locales is UNDEFINED and options is UNDEFINED and default_locale() == "en-US":
            return _grouped(decimal_text(self.big))
        from flowctx_core.expressions.js import intl

        service = "BigInt.prototype.toLocaleString"
        formatter = intl.service("numberformat").construct(locales, options, service=service)
        text: str = formatter.format(self)
        return text

    def _to_string(self, radix: Any = UNDEFINED, *_: Any) -> str:
        n_radix = 10 if radix is UNDEFINED else js.to_int(radix)
        if not 2 <= n_radix <= 36:
            raise JsError("toString() radix argument must be between 2 and 36")
        r = int(n_radix)
        n = abs(self.big)
        charge(n.bit_length() // 8 + 1)
        if r == 10:
            return decimal_text(self.big)
        return ("-" if self.big < 0 else "") + _radix_text(n, r)


_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


def _radix_text(n: int, radix: int) -> str:
    """The digits of ``n`` >= 0 in ``radix``: digit by digit when small, else split in
    halves (digit by digit is quadratic in the length)."""
    if n.bit_length() <= 2048:
        out = []
        while True:
            n, d = divmod(n, radix)
            out.append(_DIGITS[d])
            if n == 0:
                return "".join(reversed(out))
    half = int(n.bit_length() / math.log2(radix)) // 2
    high, low = divmod(n, radix**half)
    return _radix_text(high, radix) + _radix_text(low, radix).rjust(half, "0")


def _grouped(text: str) -> str:
    """Groups of three digits with commas (en-US), a sign kept in front."""
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    head = len(digits) % 3 or 3
    groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return sign + ",".join(groups)


def _is(v: Any) -> bool:
    return type(v) is JsBigInt


_INT_TEXT: Final = r"[+-]?[0-9]+|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+"


def _unboxed(v: Any) -> Any:
    """A BigInt's wrapper without own properties (Object(1n)) as the operators take it: its
    ToPrimitive is the BigInt, so Object(1n) + 1n is 2n and Object(1n) * 2 mixes types (the
    wrapper was taken for an object with no number, NaN)."""
    inner = getattr(v, "value", None) if isinstance(v, JsObject) and not _is(v) else None
    if inner is not None and _is(inner) and not getattr(v, "props", True):
        return inner
    return v


def _primitive(v: Any) -> bool:
    return v is None or v is UNDEFINED or type(v) in (str, int, float, bool) or _is(v)


def from_string(s: str) -> int | None:
    """StringToBigInt: None where the text is not an integer literal."""
    t = s.strip(JS_WHITESPACE)
    if not t:
        return 0
    if pattern(_INT_TEXT).fullmatch(t) is None:
        return None
    charge(len(t))
    if len(t) > MAX_BITS // 4:
        raise _too_big(len(t) * 3)
    return int(t, 0) if t[:2].lower() in ("0x", "0o", "0b") else decimal_value(t)


def to_bigint(v: Any = UNDEFINED, *_: Any) -> JsBigInt:
    """``BigInt(v)``."""
    if _is(v):
        return v  # type: ignore[no-any-return]
    t = type(v)
    if t is int or t is float:
        if v != v or v in (math.inf, -math.inf) or not float(v).is_integer():
            # node names the number (quoted only where no secret is read)
            raise JsError(
                f"The number {js.to_string(v)} cannot be converted to a BigInt because it is "
                "not an integer",
                anonymous="The number cannot be converted to a BigInt because it is not an integer",
            )
        return JsBigInt(int(v))
    if v is True or v is False:
        return JsBigInt(int(v))
    if t is str:
        n = from_string(v)
        if n is None:
            raise JsError(
                f"Cannot convert {v} to a BigInt", anonymous="Cannot convert the string to a BigInt"
            )
        return JsBigInt(n)
    if v is None or v is UNDEFINED:
        raise JsError(f"Cannot convert {js.to_string(v)} to a BigInt")
    if js.typeof(v) == "symbol":
        # a primitive already: ToBigInt names it (BigInt(Symbol('x')), BigInt.asIntN(8, ...)),
        # where ToNumber's message would be wrong
        raise JsError(f"Cannot convert {v.shown()} to a BigInt")
    return to_bigint(js.to_primitive(v, "number"))


# --- operators ----------------------------------------------------------------------------


def _numeric(v: Any) -> Any:
    """ToNumeric: an object's primitive (hint number), then a Number unless it is a BigInt;
    its errors (an object without a primitive, a Symbol) come before the mixing's."""
    if _is(v):
        return v
    prim = js.to_primitive(v, "number")
    return prim if _is(prim) else js.to_number(prim)


def _both(a: Any, b: Any) -> tuple[int, int]:
    a, b = _numeric(a), _numeric(b)
    if _is(a) and _is(b):
        return a.big, b.big
    raise JsError(MIX)


def _div(x: int, y: int) -> int:
    if y == 0:
        raise JsError("Division by zero")
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y >= 0) else -q


def _mod(x: int, y: int) -> int:
    if y == 0:
        raise JsError("Division by zero")
    r = abs(x) % abs(y)
    return r if x >= 0 else -r


def _pow(x: int, y: int) -> int:
    if y < 0:
        raise JsError("undefined must be positive")  # node 20's message, as it prints it
    if abs(x) > 1 and y * max(abs(x).bit_length() - 1, 1) > MAX_BITS:
        raise _too_big(y * max(abs(x).bit_length() - 1, 1))
    return int(x**y)


def _shift(x: int, y: int) -> int:
    if y > MAX_BITS and x != 0:
        raise _too_big(y)
    if y >= 0:
        return x << y if x else 0
    if -y >= x.bit_length():
        return -1 if x < 0 else 0
    return x >> -y


_ARITH: Final[dict[str, Callable[[int, int], int]]] = {
    "-": lambda x, y: x - y, "*": lambda x, y: x * y, "/": _div, "%": _mod, "**": _pow,
    "&": lambda x, y: x & y, "|": lambda x, y: x | y, "^": lambda x, y: x ^ y,
    "<<": _shift, ">>": lambda x, y: _shift(x, -y),
}  # fmt: skip


def aware(name: str, plain: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``plain`` (a ``values`` operator) with BigInt operands handled as V8 does."""
    if name == "+":

        def add(a: Any, b: Any) -> Any:
            a, b = _unboxed(a), _unboxed(b)
            if not (_is(a) or _is(b)) and _primitive(a) and _primitive(b):
                return plain(a, b)
            # ToPrimitive of each operand (hint default, left first): an object's may be a
            # BigInt, a string, or neither; what follows reads only these primitives
            pa = a if _primitive(a) else js.to_primitive(a)
            pb = b if _primitive(b) else js.to_primitive(b)
            if not (_is(pa) or _is(pb)):
                return plain(pa, pb)
            a, b = pa, pb
            if _is(a) and _is(b):
                return JsBigInt(a.big + b.big)
            if type(pa) is str or type(pb) is str:
                return js.concat(js.to_string(a), js.to_string(b))
            if js.typeof(pa) == "symbol" or js.typeof(pb) == "symbol":
                # ToNumeric of each primitive comes before the mixing is judged: a Symbol's
                # TypeError (1n + Symbol()) is the one V8 throws
                raise JsError("Cannot convert a Symbol value to a number")
            raise JsError(MIX)

        return add
    if name == ">>>":

        def urshift(a: Any, b: Any) -> Any:
            a, b = _unboxed(a), _unboxed(b)
            if not (_primitive(a) and _primitive(b)):
                a, b = _numeric(a), _numeric(b)  # ToNumeric, left first: a BigInt may come out
            if _is(a) or _is(b):
                a, b = _numeric(a), _numeric(b)
                if _is(a) and _is(b):
                    raise JsError("BigInts have no unsigned right shift, use >> instead")
                raise JsError(MIX)
            return plain(a, b)

        return urshift
    op = _ARITH[name]

    def arith(a: Any, b: Any) -> Any:
        a, b = _unboxed(a), _unboxed(b)
        if not (_is(a) or _is(b)):
            if _primitive(a) and _primitive(b):
                return plain(a, b)
            a, b = _numeric(a), _numeric(b)  # ToNumeric, left first: a BigInt may come out
            if not (_is(a) or _is(b)):
                return plain(a, b)
        return JsBigInt(op(*_both(a, b)))

    return arith


def _compare_number(x: int, n: Any) -> int | None:
    """-1/0/1 for BigInt x against Number n; None for NaN."""
    if n != n:
        return None
    if n == math.inf:
        return -1
    if n == -math.inf:
        return 1
    f = float(n)
    whole = math.floor(f)
    if x < whole:
        return -1
    if x > whole:
        return 1
    return 0 if f == whole else -1


def _order(a: Any, b: Any) -> int | None:
    """Comparison of a and b where at least one is a BigInt (None: undefined)."""
    if _is(a) and _is(b):
        return (a.big > b.big) - (a.big < b.big)
    if _is(b):
        r = _order(b, a)
        return None if r is None else -r
    pb = js.to_primitive(b, "number")
    if type(pb) is str:
        n = from_string(pb)
        return None if n is None else (a.big > n) - (a.big < n)
    if _is(pb):
        return _order(a, pb)
    return _compare_number(a.big, js.to_number(pb))


def compare(name: str, plain: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    if name in ("===", "!=="):
        negate = name == "!=="

        def strict(a: Any, b: Any) -> bool:
            if _is(a) or _is(b):
                return (_is(a) and _is(b) and a.big == b.big) != negate
            return plain(a, b)

        return strict
    if name in ("==", "!="):
        negate = name == "!="

        def loose(a: Any, b: Any) -> bool:
            # a wrapper meets a primitive by its primitive (two objects: by identity)
            if _primitive(b):
                a = _unboxed(a)
            if _primitive(a):
                b = _unboxed(b)
            if not (_is(a) or _is(b)):
                return plain(a, b)
            other = b if _is(a) else a
            if other is None or other is UNDEFINED:
                return negate
            if type(other) is not str and isinstance(other, dict | list):
                other = js.to_primitive(other)
            if type(other) is str:
                n = from_string(other)
                equal = n is not None and n == (a if _is(a) else b).big
                return equal != negate
            if other is True or other is False:
                other = int(other)
            big = a if _is(a) else b
            # the object's primitive, converted once above (its valueOf runs once)
            r = _order(big, other) if not isinstance(other, JsObject) or _is(other) else None
            return (r == 0) != negate

        return loose

    def relation(a: Any, b: Any) -> bool:
        a, b = _unboxed(a), _unboxed(b)
        if not (_is(a) or _is(b)):
            if _primitive(a) and _primitive(b):
                return plain(a, b)
            # ToPrimitive of each (hint number, left first): a BigInt may come out
            a = a if _primitive(a) else js.to_primitive(a, "number")
            b = b if _primitive(b) else js.to_primitive(b, "number")
            if not (_is(a) or _is(b)):
                return plain(a, b)
        r = _order(a, b)
        if r is None:
            return False
        return {"<": r < 0, ">": r > 0, "<=": r <= 0, ">=": r >= 0}[name]

    return relation


def unary(name: str, plain: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def op(a: Any) -> Any:
        if name in ("-", "~", "+"):
            # ToNumeric: -Object(1n) is -1n, +Object(1n) ToNumber's TypeError (but !Object(0n)
            # is false: an object)
            a = _unboxed(a)
            if name != "+" and not _primitive(a) and js.typeof(a) != "symbol":
                a = _numeric(a)  # ToNumeric: an object's primitive may be a BigInt
        if not _is(a):
            return plain(a)
        if name == "-":
            return JsBigInt(-a.big)
        if name == "~":
            return JsBigInt(~a.big)
        return plain(a)  # +1n: ToNumber throws; !1n: truthiness

    return op


def _to_index(v: Any) -> int:
    """ECMAScript's ToIndex, with V8's RangeError."""
    n = js.to_int(v)
    if n < 0 or n > 2**53 - 1:
        raise JsError("Invalid value: not (convertible to) a safe integer")
    return int(n)


def _operand(v: Any) -> int:
    """ECMAScript's ToBigInt: a number is a TypeError (unlike ``BigInt(1)``)."""
    if type(v) in (int, float):
        raise JsError(
            f"Cannot convert {js.to_string(v)} to a BigInt",
            anonymous="Cannot convert the number to a BigInt",
        )
    if _is(v):
        return int(v.big)
    if type(v) not in (str, bool) and not js.is_nullish(v) and js.typeof(v) != "symbol":
        return _operand(js.to_primitive(v, "number"))
    return int(to_bigint(v).big)


def _as_n(signed: bool) -> Callable[..., JsBigInt]:
    def as_n(bits: Any = UNDEFINED, value: Any = UNDEFINED, *_: Any) -> JsBigInt:
        """``BigInt.asIntN`` / ``BigInt.asUintN``: the value modulo 2**bits, read as signed
        or unsigned."""
        width = _to_index(bits)
        n = _operand(value)
        if width == 0:
            return JsBigInt(0)
        if width > n.bit_length() + 1:
            if n >= 0 or signed:
                return JsBigInt(n)  # already within the width
            if width > V8_MAX_BITS:
                raise JsError("Maximum BigInt size exceeded")
            if width > MAX_BITS:
                raise _too_big(width)
        mod = n % (1 << width)
        if signed and mod >= 1 << (width - 1):
            mod -= 1 << width
        return JsBigInt(mod)

    return as_n


def register(globals_: dict[str, Any]) -> None:
    """``BigInt`` and ``Number(1n)``."""
    globals_["BigInt"] = JsFunction(
        "BigInt",
        to_bigint,
        {
            "asIntN": JsFunction("asIntN", _as_n(True), arity=2),
            "asUintN": JsFunction("asUintN", _as_n(False), arity=2),
        },
        arity=1,
    )
    number = globals_["Number"]
    plain = number.fn

    def number_call(*args: Any) -> Any:
        if args and not _primitive(args[0]) and js.typeof(args[0]) != "symbol":
            # ToNumeric: an object's primitive (hint number) first, a BigInt one converted
            prim = js.to_primitive(args[0], "number")
            return js.number(prim.big) if _is(prim) else plain(prim)
        if args and _is(args[0]):
            return js.number(args[0].big)
        return plain(*args)

    number.fn = number_call
