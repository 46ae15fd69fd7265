"""JavaScript's number, boolean and object methods, and property access (``get_member``):
reading ``s.trim`` or ``Math.max`` means handing out a built-in.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js import arrayattrs, descriptors, proxies, symkeys
from flowctx_core.expressions.js.arrays import ARRAY_METHODS, MUTATING_METHODS
from flowctx_core.expressions.js.common import (
    _MISSING_PROP,
    BUILTIN_LENGTHS,
    LENT,
    Unsupported,
    _array_prop,
    _mutating,
    _relative,
    _state,
    array_prop_keys,
    security,
    too_long_array,
)
from flowctx_core.expressions.js.extras import function_member, radix_string
from flowctx_core.expressions.js.integrity import check_length, check_write
from flowctx_core.expressions.js.iterators import ITERATOR_ITSELF, SEGMENTS_ITERATOR
from flowctx_core.expressions.js.prototypes import (
    ARRAY_PROTOTYPE,
    FUNCTION_PROTOTYPE,
    JsPrototype,
    constructor_prototype,
    generic,
    is_prototype_of,
    on_array_prototype,
    prototype_of,
    read_through,
    to_string_tag,
    unwrap,
)
from flowctx_core.expressions.js.prototypes import receiver as prototype_receiver
from flowctx_core.expressions.js.proxies import JsProxy
from flowctx_core.expressions.js.strings import STRING_METHODS
from flowctx_core.expressions.js.symbols import JsSymbol
from flowctx_core.expressions.js.values import (
    ARRAY_PROTO,
    ATTRIBUTES,
    CHANGED,
    DROPPED_KEYS,
    ELEMENT,
    FUNCTION_PROTO,
    GENERIC,
    HOLE,
    KEPT,
    LEGACY_STATICS,
    MAX_STRING_LENGTH,
    OBJECT_MODEL_KEYS,
    OBJECT_PROTO,
    STRING_PROTO,
    UNDEFINED,
    Accessor,
    JsCreated,
    JsError,
    JsFunction,
    JsNamespace,
    JsObject,
    array_index,
    changed_prototype,
    default_call_site,
    function_text,
    host_refusal,
    is_nullish,
    is_number,
    js_in,
    js_value,
    keeps_all_keys,
    number,
    number_to_string,
    own_get,
    own_has,
    own_keys_all,
    property_key,
    shown_value,
    to_int,
    to_number,
    to_string,
    to_units,
    typeof,
    utf16_length,
)

if TYPE_CHECKING:  # decimal comes with the first toFixed/toPrecision/toLocaleString
    from decimal import Context, Decimal

# --- number, boolean and object methods ----------------------------------------------------


def _exact(x: float) -> Decimal:
    from decimal import Decimal

    return Decimal(x)


@functools.cache
def _wide() -> Context:
    """Room for every digit toFixed(100) of 1e21 or toPrecision(100) asks for: the default
    28-digit context raised InvalidOperation at (2**64).toFixed(15)."""
    from decimal import Context

    return Context(prec=1200)


def _num_to_fixed(x: int | float, digits: Any = UNDEFINED, *_: Any) -> str:
    from decimal import ROUND_HALF_UP, Decimal, localcontext

    f = to_int(digits)
    if not 0 <= f <= 100:
        raise JsError("toFixed() digits argument must be between 0 and 100")
    if x != x:
        return "NaN"
    if abs(x) >= 1e21 or x in (math.inf, -math.inf):
        return number_to_string(x)
    # the sign of a negative x stays when it rounds to zero ((-0.4).toFixed() is '-0'); -0 is
    # not below 0, so (-0).toFixed(2) is '0.00'
    sign = "-" if x < 0 else ""
    with localcontext(_wide()):
        q = _exact(abs(float(x))).quantize(Decimal(1).scaleb(-int(f)), rounding=ROUND_HALF_UP)
    return sign + f"{q:f}"


_RADIX_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


def _radix_integer(value: float, radix: int) -> str:
    """The digits of an integral double as V8 writes them (node 20, src/numbers/conversions.cc
    DoubleToRadixCString): while the quotient is 2**53 or more it divides in floating point and
    writes a '0' (digits a double cannot hold), then takes remainders; so (2**60).toString(7)
    ends in zeros where the exact integer's digits would not."""
    out: list[str] = []
    while value / radix >= 2.0**53:
        value /= radix
        out.append("0")
    while True:
        remainder = math.fmod(value, radix)
        out.append(_RADIX_DIGITS[int(remainder)])
        value = (value - remainder) / radix
        if value <= 0:
            break
    charge(len(out))
    return "".join(reversed(out))


def _num_to_string(x: int | float, radix: Any = UNDEFINED, *_: Any) -> str:
    r = 10 if radix is UNDEFINED else to_int(radix)
    if not 2 <= r <= 36:
        raise JsError("toString() radix argument must be between 2 and 36")
    if r == 10:
        return number_to_string(x)
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return number_to_string(x)
    if float(x).is_integer():
        return ("-" if x < 0 else "") + _radix_integer(abs(float(x)), int(r))
    return radix_string(float(x), int(r))


def _num_to_precision(x: int | float, precision: Any = UNDEFINED, *_: Any) -> str:
    from decimal import ROUND_HALF_UP, Decimal, localcontext

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
    with localcontext(_wide()):
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


def _num_to_locale_string(
    x: int | float, locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any
) -> str:
    """Intl.NumberFormat's default in node's default locale (en-US): groups of three, at most
    three fraction digits rounded half away from zero from the shortest digits of the double
    (ICU rounds 1.0005 to 1.001), '-0' kept, '∞' for Infinity."""
    from decimal import ROUND_HALF_UP, Decimal, localcontext

    from flowctx_core.expressions.js.intl.locales import refuse_cached_empty
    from flowctx_core.expressions.js.numbershape import number_shape

    refuse_cached_empty(locales, options, "Number.prototype.toLocaleString")
    if options is not UNDEFINED:  # Intl.NumberFormat's whole option set
        from flowctx_core.expressions.js import intl

        formatter = intl.service("numberformat").construct(
            locales, options, service="Number.prototype.toLocaleString"
        )
        text: str = formatter.format(x)
        return text
    digits, minus, group, point, primary, secondary, min_group, nan, infinity = number_shape(
        locales
    )
    if x != x:
        return nan
    negative = x < 0 or (x == 0 and math.copysign(1.0, x) < 0)
    sign = minus if negative else ""
    if x in (math.inf, -math.inf):
        return sign + infinity
    shortest = Decimal(repr(abs(float(x)))) if type(x) is float else Decimal(abs(number(x)))
    with localcontext(_wide()):
        q = shortest.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
        text = f"{q:f}"
    whole, _dot, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    if len(whole) >= primary + min_group:
        groups = [whole[-primary:]]
        rest = whole[:-primary]
        while rest:
            groups.append(rest[-secondary:])
            rest = rest[:-secondary]
        whole = group.join(reversed(groups))
    text = whole + (point + fraction if fraction else "")
    if digits != "0123456789":
        text = text.translate(str.maketrans("0123456789", digits))
    return sign + text


NUMBER_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "toLocaleString": _num_to_locale_string,
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
    if type(obj) is JsFunction and obj.proxy is not None:
        obj = obj.proxy  # a Proxy around a function: its traps
    if type(obj) is JsProxy:
        return obj.own_property(key) is not UNDEFINED  # its getOwnPropertyDescriptor trap
    if type(key) is JsSymbol:
        return symkeys.has_own(obj, key)
    k = property_key(key)
    if type(obj) is list or type(obj) is tuple:
        index = array_index(k)
        if index is not None:
            return index < len(obj) and obj[index] is not HOLE
        return k == "length" or k in array_prop_keys(obj)
    if type(obj) is str:
        index = array_index(k)
        return k == "length" or (index is not None and index < utf16_length(obj))
    if isinstance(obj, Mapping):
        return own_has(obj, k)
    if obj is FUNCTION_PROTOTYPE:
        return k in FUNCTION_PROTO
    if type(obj) is JsFunction:
        if obj.props is not None and k in obj.props:
            return True
        if k == "prototype" or (obj.members is not None and k not in obj.members):
            held = builtin_attributes(obj, k)  # Date's prototype, RegExp's $1, Error's
            if held is not None:
                return True
        # every function's own length and name; a built-in's static members
        if k in ("length", "name"):
            return obj.owns_own(k)
        return obj.members is not None and k in obj.members
    if type(obj) is JsNamespace:  # Math, JSON: their members
        return obj.members is not None and k in obj.members
    if type(obj).__name__ == "JsErrorObject":  # V8 gives every error its own stack
        return k == "stack" or (k == "message" and obj.own_message) or k in obj.props
    if type(obj).__name__ == "JsRegExp" and k == "lastIndex":
        return True  # made with every regular expression, as its own data
    owns = getattr(obj, "js_owns", None)  # arguments, a Map's or a Set's written keys
    return bool(owns(k)) if owns is not None else False


#: the accessors the built-in prototypes define (what __lookupGetter__ would find)
_ACCESSORS: Final = {
    "JsRegExp": frozenset({"dotAll", "flags", "global", "hasIndices", "ignoreCase", "multiline",
                           "source", "sticky", "unicode", "unicodeSets"}),
    "JsCollection": frozenset({"size"}),
    "JsSymbol": frozenset({"description"}),
}  # fmt: skip


#: the Python class of each prototype's objects, by the prototype's kind
_PROTOTYPE_CLASS: Final = {"RegExp": "JsRegExp", "Map": "JsCollection", "Set": "JsCollection",
                           "Symbol": "JsSymbol"}  # fmt: skip


def _lookup_accessor(setter: bool) -> Callable[..., Any]:
    def lookup(o: Any, key: Any = UNDEFINED, *_: Any) -> Any:
        if descriptors.takes_descriptors(o):
            return descriptors.lookup_accessor(o, key, setter)
        return _lookup_built_in(o, key)

    return lookup


def _lookup_built_in(o: Any, key: Any = UNDEFINED, *_: Any) -> Any:
    """__lookupGetter__ / __lookupSetter__: the data here has no accessor of its own."""
    k = property_key(key)
    if k in _ACCESSORS.get(type(o).__name__, ()) or k == "__proto__":
        raise Unsupported("flowctx does not reproduce the built-in accessors as values")
    return UNDEFINED


def _define_accessor(name: str) -> Callable[..., Any]:
    def define(o: Any, key: Any = UNDEFINED, fn: Any = UNDEFINED, *_: Any) -> Any:
        if type(fn) is not JsFunction:
            raise JsError(f"Object.prototype.{name}: Expecting function")
        field = "get" if name == "__defineGetter__" else "set"
        d = {field: fn, "enumerable": True, "configurable": True}
        if descriptors.takes_descriptors(o) or type(o) is list:
            descriptors.define(o, key, d, throw=True)
            return UNDEFINED
        property_key(key)
        raise Unsupported(f"flowctx does not reproduce accessors ({name}) on {typeof(o)} values")

    return define


OBJECT_METHODS: Final[dict[str, Callable[..., Any]]] = {
    "__lookupGetter__": _lookup_accessor(setter=False),
    "__lookupSetter__": _lookup_accessor(setter=True),
    "__defineGetter__": _define_accessor("__defineGetter__"),
    "__defineSetter__": _define_accessor("__defineSetter__"),
    "hasOwnProperty": _obj_has_own,
    "propertyIsEnumerable": lambda o, k=UNDEFINED, *_: _is_enumerable(o, k),
    "isPrototypeOf": lambda o, v=UNDEFINED, *_: is_prototype_of(o, v),
    "toString": lambda o, *_: object_to_string(o),
    "toLocaleString": lambda o, *_: _invoke_to_string(o),
    "valueOf": _num_value_of,
}


def _is_enumerable(o: Any, key: Any) -> bool:
    """Object.prototype.propertyIsEnumerable: an own property that Object.keys lists."""
    fixed_length = type(o) in (list, tuple, str, JsFunction) or getattr(o, "tag", "") in (
        "[object String]",
    )  # its length is its own, not enumerable
    if (key == "length" and fixed_length) or type(o) is JsPrototype or not _obj_has_own(o, key):
        return False
    if type(o).__name__ == "JsArguments":  # its indices and the keys written on it
        return type(key) is not JsSymbol and property_key(key) in o.js_keys()
    if descriptors.takes_descriptors(o):
        return descriptors.descriptor_of(o, key if type(key) is JsSymbol else property_key(key))[
            "enumerable"
        ]
    if type(o) is list and arrayattrs.has_attributes(o):
        return arrayattrs.effective(o, key if type(key) is JsSymbol else property_key(key))[1]
    return True


def _invoke_to_string(o: Any) -> Any:
    """Object.prototype.toLocaleString: Invoke(this, "toString")."""
    method = get_member(o, "toString")
    if type(method) is not JsFunction:
        raise JsError(f"{default_call_site(method)} is not a function")
    return call_with_this(method, o, []) if method.method is not None else method.fn()


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
        owner = "Object.prototype"
        arity = BUILTIN_LENGTHS.get(f"{owner}.{name}")
    name = _ALIASES.get(f"{owner}.{name}", name)
    bound = JsFunction(name, partial(method, obj), arity=arity, ident=f"{owner}.{name}")
    bound.method, bound.receiver = method, obj
    return bound


#: the names V8 gives String.prototype's trimming functions in its TypeErrors
V8_STRING_NAMES: Final = {"trimStart": "trimLeft", "trimEnd": "trimRight"}

#: legacy names whose property holds the same function object as the standard one (so
#: ``''.trimLeft === ''.trimStart`` and ``''.trimLeft.name`` is "trimStart")
_ALIASES: Final = {
    "String.prototype.trimLeft": "trimStart",
    "String.prototype.trimRight": "trimEnd",
}


#: Array.prototype's methods whose V8 TypeError for a null or undefined ``this`` names them
#: (the others convert it to an object first: "Cannot convert undefined or null to object")
_NAMED_ON_NULL: Final = frozenset(
    {"concat", "find", "findIndex", "findLast", "findLastIndex", "indexOf", "forEach",
     "filter", "map", "every", "some", "reduce", "reduceRight"}
)  # fmt: skip


def _array_method_on(this: Any, name: str, args: list[Any]) -> Any:
    """An Array.prototype method on a value that is no array (ECMAScript's methods are
    generic): ``concat`` puts the value first, ``push`` writes indexes and ``length``, the
    methods that only read see the array-like's elements up to its ``length``."""
    new_object = LENT["new_object"]  # constructors' ToObject, lent (they import this module)

    if name == "concat":
        first = this if _holds_properties(this) else new_object(this)
        return get_member([first], "concat").fn(*args)
    if name == "toString":  # its join if it has one that is callable, else Object's
        join = get_member(this, "join")
        if type(join) is JsFunction:
            return call_with_this(join, this, [])
        return object_to_string(this)
    raw = get_member(this, "length")
    n = to_number(raw)
    length = 0 if n != n or n <= 0 else int(min(n, 2**53 - 1))
    if name in ("push", "pop") and (_plain(this) or not _holds_properties(this)):
        # a primitive is written through its wrapper object (ToObject), as V8 does
        target = this if _plain(this) else new_object(this)
        if name == "push":
            for i, item in enumerate(args):
                set_member(target, str(length + i), item)
            set_member(target, "length", length + len(args))
            return length + len(args)
        value: Any = UNDEFINED
        if length:
            key = str(length - 1)
            value = get_member(target, key)
            _delete_own(target, key)
            length -= 1
        set_member(target, "length", length)
        return value
    if name in _GENERIC_WRITES and (_plain(this) or not _holds_properties(this)):
        target = this if _plain(this) else new_object(this)
        if length > MAX_STRING_LENGTH:
            raise Unsupported(f"flowctx does not reproduce Array.prototype.{name} this long")
        charge(ELEMENT * length)
        return _GENERIC_WRITES[name](target, length, args)
    if name in MUTATING_METHODS or length > MAX_STRING_LENGTH:
        raise Unsupported(f"flowctx does not reproduce Array.prototype.{name} on other values")
    charge(ELEMENT * length)
    if name in _GET_ONLY:  # these read every index with Get, holes or not
        view = [get_member(this, str(i)) for i in range(length)]
    else:
        view = [
            get_member(this, str(i)) if _has_property(this, str(i)) else HOLE for i in range(length)
        ]
    return get_member(view, name).fn(*args)


# ECMAScript's generic array algorithms over an array-like object (a plain object, or a
# primitive's wrapper: a String's indexes and length are read-only, so a write there is V8's
# TypeError), step by step, so the first write that fails is the one node reports


#: Array.prototype's methods that read an array-like's indices with Get alone (no HasProperty)
_GET_ONLY: Final = frozenset(
    {"join", "toString", "toLocaleString", "includes", "at", "find", "findIndex", "findLast",
     "findLastIndex", "toReversed", "toSorted", "toSpliced", "with"}
)  # fmt: skip


def _plain(obj: Any) -> bool:
    """An object the generic array algorithms write keys on as they are: a plain or created
    object, or one of a built-in class that keeps the keys written on it (a Map, a Date...)."""
    if type(obj) is dict or type(obj) is JsCreated:
        return True
    return (
        isinstance(obj, JsObject)
        and type(obj).js_set is not JsObject.js_set
        and getattr(obj, "js_owns", None) is not None
        and obj.js_typeof() == "object"
    )


def _has_property(obj: Any, k: str) -> bool:
    """HasProperty: an own key, or one along the object's chain (an array-like inherits its
    elements from an array it was made from)."""
    if type(obj) is JsFunction and obj.proxy is not None:
        obj = obj.proxy  # a Proxy around a function: its traps
    if type(obj) is JsProxy:
        return js_in(k, obj)  # its has trap alone
    if _obj_has_own(obj, k):
        return True
    return typeof(obj) in ("object", "function") and obj is not None and js_in(k, obj)


def _move(target: Any, src: int, dst: int) -> None:
    if _has_property(target, str(src)):
        set_member(target, str(dst), get_member(target, str(src)))
    else:
        _delete_own(target, str(dst))


def _generic_reverse(target: Any, length: int, _: list[Any]) -> Any:
    lower, middle = 0, length // 2
    while lower != middle:
        upper = length - lower - 1
        lo, up = str(lower), str(upper)
        # each HasProperty before its Get (a getter may take the other index away)
        lower_exists = _has_property(target, lo)
        lower_value = get_member(target, lo) if lower_exists else UNDEFINED
        upper_exists = _has_property(target, up)
        upper_value = get_member(target, up) if upper_exists else UNDEFINED
        if lower_exists and upper_exists:
            set_member(target, lo, upper_value)
            set_member(target, up, lower_value)
        elif upper_exists:
            set_member(target, lo, upper_value)
            _delete_own(target, up)
        elif lower_exists:
            _delete_own(target, lo)
            set_member(target, up, lower_value)
        lower += 1
    return target


def _generic_fill(target: Any, length: int, args: list[Any]) -> Any:
    value = args[0] if args else UNDEFINED
    start = _relative(args[1] if len(args) > 1 else UNDEFINED, length, 0)
    end = _relative(args[2] if len(args) > 2 else UNDEFINED, length, length)
    for k in range(start, end):
        set_member(target, str(k), value)
    return target


def _generic_shift(target: Any, length: int, _: list[Any]) -> Any:
    if length == 0:
        set_member(target, "length", 0)
        return UNDEFINED
    first = get_member(target, "0")
    for k in range(1, length):
        _move(target, k, k - 1)
    _delete_own(target, str(length - 1))
    set_member(target, "length", length - 1)
    return first


def _generic_unshift(target: Any, length: int, items: list[Any]) -> Any:
    if items:
        for k in range(length, 0, -1):
            _move(target, k - 1, k + len(items) - 1)
        for j, item in enumerate(items):
            set_member(target, str(j), item)
    set_member(target, "length", length + len(items))
    return length + len(items)


def _generic_copy_within(target: Any, length: int, args: list[Any]) -> Any:
    to = _relative(args[0] if args else UNDEFINED, length, 0)
    start = _relative(args[1] if len(args) > 1 else UNDEFINED, length, 0)
    final = _relative(args[2] if len(args) > 2 else UNDEFINED, length, length)
    count = min(final - start, length - to)
    step = 1
    if start < to < start + count:
        step, start, to = -1, start + count - 1, to + count - 1
    while count > 0:
        _move(target, start, to)
        start, to, count = start + step, to + step, count - 1
    return target


def _generic_sort(target: Any, length: int, args: list[Any]) -> Any:
    if length < 2:
        return target  # V8 returns before it reads or writes anything
    values = [  # HasProperty then Get, index by index (a getter may take indexes away)
        get_member(target, str(k)) for k in range(length) if _has_property(target, str(k))
    ]
    get_member(values, "sort").fn(*args[:1])
    for j, value in enumerate(values):
        set_member(target, str(j), value)
    for j in range(len(values), length):  # the holes move to the end
        _delete_own(target, str(j))
    return target


def _generic_splice(target: Any, length: int, args: list[Any]) -> Any:
    start = _relative(args[0] if args else UNDEFINED, length, 0)
    items = args[2:]
    if not args:
        count = 0
    elif len(args) == 1:
        count = length - start
    else:
        count = int(min(max(to_int(args[1]), 0), length - start))
    removed: list[Any] = [HOLE] * count
    for k in range(count):
        if _has_property(target, str(start + k)):
            removed[k] = get_member(target, str(start + k))
    if len(items) < count:
        for k in range(start, length - count):
            _move(target, k + count, k + len(items))
        for k in range(length, length - count + len(items), -1):
            _delete_own(target, str(k - 1))
    elif len(items) > count:
        for k in range(length - count, start, -1):
            _move(target, k + count - 1, k + len(items) - 1)
    for i, item in enumerate(items):
        set_member(target, str(start + i), item)
    set_member(target, "length", length - count + len(items))
    return removed


_GENERIC_WRITES: Final[dict[str, Callable[[Any, int, list[Any]], Any]]] = {
    "splice": _generic_splice,
    "reverse": _generic_reverse, "fill": _generic_fill, "shift": _generic_shift,
    "unshift": _generic_unshift, "copyWithin": _generic_copy_within, "sort": _generic_sort,
}  # fmt: skip


def _generic_on_array(name: str, arr: list[Any], args: list[Any]) -> Any:
    """A writing method on an array whose elements include accessors: ECMAScript's generic
    algorithm step by step (Get runs a getter, Set a setter, in the order the specification
    reads and writes), as V8 runs it on such an array."""
    length = len(arr)
    if name == "push":
        for i, item in enumerate(args):
            set_member(arr, str(length + i), item)
        set_member(arr, "length", length + len(args))
        return length + len(args)
    if name == "pop":
        if not length:
            set_member(arr, "length", 0)
            return UNDEFINED
        key = str(length - 1)
        value = get_member(arr, key)
        _delete_own(arr, key)
        set_member(arr, "length", length - 1)
        return value
    charge(ELEMENT * length)
    return _GENERIC_WRITES[name](arr, length, args)


def _delete_own(obj: Any, key: str) -> None:
    """DeletePropertyOrThrow on a plain object, an array or a primitive's wrapper."""
    if type(obj) is list:
        check_delete(obj, key)
        _mutating()
        index = array_index(key)
        if index is None:
            arrayattrs.delete_named(obj, key)
        elif index < len(obj):
            obj[index] = HOLE
        return
    if type(obj) is dict or type(obj) is JsCreated:
        check_delete(obj, key)
        _mutating()
        obj.pop(key, None)
        return
    if type(obj) is JsFunction:
        check_delete(obj, key)
        if key in ("length", "name"):
            forget_own(obj, key)
            return
    own_delete = getattr(obj, "js_delete", None)  # an arguments object
    if own_delete is not None:
        own_delete(key)
        return
    owns = getattr(obj, "js_owns", None)
    if owns is not None and owns(key) and key not in (getattr(obj, "props", None) or {}):
        raise JsError(f"Cannot delete property '{key}' of {obj.tag}")
    (getattr(obj, "props", None) or {}).pop(key, None)


def forget_own(fn: JsFunction, key: str) -> None:
    """Delete a function's own ``length`` or ``name`` (configurable): of one the condition
    made only, a built-in's would change for the host's every later evaluation."""
    if not fn.owned:
        raise Unsupported(
            host_refusal(
                f"deleting a built-in function's {key}",
                "its process keeps the change for every later evaluation",
            )
        )
    fn.gone = (*getattr(fn, "gone", ()), key)


def object_to_string(this: Any) -> str:
    """Object.prototype.toString: ``[object <its built-in tag>]``."""
    if this is UNDEFINED:
        return "[object Undefined]"
    if this is None:
        return "[object Null]"
    t = type(this)
    if (CHANGED.table or CHANGED.symbols or t is JsCreated) and generic(this):
        return to_string_tag(this)
    if t is list or t is tuple:
        return "[object Array]"
    if t is JsFunction:
        return "[object Function]"
    if t is JsNamespace:
        return f"[object {this.name}]"
    if t is JsPrototype:
        return this.to_string_tag()
    if t is JsProxy:
        return this.tag()
    kind = typeof(this)
    if kind in ("string", "number", "boolean", "bigint", "symbol"):
        return f"[object {'BigInt' if kind == 'bigint' else kind.capitalize()}]"
    name = t.__name__
    if name == "JsWrapper":
        return str(this.tag)
    if name in ("JsCollection", "JsIterator", "JsWeakCollection"):
        return repr(this)
    if name in ("JsDate", "JsRegExp"):
        return f"[object {name[2:]}]"
    if name == "JsErrorObject":
        return "[object Error]"
    if name == "JsArguments":
        return "[object Arguments]"
    host = getattr(this, "TAG", None)  # the host classes (typed arrays...) name their tag
    return f"[object {host}]" if host else "[object Object]"


def call_with_this(fn: JsFunction, this: Any, args: list[Any]) -> Any:
    """A prototype's method called with ``this`` other than the value it was read from
    (``(0, s.at)(0)`` has none, ``[s.at][0](0)`` the array): ECMAScript's method on that
    receiver, or V8's TypeError for the receiver it refuses."""
    if fn.proxy is not None:  # a Proxy around a function: its apply trap sees ``this``
        return proxies.call(fn.proxy, this, args)
    if fn.ident == ITERATOR_ITSELF:  # %IteratorPrototype%[@@iterator] returns any this
        return this
    if fn.ident == SEGMENTS_ITERATOR:
        return symkeys.segments_iterator(this)
    inner = unwrap(fn)
    if inner is not fn:  # a method read from a prototype for fn.receiver
        if this is fn.receiver:
            return fn.fn(*args)
        fn = inner
    this = prototype_receiver(fn, this)
    receiver = fn.receiver
    if this is receiver or (
        type(this) is type(receiver) and type(this) in (str, int, float, bool) and this == receiver
    ):
        return fn.fn(*args)
    owner, _, name = (fn.ident or "").rpartition(".")
    nullish = is_nullish(this)
    if owner in _RECEIVER_CHECKED:
        return LENT["with_this"](fn, this)(*args)
    if owner == "String.prototype":
        if name in ("toString", "valueOf"):
            if type(this) is not str:
                raise JsError(f"String.prototype.{name} requires that 'this' be a String")
            return get_member(this, name).fn(*args)
        if nullish:
            shown = V8_STRING_NAMES.get(name, name)
            raise JsError(f"String.prototype.{shown} called on null or undefined")
        return get_member(to_string(this), name).fn(*args)
    if owner == "Number.prototype":
        if not is_number(this):
            raise JsError(f"Number.prototype.{name} requires that 'this' be a Number")
        return get_member(this, name).fn(*args)
    if owner == "Array.prototype":
        compare = args[0] if args and name in ("sort", "toSorted") else UNDEFINED
        if compare is not UNDEFINED and type(compare) is not JsFunction:  # before the receiver
            raise JsError("The comparison function must be either a function or undefined")
        if nullish:
            if name in _NAMED_ON_NULL:
                raise JsError(f"Array.prototype.{name} called on null or undefined")
            raise JsError("Cannot convert undefined or null to object")
        if type(this) is list:
            return _get_member(this, name).fn(*args)  # its class method, whatever its chain
        if this is ARRAY_PROTOTYPE:
            return on_array_prototype(fn, args)
        return _array_method_on(this, name, args)
    if owner == "Object.prototype" and name == "toString":
        return object_to_string(this)
    if owner == "Object.prototype" and name == "hasOwnProperty":
        if nullish:
            property_key(args[0] if args else UNDEFINED)  # the key is converted first
            raise JsError("Cannot convert undefined or null to object")
        return _obj_has_own(this, *args[:1])
    if owner in _GENERIC_OWNERS:
        return LENT["with_this"](fn, this)(*args)
    host = getattr(receiver, "js_call_with", None)  # a host class's method (typed arrays...)
    if host is not None:
        return host(name, this, args)
    raise Unsupported(f"flowctx does not reproduce {fn.ident} called on another value")


#: prototypes whose methods ``with_this`` calls on any receiver, with V8's checks
_GENERIC_OWNERS: Final = frozenset(
    {"Object.prototype", "Boolean.prototype", "Error.prototype", "Function.prototype"}
)


def get_member(obj: Any, key: Any) -> Any:
    """``obj[key]`` with JavaScript semantics on MemberJunction's copy of the context."""
    if type(key) is JsSymbol:
        return symkeys.get(obj, key)
    if CHANGED.table:
        proto = changed_prototype(obj)
        if proto is not KEPT:  # a prototype the condition gave it
            k = key if type(key) is str else property_key(key)
            if _obj_has_own(obj, k):
                return _get_member(obj, k)
            return read_through(obj, proto, k)
    return _get_member(obj, key)


def _get_member(obj: Any, key: Any) -> Any:
    k = key if type(key) is str else property_key(key)
    t = type(obj)
    if t is JsProxy:
        return obj.js_get(k)  # its get trap
    if t is dict:
        if k in obj and (k not in DROPPED_KEYS or keeps_all_keys(obj)):
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
            return written.read() if type(written) is Accessor else written
        method = ARRAY_METHODS.get(k)
        if method is not None:
            # the array methods loop over the elements in interpreted code: charged here,
            # before the call, what one pass costs (callbacks and conversions charge their own)
            charge(ELEMENT * len(obj))
            if k in MUTATING_METHODS:
                method = _checked_when_called(k, method)
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
    if t is JsFunction and obj.proxy is not None:
        got = obj.proxy.js_get(k)  # a Proxy around a function: its get trap
        target = obj.proxy.target
        if k in ("call", "apply", "bind") and type(got) is JsFunction and got.receiver is target:
            return function_member(obj, k)  # Function.prototype's, called on the proxy
        return got
    if t is JsFunction or t is JsNamespace:
        if t is JsFunction and obj.props is not None and k in obj.props:
            return js_value(obj.props[k])
        if k == "__proto__" and not (obj.members and k in obj.members):
            return prototype_of(obj)  # Function.prototype, or Object.prototype for Math
        if k in LEGACY_STATICS and obj.name == "RegExp" and LENT["globals"]["RegExp"] is obj:
            return LENT["legacy_static"](k)  # regexp.py's
        if k == "prototype" and t is JsFunction and LENT["globals"].get(obj.name) is obj:
            held = constructor_prototype(obj.name)
            if held is not None:
                return held  # Date.prototype: the object Object.getPrototypeOf(new Date()) is
        if k in OBJECT_MODEL_KEYS:
            raise security(f"reading '{k}' of a built-in leads to Function")
        if obj.members is not None and k in obj.members:
            return obj.members[k]
        if t is JsFunction and k == "name":
            return obj.name if obj.owns_own(k) else ""  # deleted: Function.prototype's
        if t is JsFunction and k == "length":
            if not obj.owns_own(k):
                return 0  # deleted: Function.prototype's
            if obj.arity is None:
                from flowctx_core.expressions.js.builtinnames import LENGTHS

                if LENT["globals"].get(obj.name) is obj and obj.name in LENGTHS:
                    return LENGTHS[obj.name]  # a global function's, as node has it
                raise Unsupported("flowctx does not reproduce the length of built-in functions")
            return obj.arity
        if t is JsFunction and k == "toString":  # Function.prototype.toString: its text
            text = JsFunction(
                "toString",
                partial(_fn_to_string, obj),
                arity=0,
                ident="Function.prototype.toString",
            )
            text.method, text.receiver = _with_receiver, obj
            return text
        if t is JsFunction and k in ("call", "apply", "bind"):
            return function_member(obj, k)
        if t is JsFunction and k in ("caller", "arguments"):
            # Function.prototype's poisoned accessors, for strict and built-in functions alike
            raise JsError(
                "'caller', 'callee', and 'arguments' properties may not be accessed on strict "
                "mode functions or the arguments objects for calls to them"
            )
        return _proto_member(obj, k, frozenset())
    if t is JsCreated:
        if own_has(obj, k):
            return own_get(obj, k)
        if generic(obj):  # a chain through a built-in prototype
            return read_through(obj, obj.proto, k)
        if k == "__proto__":
            # Object.prototype's accessor, found only by a chain that reaches it
            return obj.proto if _reaches_object_prototype(obj.proto) else UNDEFINED
        if obj.proto is None:
            return UNDEFINED
        return _inherited(obj, k, get_member(obj.proto, k))
    if isinstance(obj, JsObject):
        got = obj.js_get(k)
        if type(got) is Accessor:  # defined on a Date, a Map, a Number object...
            return got.read()
        if got is UNDEFINED and ATTRIBUTES.table and _obj_has_own(obj, k):
            return got  # its own undefined, before Object.prototype's method
        if got is UNDEFINED and k == "__proto__" and not _obj_has_own(obj, k):
            return prototype_of(obj)  # Object.prototype's accessor
        if got is UNDEFINED and k in OBJECT_METHODS:  # Object.prototype's, inherited
            return _bind(k, OBJECT_METHODS[k], obj)
        if type(got) is JsFunction and got.method is None and got.source is None:
            cls = _CLASS_OF.get(type(obj).__name__)
            if cls is not None:
                # a method of its class's prototype: called without this object (detached,
                # as a callback, with call), it checks the receiver it is given
                if cls == "Weak":
                    cls = getattr(obj, "kind", "")  # WeakMap, WeakSet, WeakRef
                elif cls == "Collection":
                    cls = "Set" if getattr(obj, "is_set", False) else "Map"
                got.method, got.receiver = _with_receiver, obj
                if got.ident is None:
                    got.ident = f"{cls}.prototype.{got.name}"
        return got
    if isinstance(obj, Mapping):
        if own_has(obj, k):
            return own_get(obj, k)
        return _object_member(obj, k)
    return UNDEFINED


#: the classes whose objects' methods check their receiver (by the Python class's name)
_CLASS_OF: Final = {"JsRegExp": "RegExp", "JsCollection": "Collection", "JsSymbol": "Symbol",
                    "JsBigInt": "BigInt", "JsWeakCollection": "Weak"}  # fmt: skip
_RECEIVER_CHECKED: Final = frozenset(
    {"Date.prototype", "RegExp.prototype", "Map.prototype", "Set.prototype",
     "Symbol.prototype", "BigInt.prototype", "Function.prototype", "WeakMap.prototype",
     "WeakSet.prototype", "WeakRef.prototype"}
)  # fmt: skip


def _with_receiver(*_: Any) -> Any:
    """The marker of a class method (``JsFunction.method``): call_with_this dispatches it."""
    raise AssertionError("a class method is called through call_with_this")


def _reaches_object_prototype(proto: Any) -> bool:
    while type(proto) is JsCreated:
        proto = proto.proto
    return proto is not None


def _fn_to_string(fn: JsFunction, *_: Any) -> str:
    return function_text(fn)  # its text, whatever its chain


def _object_member(obj: Any, k: str) -> Any:
    method = OBJECT_METHODS.get(k)
    if method is not None:
        return _bind(k, method, obj)
    return _proto_member(obj, k, frozenset())


#: the global constructor a value's ``constructor`` reads (its prototype's)
_CONSTRUCTORS: Final = {dict: "Object", list: "Array", tuple: "Array", str: "String",
                        int: "Number", float: "Number", bool: "Boolean"}  # fmt: skip


def _proto_member(obj: Any, k: str, proto: frozenset[str]) -> Any:
    if k == "prototype":
        return UNDEFINED  # only a function has one: nothing on a value's chain is so named
    if k == "constructor" and type(obj) in _CONSTRUCTORS:
        # the same function the global names (Object, Array...), which an expression reaches
        # anyway; reading on from it (its own constructor, Function) is refused there
        return LENT["globals"][_CONSTRUCTORS[type(obj)]]
    if k == "__proto__":
        return prototype_of(obj)  # Object.prototype's accessor: what getPrototypeOf gives
    if k in OBJECT_MODEL_KEYS:
        raise security(f"reading '{k}' reaches the object model, and from there Function")
    if k in OBJECT_METHODS and not (type(obj) in (int, float, bool, str) and k == "toString"):
        return _bind(k, OBJECT_METHODS[k], obj)
    if k in proto or k in OBJECT_PROTO:
        raise Unsupported(f"flowctx does not reproduce '{k}' on {typeof(obj)} values")
    return UNDEFINED


def _holds_properties(obj: Any) -> bool:
    """An object of its own (not a primitive): freezing and sealing apply to it."""
    if type(obj) is dict or type(obj) is list or type(obj) is JsCreated:
        return True
    return isinstance(obj, JsObject) and obj.js_typeof() == "object"


#: integrity levels of an object of the copy: not extensible, sealed, frozen
NOT_EXTENSIBLE: Final = 0
SEALED: Final = 1
FROZEN: Final = 2


def integrity(obj: Any, frozen: bool | None) -> None:
    """Object.freeze / Object.seal / Object.preventExtensions (``frozen`` None): recorded for
    the copy the evaluation runs on (a primitive is returned as it is)."""
    if type(obj) is JsFunction and obj.proxy is not None:
        obj = obj.proxy  # a Proxy around a function: its traps
    if type(obj) is JsProxy:
        if frozen is None:
            obj.prevent_extensions(throw=True)
        else:
            obj.set_integrity(frozen)
        return
    host = getattr(obj, "js_freeze", None)  # a host class's own refusal (typed arrays)
    if host is not None:
        host(frozen)
    if not _holds_properties(obj):
        if type(obj) is JsNamespace or (type(obj) is JsFunction and obj.ident):
            raise Unsupported("flowctx does not reproduce freezing or sealing built-ins")
        if type(obj) is not JsFunction:
            return
    _mutating()
    level = NOT_EXTENSIBLE if frozen is None else FROZEN if frozen else SEALED
    if frozen and type(obj) is list and _level(obj) is not None and arrayattrs.integrity(obj, True):
        # V8 finds it frozen already (it reads the elements, not the length) and changes
        # nothing: the length stays writable
        return
    entry = _state.integrity.get(id(obj))
    if entry is None or entry[0] is not obj or entry[1] < level:
        _state.integrity[id(obj)] = (obj, level)


def _checked_when_called(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """A writing array method that looks at its array's integrity and attributes when it runs,
    not when it was read (``arr.push.call(Object.seal(arr), 1)`` seals between the two)."""

    def run(arr: list[Any], *args: Any) -> Any:
        level = _level(arr) if getattr(_state, "integrity", None) else None
        if level is not None or arrayattrs.has_attributes(arr):
            if arrayattrs.holds_accessor(arr):  # its getters and setters run as it reads
                return _generic_on_array(name, arr, list(args))
            return _locked(name, method, level)(arr, *args)
        return method(arr, *args)

    return run


def _locked(name: str, method: Callable[..., Any], level: int | None) -> Callable[..., Any]:
    """An array method that writes, on an array that is frozen, sealed or not extensible, or
    whose properties have other attributes: V8's TypeError where the specification's first
    write fails; otherwise the method runs and the elements' attributes follow its writes."""
    if name == "sort":

        def sort(arr: list[Any], *args: Any) -> Any:
            scratch = list(arr)
            method(scratch, *args)  # the comparator runs before anything is written
            settle = check_write(name, arr, level, args)
            arr[:] = scratch
            settle()
            return arr

        return sort

    def write(arr: list[Any], *args: Any) -> Any:
        settle = check_write(name, arr, level, args)
        result = method(arr, *args)
        settle()
        return result

    return write


def _level(obj: Any) -> int | None:
    entry = getattr(_state, "integrity", {}).get(id(obj))
    if entry is not None and entry[0] is obj:
        return int(entry[1])
    return None


def integrity_of(obj: Any, frozen: bool | None) -> bool:
    """Object.isFrozen / Object.isSealed / (``frozen`` None) not Object.isExtensible:
    primitives are all three; an object once made so, or not extensible with nothing its
    own a seal or a freeze would change (an empty object; an array's length is its own)."""
    if type(obj) is JsFunction and obj.proxy is not None:
        obj = obj.proxy  # a Proxy around a function: its traps
    if type(obj) is JsProxy:
        if frozen is None:
            return not obj.is_extensible()
        return obj.test_integrity(frozen)
    if not _holds_properties(obj):
        if type(obj) is JsFunction:
            level = _level(obj)
            want = NOT_EXTENSIBLE if frozen is None else FROZEN if frozen else SEALED
            if frozen and level == SEALED and not obj.props:
                return True  # sealed, and its own length and name are read-only already
            gone = not obj.owns_own("length") and not obj.owns_own("name")
            if level is not None and not obj.props and gone:
                return True  # not extensible, with nothing of its own left
            return level is not None and level >= want
        return type(obj) is not JsNamespace
    level = _level(obj)
    if level is None:
        return False
    if frozen is None or level >= (FROZEN if frozen else SEALED):
        return True
    if descriptors.takes_descriptors(obj) and type(obj) is not JsFunction:
        # TestIntegrityLevel: every own property non-configurable (and read-only, frozen)
        if frozen and type(obj).__name__ == "JsRegExp" and level < FROZEN and not obj.fixed:
            return False  # its lastIndex stays writable under a seal
        own = obj if type(obj) is dict or type(obj) is JsCreated else obj.props or {}
        for k in [*own_keys_all(own), *(k for k in own if type(k) is JsSymbol)]:
            held = descriptors.descriptor_of(obj, k)
            if held["configurable"] or (frozen and held.get("writable")):
                return False
        return True
    if type(obj) is list:
        return arrayattrs.integrity(obj, frozen)
    name = type(obj).__name__
    if name == "JsWrapper":
        return not obj.props  # type: ignore[attr-defined]
    if name == "JsRegExp":
        return not frozen  # lastIndex: writable, not configurable
    return name in _NO_OWN


def check_delete(obj: Any, k: str) -> None:
    """``delete`` of an own property of a sealed or frozen object: strict mode's TypeError."""
    if ATTRIBUTES.table and descriptors.takes_descriptors(obj) and _obj_has_own(obj, k):
        if not descriptors.configurable(obj, k):
            raise JsError(f"Cannot delete property '{k}' of {shown_value(obj)}")
        _check_sealed(obj, k)  # before its attributes go: a sealed object keeps the key
        descriptors.forget(obj, k)
    if type(obj) is list and arrayattrs.has_attributes(obj) and _obj_has_own(obj, k):
        if k == "length" or not arrayattrs.effective(obj, k)[2]:
            raise JsError(f"Cannot delete property '{k}' of {shown_value(obj)}")
        arrayattrs.forget_index(obj, k)
    _check_sealed(obj, k)


def _check_sealed(obj: Any, k: str) -> None:
    level = _level(obj) if getattr(_state, "integrity", None) else None
    if level is None or level < SEALED:
        return
    if type(obj) is dict and own_has(obj, k):
        raise JsError(f"Cannot delete property '{k}' of #<Object>")
    if type(obj) is JsCreated and own_has(obj, k):
        raise JsError(f"Cannot delete property '{k}' of {shown_value(obj)}")
    if type(obj) is list and _obj_has_own(obj, k):
        raise JsError(f"Cannot delete property '{k}' of {shown_value(obj)}")
    if type(obj) is JsFunction and _obj_has_own(obj, k):
        raise JsError(f"Cannot delete property '{k}' of {function_text(obj)}")
    if isinstance(obj, JsObject) and descriptors.takes_descriptors(obj) and _obj_has_own(obj, k):
        raise JsError(f"Cannot delete property '{k}' of {shown_value(obj)}")


def own_descriptor(obj: Any, key: Any) -> Any:
    """Object.getOwnPropertyDescriptor: a data property's value and its three attributes
    (ECMAScript's FromPropertyDescriptor, in that order), undefined when it is not own."""
    if is_nullish(obj):
        raise JsError("Cannot convert undefined or null to object")
    if type(obj) is JsFunction and obj.proxy is not None:
        obj = obj.proxy  # a Proxy around a function: its traps
    if type(obj) is JsProxy:
        return obj.own_property(key if type(key) is JsSymbol else property_key(key))
    if type(key) is JsSymbol:
        return _symbol_descriptor(obj, key)
    k = property_key(key)
    level = _level(obj) if getattr(_state, "integrity", None) else None
    sealed = level is not None and level >= SEALED
    frozen = level is not None and level >= FROZEN

    def data(value: Any, writable: bool, enumerable: bool, configurable: bool) -> dict[str, Any]:
        return {"value": value, "writable": writable, "enumerable": enumerable,
                "configurable": configurable}  # fmt: skip

    t = type(obj)
    if t is JsPrototype:
        if k not in obj.names:
            return UNDEFINED
        if k == "length":  # Array.prototype's is an array's, String.prototype's a String's
            return data(0, obj.kind == "Array", False, False)
        if k == "__proto__" or k in _ACCESSORS.get(_PROTOTYPE_CLASS.get(obj.kind, ""), ()):
            raise Unsupported("flowctx does not reproduce the built-in accessors as values")
        return data(get_member(obj, k), True, False, True)
    if t is str:
        if k == "length":
            return data(utf16_length(obj), False, False, False)
        if _obj_has_own(obj, k):
            return data(get_member(obj, k), False, True, False)
        return UNDEFINED
    if (t is dict or t is JsCreated) and ATTRIBUTES.table and own_has(obj, k):
        return descriptors.descriptor_of(obj, k)
    if t is dict or t is list or t is tuple:
        if not _obj_has_own(obj, k):
            return UNDEFINED
        if t is not dict and k == "length":
            return data(len(obj), t is list and arrayattrs.length_writable(obj), False, False)
        if t is list and arrayattrs.has_attributes(obj):
            return arrayattrs.descriptor(obj, k)
        return data(get_member(obj, k), not frozen, True, not sealed)
    if t is JsFunction and obj.props is not None and k in obj.props:
        return descriptors.descriptor_of(obj, k)
    if t is JsFunction and k in ("length", "name"):
        if not obj.owns_own(k):
            return UNDEFINED  # deleted
        # every function's own two, neither writable nor enumerable
        return data(get_member(obj, k), False, False, not sealed)
    if t is JsFunction or t is JsNamespace:
        held = builtin_attributes(obj, k)
        if held is not None:  # measured: a constructor's prototype, a constant, a static
            if "a" in held:
                raise Unsupported("flowctx does not reproduce the built-in accessors as values")
            if k == "prototype":  # the object getPrototypeOf gives its instances
                value = constructor_prototype(obj.name)
                if value is None:
                    raise Unsupported(f"flowctx does not reproduce {obj.name}'s prototype")
            else:
                value = get_member(obj, k)
            return data(value, "w" in held, "e" in held, "c" in held)
        if obj.members is None or k not in obj.members:
            return UNDEFINED
        member = obj.members[k]
        if type(member) is JsFunction or type(member) is JsNamespace:
            return data(member, True, False, True)  # a method: writable, configurable
        return data(member, False, False, False)  # a constant (Math.PI, Number.MAX_VALUE)
    if t in (int, float, bool) or is_number(obj):
        return UNDEFINED
    if isinstance(obj, JsCreated):
        if not own_has(obj, k):
            return UNDEFINED
        return data(obj[k], not frozen, True, not sealed)
    if type(obj).__name__ == "JsErrorObject":
        if k == "message" and obj.own_message:
            return data(obj.message, not frozen, False, not sealed)
        if k in obj.props:
            return data(obj.props[k], not frozen, k != "cause", not sealed)
        if k != "stack":
            return UNDEFINED
    if type(obj).__name__ == "JsRegExp" and k == "lastIndex":
        return data(obj.last_index, not frozen and not obj.fixed, False, False)
    if isinstance(obj, JsObject):
        owns = getattr(obj, "js_owns", None)
        if getattr(obj, "tag", "") == "[object String]" and owns is not None:
            inner = obj.value  # type: ignore[attr-defined]
            if k == "length":
                return data(utf16_length(inner), False, False, False)
            if _obj_has_own(inner, k):
                return data(get_member(inner, k), False, True, False)
        if owns is not None and not owns(k):
            return UNDEFINED
        props = getattr(obj, "props", None)
        if props and k in props and descriptors.takes_descriptors(obj):
            return descriptors.descriptor_of(obj, k)  # its attributes, or an accessor
        if props and k in props:  # a key written on it: an ordinary data property
            return data(props[k], not frozen, True, not sealed)
        if obj.js_typeof() == "bigint" or (owns is None and type(obj).__name__ in _NO_OWN):
            return UNDEFINED
    raise Unsupported("flowctx does not reproduce this object's property descriptors")


def builtin_attributes(obj: JsFunction | JsNamespace, k: str) -> str | None:
    """The attributes node gives a global function's or namespace's own ``k`` where they are
    not a method's (None: a method, or not a global's own key)."""
    from flowctx_core.expressions.js.builtinnames import ATTRIBUTES

    table = ATTRIBUTES.get(obj.name)
    if table is None or k not in table or LENT["globals"].get(obj.name) is not obj:
        return None
    return table[k]


def _symbol_descriptor(obj: Any, sym: JsSymbol) -> Any:
    if not symkeys.has_own(obj, sym):
        if type(obj) is JsPrototype and sym in symkeys.built_in_symbols(obj):
            raise Unsupported("flowctx does not reproduce the built-in prototypes' symbol keys")
        return UNDEFINED
    if type(obj) is list:
        return arrayattrs.descriptor(obj, sym)
    return descriptors.descriptor_of(obj, sym)


#: built-in objects that have no own property of their own (their state is internal)
_NO_OWN: Final = frozenset({"JsCollection", "JsDate", "JsIterator"})


def _check_integrity(obj: Any, k: str) -> None:
    entry = getattr(_state, "integrity", {}).get(id(obj))
    if entry is None or entry[0] is not obj:
        return
    if type(obj) is dict:
        shown, exists = "#<Object>", k in obj
    elif type(obj) is JsFunction:
        exists = k in ("length", "name") or (obj.props is not None and k in obj.props)
        if entry[1] == FROZEN and exists:
            raise JsError(
                f"Cannot assign to read only property '{k}' of function '{function_text(obj)}'"
            )
        shown = "function"
    elif type(obj) is list:
        index = array_index(k) if type(k) is str else None
        shown = "[object Array]"
        exists = (
            k == "length"
            or (index is not None and index < len(obj) and obj[index] is not HOLE)
            or (index is None and _obj_has_own(obj, k))
        )
        held = obj[index] if index is not None and exists else _array_prop(obj, k)
        if type(held) is Accessor:
            return  # its setter runs (or V8's getter-only TypeError), frozen or not
    else:
        owns = getattr(obj, "js_owns", None)
        exists = bool(owns is not None and owns(k))
        shown = getattr(obj, "tag", "#<Object>")
        if isinstance(obj, JsObject) and descriptors.takes_descriptors(obj):  # a Date, a Map
            shown = shown_value(obj)
            if exists and type((getattr(obj, "props", None) or {}).get(k)) is Accessor:
                return  # its setter runs (or V8's getter-only TypeError), frozen or not
            if k == "size" and not exists and type(obj).__name__ == "JsCollection":
                return  # the prototype's getter-only size refuses first
    if entry[1] == FROZEN and exists:
        raise JsError(f"Cannot assign to read only property '{k}' of object '{shown}'")
    if not exists:
        raise JsError(f"Cannot add property {k}, object is not extensible")


def _inherited(obj: JsCreated, k: str, found: Any) -> Any:
    """A method a created object inherits from a String, Number or Boolean object: that
    class's methods refuse a ``this`` that is not one of theirs (Object.prototype's do not)."""
    if type(found) is not JsFunction:
        return found
    if (found.ident or "").startswith("Object.prototype.") and k in OBJECT_METHODS:
        return _bind(k, OBJECT_METHODS[k], obj)  # called on the created object itself
    proto = obj.proto
    while type(proto) is JsCreated:
        proto = proto.proto
    tag = getattr(proto, "tag", None)
    if tag is None:
        return found
    kind = tag[len("[object ") : -1]

    def refuse(*_: Any) -> Any:
        raise JsError(f"{kind}.prototype.{k} requires that 'this' be a {kind}")

    return JsFunction(found.name, refuse, arity=found.arity, ident=found.ident)


#: the methods OrdinaryToPrimitive reads: an object that owns one converts through its chain
_CONVERSIONS: Final = frozenset({"toString", "valueOf", "join"})  # an array's join: its toString


def set_member(obj: Any, key: Any, value: Any) -> None:
    """``obj[key] = value`` on MemberJunction's copy (strict mode: a frozen or sealed object
    refuses with a TypeError)."""
    if type(key) is JsSymbol:
        symkeys.put(obj, key, value)
        CHANGED.symbols = True
        return
    k = property_key(key)
    if obj is None or obj is UNDEFINED:
        kind = "null" if obj is None else "undefined"
        raise JsError(f"Cannot set properties of {kind} (setting '{k}')")
    if k in OBJECT_MODEL_KEYS:
        raise security(f"writing '{k}' changes the object model")
    if getattr(_state, "integrity", None):
        _check_integrity(obj, k)
    t = type(obj)
    if k in _CONVERSIONS and t is not dict and t is not JsCreated:
        CHANGED.symbols = True  # an own toString / valueOf: conversions walk the chain
    if t is dict or t is JsCreated:
        if ATTRIBUTES.table or (t is JsCreated and getattr(_state, "integrity", None)):
            # a property defined read-only or as an accessor, or frozen, maybe inherited
            descriptors.assign(obj, k, value)
            return
        _mutating()
        obj[k] = value
        return
    if t is list:
        _mutating()
        index = array_index(k)
        attributed = arrayattrs.has_attributes(obj)
        if attributed and k != "length" and arrayattrs.check_set(obj, k, index, value):
            return  # its setter ran
        if k == "length":
            n = to_number(value)
            if n != n or n < 0 or not float(n).is_integer():
                raise JsError("Invalid array length")
            n = int(n)
            if n >= 2**32:
                raise JsError("Invalid array length")
            if n > MAX_STRING_LENGTH:
                raise too_long_array()
            level = _level(obj) if getattr(_state, "integrity", None) else None
            if attributed or level is not None:
                charge(n)
                arrayattrs.set_length(obj, n)
                return
            if level is not None:
                check_length(obj, level, n)
            charge(n)
            if n < len(obj):
                del obj[n:]
            else:
                obj.extend([HOLE] * (n - len(obj)))  # holes: no element is made
            return
        if index is None:
            entry = _state.array_props.setdefault(id(obj), (obj, {}))
            entry[1][k] = value
            return
        if index >= len(obj):
            if index > MAX_STRING_LENGTH:
                raise too_long_array()
            charge(index)
            obj.extend([HOLE] * (index + 1 - len(obj)))  # holes between, as in JavaScript
        obj[index] = value
        return
    if t in (str, int, float, bool):
        shown = to_string(obj)
        if t is str and _obj_has_own(obj, k):
            raise JsError(
                f"Cannot assign to read only property '{k}' of string '{shown}'",
                anonymous=f"Cannot assign to read only property '{k}' of a string",
            )
        raise JsError(
            f"Cannot create property '{k}' on {typeof(obj)} '{shown}'",
            anonymous=f"Cannot create property '{k}' on a {typeof(obj)}",
        )
    if isinstance(obj, JsObject):
        if ATTRIBUTES.table and descriptors.takes_descriptors(obj):
            descriptors.assign(obj, k, value)  # a property defined read-only or an accessor
            return
        obj.js_set(k, value)
        return
    if t is JsFunction and obj.proxy is not None:
        obj.proxy.js_set(k, value)  # a Proxy around a function: its set trap
        return
    if t is JsFunction and obj.owned:
        if k in ("caller", "arguments") and not (obj.props and k in obj.props):
            raise JsError(  # Function.prototype's poisoned accessors
                "'caller', 'callee', and 'arguments' properties may not be accessed on strict "
                "mode functions or the arguments objects for calls to them"
            )
        if k in ("length", "name"):
            raise JsError(
                f"Cannot assign to read only property '{k}' of function '{function_text(obj)}'"
            )
        if ATTRIBUTES.table:
            descriptors.assign(obj, k, value)
            return
        if obj.props is None:
            obj.props = {}
        obj.props[k] = value
        return
    raise Unsupported(
        host_refusal(
            "writing properties of built-ins",
            "its process keeps the change for every later evaluation",
        )
    )


LENT["get_member"] = get_member
GENERIC["builtin_owns"] = lambda fn, k: builtin_attributes(fn, k) is not None
LENT["check_integrity"] = lambda obj, k: (
    _check_integrity(obj, k) if getattr(_state, "integrity", None) else None
)
LENT["check_delete"] = lambda obj, k: check_delete(obj, k)
LENT["assign"] = descriptors.assign
LENT["has_accessors"] = lambda: bool(ATTRIBUTES.table or getattr(_state, "integrity", None))
LENT["array_set"] = lambda arr, sym, value: arrayattrs.check_set(arr, sym, None, value)
LENT["integrity_level"] = lambda obj: _level(obj) if getattr(_state, "integrity", None) else None
LENT["has_own"] = _obj_has_own
LENT["own_descriptor"] = own_descriptor
LENT["set_member"] = set_member
LENT["call_with_this"] = call_with_this
LENT["object_to_string"] = object_to_string
