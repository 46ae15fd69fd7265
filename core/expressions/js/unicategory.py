"""General_Category as node (Unicode 17.0) gives it: Python's ``unicodedata.category`` knows
none of the code points encoded since its tables (each is 'Cn' to it) and has a few old ones
under their former category (U+0295 is no longer a lowercase letter), so it is corrected by
the measured differences of ``newercategories``."""

from __future__ import annotations

import functools
import unicodedata

from flowctx_core.expressions.js.newercategories import CATEGORIES


@functools.cache
def _newer() -> dict[int, str]:
    found: dict[int, str] = {}
    for name, text in CATEGORIES.items():
        for r in text.split():
            low, _, high = r.partition("-")
            for cp in range(int(low, 16), int(high or low, 16) + 1):
                found[cp] = name
    return found


def category(c: str) -> str:
    """The two-letter General_Category of the one character ``c``."""
    return _newer().get(ord(c)) or unicodedata.category(c)
