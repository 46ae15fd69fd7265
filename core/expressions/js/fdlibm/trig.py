"""sin, cos and tan: V8's fdlibm ports, argument reduction included, step for step.

node 20 reduces the argument by pi/2 as fdlibm 5.3 does (three 33-bit pieces of pi/2 up to
2**19 * pi/2, then Payne-Hanek with 24-bit chunks of 2/pi) and evaluates fdlibm's kernels;
Python's C library rounds differently in the last digit (``Math.tan(1e22)``).
"""

from __future__ import annotations

import math
from typing import Final

from flowctx_core.expressions.js.fdlibm.words import from_words, high, low, with_low

# 2/pi in 24-bit chunks, 396 hexadecimal digits
_TWO_OVER_PI: Final = (
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163,
    0xABDEBB, 0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
    0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C,
    0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
    0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292,
    0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3,
    0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA,
    0x73A8C9, 0x60E27B, 0xC08C6B,
)  # fmt: skip
# the high words of n * pi/2 for n = 1..32: near them the quick reduction cancels
_NPIO2_HW: Final = (
    0x3FF921FB, 0x400921FB, 0x4012D97C, 0x401921FB, 0x401F6A7A, 0x4022D97C, 0x4025FDBB,
    0x402921FB, 0x402C463A, 0x402F6A7A, 0x4031475C, 0x4032D97C, 0x40346B9C, 0x4035FDBB,
    0x40378FDB, 0x403921FB, 0x403AB41B, 0x403C463A, 0x403DD85A, 0x403F6A7A, 0x40407E4C,
    0x4041475C, 0x4042106C, 0x4042D97C, 0x4043A28C, 0x40446B9C, 0x404534AC, 0x4045FDBB,
    0x4046C6CB, 0x40478FDB, 0x404858EB, 0x404921FB,
)  # fmt: skip
_TWO24: Final = 1.67772160000000000000e07
_TWON24: Final = 5.96046447753906250000e-08
_INVPIO2: Final = 6.36619772367581382433e-01  # 53 bits of 2/pi
_PIO2_1: Final = 1.57079632673412561417e00  # the first 33 bits of pi/2
_PIO2_1T: Final = 6.07710050650619224932e-11  # pi/2 - _PIO2_1
_PIO2_2: Final = 6.07710050630396597660e-11  # the second 33 bits
_PIO2_2T: Final = 2.02226624879595063154e-21
_PIO2_3: Final = 2.02226624871116645580e-21  # the third 33 bits
_PIO2_3T: Final = 8.47842766036889956997e-32
# pi/2 in 24-bit pieces
_PIO2: Final = (
    1.57079625129699707031e00,
    7.54978941586159635335e-08,
    5.39030252995776476554e-15,
    3.28200341580791294123e-22,
    1.27065575308067607349e-29,
    1.22933308981111328932e-36,
    2.73370053816464559624e-44,
    2.16741683877804819444e-51,
)
_JK: Final = 4  # V8 asks for 64-bit precision (fdlibm's prec 2): five terms of 2/pi at first


def _rem_pio2_large(x: list[float], e0: int) -> tuple[int, float, float]:
    """Payne-Hanek: ``x`` (24-bit pieces, the first scaled by 2**e0) minus N * pi/2, as the
    last three bits of N and the remainder in two doubles."""
    jx = len(x) - 1
    jv = max(0, int((e0 - 3) / 24))  # C's division truncates
    q0 = e0 - 24 * (jv + 1)
    f = [0.0] * 20
    j = jv - jx
    for i in range(jx + _JK + 1):
        f[i] = 0.0 if j < 0 else float(_TWO_OVER_PI[j])
        j += 1
    q = [0.0] * 20
    for i in range(_JK + 1):
        fw = 0.0
        for j in range(jx + 1):
            fw += x[j] * f[jx + i - j]
        q[i] = fw
    jz = _JK
    iq = [0] * 20
    z = 0.0
    n = ih = 0
    while True:
        # distil q into 24-bit integers, reversed
        z = q[jz]
        for i, j in enumerate(range(jz, 0, -1)):
            fw = float(int(_TWON24 * z))
            iq[i] = int(z - _TWO24 * fw)
            z = q[j - 1] + fw
        z = math.ldexp(z, q0)
        z -= 8.0 * math.floor(z * 0.125)  # the integer part modulo 8
        n = int(z)
        z -= float(n)
        ih = 0
        if q0 > 0:  # iq[jz-1] holds bits of n
            i = iq[jz - 1] >> (24 - q0)
            n += i
            iq[jz - 1] -= i << (24 - q0)
            ih = iq[jz - 1] >> (23 - q0)
        elif q0 == 0:
            ih = iq[jz - 1] >> 23
        elif z >= 0.5:
            ih = 2
        if ih > 0:  # the fraction is >= 0.5: take 1 - it
            n += 1
            carry = 0
            for i in range(jz):
                j = iq[i]
                if carry == 0:
                    if j != 0:
                        carry = 1
                        iq[i] = 0x1000000 - j
                else:
                    iq[i] = 0xFFFFFF - j
            if q0 == 1:
                iq[jz - 1] &= 0x7FFFFF
            elif q0 == 2:
                iq[jz - 1] &= 0x3FFFFF
            if ih == 2:
                z = 1.0 - z
                if carry != 0:
                    z -= math.ldexp(1.0, q0)
        if z == 0.0:
            j = 0
            for i in range(jz - 1, _JK - 1, -1):
                j |= iq[i]
            if j == 0:  # all cancelled: take more terms of 2/pi
                k = 1
                while k <= _JK and iq[_JK - k] == 0:
                    k += 1
                for i in range(jz + 1, jz + k + 1):
                    f[jx + i] = float(_TWO_OVER_PI[jv + i])
                    fw = 0.0
                    for j in range(jx + 1):
                        fw += x[j] * f[jx + i - j]
                    q[i] = fw
                jz += k
                continue
        break
    if z == 0.0:  # chop off zero terms
        jz -= 1
        q0 -= 24
        while iq[jz] == 0:
            jz -= 1
            q0 -= 24
    else:  # break z into 24-bit pieces if need be
        z = math.ldexp(z, -q0)
        if z >= _TWO24:
            fw = float(int(_TWON24 * z))
            iq[jz] = int(z - _TWO24 * fw)
            jz += 1
            q0 += 24
            iq[jz] = int(fw)
        else:
            iq[jz] = int(z)
    fw = math.ldexp(1.0, q0)
    for i in range(jz, -1, -1):
        q[i] = fw * iq[i]
        fw *= _TWON24
    fq = [0.0] * 20
    for i in range(jz, -1, -1):
        fw = 0.0
        k = 0
        while k <= _JK and k <= jz - i:
            fw += _PIO2[k] * q[i + k]
            k += 1
        fq[jz - i] = fw
    fw = 0.0
    for i in range(jz, -1, -1):
        fw += fq[i]
    y0 = fw if ih == 0 else -fw
    fw = fq[0] - fw
    for i in range(1, jz + 1):
        fw += fq[i]
    y1 = fw if ih == 0 else -fw
    return n & 7, y0, y1


def _rem_pio2(x: float) -> tuple[int, float, float]:
    """(n, y0, y1) with y0 + y1 = x - n * pi/2 and |y0 + y1| <= pi/4 (x finite)."""
    hx = high(x)
    ix = hx & 0x7FFFFFFF
    if ix <= 0x3FE921FB:  # |x| ~<= pi/4
        return 0, x, 0.0
    if ix < 0x4002D97C:  # |x| < 3pi/4: n is +-1
        if hx > 0:
            z = x - _PIO2_1
            if ix != 0x3FF921FB:
                y0 = z - _PIO2_1T
                return 1, y0, (z - y0) - _PIO2_1T
            z -= _PIO2_2  # near pi/2: 33 + 33 + 53 bits of pi
            y0 = z - _PIO2_2T
            return 1, y0, (z - y0) - _PIO2_2T
        z = x + _PIO2_1
        if ix != 0x3FF921FB:
            y0 = z + _PIO2_1T
            return -1, y0, (z - y0) + _PIO2_1T
        z += _PIO2_2
        y0 = z + _PIO2_2T
        return -1, y0, (z - y0) + _PIO2_2T
    if ix <= 0x413921FB:  # |x| ~<= 2**19 * pi/2
        t = abs(x)
        n = int(t * _INVPIO2 + 0.5)
        fn = float(n)
        r = t - fn * _PIO2_1
        w = fn * _PIO2_1T
        y0 = r - w
        if not (n < 32 and ix != _NPIO2_HW[n - 1]):  # a cancellation is possible
            j = ix >> 20
            i = j - ((high(y0) >> 20) & 0x7FF)
            if i > 16:  # a second round, good to 118 bits
                t = r
                w = fn * _PIO2_2
                r = t - w
                w = fn * _PIO2_2T - ((t - r) - w)
                y0 = r - w
                i = j - ((high(y0) >> 20) & 0x7FF)
                if i > 49:  # a third, 151 bits
                    t = r
                    w = fn * _PIO2_3
                    r = t - w
                    w = fn * _PIO2_3T - ((t - r) - w)
                    y0 = r - w
        y1 = (r - y0) - w
        return (-n, -y0, -y1) if hx < 0 else (n, y0, y1)
    # z = |x| scaled to 2**23 <= z < 2**24, then three 24-bit pieces
    e0 = (ix >> 20) - 1046
    z = from_words(ix - (e0 << 20), low(x))
    tx = []
    for _ in range(2):
        piece = float(int(z))
        tx.append(piece)
        z = (z - piece) * _TWO24
    tx.append(z)
    while tx[-1] == 0.0:
        tx.pop()
    n, y0, y1 = _rem_pio2_large(tx, e0)
    return (-n, -y0, -y1) if hx < 0 else (n, y0, y1)


_S1: Final = -1.66666666666666324348e-01
_S2: Final = 8.33333333332248946124e-03
_S3: Final = -1.98412698298579493134e-04
_S4: Final = 2.75573137070700676789e-06
_S5: Final = -2.50507602534068634195e-08
_S6: Final = 1.58969099521155010221e-10


def _kernel_sin(x: float, y: float, iy: int) -> float:
    """sin(x + y) on [-pi/4, pi/4]; ``iy`` 0 says y is 0."""
    if (high(x) & 0x7FFFFFFF) < 0x3E400000 and int(x) == 0:  # |x| < 2**-27
        return x
    z = x * x
    v = z * x
    r = _S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))
    if iy == 0:
        return x + v * (_S1 + z * r)
    return x - ((z * (0.5 * y - v * r) - y) - v * _S1)


_C1: Final = 4.16666666666666019037e-02
_C2: Final = -1.38888888888741095749e-03
_C3: Final = 2.48015872894767294178e-05
_C4: Final = -2.75573143513906633035e-07
_C5: Final = 2.08757232129817482790e-09
_C6: Final = -1.13596475577881948265e-11


def _kernel_cos(x: float, y: float) -> float:
    """cos(x + y) on [-pi/4, pi/4] (fdlibm 5.3's, with the quarter of x taken off exactly)."""
    ix = high(x) & 0x7FFFFFFF
    if ix < 0x3E400000 and int(x) == 0:  # |x| < 2**-27
        return 1.0
    z = x * x
    r = z * (_C1 + z * (_C2 + z * (_C3 + z * (_C4 + z * (_C5 + z * _C6)))))
    if ix < 0x3FD33333:  # |x| < 0.3
        return 1.0 - (0.5 * z - (z * r - x * y))
    qx = 0.28125 if ix > 0x3FE90000 else from_words(ix - 0x00200000, 0)  # x/4
    iz = 0.5 * z - qx
    a = 1.0 - qx
    return a - (iz - (z * r - x * y))


_T: Final = (
    3.33333333333334091986e-01,
    1.33333333333201242699e-01,
    5.39682539762260521377e-02,
    2.18694882948595424599e-02,
    8.86323982359930005737e-03,
    3.59207910759131235356e-03,
    1.45620945432529025516e-03,
    5.88041240820264096874e-04,
    2.46463134818469906812e-04,
    7.81794442939557092300e-05,
    7.14072491382608190305e-05,
    -1.85586374855275456654e-05,
    2.59073051863633712884e-05,
)
_PIO4: Final = 7.85398163397448278999e-01
_PIO4LO: Final = 3.06161699786838301793e-17


def _minus_inverse(w: float, x: float, r: float) -> float:
    """-1 / w with w = x + r, computed carefully (one unit in the last place, not two)."""
    z = with_low(w, 0)
    v = r - (z - x)
    a = -1.0 / w
    t = with_low(a, 0)
    s = 1.0 + t * z
    return t + a * (s + t * v)


def _kernel_tan(x: float, y: float, iy: int) -> float:
    """tan(x + y) on [-pi/4, pi/4] (``iy`` 1), or -1/tan(x + y) (``iy`` -1)."""
    hx = high(x)
    ix = hx & 0x7FFFFFFF
    if ix < 0x3E300000 and int(x) == 0:  # |x| < 2**-28
        if ((ix | low(x)) | (iy + 1)) == 0:
            return math.inf  # 1 / |x| of a zero
        if iy == 1:
            return x
        return _minus_inverse(x + y, x, y)
    big = ix >= 0x3FE59428  # |x| >= 0.6744: tan(pi/4 - y) instead
    if big:
        if hx < 0:
            x = -x
            y = -y
        z = _PIO4 - x
        w = _PIO4LO - y
        x = z + w
        y = 0.0
    t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12 = _T
    z = x * x
    w = z * z
    r = t1 + w * (t3 + w * (t5 + w * (t7 + w * (t9 + w * t11))))
    v = z * (t2 + w * (t4 + w * (t6 + w * (t8 + w * (t10 + w * t12)))))
    s = z * x
    r = y + z * (s * (r + v) + y)
    r += t0 * s
    w = x + r
    if big:
        v = float(iy)
        return (1 - ((hx >> 30) & 2)) * (v - 2.0 * (x - (w * w / (w + v) - r)))
    if iy == 1:
        return w
    return _minus_inverse(w, x, r)


def sin(x: float) -> float:
    ix = high(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _kernel_sin(x, 0.0, 0)
    if ix >= 0x7FF00000:
        return math.nan
    n, y0, y1 = _rem_pio2(x)
    n &= 3
    if n == 0:
        return _kernel_sin(y0, y1, 1)
    if n == 1:
        return _kernel_cos(y0, y1)
    if n == 2:
        return -_kernel_sin(y0, y1, 1)
    return -_kernel_cos(y0, y1)


def cos(x: float) -> float:
    ix = high(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _kernel_cos(x, 0.0)
    if ix >= 0x7FF00000:
        return math.nan
    n, y0, y1 = _rem_pio2(x)
    n &= 3
    if n == 0:
        return _kernel_cos(y0, y1)
    if n == 1:
        return -_kernel_sin(y0, y1, 1)
    if n == 2:
        return -_kernel_cos(y0, y1)
    return _kernel_sin(y0, y1, 1)


def tan(x: float) -> float:
    ix = high(x) & 0x7FFFFFFF
    if ix <= 0x3FE921FB:
        return _kernel_tan(x, 0.0, 1)
    if ix >= 0x7FF00000:
        return math.nan
    n, y0, y1 = _rem_pio2(x)
    return _kernel_tan(y0, y1, 1 - ((n & 1) << 1))
