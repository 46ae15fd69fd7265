"""node's Buffer as node 20 answers it: a Uint8Array whose bytes are text in an encoding.

``Buffer.from`` (a string in an encoding, an array or array-like, another view, an
ArrayBuffer's memory, ``{type: 'Buffer', data}``), ``alloc``, ``byteLength``, ``concat``,
``compare``, ``isBuffer``, ``isEncoding``, ``of``; a buffer's ``toString`` and ``toJSON``,
``equals``, ``compare``, ``indexOf``/``lastIndexOf``/``includes`` of a byte, text or bytes,
``fill``, the ``read`` family with node's range errors, ``slice`` and ``subarray`` (views of
the same memory), and the typed array's methods, whose
new arrays are buffers where node's species makes them so. The encodings decode as node's do
(base64 skips what is not in its alphabets and stops at '=', hex stops at the first pair that
is not one). What writes bytes or takes ranges is host/bufferwrite.py's. A small buffer's
memory is node's pool (``from`` of a text or an array-like, ``concat``, ``copyBytesFrom``):
where it lives there (``buffer``, ``byteOffset``, ``parent``, ``offset``) is the process's,
refused as the host's. Refused by name: ``allocUnsafe`` (it hands out the host's memory),
``Buffer()`` itself (node prints a deprecation warning on the host's output), and node's
per-encoding natives (``utf8Write``, ``hexSlice``...).
"""

from __future__ import annotations

import base64
import binascii
import functools
import importlib
import math
import struct
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js.bigint import JsBigInt
from flowctx_core.expressions.js.common import LENT, Unsupported
from flowctx_core.expressions.js.host.textcoding import _well_formed, received
from flowctx_core.expressions.js.host.typedarrays import (
    JsArrayBuffer,
    JsTypedArray,
    _array_like,
    bound_method,
    create,
    from_values,
)
from flowctx_core.expressions.js.values import (
    CHANGED,
    UNDEFINED,
    JsError,
    JsFunction,
    from_units,
    host_refusal,
    to_int,
    to_number,
    to_string,
    to_units,
    typeof,
)

#: node's encoding names (matched without case) and the one each stands for
_ENCODINGS: Final = {
    "utf8": "utf8", "utf-8": "utf8", "ucs2": "utf16le", "ucs-2": "utf16le",
    "utf16le": "utf16le", "utf-16le": "utf16le", "latin1": "latin1", "binary": "latin1",
    "base64": "base64", "base64url": "base64url", "hex": "hex", "ascii": "ascii",
}  # fmt: skip
_B64: Final = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_")
_HEX: Final = frozenset("0123456789abcdefABCDEF")
MAX_LENGTH: Final = 2**32
#: node takes a buffer smaller than this from its pool (half the pool's 8 KB)
POOL_HALF: Final = 4096


class JsNodeBuffer(JsTypedArray):
    """A Buffer: a Uint8Array view whose prototype is Buffer.prototype."""

    __slots__ = ()

    @property
    def KINDS(self) -> frozenset[str]:
        return frozenset({"Uint8Array", "Buffer"})

    def js_primitive(self, hint: str = "default") -> Any:
        return _decode(bytes(self.view()), "utf8")

    def js_json(self) -> Any:
        return _to_json(self)

    def view(self) -> memoryview:
        return _view_of(self)

    def js_get(self, key: str) -> Any:
        method = _method(key)
        if method is not None and not (self.props and key in self.props):
            fn, arity = method
            return bound_method(
                self, key, functools.partial(fn, self), arity, f"Buffer.prototype.{key}"
            )
        if key in ("parent", "offset") and not (self.props and key in self.props):
            # Buffer.prototype's old names of its buffer and byteOffset
            return self.js_get("buffer" if key == "parent" else "byteOffset")
        if key in _REFUSED_METHODS:
            raise Unsupported(f"flowctx does not reproduce Buffer.prototype.{key}")
        got = super().js_get(key)
        if key in _SPECIES and type(got) is JsFunction:
            inner = got.fn
            got.fn = lambda *args: _as_buffer(inner(*args))
        return got

    def js_call_with(self, name: str, this: Any, args: list[Any]) -> Any:
        method = _method(name)
        if method is not None:
            if isinstance(this, JsTypedArray) and this.kind == "Uint8Array":
                return method[0](_as_buffer(this), *args)
            raise Unsupported(f"flowctx does not reproduce Buffer.prototype.{name} on this value")
        return super().js_call_with(name, this, args)


def _method(name: str) -> tuple[Callable[..., Any], int] | None:
    """Buffer.prototype's method ``name``: this module's, or one that writes or takes ranges
    (host/bufferwrite.py, loaded on first use)."""
    return _METHODS.get(name) or _writing().METHODS.get(name)


@functools.cache
def _writing() -> Any:
    return importlib.import_module("flowctx_core.expressions.js.host.bufferwrite")


def _view_of(ta: JsTypedArray) -> memoryview:
    """A typed array's bytes, in its buffer, without a copy."""
    return memoryview(ta.buffer.data)[ta.offset : ta.offset + ta.length() * ta.size]


def _as_buffer(v: Any) -> Any:
    """A Uint8Array a species made (map, filter, subarray): the same view, as a Buffer."""
    if type(v) is JsTypedArray and v.kind == "Uint8Array":
        return JsNodeBuffer("Uint8Array", v.buffer, v.offset, v.fixed)
    return v


def _made(data: bytes | bytearray) -> JsNodeBuffer:
    ta = create("Uint8Array", len(data))
    ta.buffer.data[:] = data
    return JsNodeBuffer("Uint8Array", ta.buffer, 0, len(data))


def _from_pool(buf: Any, size: int) -> Any:
    """``buf`` as node makes it where it allocates ``size`` bytes: from its pool when the size
    is above 0 and below half the pool (typedarrays.POOLED refuses reading where it lives)."""
    if 0 < size < POOL_HALF:
        buf.buffer.pooled = True
    return buf


# --- encodings ----------------------------------------------------------------------------------


def _encoding_of(v: Any) -> str | None:
    """getEncodingOps: the encoding ``v`` names (converted to a string), or None."""
    return _ENCODINGS.get(to_string(v).lower())


def _unknown(v: Any) -> JsError:
    return JsError(f"Unknown encoding: {to_string(v)}")


def _encode(text: str, encoding: str) -> bytes:
    charge(len(text) // 8 + 1)
    if encoding == "utf8":
        return _well_formed(text).encode("utf-8")
    units = to_units(text)
    if encoding in ("latin1", "ascii"):
        return bytes(ord(u) & 0xFF for u in units)
    if encoding == "utf16le":
        return b"".join(ord(u).to_bytes(2, "little") for u in units)
    if encoding == "hex":
        out = bytearray()
        for i in range(0, len(units) - 1, 2):
            pair = units[i : i + 2]
            if not (pair[0] in _HEX and pair[1] in _HEX):
                break  # the first pair that is no hex byte ends it
            out.append(int(pair, 16))
        return bytes(out)
    # base64 and base64url alike: what is in neither alphabet is skipped, '=' ends the text
    kept = bytearray()
    for u in units:
        if u == "=":
            break
        b = ord(u)
        if b < 128 and b in _B64:
            kept.append(b)
    kept = kept.replace(b"-", b"+").replace(b"_", b"/")
    whole = len(kept) - len(kept) % 4
    tail = kept[whole:]
    out = bytearray(binascii.a2b_base64(bytes(kept[:whole]))) if whole else bytearray()
    if len(tail) >= 2:
        padded = bytes(tail) + b"=" * (4 - len(tail))
        out += binascii.a2b_base64(padded)
    return bytes(out)


def _decode(data: bytes, encoding: str) -> str:
    charge(len(data) // 8 + 1)
    if encoding == "utf8":
        return data.decode("utf-8", "replace")
    if encoding == "latin1":
        return data.decode("latin-1")
    if encoding == "ascii":
        return bytes(b & 0x7F for b in data).decode("ascii")
    if encoding == "utf16le":
        units = [chr(int.from_bytes(data[i : i + 2], "little")) for i in range(0, len(data) - 1, 2)]
        return from_units("".join(units))
    if encoding == "hex":
        return data.hex()
    text = base64.b64encode(data).decode("ascii")
    if encoding == "base64url":
        return text.replace("+", "-").replace("/", "_").rstrip("=")
    return text


def _byte_length_of_text(text: str, encoding: str) -> int:
    code_units = to_units(text)
    units = len(code_units)
    if encoding in ("base64", "base64url"):
        n = units  # base64ByteLength: up to two '=' at the very end are not counted
        tail = code_units[-2:]
        if tail.endswith("="):
            n -= 2 if tail == "==" else 1
        return (n * 3) >> 2
    if encoding == "hex":
        return units >> 1
    if encoding in ("latin1", "ascii"):
        return units
    if encoding == "utf16le":
        return units * 2
    return len(_encode(text, "utf8"))


# --- statics ------------------------------------------------------------------------------------


def _first_argument(v: Any) -> JsError:
    return JsError(
        "The first argument must be of type string or an instance of Buffer, ArrayBuffer, or "
        f"Array or an Array-like Object. {received(v)}"
    )


def _from(value: Any = UNDEFINED, encoding_or_offset: Any = UNDEFINED, length: Any = UNDEFINED,
          *_: Any) -> JsNodeBuffer:  # fmt: skip
    if type(value) is str:
        return _from_string(value, encoding_or_offset)
    if value is None or typeof(value) != "object":
        raise _first_argument(value)
    if isinstance(value, JsArrayBuffer):
        return _from_array_buffer(value, encoding_or_offset, length)
    get = LENT["get_member"]
    value_of = get(value, "valueOf")
    if type(value_of) is JsFunction:
        primitive = LENT["call_with_this"](value_of, value, [])
        kind = typeof(primitive)
        if primitive is not None and primitive is not value and kind in ("string", "object"):
            return _from(primitive, encoding_or_offset, length)
    if isinstance(value, JsTypedArray):
        return _copied(value.items())
    if get(value, "length") is not UNDEFINED:
        if typeof(get(value, "length")) != "number":
            return _made(b"")
        return _copied(_array_like(value))
    if get(value, "type") == "Buffer" and type(get(value, "data")) is list:
        return _copied(_array_like(get(value, "data")))
    if CHANGED.symbols:  # its own Symbol.toPrimitive would be asked for a string
        raise Unsupported("flowctx does not reproduce Buffer.from of an object keyed by symbols")
    raise _first_argument(value)


def _copied(items: list[Any]) -> JsNodeBuffer:
    """An array-like's elements copied into a new buffer, from the pool where node takes it."""
    return _from_pool(_as_buffer(from_values("Uint8Array", items)), len(items))  # type: ignore[no-any-return]


def _from_string(text: str, encoding: Any) -> JsNodeBuffer:
    chosen: str | None = "utf8"
    if type(encoding) is str and encoding:
        chosen = _encoding_of(encoding)
        if chosen is None:
            raise _unknown(encoding)
    assert chosen is not None
    made = _made(_encode(text, chosen))
    # node sizes a text's buffer by its length first (four bytes a unit at most), then by the
    # encoding's byte count (an estimate for base64): under half the pool, it is the pool's,
    # even where the text decodes to nothing (hex 'zz')
    units = len(to_units(text))
    if units and units < POOL_HALF:
        size = 4 * units if 4 * units < POOL_HALF else _byte_length_of_text(text, chosen)
        if size < POOL_HALF:
            made.buffer.pooled = True
    return made


def _from_array_buffer(buf: JsArrayBuffer, offset: Any, length: Any) -> JsNodeBuffer:
    start = 0.0 if offset is UNDEFINED else to_number(offset)
    if start != start:
        start = 0.0
    room = len(buf.data) - start
    if room < 0:
        raise JsError('"offset" is outside of buffer bounds')
    if length is UNDEFINED:
        n = room
    else:
        n = to_number(length)
        if n > 0:
            if n > room:
                raise JsError('"length" is outside of buffer bounds')
        else:
            n = 0
    return JsNodeBuffer("Uint8Array", buf, int(start), int(n))


def _alloc(size: Any = UNDEFINED, fill: Any = UNDEFINED, encoding: Any = UNDEFINED,
           *_: Any) -> JsNodeBuffer:  # fmt: skip
    if typeof(size) != "number":
        raise JsError(f'The "size" argument must be of type number. {received(size)}')
    if not 0 <= size <= MAX_LENGTH:
        raise JsError(
            f'The value of "size" is out of range. It must be >= 0 && <= {MAX_LENGTH}. '
            f"Received {_shown_number(size)}"
        )
    out = _made(bytes(int(size)))
    if fill is not UNDEFINED and fill != 0 and int(size) > 0:
        _fill_range(out, fill, 0, int(size), encoding)
    return out


def _inspected(value: Any) -> str:
    """How node's inspect shows a string or a buffer in its messages ('zz', "it's", 'a\\tb')."""
    if type(value) is JsNodeBuffer and not value.length():
        return "<Buffer >"
    if type(value) is not str:
        raise Unsupported("flowctx does not reproduce how node shows this value")
    quote = (
        "'" if "'" not in value else '"' if '"' not in value else "`" if "`" not in value else "'"
    )
    out = []
    for c in value:
        if c in (quote, "\\"):
            out.append("\\" + c)
        elif c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\x{ord(c):02X}")
        elif "\ud800" <= c <= "\udfff":
            out.append(f"\\u{ord(c):04x}")  # a lone surrogate, as inspect writes it
        else:
            out.append(c)
    return quote + "".join(out) + quote


_ESCAPES: Final = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _offset(v: Any, name: str, top: int) -> int:
    """node's validateInteger for an offset: a number, an integer, within 0..top."""
    if typeof(v) != "number":
        raise JsError(f'The "{name}" argument must be of type number. {received(v)}')
    if v != v or (type(v) is float and not v.is_integer()):
        raise JsError(
            f'The value of "{name}" is out of range. It must be an integer. Received {to_string(v)}'
        )
    if not 0 <= v <= top:
        raise JsError(
            f'The value of "{name}" is out of range. It must be >= 0 && <= {top}. Received '
            f"{_shown_number(v)}"
        )
    return int(v)


def _fill_range(buf: JsNodeBuffer, value: Any, offset: Any = UNDEFINED, end: Any = UNDEFINED,
                encoding: Any = UNDEFINED) -> JsNodeBuffer:  # fmt: skip
    """Buffer.prototype.fill: a string in an encoding (the encoding may stand in the offset's
    or the end's place), a number, a view's bytes, repeated over [offset, end)."""
    n = buf.length()
    chosen = "utf8"
    if type(value) is str:
        if offset is UNDEFINED or type(offset) is str:
            encoding, offset, end = offset, 0, n
        elif type(end) is str:
            encoding, end = end, n
        if encoding is not UNDEFINED and encoding != "":
            if type(encoding) is not str:
                raise JsError(
                    f'The "encoding" argument must be of type string. {received(encoding)}'
                )
            found = _ENCODINGS.get(encoding.lower())
            if found is None:
                raise _unknown(encoding)
            chosen = found
    if offset is UNDEFINED:
        first, last = 0, n
    else:
        first = _offset(offset, "offset", MAX_LENGTH)
        last = n if end is UNDEFINED else _offset(end, "end", n)
        if first >= last:
            return buf
    if type(value) is str:
        pattern = _encode(value, chosen) if value else b"\x00"
    elif isinstance(value, JsTypedArray):
        pattern = bytes(_view_of(value))
    else:
        pattern = bytes([int(to_int(value)) % 2**32 & 0xFF]) if typeof(value) != "bigint" else b""
        if typeof(value) == "bigint":
            raise Unsupported("flowctx does not reproduce Buffer.prototype.fill of a BigInt")
    if not pattern:
        raise JsError(f"The argument 'value' is invalid. Received {_inspected(value)}")
    if last > n:
        raise JsError("Attempt to access memory outside buffer bounds")
    size = last - first
    charge(size // 64 + 1)
    data = (pattern * (size // len(pattern) + 1))[:size]
    buf.buffer.data[buf.offset + first : buf.offset + last] = data
    return buf


def _byte_length(value: Any = UNDEFINED, encoding: Any = UNDEFINED, *_: Any) -> int:
    if type(value) is not str:
        if isinstance(value, JsTypedArray):
            return int(value.js_get("byteLength"))
        if isinstance(value, JsArrayBuffer):
            return len(value.data)
        if type(value).__name__ == "JsDataView":
            return int(value.js_get("byteLength"))
        raise JsError(
            'The "string" argument must be of type string or an instance of Buffer or '
            f"ArrayBuffer. {received(value)}"
        )
    chosen = _encoding_of(encoding) if type(encoding) is str and encoding else "utf8"
    return _byte_length_of_text(value, chosen or "utf8")


def _is_buffer(v: Any = UNDEFINED, *_: Any) -> bool:
    return type(v) is JsNodeBuffer


def _is_encoding(v: Any = UNDEFINED, *_: Any) -> bool:
    return type(v) is str and v.lower() in _ENCODINGS


def _uint8(v: Any, name: str) -> bytes:
    if isinstance(v, JsTypedArray) and v.kind == "Uint8Array":
        return bytes(_view_of(v))
    raise JsError(
        f'The "{name}" argument must be an instance of Buffer or Uint8Array. {received(v)}'
    )


def _concat(items: Any = UNDEFINED, total: Any = UNDEFINED, *_: Any) -> JsNodeBuffer:
    if type(items) is not list:
        raise JsError(f'The "list" argument must be an instance of Array. {received(items)}')
    if not items:
        return _made(b"")
    if total is UNDEFINED:
        get = LENT["get_member"]
        lengths = [get(v, "length") if v is not None and v is not UNDEFINED else 0 for v in items]
        if any(typeof(n) != "number" for n in lengths if n):
            raise Unsupported("flowctx does not reproduce Buffer.concat of these lengths")
        n = int(sum(n for n in lengths if n))
    else:
        n = _offset(total, "length", MAX_LENGTH)
    parts = [_uint8(v, f"list[{i}]") for i, v in enumerate(items)]
    data = b"".join(parts)
    return _from_pool(_made(data[:n] + bytes(max(0, n - len(data)))), n)


def _compare_bytes(a: bytes, b: bytes) -> int:
    return 0 if a == b else (-1 if a < b else 1)


def _compare(a: Any = UNDEFINED, b: Any = UNDEFINED, *_: Any) -> int:
    return _compare_bytes(_uint8(a, "buf1"), _uint8(b, "buf2"))


def _of(*items: Any) -> JsNodeBuffer:
    return _as_buffer(from_values("Uint8Array", list(items)))  # type: ignore[no-any-return]


def _refused(what: str, host: str | None = None) -> Callable[..., Any]:
    """A static flowctx refuses: ``host`` says why its answer is the host's, if it is."""
    message = f"flowctx does not reproduce {what}" if host is None else host_refusal(what, host)

    def call(*_: Any) -> Any:
        raise Unsupported(message)

    return call


# the statics, as host/__init__'s BUFFER_STATICS names them
from_, of, alloc, is_buffer, compare = _from, _of, _alloc, _is_buffer, _compare
is_encoding, concat, byte_length = _is_encoding, _concat, _byte_length


def copy_bytes_from(*args: Any) -> Any:
    return _writing().copy_bytes_from(*args)


alloc_unsafe = _refused("Buffer.allocUnsafe", "it hands out the host's memory")


def called(*_: Any) -> Any:
    raise Unsupported(
        host_refusal(
            "Buffer() and new Buffer()", "node prints a deprecation warning on the host's output"
        )
    )


# --- a buffer's own methods -------------------------------------------------------------------


def _to_string(buf: JsNodeBuffer, encoding: Any = UNDEFINED, start: Any = UNDEFINED,
               end: Any = UNDEFINED, *_: Any) -> str:  # fmt: skip
    n = buf.length()
    s = to_number(start)
    if s <= 0:
        first = 0
    elif s >= n:
        return ""
    else:
        first = int(s) if s == s else 0
    e = n if end is UNDEFINED else to_number(end)
    last = n if e > n else (int(e) if e == e else 0)
    if last <= first:
        return ""
    chosen = "utf8"
    if encoding is not UNDEFINED:
        found = _encoding_of(encoding)
        if found is None:
            raise _unknown(encoding)
        chosen = found
    return _decode(bytes(buf.view()[first:last]), chosen)


def _to_json(buf: JsNodeBuffer, *_: Any) -> dict[str, Any]:
    return {"type": "Buffer", "data": list(buf.view())}


def _equals(buf: JsNodeBuffer, other: Any = UNDEFINED, *_: Any) -> bool:
    return bytes(buf.view()) == _uint8(other, "otherBuffer")


def _compare_to(buf: JsNodeBuffer, target: Any = UNDEFINED, *rest: Any) -> int:
    theirs = _uint8(target, "target")
    if rest:  # node's compare(target) alone, else with its four positions
        return _writing().compare_range(buf, target, rest)  # type: ignore[no-any-return]
    return _compare_bytes(bytes(buf.view()), theirs)


def _needle(value: Any, encoding: Any) -> bytes | int:
    if type(value) is str:
        chosen = "utf8" if encoding is UNDEFINED else _encoding_of(encoding)
        if chosen is None:
            raise _unknown(encoding)
        return _encode(value, chosen)
    if typeof(value) == "number":
        return int(to_int(value)) & 0xFF
    if isinstance(value, JsTypedArray) and value.kind == "Uint8Array":
        return _uint8(value, "value")
    raise JsError(
        'The "value" argument must be one of type number or string or an instance of Buffer '
        f"or Uint8Array. {received(value)}"
    )


def _search(buf: JsNodeBuffer, value: Any, offset: Any, encoding: Any, last: bool) -> int:
    if type(offset) is str:  # indexOf(value, encoding)
        encoding, offset = offset, UNDEFINED
    needle = _needle(value, encoding)
    data = bytes(buf.view())
    n = len(data)
    at = to_number(offset) if offset is not UNDEFINED else (n if last else 0)
    if at != at:
        at = n if last else 0
    start = int(at) if at >= 0 else max(n + int(at), -1 if last else 0)
    if type(needle) is int:
        needle = bytes([needle])
    assert isinstance(needle, bytes)
    if last:
        return data.rfind(needle, 0, min(start, n) + len(needle)) if start >= 0 else -1
    if start > n:
        return -1 if needle else n
    return data.find(needle, start)


def _index_of(buf: JsNodeBuffer, value: Any = UNDEFINED, offset: Any = UNDEFINED,
              encoding: Any = UNDEFINED, *_: Any) -> int:  # fmt: skip
    return _search(buf, value, offset, encoding, False)


def _last_index_of(buf: JsNodeBuffer, value: Any = UNDEFINED, offset: Any = UNDEFINED,
                   encoding: Any = UNDEFINED, *_: Any) -> int:  # fmt: skip
    return _search(buf, value, offset, encoding, True)


def _includes(buf: JsNodeBuffer, value: Any = UNDEFINED, offset: Any = UNDEFINED,
              encoding: Any = UNDEFINED, *_: Any) -> bool:  # fmt: skip
    return _search(buf, value, offset, encoding, False) != -1


def _shown_number(v: Any) -> str:
    """How node's range errors show a number: an integer past 2**32 with '_' put every three
    characters from the end of its text (1e21's is 1e_+21), another as inspect shows it."""
    if type(v) in (int, float) and v == v and float(v).is_integer() and abs(v) > 2**32:
        return _separated(to_string(v))
    if type(v) is float and v == 0 and str(v).startswith("-"):
        return "-0"
    return to_string(v)


def _separated(text: str) -> str:
    """node's addNumericalSeparator: '_' put every three characters from the text's end."""
    start = 1 if text[0] == "-" else 0
    i, rest = len(text), ""
    while i >= start + 4:
        rest = "_" + text[i - 3 : i] + rest
        i -= 3
    return text[:i] + rest


def _bounds(value: Any, top: int, name: str = "offset") -> JsError:
    """node's boundsError: not an integer, a buffer too short, or out of 0 (1) .. top."""
    if typeof(value) != "number":
        return JsError(f'The "{name}" argument must be of type number. {received(value)}')
    if value != value or (math.isfinite(value) and not float(value).is_integer()):
        return JsError(
            f'The value of "{name}" is out of range. It must be an integer. Received '
            f"{_shown_number(value)}"
        )
    if top < 0:
        return JsError("Attempt to access memory outside buffer bounds")
    low = 1 if name == "byteLength" else 0
    return JsError(
        f'The value of "{name}" is out of range. It must be >= {low} and <= {top}. Received '
        f"{_shown_number(value)}"
    )


def _read_start(buf: JsNodeBuffer, offset: Any, size: int) -> int:
    """Where ``size`` bytes read from ``offset`` start in the buffer's memory, or node's
    boundsError (an offset that is no integer, out of range, a buffer too short)."""
    top = buf.length() - size
    if typeof(offset) != "number" or offset != offset or not float(offset).is_integer():
        raise _bounds(offset, top)
    if not 0 <= offset <= top:
        raise _bounds(offset, top)
    return buf.offset + int(offset)


def _read_typed(size: int, fmt: str, big: bool = False) -> Callable[..., Any]:
    def read(buf: JsNodeBuffer, offset: Any = 0, *_: Any) -> Any:
        start = _read_start(buf, 0 if offset is UNDEFINED else offset, size)
        (value,) = struct.unpack_from(fmt, buf.buffer.data, start)
        if big:
            return JsBigInt(value)
        return float(value) if fmt[-1] in "fd" else int(value)

    return read


def _read_variable(signed: bool, little: bool) -> Callable[..., Any]:
    """readUIntBE(offset, byteLength) and the others: 1 to 6 bytes."""

    def read(
        buf: JsNodeBuffer, offset: Any = UNDEFINED, byte_length: Any = UNDEFINED, *_: Any
    ) -> Any:
        if offset is UNDEFINED:  # no default here: checked before the byte length
            raise _bounds(offset, 0)
        if byte_length not in (1, 2, 3, 4, 5, 6) or type(byte_length) is bool:
            raise _bounds(byte_length, 6, "byteLength")
        size = int(byte_length)
        start = _read_start(buf, offset, size)
        raw = bytes(buf.buffer.data[start : start + size])
        return int.from_bytes(raw, "little" if little else "big", signed=signed)

    return read


def _reads() -> dict[str, tuple[Callable[..., Any], int]]:
    table: dict[str, tuple[Callable[..., Any], int]] = {}
    fixed = {"UInt8": (1, "B"), "Int8": (1, "b"), "UInt16": (2, "H"), "Int16": (2, "h"),
             "UInt32": (4, "I"), "Int32": (4, "i"), "Float": (4, "f"),
             "Double": (8, "d")}  # fmt: skip
    for name, (size, code) in fixed.items():
        ends = ("",) if size == 1 else ("LE", "BE")
        for end in ends:
            fmt = (">" if end == "BE" else "<") + code
            for spelled in {name, name.replace("UInt", "Uint")}:
                table[f"read{spelled}{end}"] = (_read_typed(size, fmt), 0)
    for name, code in (("BigInt64", "q"), ("BigUInt64", "Q")):
        for end in ("LE", "BE"):
            fmt = (">" if end == "BE" else "<") + code
            for spelled in {name, name.replace("UInt", "Uint")}:
                table[f"read{spelled}{end}"] = (_read_typed(8, fmt, big=True), 0)
    for signed, name in ((False, "UInt"), (True, "Int")):
        for end in ("LE", "BE"):
            for spelled in {name, name.replace("UInt", "Uint")}:
                table[f"read{spelled}{end}"] = (_read_variable(signed, end == "LE"), 2)
    return table


def _slice(buf: JsNodeBuffer, *args: Any) -> Any:
    return _as_buffer(buf.js_get("subarray").fn(*args[:2]))


def _fill(buf: JsNodeBuffer, value: Any = UNDEFINED, offset: Any = UNDEFINED,
          end: Any = UNDEFINED, encoding: Any = UNDEFINED, *_: Any) -> JsNodeBuffer:  # fmt: skip
    return _fill_range(buf, value, offset, end, encoding)


_METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "toString": (_to_string, 3), "toLocaleString": (_to_string, 3), "toJSON": (_to_json, 0),
    "equals": (_equals, 1), "compare": (_compare_to, 5), "indexOf": (_index_of, 3),
    "lastIndexOf": (_last_index_of, 3), "includes": (_includes, 3), "slice": (_slice, 2),
    "fill": (_fill, 4),
    **_reads(),
}  # fmt: skip
#: the typed array's methods whose new array is made by the species: a Buffer
_SPECIES: Final = frozenset({"map", "filter", "subarray"})
#: node's per-encoding natives on Buffer.prototype (their own argument checks, in C++)
_REFUSED_METHODS: Final = frozenset(
    {"latin1Write", "utf8Write", "hexWrite", "base64Write", "base64urlWrite", "asciiWrite",
     "ucs2Write", "latin1Slice", "utf8Slice", "hexSlice", "base64Slice", "base64urlSlice",
     "asciiSlice", "ucs2Slice"}
)  # fmt: skip
