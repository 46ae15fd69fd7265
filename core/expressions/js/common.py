"""What every JavaScript built-in shares: copy-on-write state, refusals, arities and
calling a callback.

Methods that change their receiver (``push``, ``sort``, assignment) only ever run on
MemberJunction's copy of the context: when the evaluator is reading the author's own data they
raise ``NeedsCopy`` and the evaluation starts again on a copy.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.js.values import (
    ATTRIBUTES,
    CHANGED,
    MAX_STRING_LENGTH,
    UNDEFINED,
    CalledNonCallable,
    JsError,
    JsFunction,
    JsSecurityRefusal,
    shown_value,
    to_int,
    typeof,
)

ENGINE_VERSION: Final = "MemberJunction 5.51.3"


class NeedsCopy(Exception):
    """A mutation met the author's data: evaluate again on a copy, as MemberJunction does."""


class Unsupported(JsError):
    """Valid JavaScript that flowctx does not reproduce: refused rather than guessed."""


def too_long_array(what_node_does: str = "node makes a sparse one") -> Unsupported:
    """The refusal of an array longer than flowctx builds (``MAX_STRING_LENGTH``), where node
    goes on."""
    return Unsupported(
        f"flowctx does not reproduce arrays of more than {MAX_STRING_LENGTH:,} elements "
        f"(flowctx's bound; {what_node_does})"
    )


#: node 20 passes a call's arguments on its stack: a built-in called at the condition's top
#: level with 123,374 of them (spread, or applied) runs and with one more throws (measured);
#: deeper frames leave fewer (a callback's, a function of the condition's own: an arrow's rest
#: parameter takes 118,236), so between these two counts flowctx does not say which happens
NODE_MOST_ARGUMENTS: Final = 123_374
ARGUMENTS_ALWAYS_HELD: Final = 100_000
#: node 20 flattens arrays recursively, each level opened a frame: at the top level
#: Array.prototype.flat opens 6,168 levels of arrays and throws at one more (measured); each
#: frame beneath the call (a callback's) takes about two levels off
NODE_MOST_FLAT_LEVELS: Final = 6_168
FLAT_LEVELS_ALWAYS_HELD: Final = 6_000


def check_arguments(count: int) -> None:
    """V8's RangeError for a call given more arguments than its stack holds, or the refusal
    where that depends on how deep the call is."""
    if count > NODE_MOST_ARGUMENTS:
        raise JsError("Maximum call stack size exceeded")
    if count > ARGUMENTS_ALWAYS_HELD:
        raise Unsupported(
            f"flowctx does not reproduce whether node's stack holds a call of {count:,} "
            f"arguments (over {ARGUMENTS_ALWAYS_HELD:,}: it depends on the frames beneath)"
        )


def check_flat_levels(levels: int) -> None:
    """V8's RangeError for flattening arrays nested deeper than its stack holds, or the
    refusal where that depends on how deep the call is."""
    if levels > NODE_MOST_FLAT_LEVELS:
        raise JsError("Maximum call stack size exceeded")
    if levels > FLAT_LEVELS_ALWAYS_HELD:
        raise Unsupported(
            f"flowctx does not reproduce whether node's stack holds flattening {levels:,} "
            f"levels of arrays (over {FLAT_LEVELS_ALWAYS_HELD:,}: it depends on the frames "
            "beneath)"
        )


class HostString(Unsupported):
    """A string the engine's process holds (RegExp.$1 before the condition's first match):
    its text is refused, what any string would do (``typeof``, a call) is not."""


_state = threading.local()

#: what the upper built-in modules lend ``extras`` (the JSON serializer and the function
#: members call up into them), registered as each is imported; ``globals`` imports them all
#: before any evaluation. Lending instead of importing keeps the modules free of cycles.
LENT: dict[str, Any] = {}


def mutation_allowed() -> bool:
    return getattr(_state, "on_copy", False)


def set_on_copy(on_copy: bool) -> None:
    _state.on_copy = on_copy
    # Objects of the copy that Object.seal (1) or Object.freeze (2) made, by id.
    _state.integrity = {}
    if on_copy:
        # Named properties written on arrays of the copy (Python lists cannot hold them), by
        # id: kept past the run's end, as its value is shown (an own toString converts it)
        _state.array_props = {}
        CHANGED.table = None  # the prototypes a run before changed (kept past its end: shown)
        ATTRIBUTES.table = None  # and the attributes it defined
        CHANGED.symbols = False
        CHANGED.elements = False


def _array_prop(arr: Any, key: str) -> Any:
    props = getattr(_state, "array_props", None)
    if props:
        entry = props.get(id(arr))
        if entry is not None and entry[0] is arr and key in entry[1]:
            return entry[1][key]
    return _MISSING_PROP


_MISSING_PROP: Final = object()


def attach_props(arr: list[Any], props: dict[str, Any]) -> None:
    """Named properties of an array a built-in returns (``exec``'s ``index``, ``groups``)."""
    table = getattr(_state, "array_props", None)
    if table is None:
        table = _state.array_props = {}
    elif len(table) > 10_000:  # old results of earlier evaluations
        table.clear()
    table[id(arr)] = (arr, props)


def array_prop_keys(arr: Any) -> list[str]:
    """The named keys written on an array of the copy (``Object.assign([1], {b: 2})``), in the
    order they were written: Object.keys lists them after the indexes."""
    props = getattr(_state, "array_props", None)
    entry = props.get(id(arr)) if props else None
    if entry is None or entry[0] is not arr:
        return []
    return [k for k in entry[1] if type(k) is str]  # its symbol keys are beside them


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
    "Symbol": ("for:1 keyFor:1 "),
    "BigInt": ("asUintN:2 asIntN:2 "),
    "Atomics": (
        "add:3 and:3 compareExchange:4 exchange:3 load:2 or:3 store:3 sub:3 xor:3 wait:4 "
        "notify:3 waitAsync:4 isLockFree:1 "
    ),
    "Reflect": (
        "defineProperty:3 deleteProperty:2 apply:3 construct:2 get:2 getOwnPropertyDescriptor:2 "
        "getPrototypeOf:1 has:2 isExtensible:1 ownKeys:1 preventExtensions:1 set:3 "
        "setPrototypeOf:2 "
    ),
    "": (
        "Number:1 String:1 Boolean:1 Array:1 Object:1 Date:7 RegExp:2 Map:0 Set:0 Error:1 "
        "TypeError:1 RangeError:1 SyntaxError:1 ReferenceError:1 EvalError:1 URIError:1 "
        "parseInt:2 parseFloat:1 toString:0 structuredClone:0 Symbol:0 "
        "isNaN:1 isFinite:1 encodeURIComponent:1 encodeURI:1 decodeURIComponent:1 "
        "decodeURI:1 escape:1 unescape:1 atob:1 btoa:1 BigInt:1 WeakMap:0 WeakSet:0 "
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


def not_callable(v: Any) -> str:
    """How V8 names a callback that is no function in "... is not a function"."""
    return shown_value(v)


def _call(fn: Any, method: str, this: Any = UNDEFINED) -> Callable[..., Any]:
    """A callback of a built-in, called with ``this`` (the method's thisArg) as its receiver
    where it reads one (a prototype's method; arrows keep their own)."""
    if type(fn) is not JsFunction:
        if method == "flatMap":
            raise JsError("flatMap mapper function is not callable")
        raise JsError(
            f"{not_callable(fn)} is not a function", anonymous=f"{typeof(fn)} is not a function"
        )
    if fn.method is not None:
        # a prototype's method handed over as a callback: called with ``this`` undefined;
        # a call it makes of what is no function is named by the value (no call expression
        # of the condition's makes it)
        detached = LENT["call_with_this"]

        def callback(*args: Any) -> Any:
            try:
                return detached(fn, this, list(args))
            except CalledNonCallable as exc:
                raise JsError(str(exc)) from None

        return callback
    if fn.proxy is not None:  # a Proxy around a function: its apply trap sees thisArg

        def trapped(*args: Any) -> Any:
            try:
                return LENT["call_with_this"](fn, this, list(args))
            except CalledNonCallable as exc:
                raise JsError(str(exc)) from None  # no call expression of the condition's

        return trapped
    return fn.fn
