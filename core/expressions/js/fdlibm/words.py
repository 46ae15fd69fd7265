"""A double's two 32-bit words, as fdlibm reads and writes them (``struct`` for its union).

Each helper packs once and unpacks once: the ports call them a dozen times a result.
"""

from __future__ import annotations

import struct
from typing import Final

_DOUBLE: Final = struct.Struct("<d")
_BITS: Final = struct.Struct("<Q")
_WORDS: Final = struct.Struct("<II")  # (low word, high word), little-endian


def bits(x: float) -> int:
    b: int = _BITS.unpack(_DOUBLE.pack(x))[0]
    return b


def from_bits(b: int) -> float:
    x: float = _DOUBLE.unpack(_BITS.pack(b))[0]
    return x


def high(x: float) -> int:
    """The high word as a signed 32-bit integer (sign, exponent and 20 bits of fraction)."""
    h: int = _WORDS.unpack(_DOUBLE.pack(x))[1]
    return h - 0x100000000 if h & 0x80000000 else h


def low(x: float) -> int:
    """The low word, unsigned."""
    lo: int = _WORDS.unpack(_DOUBLE.pack(x))[0]
    return lo


def words(x: float) -> tuple[int, int]:
    """(high word signed, low word unsigned)."""
    lo, h = _WORDS.unpack(_DOUBLE.pack(x))
    return (h - 0x100000000 if h & 0x80000000 else h), lo


def from_words(hi: int, lo: int) -> float:
    x: float = _DOUBLE.unpack(_WORDS.pack(lo & 0xFFFFFFFF, hi & 0xFFFFFFFF))[0]
    return x


def with_low(x: float, lo: int) -> float:
    """``x`` with its low word replaced (fdlibm's SET_LOW_WORD, mostly to cut a double short)."""
    y: float = _DOUBLE.unpack(_WORDS.pack(lo, _WORDS.unpack(_DOUBLE.pack(x))[1]))[0]
    return y


def with_high(x: float, hi: int) -> float:
    y: float = _DOUBLE.unpack(_WORDS.pack(_WORDS.unpack(_DOUBLE.pack(x))[0], hi & 0xFFFFFFFF))[0]
    return y
