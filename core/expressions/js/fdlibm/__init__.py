"""``Math`` to the last digit: the fdlibm algorithms node 20's V8 computes them with.

V8 ports FreeBSD's msun (fdlibm 5.3) for every transcendental ``Math`` function; they are
below one unit in the last place but not always correctly rounded, so the C library Python
calls answers another last digit now and then (``Math.tan(1e22)``, ``Math.pow(10, 3.5)``).
These modules do the same double operations in the same order, which gives the same bits;
only the access to a double's words differs (``struct`` instead of a union). ``hypot`` is
not fdlibm's in V8 and stays with the other ``Math`` built-ins.
"""

from flowctx_core.expressions.js.fdlibm.exponential import exp, expm1, log, log1p, log2, log10
from flowctx_core.expressions.js.fdlibm.hyperbolic import acosh, asinh, atanh, cosh, sinh, tanh
from flowctx_core.expressions.js.fdlibm.inverse import acos, asin, atan, atan2
from flowctx_core.expressions.js.fdlibm.power import cbrt, pow
from flowctx_core.expressions.js.fdlibm.trig import cos, sin, tan

__all__ = [
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "cbrt",
    "cos",
    "cosh",
    "exp",
    "expm1",
    "log",
    "log1p",
    "log2",
    "log10",
    "pow",
    "sin",
    "sinh",
    "tan",
    "tanh",
]
