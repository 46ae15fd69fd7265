"""Powers and roots: V8's fdlibm ``pow`` (``Math.pow`` and ``**``) and ``cbrt``, step for step.

fdlibm's pow is exact for integer powers that a double holds, and otherwise below one unit in
the last place but not correctly rounded as the C library's (``Math.pow(10, 3.5)`` is
3162.277660168379 in node, 3162.2776601683795 in Python); cbrt likewise (``Math.cbrt(7)``).
"""

from __future__ import annotations

import math
from typing import Final

# pow's last step is exp's: the same polynomial, from the same module
from flowctx_core.expressions.js.fdlibm.exponential import _P1, _P2, _P3, _P4, _P5
from flowctx_core.expressions.js.fdlibm.words import (
    bits,
    from_bits,
    from_words,
    high,
    with_high,
    with_low,
    words,
)

_BP: Final = (1.0, 1.5)
_DP_H: Final = (0.0, 5.84962487220764160156e-01)
_DP_L: Final = (0.0, 1.35003920212974897128e-08)
_TWO53: Final = 9007199254740992.0
_HUGE: Final = 1.0e300
_TINY: Final = 1.0e-300
# (3/2) * (log(x) - 2s - 2/3 s**3) as a polynomial
_L1: Final = 5.99999999999994648725e-01
_L2: Final = 4.28571428578550184252e-01
_L3: Final = 3.33333329818377432918e-01
_L4: Final = 2.72728123808534006489e-01
_L5: Final = 2.30660745775561754067e-01
_L6: Final = 2.06975017800338417784e-01
_LG2: Final = 6.93147180559945286227e-01
_LG2_H: Final = 6.93147182464599609375e-01
_LG2_L: Final = -1.90465429995776804525e-09
_OVT: Final = 8.0085662595372944372e-17  # -(1024 - log2(overflow + 0.5 ulp))
_CP: Final = 9.61796693925975554329e-01  # 2 / (3 ln2)
_CP_H: Final = 9.61796700954437255859e-01
_CP_L: Final = -7.02846165095275826516e-09
_IVLN2: Final = 1.44269504088896338700e00
_IVLN2_H: Final = 1.44269502162933349609e00
_IVLN2_L: Final = 1.92596299112661746887e-08


def _inverse(z: float) -> float:
    return math.copysign(math.inf, z) if z == 0 else 1.0 / z


def pow(x: float, y: float) -> float:
    if y != y:
        return math.nan  # ECMAScript: even 1 ** NaN is NaN
    if abs(x) == 1.0 and y in (math.inf, -math.inf):
        return math.nan  # and (+-1) ** (+-Infinity), where IEEE 754 says 1
    hx, lx = words(x)
    hy, ly = words(y)
    ix = hx & 0x7FFFFFFF
    iy = hy & 0x7FFFFFFF
    if (iy | ly) == 0:
        return 1.0
    if x != x:
        return x
    # when x < 0: 0 if y is no integer, 1 if it is odd, 2 if even
    yisint = 0
    if hx < 0:
        if iy >= 0x43400000:
            yisint = 2
        elif iy >= 0x3FF00000:
            k = (iy >> 20) - 0x3FF
            if k > 20:
                j = ly >> (52 - k)
                if (j << (52 - k)) == ly:
                    yisint = 2 - (j & 1)
            elif ly == 0:
                j = iy >> (20 - k)
                if (j << (20 - k)) == iy:
                    yisint = 2 - (j & 1)
    if ly == 0:
        if iy == 0x7FF00000:  # y is +-Infinity
            if ix >= 0x3FF00000:
                return y if hy >= 0 else 0.0
            return -y if hy < 0 else 0.0
        if iy == 0x3FF00000:  # y is +-1
            return _inverse(x) if hy < 0 else x
        if hy == 0x40000000:
            return x * x
        if hy == 0x3FE00000 and hx >= 0:  # y is 0.5
            return math.sqrt(x)
    ax = abs(x)
    if lx == 0 and ix in (0x7FF00000, 0, 0x3FF00000):  # x is +-0, +-Infinity, +-1
        z = _inverse(ax) if hy < 0 else ax
        if hx < 0:
            if ((ix - 0x3FF00000) | yisint) == 0:
                return math.nan  # (-1) ** non-integer
            if yisint == 1:
                z = -z
        return z
    n = 0 if hx < 0 else -1  # C: ((uint32) hx >> 31) - 1
    if (n | yisint) == 0:
        return math.nan  # (x < 0) ** non-integer
    s = -1.0 if (n | (yisint - 1)) == 0 else 1.0  # the sign of (-x) ** odd
    if iy > 0x41E00000:  # |y| > 2**31
        if iy > 0x43F00000:  # |y| > 2**64: overflow or underflow
            if ix <= 0x3FEFFFFF:
                return math.inf if hy < 0 else 0.0
            if ix >= 0x3FF00000:
                return math.inf if hy > 0 else 0.0
        if ix < 0x3FEFFFFF:
            return s * math.inf if hy < 0 else s * 0.0
        if ix > 0x3FF00000:
            return s * math.inf if hy > 0 else s * 0.0
        # |1 - x| <= 2**-20: log(x) by x - x**2/2 + x**3/3 - x**4/4
        t = ax - 1.0
        w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25))
        u = _IVLN2_H * t
        v = t * _IVLN2_L - w * _IVLN2
        t1 = with_low(u + v, 0)
        t2 = v - (t1 - u)
    else:
        n = 0
        if ix < 0x00100000:  # subnormal x
            ax *= _TWO53
            n -= 53
            ix = high(ax)
        n += (ix >> 20) - 0x3FF
        j = ix & 0x000FFFFF
        ix = j | 0x3FF00000
        if j <= 0x3988E:  # |x| < sqrt(3/2)
            k = 0
        elif j < 0xBB67A:  # |x| < sqrt(3)
            k = 1
        else:
            k = 0
            n += 1
            ix -= 0x00100000
        ax = with_high(ax, ix)
        # ss = s_h + s_l = (x - 1) / (x + 1) or (x - 1.5) / (x + 1.5)
        u = ax - _BP[k]
        v = 1.0 / (ax + _BP[k])
        ss = u * v
        s_h = with_low(ss, 0)
        t_h = from_words(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0)
        t_l = ax - (t_h - _BP[k])
        s_l = v * ((u - s_h * t_h) - s_h * t_l)
        # log(ax)
        s2 = ss * ss
        r = s2 * s2 * (_L1 + s2 * (_L2 + s2 * (_L3 + s2 * (_L4 + s2 * (_L5 + s2 * _L6)))))
        r += s_l * (s_h + ss)
        s2 = s_h * s_h
        t_h = with_low(3.0 + s2 + r, 0)
        t_l = r - ((t_h - 3.0) - s2)
        u = s_h * t_h
        v = s_l * t_h + t_l * ss
        p_h = with_low(u + v, 0)
        p_l = v - (p_h - u)
        z_h = _CP_H * p_h
        z_l = _CP_L * p_h + p_l * _CP + _DP_L[k]
        # log2(ax) = n + dp_h + z_h + z_l
        t = float(n)
        t1 = with_low(((z_h + z_l) + _DP_H[k]) + t, 0)
        t2 = z_l - (((t1 - t) - _DP_H[k]) - z_h)
    # (y1 + y2) * (t1 + t2) with y split in two
    y1 = with_low(y, 0)
    p_l = (y - y1) * t1 + y * t2
    p_h = y1 * t1
    z = p_l + p_h
    j, i = words(z)
    if j >= 0x40900000:  # z >= 1024
        if ((j - 0x40900000) | i) != 0 or p_l + _OVT > z - p_h:
            return s * math.inf
    elif (j & 0x7FFFFFFF) >= 0x4090CC00 and (
        ((j - (0xC090CC00 - 0x100000000)) | i) != 0 or p_l <= z - p_h
    ):  # z <= -1075
        return s * 0.0
    # 2 ** (p_h + p_l)
    i = j & 0x7FFFFFFF
    k = (i >> 20) - 0x3FF
    n = 0
    if i > 0x3FE00000:  # |z| > 0.5: n = [z + 0.5]
        n = j + (0x00100000 >> (k + 1))
        k = ((n & 0x7FFFFFFF) >> 20) - 0x3FF
        t = from_words(n & ~(0x000FFFFF >> k), 0)
        n = ((n & 0x000FFFFF) | 0x00100000) >> (20 - k)
        if j < 0:
            n = -n
        p_h -= t
    t = with_low(p_l + p_h, 0)
    u = t * _LG2_H
    v = (p_l - (t - p_h)) * _LG2 + t * _LG2_L
    z = u + v
    w = v - (z - u)
    t = z * z
    t1 = z - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
    # V8's port divides by the whole difference, where fdlibm subtracts (w + z*w) after
    # dividing: node's results follow V8's grouping, so does this
    r = (z * t1) / ((t1 - 2.0) - (w + z * w))
    z = 1.0 - (r - z)
    j = high(z) + (n << 20)
    if (j >> 20) <= 0:
        z = math.ldexp(z, n)  # a subnormal result
    else:
        z = with_high(z, j)
    return s * z


_CBRT_B1: Final = 715094163  # (1023 - 1023/3 - 0.03306235651) * 2**20
_CBRT_B2: Final = 696219795  # (1023 - 1023/3 - 54/3 - 0.03306235651) * 2**20
_CBRT_P: Final = (
    1.87595182427177009643,
    -1.88497979543377169875,
    1.621429720105354466140,
    -0.758397934778766047437,
    0.145996192886612446982,
)


def cbrt(x: float) -> float:
    """Python's ``x ** (1/3)`` and the C library's cbrt differ from it in the last digit."""
    hx, lo = words(x)
    sign = hx & 0x80000000
    hx &= 0x7FFFFFFF
    if hx >= 0x7FF00000:
        return x + x  # NaN and the infinities are their own cube roots
    if hx < 0x00100000:  # zero or subnormal
        if hx | lo == 0:
            return x
        t = from_words(0x43500000, 0) * x  # 2**54 * x
        t = from_words(sign | ((high(t) & 0x7FFFFFFF) // 3 + _CBRT_B2), 0)
    else:
        t = from_words(sign | (hx // 3 + _CBRT_B1), 0)
    p0, p1, p2, p3, p4 = _CBRT_P
    r = (t * t) * (t / x)
    t = t * ((p0 + r * (p1 + r * p2)) + ((r * r) * r) * (p3 + r * p4))
    # round t away from zero to 23 bits
    t = from_bits((bits(t) + 0x80000000) & 0xFFFFFFFFC0000000)
    s = t * t
    r = x / s
    w = t + t
    r = (r - t) / (w + r)
    return t + t * r
