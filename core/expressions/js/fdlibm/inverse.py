"""asin, acos, atan and atan2: V8's fdlibm ports, step for step (node 20 answers
``Math.atan2(710, -1.5)`` with 1.5729089997080037, Python's C library 1.5729089997080035)."""

from __future__ import annotations

import math
from typing import Final

from flowctx_core.expressions.js.fdlibm.words import high, with_low, words

_PI: Final = 3.14159265358979311600e00
_PIO2_HI: Final = 1.57079632679489655800e00
_PIO2_LO: Final = 6.12323399573676603587e-17
_PIO4_HI: Final = 7.85398163397448278999e-01
# (asin(x) - x) / x**3 as a rational function of x**2
_PS: Final = (
    1.66666666666666657415e-01,
    -3.25565818622400915405e-01,
    2.01212532134862925881e-01,
    -4.00555345006794114027e-02,
    7.91534994289814532176e-04,
    3.47933107596021167570e-05,
)
_QS: Final = (
    -2.40339491173441421878e00,
    2.02094576023350569471e00,
    -6.88283971605453293030e-01,
    7.70381505559019352791e-02,
)


def _pq(z: float) -> tuple[float, float]:
    p0, p1, p2, p3, p4, p5 = _PS
    q1, q2, q3, q4 = _QS
    p = z * (p0 + z * (p1 + z * (p2 + z * (p3 + z * (p4 + z * p5)))))
    q = 1.0 + z * (q1 + z * (q2 + z * (q3 + z * q4)))
    return p, q


def asin(x: float) -> float:
    hx, lx = words(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x3FF00000:  # |x| >= 1
        if ((ix - 0x3FF00000) | lx) == 0:
            return x * _PIO2_HI + x * _PIO2_LO
        return math.nan
    if ix < 0x3FE00000:  # |x| < 0.5
        if ix < 0x3E400000:  # |x| < 2**-27
            return x
        t = x * x
        p, q = _pq(t)
        return x + x * (p / q)
    w = 1.0 - abs(x)
    t = w * 0.5
    p, q = _pq(t)
    s = math.sqrt(t)
    if ix >= 0x3FEF3333:  # |x| > 0.975
        t = _PIO2_HI - (2.0 * (s + s * (p / q)) - _PIO2_LO)
    else:
        w = with_low(s, 0)
        c = (t - w * w) / (s + w)
        r = p / q
        p = 2.0 * s * r - (_PIO2_LO - 2.0 * c)
        q = _PIO4_HI - 2.0 * w
        t = _PIO4_HI - (p - q)
    return t if hx > 0 else -t


def acos(x: float) -> float:
    hx, lx = words(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x3FF00000:  # |x| >= 1
        if ((ix - 0x3FF00000) | lx) == 0:
            return 0.0 if hx > 0 else _PI + 2.0 * _PIO2_LO
        return math.nan
    if ix < 0x3FE00000:  # |x| < 0.5
        if ix <= 0x3C600000:  # |x| < 2**-57
            return _PIO2_HI + _PIO2_LO
        z = x * x
        p, q = _pq(z)
        return _PIO2_HI - (x - (_PIO2_LO - x * (p / q)))
    if hx < 0:  # x < -0.5
        z = (1.0 + x) * 0.5
        p, q = _pq(z)
        s = math.sqrt(z)
        w = (p / q) * s - _PIO2_LO
        return _PI - 2.0 * (s + w)
    z = (1.0 - x) * 0.5
    s = math.sqrt(z)
    df = with_low(s, 0)
    c = (z - df * df) / (s + df)
    p, q = _pq(z)
    w = (p / q) * s + c
    return 2.0 * (df + w)


_ATANHI: Final = (
    4.63647609000806093515e-01,
    7.85398163397448278999e-01,
    9.82793723247329054082e-01,
    1.57079632679489655800e00,
)
_ATANLO: Final = (
    2.26987774529616870924e-17,
    3.06161699786838301793e-17,
    1.39033110312309984516e-17,
    6.12323399573676603587e-17,
)
_AT: Final = (
    3.33333333333329318027e-01,
    -1.99999999998764832476e-01,
    1.42857142725034663711e-01,
    -1.11111104054623557880e-01,
    9.09088713343650656196e-02,
    -7.69187620504482999495e-02,
    6.66107313738753120669e-02,
    -5.83357013379057348645e-02,
    4.97687799461593236017e-02,
    -3.65315727442169155270e-02,
    1.62858201153657823623e-02,
)


def atan(x: float) -> float:
    hx = high(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x44100000:  # |x| >= 2**66
        if x != x:
            return x
        return _ATANHI[3] + _ATANLO[3] if hx > 0 else -_ATANHI[3] - _ATANLO[3]
    if ix < 0x3FDC0000:  # |x| < 0.4375
        if ix < 0x3E400000:  # |x| < 2**-27
            return x
        i = -1
    else:
        x = abs(x)
        if ix < 0x3FF30000:  # |x| < 1.1875
            if ix < 0x3FE60000:  # 7/16 <= |x| < 11/16
                i = 0
                x = (2.0 * x - 1.0) / (2.0 + x)
            else:  # 11/16 <= |x| < 19/16
                i = 1
                x = (x - 1.0) / (x + 1.0)
        elif ix < 0x40038000:  # |x| < 2.4375
            i = 2
            x = (x - 1.5) / (1.0 + 1.5 * x)
        else:  # 2.4375 <= |x| < 2**66
            i = 3
            x = -1.0 / x
    a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10 = _AT
    z = x * x
    w = z * z
    s1 = z * (a0 + w * (a2 + w * (a4 + w * (a6 + w * (a8 + w * a10)))))
    s2 = w * (a1 + w * (a3 + w * (a5 + w * (a7 + w * a9))))
    if i < 0:
        return x - x * (s1 + s2)
    z = _ATANHI[i] - ((x * (s1 + s2) - _ATANLO[i]) - x)
    return -z if hx < 0 else z


_TINY: Final = 1.0e-300
_PI_O_4: Final = 7.8539816339744827900e-01
_PI_O_2: Final = 1.5707963267948965580e00
_PI_LO: Final = 1.2246467991473531772e-16


def atan2(y: float, x: float) -> float:
    if x != x or y != y:
        return math.nan
    hx, lx = words(x)
    ix = hx & 0x7FFFFFFF
    hy, ly = words(y)
    iy = hy & 0x7FFFFFFF
    if hx == 0x3FF00000 and lx == 0:
        return atan(y)  # x is 1
    m = ((hy >> 31) & 1) | ((hx >> 30) & 2)  # 2 * sign(x) + sign(y)
    if (iy | ly) == 0:  # y is +-0
        if m in (0, 1):
            return y
        return _PI + _TINY if m == 2 else -_PI - _TINY
    if (ix | lx) == 0:  # x is +-0
        return -_PI_O_2 - _TINY if hy < 0 else _PI_O_2 + _TINY
    if ix == 0x7FF00000:  # x is +-Infinity
        if iy == 0x7FF00000:
            quarters = (_PI_O_4, -_PI_O_4, 3.0 * _PI_O_4, -3.0 * _PI_O_4)
            return quarters[m] + (_TINY if m % 2 == 0 else -_TINY)
        return (0.0, -0.0, _PI + _TINY, -_PI - _TINY)[m]
    if iy == 0x7FF00000:  # y is +-Infinity
        return -_PI_O_2 - _TINY if hy < 0 else _PI_O_2 + _TINY
    k = (iy - ix) >> 20
    if k > 60:  # |y/x| > 2**60
        z = _PI_O_2 + 0.5 * _PI_LO
        m &= 1
    elif hx < 0 and k < -60:  # 0 > |y|/x > -2**-60
        z = 0.0
    else:
        z = atan(abs(y / x))
    if m == 0:
        return z
    if m == 1:
        return -z
    if m == 2:
        return _PI - (z - _PI_LO)
    return (z - _PI_LO) - _PI
