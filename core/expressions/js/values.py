"""JavaScript values over JSON data, for the MemberJunction (``mj``) dialect.

Values are plain JSON data (dict, list, str, int, float, bool, None) plus ``UNDEFINED`` and
``JsFunction`` (built-in methods, safe globals, arrow functions). Numbers are IEEE doubles: a
Python ``int`` stands for a double only while it is exact (|n| <= 2**53), anything larger is
read as the nearest ``float``. Strings are Python strings whose surrogate pairs are joined;
operations that count, index or order code units go through the UTF-16 helpers here, so
``'😀'.length`` is 2 as in JavaScript. Built-in methods live in ``jsbuiltins``; nothing here
ever calls ``getattr`` on a value.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from flowctx_core.base.lazyre import pattern
from flowctx_core.expressions.budget import BUDGET, MAX_ITEMS, charge
from flowctx_core.expressions.js import fdlibm
from flowctx_core.expressions.js.builtinnames import PROTO_NAMES
from flowctx_core.expressions.sandbox import SandboxError, quoting


class JsError(SandboxError):
    """An error the JavaScript runtime would throw (TypeError, ReferenceError, RangeError).

    A message that quotes a value (V8's ``Unexpected token 'a', "abc" is not valid JSON``)
    gives its ``anonymous`` form too: ``evaluate`` re-runs a failed condition that read a
    secret with the anonymous forms (``anonymous_errors``), so a secret never reaches a
    message; every other message holds only names and keys written in the expression.
    """

    def __init__(self, message: str = "", anonymous: str | None = None) -> None:
        if anonymous is not None:
            message = quoting(message, anonymous)
        super().__init__(message)


class JsSecurityRefusal(SandboxError):
    """The published evaluator would run this as code; flowctx refuses to go further."""


#: the words of a refusal whose answer is the engine's host's own (its process's memory, state
#: and history, its own source text, its event loop): nothing the condition and its data
#: decide, so flowctx never guesses it; the differential judges count these apart
REACHES_HOST: Final = "through it the engine reaches its host"


def host_refusal(what: str, why: str) -> str:
    """The message refusing ``what``, which reaches the host for the reason ``why``."""
    return f"flowctx does not reproduce {what}: {REACHES_HOST} ({why})"


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


class _Hole:
    """A hole of an array literal (``[1,,3]``): read as ``undefined``, but not an element: the
    iteration methods skip it, ``in`` and ``Object.keys`` do not see it, ``map`` keeps it."""

    __slots__ = ()
    _instance: _Hole | None = None

    def __new__(cls) -> _Hole:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "<empty>"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "HOLE"


HOLE: Final = _Hole()


class JsFunction:
    """A callable an expression may invoke: a bound method, a safe global or an arrow function.

    ``members`` holds the properties a global exposes (``Number.isInteger``, ``Math.PI``).
    """

    __slots__ = (
        *("arity", "fn", "ident", "members", "method", "name", "props", "proxy", "receiver"),
        *("source", "gone"),
    )
    #: the own ``length``/``name`` a condition deleted (set only then: most never have one)
    gone: tuple[str, ...]

    def __init__(
        self,
        name: str,
        fn: Callable[..., Any],
        members: Mapping[str, Any] | None = None,
        arity: int | None = None,  # ``length``: known for arrow functions only
        ident: str | None = None,
        source: str | None = None,  # an arrow function's own text, what String() gives
    ) -> None:
        self.name = name
        self.fn = fn
        self.members = members
        self.arity = arity
        # the built-in function object this is (``Array.prototype.map``): a method read from two
        # values, or ``parseInt`` and ``Number.parseInt``, is one object in JavaScript
        self.ident = ident
        self.source = source
        # a prototype's method read from a value: the method (its receiver first) and the
        # value it was read from, so a call with another ``this`` can be told apart
        self.method: Callable[..., Any] | None = None
        self.receiver: Any = None
        # the own properties written on a function the condition made (an arrow, a bound
        # function), in the order they were added; None until the first
        self.props: dict[str, Any] | None = None
        # a Proxy around a function: its traps (``proxies.JsProxy``); None for the others
        self.proxy: Any = None

    def __repr__(self) -> str:
        return f"function {self.name}"

    def owns_own(self, key: str) -> bool:
        """Whether its own ``length`` or ``name`` is still there (a condition may delete those
        of a function it made; ``gone`` is set only then)."""
        return key not in getattr(self, "gone", ())

    @property
    def owned(self) -> bool:
        """Made by this evaluation (an arrow, a bound function), not one of the host's
        built-ins: properties written on it stay inside the condition."""
        return self.source is not None or (self.ident is None and self.name.startswith("bound "))


class CalledNonCallable(JsError):
    """A built-in (``Function.prototype.call``...) asked to call what is no function: V8 words
    it after the call expression the condition is running (``f.call.call is not a
    function``), so the evaluator's call node gives the message."""


class JsObject:
    """An object of a built-in class (RegExp, Date, Map, an iterator...): the module that
    defines the class gives its behaviour through these methods, so the conversions and
    property reads here need one ``isinstance`` test each."""

    __slots__ = ()

    def js_typeof(self) -> str:
        return "object"

    def js_primitive(self, hint: str = "default") -> Any:
        """ToPrimitive: what ``valueOf``/``toString`` give for this hint."""
        return "[object Object]"

    def js_get(self, key: str) -> Any:
        return UNDEFINED

    def js_set(self, key: str, value: Any) -> None:
        raise JsError(f"Cannot assign to read only property '{key}' of object")

    def js_truthy(self) -> bool:
        return True

    def js_keys(self) -> list[str]:
        """Its own enumerable keys, in ``Object.keys`` order (a built-in object has none)."""
        return []

    def js_has(self, key: str) -> bool:
        """``key in`` it, before ``Object.prototype``."""
        return self.js_get(key) is not UNDEFINED

    def js_iter(self) -> list[Any] | None:
        """The items a spread or ``Array.from`` takes; None: not iterable."""
        return None

    def js_json(self) -> Any:
        """What ``JSON.stringify`` serialises in its place (``{}``: no own enumerable keys)."""
        return {}


def enumerable_props(props: dict[Any, Any] | None) -> list[Any]:
    """The keys of a built-in object's own ``props`` that are enumerable (Object.defineProperty
    may have defined some that are not)."""
    return own_keys(props) if props else []


class JsPropsObject(JsObject):
    """An object of a built-in class that takes own properties (``m.x = 1``), kept in
    ``props``, None until the first."""

    __slots__ = ("props",)
    props: dict[str, Any] | None

    def js_set(self, key: str, value: Any) -> None:
        if self.props is None:
            self.props = {}
        self.props[key] = value

    def js_has(self, key: str) -> bool:
        return bool(self.props and key in self.props) or self.js_get(key) is not UNDEFINED

    def js_owns(self, key: str) -> bool:
        return bool(self.props and key in self.props)

    def js_keys(self) -> list[str]:
        return enumerable_props(self.props)

    def js_json(self) -> Any:
        return {k: self.props[k] for k in enumerable_props(self.props)} if self.props else {}


class JsNamespace:
    """A built-in namespace object (``Math``, ``JSON``): typeof 'object', fixed members."""

    __slots__ = ("members", "name")

    def __init__(self, name: str, members: Mapping[str, Any]) -> None:
        self.name = name
        self.members = members

    def __repr__(self) -> str:
        return f"[object {self.name}]"


class JsCreated(dict):  # type: ignore[type-arg]
    """An object made by ``Object.create(proto)``: its own keys are the dict's; a key it does
    not have is read from ``proto`` (an object or array), and ``proto`` None is
    ``Object.create(null)``: no toString, no valueOf, nothing inherited."""

    __slots__ = ("proto",)

    def __init__(self, proto: Any) -> None:
        super().__init__()
        self.proto = proto


class _Changed(threading.local):
    """The objects of the copy whose prototype a condition changed (Object.setPrototypeOf on
    an array, a plain object, a Date...: their Python class cannot hold it), by id."""

    table: dict[int, tuple[Any, Any]] | None = None
    #: whether a symbol-keyed property was written (Symbol.toPrimitive, Symbol.toStringTag
    #: may then stand on an object's chain)
    symbols: bool = False
    #: whether an accessor was defined on an array's element (Object.defineProperty(arr, 0,
    #: {get})): the array methods that copy elements then read them through their getters
    elements: bool = False


CHANGED: Final = _Changed()


class _LastMatch(threading.local):
    """The condition's last successful match (RegExp.$1, RegExp.lastMatch... read it): the
    subject's code units and the match's spans, None before the condition's first."""

    units: str | None = None
    spans: list[tuple[int, int] | None] | None = None


LAST_MATCH: Final = _LastMatch()
#: RegExp's legacy static properties, each a view of the last successful match
LEGACY_STATICS: Final = frozenset({"input", "$_", "lastMatch", "$&", "lastParen", "$+",
                                   "leftContext", "$`", "rightContext", "$'", "$1", "$2",
                                   "$3", "$4", "$5", "$6", "$7", "$8", "$9"})  # fmt: skip
#: an object's operations along its prototype chain, lent by prototypes.py (which knows the
#: built-in prototypes): "walks" (whether the chain was changed or leads to a built-in
#: prototype), "to_primitive", "has" (``key in`` along it), "shown" (V8's name of it)
GENERIC: dict[str, Callable[..., Any]] = {}
#: what ``changed_prototype`` gives for an object whose prototype is its kind's own
KEPT: Final = object()


def changed_prototype(v: Any) -> Any:
    """The prototype a condition gave ``v`` (an object, or None), or ``KEPT``."""
    table = CHANGED.table
    if table:
        entry = table.get(id(v))
        if entry is not None and entry[0] is v:
            return entry[1]
    return KEPT


class Accessor:
    """An accessor property of a plain object (Object.defineProperty with get / set, or
    __defineGetter__), held in the object's dict in place of a value: reading the key runs the
    getter. Only a function the condition made is an accessor here (an arrow reads no
    ``this``, so the getter needs no receiver)."""

    __slots__ = ("getter", "setter")

    def __init__(self, getter: Any, setter: Any) -> None:
        self.getter = getter  # a JsFunction or UNDEFINED
        self.setter = setter

    def __repr__(self) -> str:
        return "[Getter/Setter]"

    def read(self) -> Any:
        if type(self.getter) is JsFunction:
            return self.getter.fn()
        return UNDEFINED


#: a property's attributes: writable, enumerable, configurable (an accessor's writable unused)
Attributes = tuple[bool, bool, bool]
#: what an assignment gives a new property
ORDINARY: Final[Attributes] = (True, True, True)


class _Attributes(threading.local):
    """The attributes of properties Object.defineProperty gave other than an assignment's,
    by the object's id: ``(object, {key: attributes})``."""

    table: dict[int, tuple[Any, dict[Any, Attributes]]] | None = None


ATTRIBUTES: Final = _Attributes()


def attributes_of(obj: Any, key: Any) -> Attributes:
    """The attributes of ``obj``'s own property ``key`` (an assignment's unless defined)."""
    table = ATTRIBUTES.table
    if table:
        entry = table.get(id(obj))
        if entry is not None and entry[0] is obj:
            return entry[1].get(key, ORDINARY)
    return ORDINARY


def defined_attributes(obj: Any) -> dict[Any, Attributes] | None:
    table = ATTRIBUTES.table
    if table:
        entry = table.get(id(obj))
        if entry is not None and entry[0] is obj:
            return entry[1]
    return None


def set_attributes(obj: Any, key: Any, attributes: Attributes | None) -> None:
    """Record ``key``'s attributes (None: an assignment's, as when it is deleted)."""
    table = ATTRIBUTES.table
    if attributes is None or attributes == ORDINARY:
        entry = table.get(id(obj)) if table else None
        if entry is not None and entry[0] is obj:
            entry[1].pop(key, None)
        return
    if table is None:
        table = ATTRIBUTES.table = {}
    entry = table.get(id(obj))
    if entry is None or entry[0] is not obj:
        entry = table[id(obj)] = (obj, {})
    entry[1][key] = attributes


# The keys MemberJunction 5.51.3 drops from the context at every level before evaluating.
DROPPED_KEYS: Final = frozenset({"__proto__", "constructor", "prototype", "eval", "Function"})
# Keys that lead from data to the JavaScript object model (and from there to Function).
OBJECT_MODEL_KEYS: Final = frozenset({"constructor", "prototype", "__proto__"})
MAX_SAFE_INTEGER: Final = 2**53 - 1
_EXACT: Final = 2**53
#: the longest string or array flowctx builds: the budget's item bound (a real document's
#: 200 KB payload.body is well inside it); past it flowctx stops and says the engine goes on
MAX_STRING_LENGTH: Final = MAX_ITEMS
#: node's own longest string (V8 on 64-bit: 2**29 - 24 code units)
NODE_MAX_STRING: Final = 2**29 - 24

# Property names on the prototypes as node 20 (the runtime of the measurements) lists them
# (generated from node: ``scripts/builtin_names.mjs``); ``'toString' in payload`` is true
# through the prototype chain.
OBJECT_PROTO: Final = frozenset(PROTO_NAMES["Object"])
ARRAY_PROTO: Final = frozenset(PROTO_NAMES["Array"])
STRING_PROTO: Final = frozenset(PROTO_NAMES["String"])
NUMBER_PROTO: Final = frozenset(PROTO_NAMES["Number"])
BOOLEAN_PROTO: Final = frozenset(PROTO_NAMES["Boolean"])
FUNCTION_PROTO: Final = frozenset(PROTO_NAMES["Function"])

# WhiteSpace and LineTerminator: what trim() removes and Number() skips.
JS_WHITESPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


# --- numbers and strings -------------------------------------------------------------------


def number(r: int | float) -> int | float:
    """A number as JavaScript holds it: integers beyond 2**53 become the nearest double."""
    if type(r) is int and not -_EXACT <= r <= _EXACT:
        try:
            return float(r)
        except OverflowError:
            return math.inf if r > 0 else -math.inf
    return r


def js_value(v: Any) -> Any:
    """A value read from the scope, as MemberJunction's copy holds it: big integers rounded,
    and an object with its own ``constructor`` key is no plain object to ``cloneValue``
    (``value.constructor === Object`` fails), so it was copied as ``String(value)``."""
    t = type(v)
    if t is int:
        return number(v) if not -_EXACT <= v <= _EXACT else v
    if t is dict and "constructor" in v and not keeps_all_keys(v):
        return _stringified(v)
    if v is HOLE:
        return UNDEFINED
    if t is Accessor:
        return v.read()
    return v


def _stringified(v: dict[Any, Any]) -> str:
    # String() of an object whose own toString is data (not callable) falls back to valueOf,
    # which returns the object itself: a TypeError that cloneValue turns into '[Object]'.
    return "[Object]" if "toString" in v else "[object Object]"


def is_number(v: Any) -> bool:
    t = type(v)
    return t is int or t is float


def is_nullish(v: Any) -> bool:
    return v is None or v is UNDEFINED or v is HOLE


def has_astral(s: str) -> bool:
    return not s.isascii() and max(s) > "\uffff"


def to_units(s: str) -> str:
    """``s`` with each character one UTF-16 code unit (astral characters as two surrogates)."""
    if s.isascii() or max(s) <= "\uffff":
        return s
    charge(ELEMENT * len(s))  # an interpreted loop over the characters
    out: list[str] = []
    for c in s:
        o = ord(c)
        if o > 0xFFFF:
            o -= 0x10000
            out.append(chr(0xD800 + (o >> 10)))
            out.append(chr(0xDC00 + (o & 0x3FF)))
        else:
            out.append(c)
    return "".join(out)


_PAIR = "[\ud800-\udbff][\udc00-\udfff]"


def from_units(s: str) -> str:
    """The canonical string for code units: valid surrogate pairs joined, lone ones kept."""
    if s.isascii():
        return s
    return pattern(_PAIR).sub(
        lambda m: chr(0x10000 + ((ord(m[0][0]) - 0xD800) << 10) + ord(m[0][1]) - 0xDC00), s
    )


def utf16_length(s: str) -> int:
    if s.isascii() or max(s) <= "\uffff":
        return len(s)
    charge(ELEMENT * len(s))
    return len(s) + sum(1 for c in s if c > "\uffff")


def too_long(length: int | None = None) -> JsError:
    """The refusal of a string longer than flowctx builds, said before it is built."""
    if length is not None and length > NODE_MAX_STRING:
        # the engine's own answer (node's RangeError), not flowctx's bound: its own words
        return JsError("Invalid string length")
    return JsError(
        f"String result too long (over {MAX_STRING_LENGTH:,} characters; {BUDGET}; "
        f"MemberJunction 5.51.3 would go on: node's own limit is {NODE_MAX_STRING:,})"
    )


def concat(a: str, b: str) -> str:
    n = len(a) + len(b)
    if n > MAX_STRING_LENGTH:
        raise too_long(n)
    s = a + b
    if a and b and "\ud800" <= a[-1] <= "\udbff" and "\udc00" <= b[0] <= "\udfff":
        return from_units(s)
    return s


def check_length(s: str) -> str:
    if len(s) > MAX_STRING_LENGTH:
        raise too_long(len(s))
    return s


#: steps charged per element an interpreted loop visits (a step is ~70 ns of C work)
ELEMENT: Final = 4


_joining = threading.local()


def join_array(arr: list[Any] | tuple[Any, ...], sep: str) -> str:
    """Array.prototype.join's loop: nullish elements are empty, and an array met again while
    it is being joined (one that holds itself) joins to the empty string, as V8's cycle
    detection does, rather than recursing."""
    stack: set[int] | None = getattr(_joining, "stack", None)
    if stack is None:
        stack = _joining.stack = set()
    if id(arr) in stack:
        return ""
    stack.add(id(arr))
    try:
        values = got(arr) if CHANGED.elements else map(js_value, arr)
        return join_bounded(sep, ("" if is_nullish(x) else to_string(x) for x in values))
    finally:
        stack.discard(id(arr))


def got(arr: list[Any] | tuple[Any, ...], start: int = 0) -> Iterator[Any]:
    """Get of each index from ``start`` below the length ``arr`` had when this began, one by
    one: a getter that shortens the array leaves undefined for the indexes it took away."""
    for i in range(start, len(arr)):
        yield js_value(arr[i]) if i < len(arr) else UNDEFINED


def join_bounded(sep: str, parts: Any) -> str:
    """``sep.join(parts)`` refused before it passes ``MAX_STRING_LENGTH``: the length is
    added up part by part, so a list of references to one long string is refused at the
    second part, not after building all of them."""
    out: list[str] = []
    total = -len(sep)
    step = len(sep)
    for part in parts:
        charge(ELEMENT)
        total += len(part) + step
        if total > MAX_STRING_LENGTH:
            raise too_long()
        out.append(part)
    return sep.join(out)


# `\d+(?:\.\d*)?`, not `\d+\.?\d*`: the same strings, but the second splits a run of digits
# in n ways, so a fullmatch failing at its end backtracks n**2 times (a hang at 20,000 digits)
# re.ASCII: ToNumber reads ASCII digits only (Number('１２') is NaN; Python's \d is Unicode)
_DECIMAL = r"[+-]?(?:Infinity|(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)"
_RADIX = r"0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+"


def string_to_number(s: str) -> int | float:
    s = s.strip(JS_WHITESPACE)
    if not s:
        return 0
    if pattern(_DECIMAL, re.ASCII).fullmatch(s):
        if s.endswith("Infinity"):
            return -math.inf if s[0] == "-" else math.inf
        f = float(s)
        if f == 0.0:
            return f if s[0] == "-" else 0
        return int(f) if f.is_integer() and abs(f) <= _EXACT else f
    if pattern(_RADIX).fullmatch(s):
        return number(int(s, 0))
    return math.nan


def to_number(v: Any) -> int | float:
    t = type(v)
    if t is int:
        return number(v)
    if t is float:
        return v
    if v is True:
        return 1
    if v is False or v is None:
        return 0
    if v is UNDEFINED:
        return math.nan
    if t is str:
        return string_to_number(v)
    if ((CHANGED.table or CHANGED.symbols or t is JsCreated) and _walks(v)) or _converts_itself(v):
        return to_number(GENERIC["to_primitive"](v, "number"))
    if t is list or t is tuple:
        return string_to_number(to_string(v))
    if t is JsCreated:
        _refuse_foreign_this(v, "valueOf")
    if (t is dict and "toString" in v) or t is JsCreated:
        # ToPrimitive(hint number): valueOf gives the object back, its own toString is data
        # (not callable), so node throws "Cannot convert object to primitive value"
        return string_to_number(to_string(v))
    if isinstance(v, JsObject):
        p = v.js_primitive("number")
        if isinstance(p, JsObject) and p.js_typeof() == "symbol":
            return to_number(p)  # a Symbol object's symbol: V8's TypeError
        return to_number(p) if not isinstance(p, JsObject) else math.nan
    return math.nan  # objects and functions: '[object Object]', 'function ...'


def to_int(v: Any) -> float | int:
    """ToIntegerOrInfinity."""
    n = to_number(v)
    if n != n:
        return 0
    if n in (math.inf, -math.inf):
        return n
    return int(n)


def to_int32(v: Any) -> int:
    n = to_number(v)
    if n != n or n in (math.inf, -math.inf):
        return 0
    i = int(n) & 0xFFFFFFFF
    return i - 0x100000000 if i >= 0x80000000 else i


def to_uint32(v: Any) -> int:
    n = to_number(v)
    if n != n or n in (math.inf, -math.inf):
        return 0
    return int(n) & 0xFFFFFFFF


def _shortest(n: float) -> tuple[str, int]:
    """Shortest round-trip digits and the decimal exponent ``k`` (value = 0.digits * 10**k)."""
    text = repr(abs(n))
    mant, _, exp = text.partition("e")
    whole, _, frac = mant.partition(".")
    if frac == "0":
        frac = ""
    digits = (whole + frac).lstrip("0")
    lead = len(whole + frac) - len((whole + frac).lstrip("0"))
    point = len(whole) - lead + (int(exp) if exp else 0)
    digits = digits.rstrip("0") or "0"
    return digits, point


def number_to_string(n: int | float) -> str:
    if type(n) is int:
        if -(10**21) < n < 10**21:
            return str(n)
        n = float(n)
    if n != n:
        return "NaN"
    if n == 0:
        return "0"
    if n in (math.inf, -math.inf):
        return "Infinity" if n > 0 else "-Infinity"
    sign = "-" if n < 0 else ""
    digits, point = _shortest(n)
    k = len(digits)
    if k <= point <= 21:
        return sign + digits + "0" * (point - k)
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * (-point) + digits
    e = point - 1
    exp = f"e{'+' if e >= 0 else '-'}{abs(e)}"
    if k == 1:
        return sign + digits + exp
    return sign + digits[0] + "." + digits[1:] + exp


def _data_chain_has(obj: Any, key: str) -> bool:
    """Whether a plain object or one of its prototypes has ``key`` as its own data."""
    while isinstance(obj, dict):
        if own_has(obj, key):
            return True
        obj = obj.proto if type(obj) is JsCreated else None
    return False


def shown_value(v: Any) -> str:
    """V8's NoSideEffectsToString, how its TypeErrors name a value: primitives as String()
    gives them (symbols described), a function as its text (past 128 characters, its first 111,
    ``...<omitted>...`` and its last 2), an object whose toString is Object.prototype's as
    ``#<Constructor>``, any other as ``[object Tag]``; nothing of the value is run."""
    t = type(v)
    if t is str:
        return v
    if v is None or v is UNDEFINED or t in (bool, int, float):
        return to_string(v)
    if t is JsFunction:
        if v.proxy is not None and v.proxy.target is not None:
            return shown_value(v.proxy.target)  # V8 names a proxy by its target
        text = function_text(v)
        if len(text) > 128:
            return text[:111] + "...<omitted>..." + text[-2:]
        return text
    if CHANGED.symbols and (t is list or (isinstance(v, JsObject) and getattr(v, "props", None))):
        tag = GENERIC["own_tag"](v)  # an array's, a Date's, a Number object's Symbol.toStringTag
        if tag is not None and t.__name__ != "JsCollection":  # a Map stays #<Map>
            return f"[object {tag}]"
    if (CHANGED.table or CHANGED.symbols or t is JsCreated) and _walks(v):
        return str(GENERIC["shown"](v))
    if t is list or t is tuple:
        return "[object Array]"
    if t is JsFunction:
        text = to_string(v)
        if len(text) > 128:
            return text[:111] + "...<omitted>..." + text[-2:]
        return text
    if t is JsNamespace:
        return "#<Object>"  # Math, JSON...: Object.prototype's toString, constructor Object
    if isinstance(v, dict):
        if type(v) is JsCreated and _chain_end(v) is None and not _data_chain_has(v, "toString"):
            return "[object Object]"  # no Object.prototype on its chain
        if type(v) is JsCreated and type(_chain_end(v)) in (list, tuple):
            return "[object Object]"  # its toString is Array.prototype's: the built-in tag
        if _data_chain_has(v, "toString") or _data_chain_has(v, "constructor"):
            return "[object Object]"
        return "#<Object>"
    kind = typeof(v)
    if kind == "bigint":
        return to_string(v)
    if kind == "symbol":
        return repr(v)
    name = t.__name__
    if name in ("JsDate", "JsRegExp"):
        return f"[object {name[2:]}]"
    if name == "JsWrapper":
        return str(v.tag)
    if name == "JsCollection":
        return "#<Set>" if v.is_set else "#<Map>"
    if name == "JsWeakCollection":
        return f"#<{v.kind}>"
    if name == "JsErrorObject":
        return to_string(v)
    if name == "JsPrototype":
        return str(v.shown())
    if name == "JsProxy":
        return "[object Array]" if v.is_array() else "#<Object>"
    host = getattr(v, "js_shown", None)  # the host classes (typed arrays, URL...) name theirs
    if host is not None:
        return str(host())
    return "#<Object>"


def default_call_site(v: Any) -> str:
    """How V8 names a value a built-in found no function (no call expression to print):
    its type, then a primitive's text (a string quoted)."""
    kind = typeof(v)
    if type(v) is str:
        return f'{kind} "{v}"'
    if v is None or type(v) in (bool, int, float):
        return f"{kind} {to_string(v)}"
    return kind


def to_string(v: Any) -> str:
    t = type(v)
    if t is str:
        return v
    if t is int or t is float:
        return number_to_string(v)
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if ((CHANGED.table or CHANGED.symbols or t is JsCreated) and _walks(v)) or _converts_itself(v):
        return to_string(GENERIC["to_primitive"](v, "string"))
    if t is list or t is tuple:
        return join_array(v, ",")
    if t is JsFunction:
        if v.proxy is not None:  # a Proxy around a function: its traps convert it
            return to_string(v.proxy.js_primitive("string"))
        return function_text(v)
    if t is JsNamespace:
        return f"[object {v.name}]"
    if t is dict and "toString" in v:
        # its own toString is data, not callable; valueOf gives the object back
        raise JsError("Cannot convert object to primitive value")
    if t is JsCreated and not _inherits(v, "toString"):
        raise JsError("Cannot convert object to primitive value")  # Object.create(null)
    if t is JsCreated:
        _refuse_foreign_this(v, "toString")
        if _chain_end(v).__class__ is list and not _has_data_key(v, "toString"):
            return _join_created(v)  # Array.prototype.toString over what it inherits
    if t is JsCreated and _has_data_key(v, "toString"):
        raise JsError("Cannot convert object to primitive value")
    if isinstance(v, JsObject):
        return to_string(v.js_primitive("string"))
    return "[object Object]"


def function_text(fn: JsFunction) -> str:
    """Function.prototype.toString of ``fn``: its source, or the native form."""
    if fn.source is not None:
        return fn.source
    ident = fn.ident
    if ident is not None and ident.startswith(("node class ", "node function ")):
        # node's classes and functions written in JavaScript print their source
        kind = ident.split()[1]
        raise JsError(
            host_refusal(f"the source text of node's {kind} {fn.name}", "node's own code")
        )
    if fn.name.startswith("bound ") or fn.proxy is not None:  # these texts name nothing
        return "function () { [native code] }"
    return f"function {fn.name}() {{ [native code] }}"


def _chain_end(obj: JsCreated) -> Any:
    proto = obj.proto
    while type(proto) is JsCreated:
        proto = proto.proto
    return proto


def _created_get(obj: Any, key: str) -> Any:
    """A created object's property along a chain that ends in an array (own keys first)."""
    while type(obj) is JsCreated:
        if key in obj:
            return js_value(obj[key])
        obj = obj.proto
    if key == "length":
        return len(obj)
    index = _array_index(key)
    if index is None or index >= len(obj) or obj[index] is HOLE:
        return UNDEFINED
    return js_value(obj[index])


def _join_created(obj: JsCreated) -> str:
    n = to_int(_created_get(obj, "length"))
    n = int(min(max(n, 0), MAX_STRING_LENGTH))
    charge(ELEMENT * n)
    items = (_created_get(obj, str(i)) for i in range(n))
    return ",".join("" if x is None or x is UNDEFINED else to_string(x) for x in items)


def _refuse_foreign_this(obj: JsCreated, method: str) -> None:
    """An object created from a String, Number or Boolean object inherits that class's
    ``toString`` and ``valueOf``, which refuse any ``this`` that is not one of theirs."""
    proto = obj.proto
    while type(proto) is JsCreated:
        if method in proto or "toString" in proto:
            return
        proto = proto.proto
    tag = getattr(proto, "tag", None)
    if tag is not None and not _has_data_key(obj, method):
        kind = tag[len("[object ") : -1]
        raise JsError(f"{kind}.prototype.{method} requires that 'this' be a {kind}")


def _inherits(obj: JsCreated, key: str) -> bool:
    """Whether a created object reaches ``key`` through Object.prototype (or an array's)."""
    proto = obj.proto
    while type(proto) is JsCreated:
        proto = proto.proto
    return proto is not None and (key in OBJECT_PROTO or type(proto) is list)


def _has_data_key(obj: Any, key: str) -> bool:
    while type(obj) is JsCreated or type(obj) is dict:
        if key in obj:
            return True
        obj = obj.proto if type(obj) is JsCreated else None
    return False


def _walks(v: Any) -> bool:
    """Whether ``v``'s prototype chain was changed or leads to a built-in prototype (its
    conversions then read toString and valueOf along it)."""
    return bool(GENERIC) and bool(GENERIC["walks"](v))


def _converts_itself(v: Any) -> bool:
    """Whether a plain object owns a toString or valueOf the condition gave it as a function
    (Object.fromEntries([['valueOf', () => 5]]), an assignment): ToPrimitive calls it."""
    return type(v) is dict and (
        type(v.get("toString")) is JsFunction or type(v.get("valueOf")) is JsFunction
    )


def to_primitive(v: Any, hint: str = "default") -> Any:
    if (CHANGED.table or CHANGED.symbols or type(v) is JsCreated) and _walks(v):
        return GENERIC["to_primitive"](v, hint)
    if _converts_itself(v):
        return GENERIC["to_primitive"](v, hint)
    if isinstance(v, JsObject):
        return v.js_primitive(hint)
    t = type(v)
    if t is list or t is tuple or t is dict or t is JsFunction or t is JsNamespace:
        return to_string(v)
    if t is JsCreated:
        if hint != "string":
            _refuse_foreign_this(v, "valueOf")
        return to_string(v)
    if isinstance(v, Mapping):
        return "[object Object]"
    return v


def property_key(key: Any) -> str:
    if type(key) is str:
        return key
    refusal = getattr(key, "key_refusal", None)  # a symbol: objects here are string-keyed
    if refusal is not None:
        raise refusal()
    return to_string(key)


def truthy(v: Any) -> bool:
    """JavaScript truthiness: '' 0 -0 NaN null undefined false are false; [] and {} are true."""
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
    if isinstance(v, JsObject):
        return v.js_truthy()
    return True


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
    if t is JsFunction:
        return "function"
    if isinstance(v, JsObject):
        return v.js_typeof()
    return "object"


# --- object keys ---------------------------------------------------------------------------


def _array_index(key: str) -> int | None:
    if key.isdigit() and key.isascii() and (key == "0" or key[0] != "0"):
        i = int(key)
        return i if i < 2**32 - 1 else None
    return None


def array_index(key: str) -> int | None:
    """The array index ``key`` names, if any ('01' and '-1' name none)."""
    return _array_index(key)


_kept = threading.local()


def keep_all_keys(obj: dict[str, Any]) -> None:
    """An object JSON.parse made holds a key MemberJunction's copy drops (``__proto__``,
    ``constructor``...) as an ordinary own key: remembered for this evaluation."""
    table = getattr(_kept, "table", None)
    if table is None:
        table = _kept.table = {}
    table[id(obj)] = obj


def keeps_all_keys(obj: Any) -> bool:
    table: dict[int, Any] | None = getattr(_kept, "table", None)
    return table is not None and table.get(id(obj)) is obj


def forget_kept_keys() -> None:
    _kept.table = {}
    # and the joins in progress: an evaluation that ran out of stack inside a join may have
    # left its arrays marked, and a run again would join them to '' as if they held themselves
    _joining.stack = set()


def own_keys(obj: Mapping[Any, Any]) -> list[str]:
    """Object.keys order: integer-like keys ascending, then the others in insertion order;
    the keys MemberJunction drops from its copy are not there, nor the ones defined not
    enumerable."""
    keys = own_keys_all(obj)
    defined = defined_attributes(obj) if ATTRIBUTES.table else None
    if defined:
        return [k for k in keys if defined.get(k, ORDINARY)[1]]
    return keys


def own_keys_all(obj: Mapping[Any, Any]) -> list[str]:
    """Every own key of a plain object, enumerable or not, in Object.keys order."""
    charge(ELEMENT * len(obj))
    keys = [k if type(k) is str else property_key(k) for k in obj
            if type(k) is str or not _is_symbol(k)]  # fmt: skip
    if not keeps_all_keys(obj):
        keys = [k for k in keys if k not in DROPPED_KEYS]
    ints = [k for k in keys if _array_index(k) is not None]
    if not ints:
        return keys
    ints.sort(key=int)
    return ints + [k for k in keys if _array_index(k) is None]


def own_get(obj: Mapping[Any, Any], key: str) -> Any:
    """An own property of a plain object, or ``UNDEFINED`` (dropped keys are absent)."""
    if key in DROPPED_KEYS and not keeps_all_keys(obj):
        return UNDEFINED
    try:
        return js_value(obj[key])
    except KeyError:
        pass
    except TypeError:
        return UNDEFINED
    if key.lstrip("-").isdigit():
        # YAML may give integer keys; JavaScript sees every key as a string.
        charge(ELEMENT * len(obj))
        for k, v in obj.items():
            if type(k) is not str and property_key(k) == key:
                return js_value(v)
    return UNDEFINED


def own_has(obj: Mapping[Any, Any], key: Any) -> bool:
    if key in DROPPED_KEYS and not keeps_all_keys(obj):
        return False
    if key in obj:
        return True
    if type(key) is not str:
        return False  # a symbol
    charge(ELEMENT * len(obj))
    return any(type(k) is not str and not _is_symbol(k) and property_key(k) == key for k in obj)


def _is_symbol(k: Any) -> bool:
    return type(k) is not str and getattr(k, "key_refusal", None) is not None


# --- equality and comparison ---------------------------------------------------------------


def strict_eq(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return bool(number(a) == number(b))
    if ta is not tb:
        return False
    if ta is str or a is None or a is UNDEFINED or ta is bool:
        return bool(a == b)
    if a is b:
        return True
    if ta is JsFunction:
        return a.ident is not None and a.ident == b.ident
    return isinstance(a, JsObject) and bool(a == b)  # a BigInt is equal by value


def same_value(a: Any, b: Any) -> bool:
    """SameValue (Object.is): NaN is NaN, -0 is not +0."""
    if is_number(a) and is_number(b):
        x, y = float(a), float(b)
        if x != x and y != y:
            return True
        return x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
    return strict_eq(a, b)


def same_value_zero(a: Any, b: Any) -> bool:
    if type(a) is float and type(b) is float and a != a and b != b:
        return True
    return strict_eq(a, b)


def strict_ne(a: Any, b: Any) -> bool:
    return not strict_eq(a, b)


def _is_object(v: Any) -> bool:
    t = type(v)
    return not (
        t is str or t is int or t is float or t is bool or v is None or v is UNDEFINED
    ) and not (isinstance(v, JsObject) and v.js_typeof() == "symbol")


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
        return bool(number(a) == string_to_number(b))
    if ta is str and is_number(b):
        return bool(string_to_number(a) == number(b))
    a_obj, b_obj = _is_object(a), _is_object(b)
    if a_obj and not b_obj:
        return loose_eq(to_primitive(a), b)
    if b_obj and not a_obj:
        return loose_eq(a, to_primitive(b))
    return strict_eq(a, b)


def loose_ne(a: Any, b: Any) -> bool:
    return not loose_eq(a, b)


def _less(a: Any, b: Any) -> bool | None:
    """Abstract relational comparison a < b; None stands for undefined (NaN involved)."""
    a, b = to_primitive(a, "number"), to_primitive(b, "number")
    if type(a) is str and type(b) is str:
        if has_astral(a) or has_astral(b):
            return to_units(a) < to_units(b)
        return a < b
    x, y = to_number(a), to_number(b)
    if x != x or y != y:
        return None
    return x < y


def js_lt(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return bool(number(a) < number(b))
    return _less(a, b) is True


def js_gt(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return bool(number(a) > number(b))
    return _less(b, a) is True


def js_le(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return bool(number(a) <= number(b))
    return _less(b, a) is False


def js_ge(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if (ta is int or ta is float) and (tb is int or tb is float):
        return bool(number(a) >= number(b))
    return _less(a, b) is False


# --- arithmetic ----------------------------------------------------------------------------


def js_add(a: Any, b: Any) -> Any:
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        return number(a + b)
    if ta is str and tb is str:
        return concat(a, b)
    a, b = to_primitive(a), to_primitive(b)
    if type(a) is str or type(b) is str:
        return concat(to_string(a), to_string(b))
    x, y = to_number(a), to_number(b)
    if type(x) is int and type(y) is int:
        return number(x + y)
    return float(x) + float(y)


def js_sub(a: Any, b: Any) -> int | float:
    x, y = to_number(a), to_number(b)
    if type(x) is int and type(y) is int:
        return number(x - y)
    return float(x) - float(y)


def js_mul(a: Any, b: Any) -> int | float:
    x, y = to_number(a), to_number(b)
    if type(x) is int and type(y) is int:
        r = x * y
        if r == 0 and (x < 0 or y < 0):
            return -0.0
        return number(r)
    try:
        return float(x) * float(y)
    except OverflowError:
        return math.inf


def js_div(a: Any, b: Any) -> int | float:
    x, y = float(to_number(a)), float(to_number(b))
    if y == 0.0:
        if x != x or x == 0.0:
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    r = x / y
    return int(r) if r.is_integer() and abs(r) <= _EXACT and r != 0 else r


def js_mod(a: Any, b: Any) -> int | float:
    x, y = to_number(a), to_number(b)
    if type(x) is int and type(y) is int and y != 0:
        r = abs(x) % abs(y)
        if x < 0:
            return -r if r else -0.0
        return r
    x, y = float(x), float(y)
    if x != x or y != y or x in (math.inf, -math.inf) or y == 0.0:
        return math.nan
    if y in (math.inf, -math.inf):
        return x
    return math.fmod(x, y)


def js_pow(a: Any, b: Any) -> int | float:
    x, y = to_number(a), to_number(b)
    if y != y:
        return math.nan
    if y == 0:
        return 1
    if x == 0 and y < 0:
        odd = float(y).is_integer() and int(y) % 2 == 1
        return -math.inf if odd and math.copysign(1.0, x) < 0 else math.inf
    if (x == 1 or x == -1) and y in (math.inf, -math.inf):
        return math.nan
    if type(x) is int and type(y) is int and y > 0 and abs(x).bit_length() * y <= 53:
        return x**y  # exact below 2**53, where V8's pow is exact too
    return fdlibm.pow(float(x), float(y))  # V8's steps, to the last digit


def js_neg(a: Any) -> int | float:
    x = to_number(a)
    if type(x) is int:
        return -x if x else -0.0
    return -x


def js_pos(a: Any) -> int | float:
    return to_number(a)


def js_not(a: Any) -> bool:
    return not truthy(a)


def js_bitnot(a: Any) -> int:
    return ~to_int32(a)


def _int32(n: int) -> int:
    n &= 0xFFFFFFFF
    return n - 0x100000000 if n >= 0x80000000 else n


def js_bitand(a: Any, b: Any) -> int:
    return _int32(to_int32(a) & to_int32(b))


def js_bitor(a: Any, b: Any) -> int:
    return _int32(to_int32(a) | to_int32(b))


def js_bitxor(a: Any, b: Any) -> int:
    return _int32(to_int32(a) ^ to_int32(b))


def js_lshift(a: Any, b: Any) -> int:
    return _int32(to_int32(a) << (to_uint32(b) & 31))


def js_rshift(a: Any, b: Any) -> int:
    return to_int32(a) >> (to_uint32(b) & 31)


def js_urshift(a: Any, b: Any) -> int:
    return to_uint32(a) >> (to_uint32(b) & 31)


def js_in(key: Any, obj: Any) -> bool:
    """``key in obj``: own keys and the prototype chain, as JavaScript answers it."""
    t = type(obj)
    if (
        t in (str, int, float, bool)
        or obj is None
        or obj is UNDEFINED
        or (isinstance(obj, JsObject) and obj.js_typeof() in ("bigint", "symbol"))
    ):
        # V8 refuses the right side before it converts the key, and names the key unconverted
        shown = repr(obj) if typeof(obj) == "symbol" else to_string(obj)
        raise JsError(
            f"Cannot use 'in' operator to search for '{shown_value(key)}' in {shown}",
            anonymous=f"Cannot use 'in' operator to search for a key in {typeof(obj)}",
        )
    if getattr(key, "key_refusal", None) is not None:  # a symbol
        return bool(GENERIC["has_symbol"](obj, key))
    k = property_key(key)
    if (CHANGED.table or t is JsCreated) and _walks(obj):
        return bool(GENERIC["has"](obj, k))
    if t is JsCreated:
        if own_has(obj, k):
            return True
        return obj.proto is not None and js_in(k, obj.proto)
    if t is dict or (isinstance(obj, Mapping) and t is not JsNamespace):
        return own_has(obj, k) or k in OBJECT_PROTO
    if t is list or t is tuple:
        index = _array_index(k)
        if index is not None:
            return index < len(obj) and obj[index] is not HOLE
        return k in ARRAY_PROTO or k in OBJECT_PROTO
    if t is JsFunction and obj.proxy is not None:
        return bool(obj.proxy.js_has(k))  # a Proxy around a function: its has trap
    if t is JsFunction:
        return (
            (obj.props is not None and k in obj.props)
            or (obj.members is not None and k in obj.members)
            or k in FUNCTION_PROTO
            or (k in OBJECT_PROTO)
            or GENERIC["builtin_owns"](obj, k)  # Date's prototype, Error's stackTraceLimit
        )
    if t is JsNamespace:
        return k in obj.members or k in OBJECT_PROTO
    if isinstance(obj, JsObject) and obj.js_typeof() not in ("bigint", "symbol"):
        return obj.js_has(k) or k in OBJECT_PROTO
    shown = repr(obj) if typeof(obj) == "symbol" else to_string(obj)
    raise JsError(
        f"Cannot use 'in' operator to search for '{k}' in {shown}",
        anonymous=f"Cannot use 'in' operator to search for a key in {typeof(obj)}",
    )
