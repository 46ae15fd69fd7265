"""Exponentials and logarithms: V8's fdlibm ports of exp, expm1, log, log1p, log2 and log10.

node 20 computes them below one unit in the last place, but not always correctly rounded as
the C library Python calls (``Math.exp(0.49999999999999994)`` is 1.6487212707001282 in node,
1.648721270700128 in Python). The same double operations in the same order give the same bits.
"""

from __future__ import annotations

import math
from typing import Final

from flowctx_core.expressions.js.fdlibm.words import (
    from_words,
    high,
    with_high,
    with_low,
    words,
)

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


def exp(x: float) -> float:
    if x == 1.0:
        return math.e  # V8 answers Math.E itself (fdlibm's steps end one unit above it)
    hx = high(x)
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
        twopk = from_words(0x3FF00000 + (k << 20), 0)
    else:
        twopk = from_words(0x3FF00000 + ((k + 1000) << 20), 0)
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
    reduced = _reduce(x)
    if isinstance(reduced, float):
        return reduced
    x, hx, lx, k = reduced
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = from_words(hx | (i ^ 0x3FF00000), lx)  # normalise x or x/2
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


_LN2_HI1: Final = 6.93147180369123816490e-01
_LN2_LO1: Final = 1.90821492927058770002e-10
_Q1: Final = -3.33333333333331316428e-02  # expm1's Q's scaled by 2**n (z is x*x/2)
_Q2: Final = 1.58730158725481460165e-03
_Q3: Final = -7.93650757867487942473e-05
_Q4: Final = 4.00821782732936239552e-06
_Q5: Final = -2.01099218183624371326e-07
_TINY: Final = 1.0e-300


def expm1(x: float) -> float:
    hx = high(x)
    xsb = hx & 0x80000000
    hx &= 0x7FFFFFFF
    if hx >= 0x4043687A:  # |x| >= 56 ln2
        if hx >= 0x40862E42:  # |x| >= 709.78...
            if hx >= 0x7FF00000:
                if x != x:
                    return x
                return x if xsb == 0 else -1.0
            if x > _O_THRESHOLD:
                return math.inf
        if xsb != 0 and x + _TINY < 0.0:
            return _TINY - 1.0
    c = 0.0
    if hx > 0x3FD62E42:  # |x| > 0.5 ln2
        if hx < 0x3FF0A2B2:  # and |x| < 1.5 ln2
            if xsb == 0:
                hi, lo, k = x - _LN2_HI1, _LN2_LO1, 1
            else:
                hi, lo, k = x + _LN2_HI1, -_LN2_LO1, -1
        else:
            k = int(_INVLN2 * x + (0.5 if xsb == 0 else -0.5))
            t = float(k)
            hi = x - t * _LN2_HI1
            lo = t * _LN2_LO1
        x = hi - lo
        c = (hi - x) - lo
    elif hx < 0x3C900000:  # |x| < 2**-54
        return x
    else:
        k = 0
    hfx = 0.5 * x
    hxs = x * hfx
    r1 = 1.0 + hxs * (_Q1 + hxs * (_Q2 + hxs * (_Q3 + hxs * (_Q4 + hxs * _Q5))))
    t = 3.0 - r1 * hfx
    e = hxs * ((r1 - t) / (6.0 - x * t))
    if k == 0:
        return x - (x * e - hxs)
    twopk = from_words(0x3FF00000 + (k << 20), 0)
    e = x * (e - c) - c
    e -= hxs
    if k == -1:
        return 0.5 * (x - e) - 0.5
    if k == 1:
        if x < -0.25:
            return -2.0 * (e - (x + 0.5))
        return 1.0 + 2.0 * (x - e)
    if k <= -2 or k > 56:
        y = 1.0 - (e - x)
        y = y * 2.0 * 8.98846567431158e307 if k == 1024 else y * twopk
        return y - 1.0
    if k < 20:
        t = from_words(0x3FF00000 - (0x200000 >> k), 0)  # 1 - 2**-k
        y = t - (e - x)
    else:
        t = from_words((0x3FF - k) << 20, 0)  # 2**-k
        y = x - (e + t)
        y += 1.0
    return y * twopk


_LP: Final = (_LG1, _LG2, _LG3, _LG4, _LG5, _LG6, _LG7)


def log1p(x: float) -> float:
    hx = high(x)
    ax = hx & 0x7FFFFFFF
    k = 1
    f = c = 0.0
    hu = 0
    if hx < 0x3FDA827A:  # 1 + x < sqrt(2)+
        if ax >= 0x3FF00000:  # x <= -1.0
            return -math.inf if x == -1.0 else math.nan
        if ax < 0x3E200000:  # |x| < 2**-29
            if ax < 0x3C900000:  # |x| < 2**-54
                return x
            return x - x * x * 0.5
        if hx > 0 or hx <= -0x402D413C:  # sqrt(2)/2- <= 1 + x < sqrt(2)+ (0xBFD2BEC4 signed)
            k = 0
            f = x
            hu = 1
    if hx >= 0x7FF00000:
        return x + x
    if k != 0:
        if hx < 0x43400000:
            u = 1.0 + x
            hu = high(u)
            k = (hu >> 20) - 1023
            c = 1.0 - (u - x) if k > 0 else x - (u - 1.0)  # the rounding error of 1 + x
            c /= u
        else:
            u = x
            hu = high(u)
            k = (hu >> 20) - 1023
            c = 0.0
        hu &= 0x000FFFFF
        if hu < 0x6A09E:  # u ~< sqrt(2)
            u = with_high(u, hu | 0x3FF00000)
        else:
            k += 1
            u = with_high(u, hu | 0x3FE00000)  # u/2
            hu = (0x00100000 - hu) >> 2
        f = u - 1.0
    hfsq = 0.5 * f * f
    if hu == 0:  # |f| < 2**-20
        if f == 0.0:
            if k == 0:
                return 0.0
            c += k * _LN2_LO[0]
            return k * _LN2_HI[0] + c
        r = hfsq * (1.0 - 0.66666666666666666 * f)
        if k == 0:
            return f - r
        return k * _LN2_HI[0] - ((r - (k * _LN2_LO[0] + c)) - f)
    s = f / (2.0 + f)
    z = s * s
    p1, p2, p3, p4, p5, p6, p7 = _LP
    r = z * (p1 + z * (p2 + z * (p3 + z * (p4 + z * (p5 + z * (p6 + z * p7))))))
    if k == 0:
        return f - (hfsq - s * (hfsq + r))
    return k * _LN2_HI[0] - ((hfsq - (s * (hfsq + r) + (k * _LN2_LO[0] + c))) - f)


def _k_log1p(f: float) -> float:
    """log(1 + f) - f + f*f/2 for 1 + f in [sqrt(2)/2, sqrt(2)] (the kernel of log2)."""
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    r = t2 + t1
    hfsq = 0.5 * f * f
    return s * (hfsq + r)


_IVLN2HI: Final = 1.44269504072144627571e00
_IVLN2LO: Final = 1.67517131648865118353e-10


def _reduce(x: float) -> tuple[float, int, int, int] | float:
    """x as (x scaled, high word, low word, k added by the scaling), or the answer itself."""
    hx, lx = words(x)
    k = 0
    if hx < 0x00100000:  # x < 2**-1022
        if ((hx & 0x7FFFFFFF) | lx) == 0:
            return -math.inf
        if hx < 0:
            return math.nan
        k = -54
        x *= _TWO54
        hx, lx = words(x)
    if hx >= 0x7FF00000:
        return x + x
    if hx == 0x3FF00000 and lx == 0:
        return 0.0
    return x, hx, lx, k


def log2(x: float) -> float:
    reduced = _reduce(x)
    if isinstance(reduced, float):
        return reduced
    x, hx, _, k = reduced
    k += (hx >> 20) - 1023
    hx &= 0x000FFFFF
    i = (hx + 0x95F64) & 0x100000
    x = with_high(x, hx | (i ^ 0x3FF00000))  # normalise x or x/2
    k += i >> 20
    y = float(k)
    f = x - 1.0
    hfsq = 0.5 * f * f
    r = _k_log1p(f)
    hi = with_low(f - hfsq, 0)
    lo = (f - hi) - hfsq + r
    val_hi = hi * _IVLN2HI
    val_lo = (lo + hi) * _IVLN2LO + lo * _IVLN2HI
    w = y + val_hi
    val_lo += (y - w) + val_hi
    val_hi = w
    return val_lo + val_hi


_IVLN10: Final = 4.34294481903251816668e-01
_LOG10_2HI: Final = 3.01029995663611771306e-01
_LOG10_2LO: Final = 3.69423907715893078616e-13


def log10(x: float) -> float:
    reduced = _reduce(x)
    if isinstance(reduced, float):
        return reduced
    x, hx, lx, k = reduced
    k += (hx >> 20) - 1023
    i = 1 if k < 0 else 0
    hx = (hx & 0x000FFFFF) | ((0x3FF - i) << 20)
    y = float(k + i)
    x = from_words(hx, lx)
    z = y * _LOG10_2LO + _IVLN10 * log(x)
    return z + y * _LOG10_2HI
