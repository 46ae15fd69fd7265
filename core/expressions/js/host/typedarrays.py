"""ArrayBuffer (resizable ones included) and the eleven typed arrays, as ECMAScript defines
them and node 20 runs them: views over one buffer's bytes (little-endian, as node's host
is), elements converted on every write (ToInt8 ... modulo 2**n, Uint8Clamped rounding half
to even, Float32 rounding, ToBigInt for the 64-bit kinds), every ``%TypedArray%.prototype``
method with V8's error texts. A length is bounded by the evaluation's budget as an array's
is: past it, the construction is refused, never guessed."""

from __future__ import annotations

import functools
import math
import struct
from collections.abc import Callable, Mapping
from typing import Any, Final

from flowctx_core.expressions.budget import MAX_ITEMS, charge, items_refused
from flowctx_core.expressions.js import bigint
from flowctx_core.expressions.js.common import LENT, Unsupported, _call, _relative
from flowctx_core.expressions.js.iterators import JsIterator
from flowctx_core.expressions.js.values import (
    ELEMENT,
    UNDEFINED,
    JsError,
    JsFunction,
    JsObject,
    JsPropsObject,
    host_refusal,
    is_nullish,
    number_to_string,
    own_keys,
    same_value_zero,
    shown_value,
    strict_eq,
    to_int,
    to_number,
    to_string,
    truthy,
    typeof,
)

#: each kind: its struct code (little-endian) and element size
KINDS: Final[dict[str, tuple[str, int]]] = {
    "Int8Array": ("b", 1), "Uint8Array": ("B", 1), "Uint8ClampedArray": ("B", 1),
    "Int16Array": ("h", 2), "Uint16Array": ("H", 2), "Int32Array": ("i", 4),
    "Uint32Array": ("I", 4), "Float32Array": ("f", 4), "Float64Array": ("d", 8),
    "BigInt64Array": ("q", 8), "BigUint64Array": ("Q", 8),
}  # fmt: skip
#: V8's largest typed array length and ArrayBuffer maxByteLength (64-bit node 20)
MAX_TYPED_LENGTH: Final = 2**32
MAX_BUFFER_MAX: Final = 2**32
SAFE: Final = 2**53 - 1


def _tidy(v: float) -> int | float:
    """A double read back as the evaluator holds numbers: integral ones as ints, -0 kept."""
    if v == v and v not in (math.inf, -math.inf) and v.is_integer() and v != 0:
        return int(v)
    if v == 0 and math.copysign(1.0, v) > 0:
        return 0
    return v


def _fround(v: float) -> float:
    try:
        return float(struct.unpack("<f", struct.pack("<f", v))[0])
    except OverflowError:
        return math.copysign(math.inf, v)


def _integer_modulo(bits: int, signed: bool) -> Callable[[Any], int]:
    size = 1 << bits

    def convert(v: Any) -> int:
        n = to_number(v)
        if n != n or n in (math.inf, -math.inf):
            return 0
        r = int(n) % size  # int() truncates toward zero
        return r - size if signed and r >= size >> 1 else r

    return convert


def _clamped(v: Any) -> int:
    n = to_number(v)
    if n != n or n <= 0:
        return 0
    if n >= 255:
        return 255
    return round(n)  # half to even, as ToUint8Clamp


def _float32(v: Any) -> float:
    return _fround(float(to_number(v)))


def _float64(v: Any) -> float:
    return float(to_number(v))


def _big(signed: bool) -> Callable[[Any], int]:
    def convert(v: Any) -> int:
        n = bigint._operand(v) % 2**64
        return n - 2**64 if signed and n >= 2**63 else n

    return convert


CONVERT: Final[dict[str, Callable[[Any], Any]]] = {
    "Int8Array": _integer_modulo(8, True), "Uint8Array": _integer_modulo(8, False),
    "Uint8ClampedArray": _clamped, "Int16Array": _integer_modulo(16, True),
    "Uint16Array": _integer_modulo(16, False), "Int32Array": _integer_modulo(32, True),
    "Uint32Array": _integer_modulo(32, False), "Float32Array": _float32,
    "Float64Array": _float64, "BigInt64Array": _big(True), "BigUint64Array": _big(False),
}  # fmt: skip


def _is_big(kind: str) -> bool:
    return kind.startswith("Big")


def _read_value(kind: str, raw: Any) -> Any:
    if _is_big(kind):
        return bigint.JsBigInt(raw)
    if kind.startswith("Float"):
        return _tidy(raw)
    return raw


# --- ArrayBuffer --------------------------------------------------------------------------------


class JsArrayBuffer(JsPropsObject):
    """An ArrayBuffer: its bytes, and its maxByteLength when it is resizable."""

    __slots__ = ("data", "max_length", "pooled")
    TAG: str = "ArrayBuffer"
    KINDS: frozenset[str] = frozenset({"ArrayBuffer"})
    #: the getter that says whether its length may change (a SharedArrayBuffer's is growable)
    CHANGES: str = "resizable"

    def __init__(self, length: int, max_length: int | None = None) -> None:
        self.data = bytearray(length)
        self.max_length = max_length
        #: a small Buffer's memory, which node takes from its pool (host/buffer.py): node's
        #: ArrayBuffer is the 8 KB pool, shared with the process's other small buffers
        self.pooled = False
        self.props: dict[str, Any] | None = None

    def js_shown(self) -> str:
        return f"#<{self.TAG}>"

    def __repr__(self) -> str:
        return f"[object {self.TAG}]"

    def js_primitive(self, hint: str = "default") -> Any:
        return f"[object {self.TAG}]"

    def methods(self) -> dict[str, tuple[Callable[..., Any], int]]:
        return _BUFFER_METHODS

    def js_get(self, key: str) -> Any:
        if self.props and key in self.props:
            return self.props[key]
        if key == "byteLength":
            return len(self.data)
        if key == "maxByteLength":
            return self.max_length if self.max_length is not None else len(self.data)
        if key == self.CHANGES:
            return self.max_length is not None
        method = self.methods().get(key)
        if method is not None:
            fn, arity = method
            ident = f"{self.TAG}.prototype.{key}"
            return bound_method(self, key, functools.partial(fn, self), arity, ident)
        return _object_proto(self, key)

    def js_set(self, key: str, value: Any) -> None:
        if key in ("byteLength", "maxByteLength", self.CHANGES):
            raise JsError(f"Cannot set property {key} of #<{self.TAG}> which has only a getter")
        super().js_set(key, value)

    def js_has(self, key: str) -> bool:
        return key in ("byteLength", "maxByteLength", self.CHANGES) or super().js_has(key)

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        if type(this) is type(self):
            return this.js_get(name).fn(*args)
        raise _incompatible(self.TAG, name, shown_value(this))

    def js_clone(self, cloner: Any) -> Any:
        copy = JsArrayBuffer(0, self.max_length)
        copy.data = bytearray(self.data)
        copy.pooled = self.pooled  # node copies the whole pool: the view keeps its offset
        charge(len(self.data) // 64 + 1)
        return cloner._keep(self, copy)


class JsSharedArrayBuffer(JsArrayBuffer):
    """A SharedArrayBuffer: bytes no other agent shares here (a condition starts no worker),
    growable rather than resizable; structuredClone gives the same memory back."""

    __slots__ = ()
    TAG = "SharedArrayBuffer"
    KINDS = frozenset({"SharedArrayBuffer"})
    CHANGES = "growable"

    def methods(self) -> dict[str, tuple[Callable[..., Any], int]]:
        return _SHARED_METHODS

    def js_clone(self, cloner: Any) -> Any:
        return cloner._keep(self, self)  # shared memory: the clone is a view of the same bytes


def _host_method(*_: Any) -> Any:
    """The marker of a host class's method (``JsFunction.method``): a call with another
    ``this`` goes to the class's ``js_call_with``."""
    raise AssertionError("a host class's method is called through js_call_with")


def bound_method(
    owner: Any, name: str, call: Callable[..., Any], arity: int, ident: str
) -> JsFunction:
    """A prototype's method read from ``owner``: called on it as it is; called with another
    ``this`` (detached, ``call``, ``apply``, ``bind``, as a callback), ``owner``'s class
    decides (``js_call_with``)."""
    fn = JsFunction(name, call, arity=arity, ident=ident)
    fn.method, fn.receiver = _host_method, owner
    return fn


def _incompatible(owner: str, name: str, shown: str) -> JsError:
    return JsError(f"Method {owner}.prototype.{name} called on incompatible receiver {shown}")


def _object_proto(obj: Any, key: str) -> Any:
    from flowctx_core.expressions.js.regexp import _object_proto as proto

    return proto(obj, key)


def to_index(v: Any, message: str) -> int:
    """ECMAScript's ToIndex with V8's RangeError for this use."""
    n = to_int(v)
    if n < 0 or n > SAFE:
        raise JsError(message)
    return int(n)


def _allocate(length: int) -> None:
    """Charge what zeroing ``length`` bytes costs; refuse past the budget (an array's bound
    in elements, at eight bytes the element)."""
    if length > 8 * MAX_ITEMS:
        raise items_refused("the buffer")
    charge(length // 64 + 1)


def new_shared_array_buffer(
    length: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any
) -> JsSharedArrayBuffer:
    made = new_array_buffer(length, options)
    shared = JsSharedArrayBuffer(0, made.max_length)
    shared.data = made.data
    return shared


def new_array_buffer(length: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> JsArrayBuffer:
    n = to_index(length, "Invalid array buffer length")
    top: int | None = None
    if isinstance(options, Mapping) or (typeof(options) == "object" and options is not None):
        got = LENT["get_member"](options, "maxByteLength")
        if got is not UNDEFINED:
            top = to_index(got, "Invalid array buffer max length")
            if n > top or top > MAX_BUFFER_MAX:
                raise JsError("Invalid array buffer max length")
    _allocate(n)
    return JsArrayBuffer(n, top)


def _buffer_slice(
    buf: JsArrayBuffer, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any
) -> JsArrayBuffer:
    size = len(buf.data)
    a, b = _relative(start, size, 0), _relative(end, size, size)
    out = JsArrayBuffer(0)
    out.data = bytearray(buf.data[a : max(a, b)])
    charge(len(out.data) // 64 + 1)
    return out


def _buffer_resize(buf: JsArrayBuffer, length: Any = UNDEFINED, *_: Any) -> Any:
    if buf.max_length is None:
        raise JsError(
            "Method ArrayBuffer.prototype.resize called on incompatible receiver #<ArrayBuffer>"
        )
    n = to_int(length)
    if n < 0 or n > buf.max_length:
        raise JsError("ArrayBuffer.prototype.resize: Invalid length parameter")
    n = int(n)
    _allocate(n)
    if n < len(buf.data):
        del buf.data[n:]
    else:
        buf.data.extend(bytes(n - len(buf.data)))
    return UNDEFINED


_BUFFER_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "slice": (_buffer_slice, 2),
    "resize": (_buffer_resize, 1),
}


def _shared_slice(
    buf: JsSharedArrayBuffer, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any
) -> JsSharedArrayBuffer:
    out = JsSharedArrayBuffer(0)
    out.data = _buffer_slice(buf, start, end).data
    return out


def _shared_grow(buf: JsSharedArrayBuffer, length: Any = UNDEFINED, *_: Any) -> Any:
    if buf.max_length is None:
        raise _incompatible("SharedArrayBuffer", "grow", "#<SharedArrayBuffer>")
    n = to_int(length)
    if n < len(buf.data) or n > buf.max_length:
        raise JsError("SharedArrayBuffer.prototype.grow: Invalid length parameter")
    _allocate(int(n))
    buf.data.extend(bytes(int(n) - len(buf.data)))
    return UNDEFINED


_SHARED_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "slice": (_shared_slice, 2),
    "grow": (_shared_grow, 1),
}


def is_view(v: Any = UNDEFINED, *_: Any) -> bool:
    return isinstance(v, JsTypedArray) or type(v).__name__ == "JsDataView"


# --- typed arrays -------------------------------------------------------------------------------

#: reading where a small Buffer lives: node took its memory from its pool
POOLED: Final = host_refusal(
    "the buffer and byteOffset of a small Buffer",
    "node took its memory from its 8 KB pool, shared with the process's other small buffers: "
    "where it starts there and the bytes around it are the process's",
)
#: the accessors of %TypedArray%.prototype
_GETTERS: Final = ("buffer", "byteLength", "byteOffset", "length")


def canonical_index(key: str) -> int | float | None:
    """CanonicalNumericIndexString: the number a key is (an integer or not, -0 included),
    None for a key that is not one (an ordinary property)."""
    if key == "-0":
        return -0.0
    n = to_number(key)
    if number_to_string(n) != key:
        return None
    return n


class JsTypedArray(JsPropsObject):
    """A view of ``kind`` over ``buffer`` from ``offset``: ``fixed`` elements, or (None) as
    many as the buffer holds past the offset (a length-tracking view of a resizable one)."""

    __slots__ = ("buffer", "fixed", "kind", "offset")

    def __init__(self, kind: str, buffer: JsArrayBuffer, offset: int, fixed: int | None) -> None:
        self.kind = kind
        self.buffer = buffer
        self.offset = offset
        self.fixed = fixed
        self.props: dict[str, Any] | None = None

    @property
    def TAG(self) -> str:  # the tag every host class names
        return self.kind

    @property
    def KINDS(self) -> frozenset[str]:
        return frozenset({self.kind})

    @property
    def size(self) -> int:
        return KINDS[self.kind][1]

    def out_of_bounds(self) -> bool:
        have = len(self.buffer.data)
        if self.offset > have:
            return True
        return self.fixed is not None and self.offset + self.fixed * self.size > have

    def length(self) -> int:
        if self.out_of_bounds():
            return 0
        if self.fixed is not None:
            return self.fixed
        return (len(self.buffer.data) - self.offset) // self.size

    def items(self) -> list[Any]:
        n = self.length()
        if not n:
            return []
        charge(n // 8 + 1)
        code = KINDS[self.kind][0]
        raw = struct.unpack_from(f"<{n}{code}", self.buffer.data, self.offset)
        if self.kind.startswith("Int") or self.kind.startswith("Uint"):
            return list(raw)
        return [_read_value(self.kind, r) for r in raw]

    def get(self, i: int) -> Any:
        code, size = KINDS[self.kind]
        (raw,) = struct.unpack_from(f"<{code}", self.buffer.data, self.offset + i * size)
        return _read_value(self.kind, raw)

    def put(self, i: int, converted: Any) -> None:
        code, size = KINDS[self.kind]
        struct.pack_into(f"<{code}", self.buffer.data, self.offset + i * size, converted)

    def write_all(self, start: int, converted: list[Any]) -> None:
        code, size = KINDS[self.kind]
        struct.pack_into(
            f"<{len(converted)}{code}", self.buffer.data, self.offset + start * size, *converted
        )

    def js_shown(self) -> str:
        return f"[object {self.kind}]"  # its own toString is not Object.prototype's

    def __repr__(self) -> str:
        return f"[object {self.kind}]"

    def js_primitive(self, hint: str = "default") -> Any:
        return _join(self, "toString")

    def js_get(self, key: str) -> Any:
        n = canonical_index(key)
        if n is not None:
            if type(n) is int and 0 <= n < self.length():
                return self.get(n)
            return UNDEFINED
        if self.props and key in self.props:
            return self.props[key]
        if key == "length":
            return self.length()
        if key == "byteLength":
            return self.length() * self.size
        if key in ("byteOffset", "buffer") and self.buffer.pooled:
            raise Unsupported(POOLED)
        if key == "byteOffset":
            return 0 if self.out_of_bounds() else self.offset
        if key == "buffer":
            return self.buffer
        if key == "BYTES_PER_ELEMENT":
            return self.size
        method = METHODS.get(key)
        if method is not None:
            fn, arity = method
            call = (
                functools.partial(fn, self)
                if key in UNCHECKED
                else functools.partial(_checked, fn, key, self)
            )
            return bound_method(self, key, call, arity, f"%TypedArray%.prototype.{key}")
        return _object_proto(self, key)

    def js_set(self, key: str, value: Any) -> None:
        n = canonical_index(key)
        if n is not None:
            converted = CONVERT[self.kind](value)  # converted before the index is checked
            if type(n) is int and 0 <= n < self.length():
                self.put(n, converted)
            return
        if key in _GETTERS:
            raise JsError(f"Cannot set property {key} of [object Object] which has only a getter")
        super().js_set(key, value)

    def js_has(self, key: str) -> bool:
        n = canonical_index(key)
        if n is not None:
            return type(n) is int and 0 <= n < self.length()
        if self.props and key in self.props:
            return True
        return (
            key in _GETTERS
            or key in METHODS
            or key == "BYTES_PER_ELEMENT"
            or (_object_proto(self, key) is not UNDEFINED)
        )

    def js_owns(self, key: str) -> bool:
        n = canonical_index(key)
        if n is not None:
            return type(n) is int and 0 <= n < self.length()
        return bool(self.props and key in self.props)

    def js_keys(self) -> list[str]:
        n = self.length()
        charge(n // 8 + 1)
        return [str(i) for i in range(n)] + (own_keys(self.props) if self.props else [])

    def js_iter(self) -> list[Any]:
        if self.out_of_bounds():
            raise _detached("values")
        return self.items()

    def js_json(self) -> Any:
        out: dict[str, Any] = {str(i): v for i, v in enumerate(self.items())}
        if self.props:
            out.update(self.props)
        return out

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        compare = args[0] if args and name in ("sort", "toSorted") else UNDEFINED
        if compare is not UNDEFINED and type(compare) is not JsFunction:  # checked first
            raise JsError("The comparison function must be either a function or undefined")
        if isinstance(this, JsTypedArray):
            return this.js_get(name).fn(*args)
        if name == "toString":  # Array.prototype.toString itself: generic
            return LENT["call_with_this"](LENT["get_member"]([], "toString"), this, args)
        if name in _NOT_TYPED:
            raise JsError("this is not a typed array.")
        shown = "undefined" if name == "subarray" else shown_value(this)
        raise _incompatible("%TypedArray%", name, shown)

    def js_freeze(self, frozen: bool | None) -> None:
        if frozen and self.length():
            raise JsError("Cannot freeze array buffer views with elements")

    def js_clone(self, cloner: Any) -> Any:
        # the whole buffer is copied, and the view keeps its offset and length over the copy
        buffer = cloner.clone(self.buffer)
        return cloner._keep(self, JsTypedArray(self.kind, buffer, self.offset, self.fixed))


def _detached(name: str) -> JsError:
    return JsError(f"Cannot perform %TypedArray%.prototype.{name} on a detached ArrayBuffer")


def _checked(fn: Callable[..., Any], name: str, ta: JsTypedArray, *args: Any) -> Any:
    """A prototype method: an out-of-bounds view is V8's "detached" TypeError first."""
    if ta.out_of_bounds():
        raise _detached(name)
    charge(ELEMENT * ta.length())
    return fn(ta, *args)


def create(kind: str, length: int) -> JsTypedArray:
    """A new typed array of ``length`` zeros, over a buffer of its own."""
    if length > MAX_TYPED_LENGTH:
        raise JsError(f"Invalid typed array length: {length}")
    if length > MAX_ITEMS:
        raise items_refused("the typed array")
    size = KINDS[kind][1]
    _allocate(length * size)
    return JsTypedArray(kind, JsArrayBuffer(length * size), 0, length)


def from_values(kind: str, values: list[Any]) -> JsTypedArray:
    ta = create(kind, len(values))
    charge(ELEMENT * len(values))  # each value converted in interpreted code
    convert = CONVERT[kind]
    ta.write_all(0, [convert(v) for v in values])
    return ta


def _array_like(source: Any) -> list[Any]:
    """The values of an iterable (arrays, strings' objects, Maps, Sets, iterators) or of an
    array-like (its ``length`` and indices)."""
    t = type(source)
    if t is list or t is tuple:
        from flowctx_core.expressions.js.values import HOLE, js_value

        charge(ELEMENT * len(source))
        return [UNDEFINED if x is HOLE else js_value(x) for x in source]
    if isinstance(source, JsObject):
        got = source.js_iter()
        if got is not None:
            return list(got)
    get = LENT["get_member"]
    n = to_int(get(source, "length"))
    n = int(max(0, min(n, SAFE)))
    if n > MAX_TYPED_LENGTH:
        raise JsError(f"Invalid typed array length: {n}")
    if n > MAX_ITEMS:
        raise items_refused("the typed array")
    charge(ELEMENT * n)
    return [get(source, str(i)) for i in range(n)]


def construct(kind: str) -> Callable[..., JsTypedArray]:
    """``new <kind>(...)``: from a length, an object (typed array, buffer, iterable or
    array-like)."""

    def make(
        first: Any = UNDEFINED, offset: Any = UNDEFINED, length: Any = UNDEFINED, *_: Any
    ) -> Any:
        if isinstance(first, JsArrayBuffer):
            return _over_buffer(kind, first, offset, length)
        if isinstance(first, JsTypedArray):
            if _is_big(first.kind) != _is_big(kind):
                raise JsError(bigint.MIX)
            if first.out_of_bounds():
                raise JsError("Cannot perform Construct on a detached ArrayBuffer")
            return from_values(kind, first.items())
        if typeof(first) in ("object", "function") and first is not None:
            return from_values(kind, _array_like(first))
        n = to_int(first)
        if n < 0 or n > SAFE:
            raise JsError(f"Invalid typed array length: {number_to_string(n)}")
        return create(kind, int(n))

    return make


def _over_buffer(kind: str, buf: JsArrayBuffer, offset: Any, length: Any) -> JsTypedArray:
    size = KINDS[kind][1]
    start = to_int(offset)
    if start < 0 or start > SAFE:
        raise JsError(f"Start offset {number_to_string(start)} is outside the bounds of the buffer")
    start = int(start)
    if start % size:
        raise JsError(f"start offset of {kind} should be a multiple of {size}")
    fixed: int | None = None
    tracking = length is UNDEFINED and buf.max_length is not None
    if length is not UNDEFINED:
        n = to_int(length)
        if n < 0 or n > SAFE:
            raise JsError(f"Invalid typed array length: {number_to_string(n)}")
        fixed = int(n)
    have = len(buf.data)
    if fixed is None:
        if have % size:
            raise JsError(f"byte length of {kind} should be a multiple of {size}")
        if start > have:
            raise JsError(f"Start offset {start} is outside the bounds of the buffer")
        return JsTypedArray(kind, buf, start, None if tracking else (have - start) // size)
    if start + fixed * size > have:
        raise JsError(f"Invalid typed array length: {fixed}")
    return JsTypedArray(kind, buf, start, fixed)


# --- %TypedArray%.prototype ---------------------------------------------------------------------


def _same_kind(ta: JsTypedArray, values: list[Any]) -> JsTypedArray:
    return from_values(ta.kind, values)


def _at(ta: JsTypedArray, i: Any = UNDEFINED, *_: Any) -> Any:
    n = to_int(i)
    length = ta.length()
    n = n + length if n < 0 else n
    return ta.get(int(n)) if 0 <= n < length else UNDEFINED


def _fill(
    ta: JsTypedArray, value: Any = UNDEFINED, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any
) -> Any:
    converted = CONVERT[ta.kind](value)
    length = ta.length()
    a, b = _relative(start, length, 0), _relative(end, length, length)
    if ta.out_of_bounds():
        raise _detached("fill")
    if b > a:
        ta.write_all(a, [converted] * (b - a))
    return ta


def _iteration(name: str) -> Callable[..., Any]:
    def run(ta: JsTypedArray, fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> Any:
        call = _call(fn, name, this)
        length = ta.length()
        if name in ("findLast", "findLastIndex"):
            order: Any = range(length - 1, -1, -1)
        else:
            order = range(length)
        kept: list[Any] = []
        mapped: list[Any] = []
        for i in order:
            v = ta.get(i) if i < ta.length() else UNDEFINED
            r = call(v, i, ta)
            if name == "map":
                mapped.append(r)
            elif name == "forEach":
                continue
            elif truthy(r):
                if name in ("find", "findLast"):
                    return v
                if name in ("findIndex", "findLastIndex"):
                    return i
                if name == "some":
                    return True
                if name == "filter":
                    kept.append(v)
            elif name == "every":
                return False
        if name == "map":
            return _same_kind(ta, mapped)
        if name == "filter":
            return _same_kind(ta, kept)
        return {"find": UNDEFINED, "findLast": UNDEFINED, "findIndex": -1,
                "findLastIndex": -1, "some": False, "every": True,
                "forEach": UNDEFINED}[name]  # fmt: skip

    return run


def _reduce(right: bool) -> Callable[..., Any]:
    def run(ta: JsTypedArray, fn: Any = UNDEFINED, *rest: Any) -> Any:
        call = _call(fn, "reduceRight" if right else "reduce")
        length = ta.length()
        order = list(range(length - 1, -1, -1) if right else range(length))
        if rest:
            acc = rest[0]
        elif not order:
            raise JsError("Reduce of empty array with no initial value")
        else:
            acc = ta.get(order.pop(0))
        for i in order:
            acc = call(acc, ta.get(i) if i < ta.length() else UNDEFINED, i, ta)
        return acc

    return run


def _includes(ta: JsTypedArray, search: Any = UNDEFINED, start: Any = UNDEFINED, *_: Any) -> bool:
    length = ta.length()
    if not length:
        return False
    begin = _relative(start, length, 0)
    return any(same_value_zero(v, search) for v in ta.items()[begin:])


def _index_of(ta: JsTypedArray, search: Any = UNDEFINED, start: Any = UNDEFINED, *_: Any) -> int:
    length = ta.length()
    if not length:
        return -1
    begin = _relative(start, length, 0)
    items = ta.items()
    for i in range(begin, len(items)):
        if strict_eq(items[i], search):
            return i
    return -1


def _last_index_of(ta: JsTypedArray, search: Any = UNDEFINED, *rest: Any) -> int:
    length = ta.length()
    if not length:
        return -1
    last: int | float = length - 1
    if rest:
        n = to_int(rest[0])
        last = min(n, length - 1) if n >= 0 else length + n
    items = ta.items()
    for i in range(int(last), -1, -1):
        if i < len(items) and strict_eq(items[i], search):
            return i
    return -1


def _element_text(v: Any) -> str:
    return to_string(v)


def _join(ta: JsTypedArray, name: str, sep: Any = UNDEFINED) -> str:
    if ta.out_of_bounds():
        raise _detached("join")
    text = "," if sep is UNDEFINED else to_string(sep)
    items = ta.items()
    if ta.kind.startswith("Big") or ta.kind.startswith("Float"):
        return text.join(_element_text(v) for v in items)
    return text.join(map(str, items))


def _join_method(ta: JsTypedArray, sep: Any = UNDEFINED, *_: Any) -> str:
    return _join(ta, "join", sep)


def _to_string(ta: JsTypedArray, *_: Any) -> str:
    return _join(ta, "toString")


def _to_locale_string(ta: JsTypedArray, *args: Any) -> str:
    get = LENT["get_member"]
    parts = []
    for v in ta.items():
        method = get(v, "toLocaleString")
        parts.append(to_string(method.fn(*args)))
    return ",".join(parts)


def _reverse(ta: JsTypedArray, *_: Any) -> Any:
    items = ta.items()
    convert = CONVERT[ta.kind]
    ta.write_all(0, [convert(v) for v in reversed(items)])
    return ta


def _to_reversed(ta: JsTypedArray, *_: Any) -> Any:
    return _same_kind(ta, ta.items()[::-1])


def _sort_key(v: Any) -> Any:
    if isinstance(v, bigint.JsBigInt):
        return (0, v.big)
    if v != v:
        return (1, 0)
    return (0, v, math.copysign(1.0, v) if v == 0 else 0)


def _sorted(ta: JsTypedArray, cmp: Any, name: str) -> list[Any]:
    if cmp is not UNDEFINED and type(cmp) is not JsFunction:
        raise JsError("The comparison function must be either a function or undefined")
    items = ta.items()
    if cmp is UNDEFINED:
        return sorted(items, key=_sort_key)
    call = _call(cmp, name)

    def compare(a: Any, b: Any) -> float:
        r = to_number(call(a, b))
        return 0 if r != r else r

    return _merge_sort(items, compare)


def _merge_sort(items: list[Any], compare: Callable[[Any, Any], float]) -> list[Any]:
    """V8's merge sort of a typed array with a comparator (top-down, two work copies, the
    left element first on a tie): with a comparator that is not consistent, the order it
    leaves is V8's own, which another stable sort would not give."""
    source, target = list(items), list(items)

    def merge_sort(src: list[Any], lo: int, hi: int, dst: list[Any]) -> None:
        middle = lo + ((hi - lo) >> 1)
        if middle - lo > 1:
            merge_sort(dst, lo, middle, src)
        if hi - middle > 1:
            merge_sort(dst, middle, hi, src)
        left, right = lo, middle
        for k in range(lo, hi):
            if left < middle and (right >= hi or compare(src[left], src[right]) <= 0):
                dst[k] = src[left]
                left += 1
            else:
                dst[k] = src[right]
                right += 1

    if len(items) > 1:
        merge_sort(source, 0, len(items), target)
    return target


def _sort(ta: JsTypedArray, cmp: Any = UNDEFINED, *_: Any) -> Any:
    result = _sorted(ta, cmp, "sort")
    convert = CONVERT[ta.kind]
    n = min(len(result), ta.length())
    ta.write_all(0, [convert(v) for v in result[:n]])
    return ta


def _to_sorted(ta: JsTypedArray, cmp: Any = UNDEFINED, *_: Any) -> Any:
    if cmp is not UNDEFINED and type(cmp) is not JsFunction:
        raise JsError("The comparison function must be either a function or undefined")
    return _same_kind(ta, _sorted(ta, cmp, "toSorted"))


def _with(ta: JsTypedArray, index: Any = UNDEFINED, value: Any = UNDEFINED, *_: Any) -> Any:
    length = ta.length()
    rel = to_int(index)
    actual = rel + length if rel < 0 else rel
    converted = CONVERT[ta.kind](value)
    if not 0 <= actual < ta.length():
        raise JsError("Invalid typed array index")
    items = ta.items()
    out = create(ta.kind, length)
    convert = CONVERT[ta.kind]
    values = [convert(v) for v in items]
    values[int(actual)] = converted
    out.write_all(0, values)
    return out


def _slice(ta: JsTypedArray, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> Any:
    length = ta.length()
    a, b = _relative(start, length, 0), _relative(end, length, length)
    if ta.out_of_bounds():
        raise _detached("slice")
    return _same_kind(ta, ta.items()[a : max(a, b)])


def _subarray(ta: JsTypedArray, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any) -> Any:
    """A view of the same buffer, made as ``new <kind>(buffer, offset, length)`` is (its
    RangeErrors when the buffer shrank under the view); a length-tracking view's subarray
    to the end tracks too."""
    length = ta.length()
    a = _relative(start, length, 0)
    offset = ta.offset + a * ta.size
    if ta.fixed is None and end is UNDEFINED:
        return _over_buffer(ta.kind, ta.buffer, offset, UNDEFINED)
    b = _relative(end, length, length)
    return _over_buffer(ta.kind, ta.buffer, offset, max(b - a, 0))


def _set(ta: JsTypedArray, source: Any = UNDEFINED, offset: Any = UNDEFINED, *_: Any) -> Any:
    at = to_int(offset)
    if at < 0:
        raise JsError("offset is out of bounds")
    if isinstance(source, JsTypedArray):
        if _is_big(source.kind) != _is_big(ta.kind):
            raise JsError(bigint.MIX)
        values = source.items()
    else:
        if is_nullish(source):
            raise JsError("Cannot convert undefined or null to object")
        if type(source) is str:
            values = list(source)
        elif typeof(source) in ("object", "function"):
            values = _array_like_values(source)
        else:
            values = []
    if at + len(values) > ta.length():
        raise JsError("offset is out of bounds")
    convert = CONVERT[ta.kind]
    for i, v in enumerate(values):
        ta.put(int(at) + i, convert(v))  # one at a time: a conversion may throw midway
    return UNDEFINED


def _array_like_values(source: Any) -> list[Any]:
    """``set``'s source that is no typed array: its ``length`` and indices (not iterated)."""
    t = type(source)
    if t is list or t is tuple:
        from flowctx_core.expressions.js.values import HOLE, js_value

        return [UNDEFINED if x is HOLE else js_value(x) for x in source]
    get = LENT["get_member"]
    n = int(max(0, min(to_int(get(source, "length")), SAFE)))
    if n > MAX_ITEMS:
        raise items_refused("the source")
    return [get(source, str(i)) for i in range(n)]


def _copy_within(
    ta: JsTypedArray, target: Any = UNDEFINED, start: Any = UNDEFINED, end: Any = UNDEFINED, *_: Any
) -> Any:
    length = ta.length()
    to = _relative(target, length, 0)
    a, b = _relative(start, length, 0), _relative(end, length, length)
    count = min(b - a, length - to)
    if count > 0:
        size = ta.size
        data, base = ta.buffer.data, ta.offset
        src = base + a * size
        data[base + to * size : base + (to + count) * size] = data[src : src + count * size]
    return ta


def _iterator(which: str) -> Callable[..., Any]:
    def make(ta: JsTypedArray, *_: Any) -> JsIterator:
        items = ta.items()
        if which == "keys":
            return JsIterator("Array Iterator", list(range(len(items))))
        if which == "values":
            return JsIterator("Array Iterator", items)
        return JsIterator("Array Iterator", [[i, v] for i, v in enumerate(items)])

    return make


METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "entries": (_iterator("entries"), 0), "keys": (_iterator("keys"), 0),
    "values": (_iterator("values"), 0), "at": (_at, 1), "copyWithin": (_copy_within, 2),
    "every": (_iteration("every"), 1), "fill": (_fill, 1), "filter": (_iteration("filter"), 1),
    "find": (_iteration("find"), 1), "findIndex": (_iteration("findIndex"), 1),
    "findLast": (_iteration("findLast"), 1), "findLastIndex": (_iteration("findLastIndex"), 1),
    "forEach": (_iteration("forEach"), 1), "includes": (_includes, 1),
    "indexOf": (_index_of, 1), "join": (_join_method, 1), "lastIndexOf": (_last_index_of, 1),
    "map": (_iteration("map"), 1), "reverse": (_reverse, 0), "reduce": (_reduce(False), 1),
    "reduceRight": (_reduce(True), 1), "set": (_set, 1), "slice": (_slice, 2),
    "some": (_iteration("some"), 1), "sort": (_sort, 1), "subarray": (_subarray, 2),
    "toLocaleString": (_to_locale_string, 0), "toString": (_to_string, 0),
    "toReversed": (_to_reversed, 0), "toSorted": (_to_sorted, 1), "with": (_with, 2),
}  # fmt: skip
#: the methods whose receiver check says "this is not a typed array." (the others name it)
_NOT_TYPED: Final = frozenset(
    {"entries", "keys", "values", "copyWithin", "every", "fill", "filter", "find", "findIndex",
     "findLast", "findLastIndex", "forEach", "includes", "indexOf", "lastIndexOf", "map",
     "reverse", "reduce", "reduceRight", "set", "some", "with"}
)  # fmt: skip
#: the methods that do not check the view first (they make a new one over its buffer)
UNCHECKED: Final = frozenset({"subarray"})


# --- statics ------------------------------------------------------------------------------------


def static_from(kind: str) -> Callable[..., Any]:
    def from_(source: Any = UNDEFINED, fn: Any = UNDEFINED, this: Any = UNDEFINED, *_: Any) -> Any:
        call = None if fn is UNDEFINED else _call(fn, "from", this)
        if is_nullish(source):
            shown = "undefined" if source is UNDEFINED else "object null"
            raise JsError(f"{shown} is not iterable (cannot read property Symbol(Symbol.iterator))")
        if type(source) is str:
            charge(len(source))
            values: list[Any] = list(source)
        elif typeof(source) in ("object", "function"):
            values = _array_like(source)
        else:
            values = []
        if call is not None:
            values = [call(v, i) for i, v in enumerate(values)]
        return from_values(kind, values)

    return from_


def static_of(kind: str) -> Callable[..., Any]:
    def of(*items: Any) -> Any:
        return from_values(kind, list(items))

    return of
