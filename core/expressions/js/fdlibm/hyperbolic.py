"""sinh, cosh, tanh and their inverses: V8's ports (fdlibm's, with V8's own sinh and cosh
bounds) over the fdlibm exp, expm1, log and log1p beside them, step for step."""

from __future__ import annotations

import math
from typing import Final

from flowctx_core.expressions.js.fdlibm.exponential import exp, expm1, log, log1p
from flowctx_core.expressions.js.fdlibm.words import high, words

_LN2: Final = 6.93147180559945286227e-01
_OVERFLOW: Final = 710.4758600739439  # beyond it sinh and cosh overflow
_LOG_MAXD: Final = 709.7822265625  # high word 0x40862E42


def sinh(x: float) -> float:
    h = -0.5 if x < 0 else 0.5
    ax = abs(x)
    if ax < 22:
        if ax < 3.725290298461914e-9:  # 2**-28
            return x
        t = expm1(ax)
        if ax < 1:
            return h * (2 * t - t * t / (t + 1))
        return h * (t + t / (t + 1))
    if ax < _LOG_MAXD:
        return h * exp(ax)
    if ax <= _OVERFLOW:
        w = exp(0.5 * ax)
        t = h * w
        return t * w
    return x * 1.0e307  # Infinity of x's sign, or NaN


def cosh(x: float) -> float:
    ix = high(x) & 0x7FFFFFFF
    if ix < 0x3FD62E43:  # |x| < ln2 / 2: 1 + expm1(|x|)**2 / (2 exp(|x|))
        t = expm1(abs(x))
        w = 1.0 + t
        if ix < 0x3C800000:  # |x| < 2**-55
            return w
        return 1.0 + (t * t) / (w + w)
    if ix < 0x40360000:  # |x| < 22
        t = exp(abs(x))
        return 0.5 * t + 0.5 / t
    if ix < 0x40862E42:  # |x| < log(largest double)
        return 0.5 * exp(abs(x))
    if abs(x) <= _OVERFLOW:
        w = exp(0.5 * abs(x))
        t = 0.5 * w
        return t * w
    if ix >= 0x7FF00000:
        return x * x
    return math.inf


def tanh(x: float) -> float:
    jx = high(x)
    ix = jx & 0x7FFFFFFF
    if ix >= 0x7FF00000:  # Infinity or NaN
        return 1.0 / x + 1.0 if jx >= 0 else 1.0 / x - 1.0
    if ix < 0x40360000:  # |x| < 22
        if ix < 0x3E300000:  # |x| < 2**-28
            return x
        if ix >= 0x3FF00000:  # |x| >= 1
            t = expm1(2.0 * abs(x))
            z = 1.0 - 2.0 / (t + 2.0)
        else:
            t = expm1(-2.0 * abs(x))
            z = -t / (t + 2.0)
    else:
        z = 1.0
    return z if jx >= 0 else -z


def asinh(x: float) -> float:
    hx = high(x)
    ix = hx & 0x7FFFFFFF
    if ix >= 0x7FF00000:
        return x + x
    if ix < 0x3E300000:  # |x| < 2**-28
        return x
    if ix > 0x41B00000:  # |x| > 2**28
        w = log(abs(x)) + _LN2
    elif ix > 0x40000000:  # 2 < |x| <= 2**28
        t = abs(x)
        w = log(2.0 * t + 1.0 / (math.sqrt(x * x + 1.0) + t))
    else:
        t = x * x
        w = log1p(abs(x) + t / (1.0 + math.sqrt(1.0 + t)))
    return w if hx > 0 else -w


def acosh(x: float) -> float:
    hx, lx = words(x)
    if hx < 0x3FF00000:  # x < 1
        return math.nan
    if hx >= 0x41B00000:  # x > 2**28
        if hx >= 0x7FF00000:
            return x + x
        return log(x) + _LN2
    if ((hx - 0x3FF00000) | lx) == 0:
        return 0.0
    if hx > 0x40000000:  # 2 < x < 2**28
        t = x * x
        return log(2.0 * x - 1.0 / (x + math.sqrt(t - 1.0)))
    t = x - 1.0
    return log1p(t + math.sqrt(2.0 * t + t * t))


def atanh(x: float) -> float:
    hx, lx = words(x)
    ix = hx & 0x7FFFFFFF
    if x != x:
        return x
    if ix > 0x3FF00000 or (ix == 0x3FF00000 and lx != 0):  # |x| > 1
        return math.nan
    if ix == 0x3FF00000:
        return math.inf if x > 0 else -math.inf
    if ix < 0x3E300000:  # |x| < 2**-28
        return x
    x = abs(x)
    if ix < 0x3FE00000:  # |x| < 0.5
        t = x + x
        t = 0.5 * log1p(t + t * x / (1.0 - x))
    else:
        t = 0.5 * log1p((x + x) / (1.0 - x))
    return t if hx >= 0 else -t
