"""V8's ``Math.exp`` and ``Math.log``, step for step, so results agree to the last digit.

node 20 computes them with ports of FreeBSD's msun (fdlibm) ``e_exp.c`` and ``e_log.c`` (V8
src/base/ieee754.cc): below one unit in the last place, but not the correctly rounded results
of the C library Python calls (``Math.exp(0.49999999999999994)`` is 1.6487212707001282 in
node, 1.648721270700128 in Python). The same double operations in the same order give the
same bits; only the access to a double's words differs (``struct`` instead of a union).
"""

from __future__ import annotations

import math
import struct
from typing import Final

_O_THRESHOLD: Final = 7.09782712893383973096e02
_U_THRESHOLD: Final = -7.45133219101941108420e02
_LN2_HI: Final = (6.93147180369123816490e-01, -6.93147180369123816490e-01)
_LN2_LO: Final = (1.90821492927058770002e-10, -1.90821492927058770002e-10)
_HALF: Final = (0.5, -0.5)
_INVLN2: Final = 1.44269504088896338700e00
_P1: Final = 1.66666666666666019037e-01
_P2: Final = -2.77777777770155933842e-03
_P3: Final = 6.61375632143793436117e-05
_P4: Final = -1.65339022054652515390e-06
_P5: Final = 4.13813679705723846039e-08
_TWOM1000: Final = 9.33263618503218878990e-302
_HUGE: Final = 1.0e300

_TWO54: Final = 1.80143985094819840000e16
_LG1: Final = 6.666666666666735130e-01
_LG2: Final = 3.999999999940941908e-01
_LG3: Final = 2.857142874366239149e-01
_LG4: Final = 2.222219843214978396e-01
_LG5: Final = 1.818357216161805012e-01
_LG6: Final = 1.531383769920937332e-01
_LG7: Final = 1.479819860511658591e-01


def _words(x: float) -> tuple[int, int]:
    """(high word as a signed 32-bit integer, low word unsigned)."""
    bits = struct.unpack("<Q", struct.pack("<d", x))[0]
    high = bits >> 32
    return (high - 0x100000000 if high & 0x80000000 else high), bits & 0xFFFFFFFF


def _from_words(high: int, low: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", ((high & 0xFFFFFFFF) << 32) | low))[0])


def exp(x: float) -> float:
    if x == 1.0:
        return math.e  # V8 answers Math.E itself (fdlibm's steps end one unit above it)
    hx = _words(x)[0]
    xsb = (hx >> 31) & 1
    hx &= 0x7FFFFFFF
    hi = lo = 0.0
    k = 0
    if hx >= 0x40862E42:  # |x| >= 709.78...
        if hx >= 0x7FF00000:
            if x != x:
                return x
            return x if xsb == 0 else 0.0
        if x > _O_THRESHOLD:
            return math.inf
        if x < _U_THRESHOLD:
            return 0.0
    if hx > 0x3FD62E42:  # |x| > 0.5 ln2
        if hx < 0x3FF0A2B2:  # and |x| < 1.5 ln2
            hi = x - _LN2_HI[xsb]
            lo = _LN2_LO[xsb]
            k = 1 - xsb - xsb
        else:
            k = int(_INVLN2 * x + _HALF[xsb])  # C's (int) truncates toward zero
            t = float(k)
            hi = x - t * _LN2_HI[0]
            lo = t * _LN2_LO[0]
        x = hi - lo
    elif hx < 0x3E300000:  # |x| < 2**-28
        return 1.0 + x
    t = x * x
    if k >= -1021:
        twopk = _from_words(0x3FF00000 + (k << 20), 0)
    else:
        twopk = _from_words(0x3FF00000 + ((k + 1000) << 20), 0)
    c = x - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    if k == 0:
        return 1.0 - ((x * c) / (c - 2.0) - x)
    y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi)
    if k >= -1021:
        if k == 1024:
            return y * 2.0 * 8.98846567431158e307  # 0x1p1023
        return y * twopk
    return y * twopk * _TWOM1000


def log(x: float) -> float:
    hx, lx = _words(x)
    k = 0
    if hx < 0x00100000:  # x < 2**-1022
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -math.inf
        if hx < 0:
            return math.nan
        k -= 54
        x *= _TWO54
        hx = _words(x)[0]
    if hx >= 0x7FF00000:
        return x + x
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = _from_words(hx | (i ^ 0x3FF00000), _words(x)[1])  # normalise x or x/2
    k += i >> 20
    f = x - 1.0
    if (0x000FFFFF & (2 + hx)) < 3:  # -2**-20 <= f < 2**-20
        if f == 0.0:
            if k == 0:
                return 0.0
            dk = float(k)
            return dk * _LN2_HI[0] + dk * _LN2_LO[0]
        r = f * f * (0.5 - 0.33333333333333333 * f)
        if k == 0:
            return f - r
        dk = float(k)
        return dk * _LN2_HI[0] - ((r - dk * _LN2_LO[0]) - f)
    s = f / (2.0 + f)
    dk = float(k)
    z = s * s
    i = hx - 0x6147A
    w = z * z
    j = 0x6B851 - hx
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    i |= j
    r = t2 + t1
    if i > 0:
        hfsq = 0.5 * f * f
        if k == 0:
            return f - (hfsq - s * (hfsq + r))
        return dk * _LN2_HI[0] - ((hfsq - (s * (hfsq + r) + dk * _LN2_LO[0])) - f)
    if k == 0:
        return f - s * (f - r)
    return dk * _LN2_HI[0] - ((s * (f - r) - dk * _LN2_LO[0]) - f)
