"""A double's two 32-bit words, as fdlibm reads and writes them (``struct`` for its union)."""

from __future__ import annotations

import struct
from typing import Final

_DOUBLE: Final = struct.Struct("<d")
_BITS: Final = struct.Struct("<Q")


def bits(x: float) -> int:
    return int(_BITS.unpack(_DOUBLE.pack(x))[0])


def from_bits(b: int) -> float:
    return float(_DOUBLE.unpack(_BITS.pack(b))[0])


def high(x: float) -> int:
    """The high word as a signed 32-bit integer (sign, exponent and 20 bits of fraction)."""
    h = bits(x) >> 32
    return h - 0x100000000 if h & 0x80000000 else h


def low(x: float) -> int:
    """The low word, unsigned."""
    return bits(x) & 0xFFFFFFFF


def words(x: float) -> tuple[int, int]:
    b = bits(x)
    h = b >> 32
    return (h - 0x100000000 if h & 0x80000000 else h), b & 0xFFFFFFFF


def from_words(hi: int, lo: int) -> float:
    return float(_DOUBLE.unpack(_BITS.pack(((hi & 0xFFFFFFFF) << 32) | (lo & 0xFFFFFFFF)))[0])


def with_low(x: float, lo: int) -> float:
    """``x`` with its low word replaced (fdlibm's SET_LOW_WORD, mostly to cut a double short)."""
    return from_words(bits(x) >> 32, lo)


def with_high(x: float, hi: int) -> float:
    return from_words(hi, bits(x) & 0xFFFFFFFF)
