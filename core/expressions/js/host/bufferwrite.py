"""What changes a Buffer's bytes, and the rest of Buffer.prototype that reads ranges, as node 20
does it: ``write`` of a text in an encoding, the ``write`` family of numbers (8 to 64 bits,
either byte order, floats, 1 to 6 bytes), ``copy``, ``compare`` with ranges, ``swap16``/``32``/
``64``, ``inspect``, and ``Buffer.copyBytesFrom``. Each checks its arguments in node's order,
with node's texts (a value out of range before the offset's type for most writes, after it
for the one-byte ones).

Only buffers the condition made are written: a condition's data never holds one.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any, Final

from flowctx_core.expressions.budget import charge
from flowctx_core.expressions.js import bigint
from flowctx_core.expressions.js.bigint import JsBigInt
from flowctx_core.expressions.js.host.buffer import (
    MAX_LENGTH,
    JsNodeBuffer,
    _bounds,
    _encode,
    _encoding_of,
    _from_pool,
    _inspected,
    _made,
    _offset,
    _read_start,
    _separated,
    _shown_number,
    _unknown,
    _view_of,
)
from flowctx_core.expressions.js.host.textcoding import received
from flowctx_core.expressions.js.host.typedarrays import JsTypedArray, _fround
from flowctx_core.expressions.js.values import UNDEFINED, JsError, to_number, typeof

SAFE: Final = 2**53 - 1
#: how many bytes ``inspect`` shows (node's buffer.INSPECT_MAX_BYTES)
INSPECT_MAX_BYTES: Final = 50


def _put(buf: JsNodeBuffer, at: int, data: bytes) -> None:
    """``data`` written into the buffer's memory from ``at`` (an index of the buffer)."""
    start = buf.offset + at
    buf.buffer.data[start : start + len(data)] = data


def _uint32(v: float) -> int:
    """ToUint32: what a store of ``v`` and ``v >>> n`` keep (NaN and infinities are 0)."""
    if v != v or v in (math.inf, -math.inf):
        return 0
    return int(v) % 2**32


# --- numbers ------------------------------------------------------------------------------------


def _range_text(size: int, low: int, high: int) -> str:
    """The range node's value check names: the bounds themselves up to 4 bytes, powers of two
    past them."""
    if size <= 4:
        return f">= {low} and <= {high}"
    bits = 8 * size
    if low == 0:
        return f">= 0 and < 2 ** {bits}"
    return f">= -(2 ** {bits - 1}) and < 2 ** {bits - 1}"


def _range_error(name: str, text: str, shown: str) -> JsError:
    """node's ERR_OUT_OF_RANGE: ``name`` must be ``text``; the value as node shows it."""
    return JsError(f'The value of "{name}" is out of range. It must be {text}. Received {shown}')


def _integer_bytes(v: float, size: int) -> bytes:
    """The little-endian bytes node stores for an integer write of ``size`` bytes: the low four
    from ToUint32, the ones past them from floor(v / 2 ** 32) (so -2 ** 32 - 0.5 keeps -2 up
    there, where truncating would keep -1)."""
    low = _uint32(v).to_bytes(4, "little")
    if size <= 4:
        return low[:size]
    high = math.floor(v * 2**-32) if v == v else 0
    return low + _uint32(float(high)).to_bytes(4, "little")[: size - 4]


def _integer_write(size: int, signed: bool, little: bool, fixed: bool = True) -> Callable[..., int]:
    """``writeUInt16LE(value, offset = 0)`` and the others (``fixed``), or the 1 to 6 byte
    writes ``writeUIntLE(value, offset, byteLength)`` chose (no default offset)."""
    half = 2 ** (8 * size - 1)
    low, high = (-half, half - 1) if signed else (0, 2 * half - 1)
    text = _range_text(size, low, high)

    def write(buf: JsNodeBuffer, value: Any = UNDEFINED, offset: Any = UNDEFINED, *_: Any) -> int:
        if offset is UNDEFINED and fixed:
            offset = 0
        v = to_number(value)
        if size == 1 and typeof(offset) != "number":  # the one-byte writes check it first
            raise _bounds(offset, 0)
        if v > high or v < low:
            raise _range_error("value", text, _shown_number(v))
        start = _read_start(buf, offset, size) - buf.offset
        data = _integer_bytes(v, size)
        _put(buf, start, data if little else data[::-1])
        return start + size

    return write


def _variable_write(signed: bool, little: bool) -> Callable[..., int]:
    """``writeUIntLE(value, offset, byteLength)``: the byte length chooses the write first."""
    writes = {n: _integer_write(n, signed, little, fixed=False) for n in range(1, 7)}

    def write(
        buf: JsNodeBuffer,
        value: Any = UNDEFINED,
        offset: Any = UNDEFINED,
        byte_length: Any = UNDEFINED,
        *_: Any,
    ) -> int:
        if byte_length not in writes or type(byte_length) is bool:
            raise _bounds(byte_length, 6, "byteLength")
        return writes[int(byte_length)](buf, value, offset)

    return write


def _float_write(fmt: str, size: int) -> Callable[..., int]:
    def write(buf: JsNodeBuffer, value: Any = UNDEFINED, offset: Any = UNDEFINED, *_: Any) -> int:
        v = float(to_number(value))
        start = _read_start(buf, 0 if offset is UNDEFINED else offset, size) - buf.offset
        _put(buf, start, struct.pack(fmt, _fround(v) if size == 4 else v))
        return start + size

    return write


def _shown_value(v: Any) -> str:
    """How node's range error shows a 64-bit write's value, which it does not convert."""
    if type(v) is JsBigInt:
        text = str(v.big)
        return (_separated(text) if abs(v.big) > 2**32 else text) + "n"
    if typeof(v) == "number":
        return _shown_number(v)
    if v is None:
        return "null"
    if v is UNDEFINED:
        return "undefined"
    if type(v) is bool:
        return "true" if v else "false"
    return _inspected(v)


def _big_write(signed: bool, little: bool) -> Callable[..., int]:
    low, high = (-(2**63), 2**63 - 1) if signed else (0, 2**64 - 1)
    text = ">= -(2n ** 63n) and < 2n ** 63n" if signed else ">= 0n and < 2n ** 64n"

    def write(buf: JsNodeBuffer, value: Any = UNDEFINED, offset: Any = UNDEFINED, *_: Any) -> int:
        if offset is UNDEFINED:
            offset = 0
        # node compares the value as it is (a number, a text StringToBigInt reads) first
        above = bigint._order(value, JsBigInt(high))
        below = bigint._order(value, JsBigInt(low))
        if (above is not None and above > 0) or (below is not None and below < 0):
            raise _range_error("value", text, _shown_value(value))
        start = _read_start(buf, offset, 8) - buf.offset
        if type(value) is not JsBigInt:
            raise JsError("Cannot mix BigInt and other types, use explicit conversions")
        data = (value.big % 2**64).to_bytes(8, "little")
        _put(buf, start, data if little else data[::-1])
        return start + 8

    return write


def _writes() -> dict[str, tuple[Callable[..., Any], int]]:
    table: dict[str, tuple[Callable[..., Any], int]] = {}

    def add(name: str, fn: Callable[..., Any], arity: int) -> None:
        table[name] = (fn, arity)
        table[name.replace("UInt", "Uint")] = (fn, arity)  # node's lower-case aliases

    for size, bits in ((1, 8), (2, 16), (4, 32)):
        for signed, kind in ((False, "UInt"), (True, "Int")):
            ends = ("",) if size == 1 else ("LE", "BE")
            for end in ends:
                add(f"write{kind}{bits}{end}", _integer_write(size, signed, end != "BE"), 1)
    for signed, kind in ((False, "UInt"), (True, "Int")):
        for end in ("LE", "BE"):
            add(f"write{kind}{end}", _variable_write(signed, end == "LE"), 3)
            add(f"writeBig{kind}64{end}", _big_write(signed, end == "LE"), 1)
    for end in ("LE", "BE"):
        order = "<" if end == "LE" else ">"
        add(f"writeFloat{end}", _float_write(order + "f", 4), 1)
        add(f"writeDouble{end}", _float_write(order + "d", 8), 1)
    return table


# --- text ---------------------------------------------------------------------------------------


def _text_bytes(text: str, encoding: str, room: int) -> bytes:
    """The bytes of ``text`` node writes into ``room`` bytes: whole characters in UTF-8 (a
    character that does not fit stops the write), whole code units in UTF-16, else as many
    bytes as fit."""
    data = _encode(text, encoding)
    if len(data) <= room:
        return data
    if encoding == "utf8":
        cut = room
        while cut > 0 and data[cut] & 0xC0 == 0x80:  # within a character: back to its start
            cut -= 1
        return data[:cut]
    if encoding == "utf16le":
        return data[: room - room % 2]
    return data[:room]


def _write(buf: JsNodeBuffer, text: Any = UNDEFINED, offset: Any = UNDEFINED,
           length: Any = UNDEFINED, encoding: Any = UNDEFINED, *_: Any) -> int:  # fmt: skip
    """``buf.write(string[, offset[, length]][, encoding])``: the bytes written."""
    n = buf.length()
    if offset is UNDEFINED:  # write(string): UTF-8 over the whole buffer, whatever else came
        start, room, chosen = 0, n, "utf8"
    else:
        if length is UNDEFINED and type(offset) is str:  # write(string, encoding)
            encoding, start, room = offset, 0, n
        else:
            start = _offset(offset, "offset", n)
            if length is UNDEFINED:
                room = n - start
            elif type(length) is str:  # write(string, offset, encoding)
                encoding, room = length, n - start
            else:
                room = min(_offset(length, "length", n), n - start)
        chosen = "utf8"
        if encoding not in (UNDEFINED, None, "", 0, False) and encoding == encoding:
            found = _encoding_of(encoding)
            if found is None:
                raise _unknown(encoding)
            chosen = found
    if type(text) is not str:
        raise JsError("argument must be a string")
    data = _text_bytes(text, chosen, room)
    _put(buf, start, data)
    return len(data)


# --- ranges -------------------------------------------------------------------------------------


def _integer_or(v: Any, default: int) -> int | float:
    """node's toInteger for copy's positions: an integer as it is, another number within the
    safe integers floored, anything else (NaN, an infinity, past the safe integers) the
    default."""
    if typeof(v) == "number" and (type(v) is int or float(v).is_integer()):
        return v  # type: ignore[no-any-return]
    n = to_number(v)
    if n != n or not -SAFE <= n <= SAFE:
        return default
    return n if float(n).is_integer() else math.floor(n)


def _copy(buf: JsNodeBuffer, target: Any = UNDEFINED, target_start: Any = UNDEFINED,
          source_start: Any = UNDEFINED, source_end: Any = UNDEFINED, *_: Any) -> int:  # fmt: skip
    """``buf.copy(target, targetStart, sourceStart, sourceEnd)``: the bytes copied (the two may
    overlap: the source is read whole before it is written)."""
    if not (isinstance(target, JsTypedArray) and target.kind == "Uint8Array"):
        raise JsError(
            f'The "target" argument must be an instance of Buffer or Uint8Array. {received(target)}'
        )
    n = buf.length()
    at = 0 if target_start is UNDEFINED else _integer_or(target_start, 0)
    if at < 0:
        raise _range_error("targetStart", ">= 0", _shown_number(at))
    first = 0 if source_start is UNDEFINED else _integer_or(source_start, 0)
    if first < 0 or first > n:
        raise _range_error("sourceStart", f">= 0 && <= {n}", _shown_number(first))
    last = n if source_end is UNDEFINED else _integer_or(source_end, 0)
    if last < 0:
        raise _range_error("sourceEnd", ">= 0", _shown_number(last))
    room = target.length()
    if at >= room or first >= last:
        return 0
    count = int(min(last - first, room - at, n - first))
    charge(count // 64 + 1)
    data = bytes(_view_of(buf)[int(first) : int(first) + count])
    start = target.offset + int(at)
    target.buffer.data[start : start + count] = data
    return count


def _compare_range(buf: JsNodeBuffer, target: Any = UNDEFINED, target_start: Any = UNDEFINED,
                   target_end: Any = UNDEFINED, source_start: Any = UNDEFINED,
                   source_end: Any = UNDEFINED, *_: Any) -> int:  # fmt: skip
    """``buf.compare(target, targetStart, targetEnd, sourceStart, sourceEnd)`` with ranges."""
    theirs = target.length() if isinstance(target, JsTypedArray) else 0
    t0 = 0 if target_start is UNDEFINED else _offset(target_start, "targetStart", MAX_LENGTH)
    t1 = theirs if target_end is UNDEFINED else _offset(target_end, "targetEnd", theirs)
    s0 = 0 if source_start is UNDEFINED else _offset(source_start, "sourceStart", MAX_LENGTH)
    n = buf.length()
    s1 = n if source_end is UNDEFINED else _offset(source_end, "sourceEnd", n)
    if s0 >= s1:
        return 0 if t0 >= t1 else -1
    if t0 >= t1:
        return 1
    mine, other = bytes(_view_of(buf)[s0:s1]), bytes(_view_of(target)[t0:t1])
    return 0 if mine == other else (-1 if mine < other else 1)


def _swap(width: int) -> Callable[..., JsNodeBuffer]:
    def swap(buf: JsNodeBuffer, *_: Any) -> JsNodeBuffer:
        n = buf.length()
        if n % width:
            raise JsError(f"Buffer size must be a multiple of {8 * width}-bits")
        charge(n // 64 + 1)
        view = _view_of(buf)
        data = bytes(view)
        view[:] = b"".join(data[i : i + width][::-1] for i in range(0, n, width))
        return buf

    return swap


def _inspect(buf: JsNodeBuffer, *_: Any) -> str:
    """``buf.inspect()``: node's ``<Buffer 61 62>``, its first 50 bytes."""
    n = buf.length()
    shown = " ".join(f"{b:02x}" for b in bytes(_view_of(buf)[:INSPECT_MAX_BYTES]))
    rest = n - INSPECT_MAX_BYTES
    if rest > 0:
        shown += f" ... {rest} more byte{'s' if rest > 1 else ''}"
    return f"<Buffer {shown}>"


#: node's names of these methods, the functions and their lengths
METHODS: Final[dict[str, tuple[Callable[..., Any], int]]] = {
    "write": (_write, 4), "copy": (_copy, 4), "swap16": (_swap(2), 0),
    "swap32": (_swap(4), 0), "swap64": (_swap(8), 0), "inspect": (_inspect, 2),
    **_writes(),
}  # fmt: skip


def compare_range(buf: JsNodeBuffer, target: Any, rest: tuple[Any, ...]) -> int:
    return _compare_range(buf, target, *rest)


def copy_bytes_from(view: Any = UNDEFINED, offset: Any = UNDEFINED, length: Any = UNDEFINED,
                    *_: Any) -> JsNodeBuffer:  # fmt: skip
    """``Buffer.copyBytesFrom(view, offset, length)``: a copy of a typed array's elements from
    ``offset`` on (``length`` of them), as bytes."""
    if not isinstance(view, JsTypedArray):
        raise JsError(f'The "view" argument must be an instance of TypedArray. {received(view)}')
    count = view.length()
    if count == 0:
        return _made(b"")
    first, last = 0, count
    if offset is not UNDEFINED or length is not UNDEFINED:
        if offset is not UNDEFINED:
            first = _offset(offset, "offset", SAFE)
            if first >= count:
                return _made(b"")
        if length is not UNDEFINED:
            last = min(count, first + _offset(length, "length", SAFE))
    size = view.size
    data = bytes(_view_of(view)[first * size : max(first, last) * size])
    return _from_pool(_made(data), len(data))  # type: ignore[no-any-return]
