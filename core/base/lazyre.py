"""Regular expressions compiled on first use.

Compiling is Python code (``re._parser``, ``re._compiler``), 0.1-0.5 ms per expression: at
import, every expression of a module is paid for by every command that imports it, used or
not. Expressions on a path that a plain run does not take (a non-ASCII string, a URI in a
value, a regular-expression literal in a condition) are compiled by ``pattern`` there, once.
"""

from __future__ import annotations

import functools
import re


@functools.cache
def pattern(source: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)``, compiled once per process."""
    return re.compile(source, flags)
