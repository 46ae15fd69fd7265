"""``String.prototype.normalize`` as node computes it, whose Unicode (17.0) is newer than that of
Python's ``unicodedata``: Python leaves the letters and marks encoded since then as they are,
so '\\U0001CCD6' (an outlined A) stayed itself under NFKC where node gives 'A', and new
combining marks were never reordered nor new vowel signs composed.

A string without any of the code points that node's newer data decomposes, reorders or
composes is normalised by ``unicodedata`` itself (for those, the two agree); one with any is
normalised here by the standard algorithm, from Python's data plus the measured differences.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final, Literal

from flowctx_core.expressions.js.newernorm import CANONICAL, CLASSES, COMPATIBILITY, PAIRS

Form = Literal["NFC", "NFD", "NFKC", "NFKD"]

_NEWER: Final = re.compile(
    "["
    + "".join(
        re.escape(chr(cp))
        for cp in sorted({*CANONICAL, *COMPATIBILITY, *CLASSES, *(c for p in PAIRS for c in p)})
    )
    + "]"
)

_S_BASE, _L_BASE, _V_BASE, _T_BASE = 0xAC00, 0x1100, 0x1161, 0x11A7
_L_COUNT, _V_COUNT, _T_COUNT = 19, 21, 28
_S_COUNT = _L_COUNT * _V_COUNT * _T_COUNT


def js_normalize(s: str, form: Form) -> str:
    if s.isascii() or not _NEWER.search(s):
        return unicodedata.normalize(form, s)
    compat = form.startswith("NFK")
    decomposed = _reorder([d for c in s for d in _decompose(c, compat)])
    if form in ("NFC", "NFKC"):
        decomposed = _compose(decomposed)
    return "".join(map(chr, decomposed))


def _decompose(c: str, compat: bool) -> tuple[int, ...]:
    cp = ord(c)
    if compat and cp in COMPATIBILITY:
        return COMPATIBILITY[cp]
    if cp in CANONICAL:
        return CANONICAL[cp]
    return tuple(map(ord, unicodedata.normalize("NFKD" if compat else "NFD", c)))


def _class(cp: int) -> int:
    return CLASSES.get(cp) or unicodedata.combining(chr(cp))


def canonical_order(s: str) -> str:
    """``s`` with each run of marks in canonical order, nothing composed nor decomposed (the
    order ICU's collation reads marks in: U+064B before U+0670)."""
    if s.isascii():
        return s
    cps = [ord(c) for c in s]
    ordered = _reorder(cps)
    return s if ordered == cps else "".join(map(chr, ordered))


def _reorder(cps: list[int]) -> list[int]:
    """The canonical ordering: each run of marks sorted, stably, by combining class."""
    out: list[int] = []
    run: list[int] = []
    for cp in cps:
        if _class(cp):
            run.append(cp)
            continue
        out += sorted(run, key=_class)
        run = []
        out.append(cp)
    return out + sorted(run, key=_class)


@functools.cache
def _pairs() -> dict[tuple[int, int], int]:
    """Every primary composite, by the two code points it composes from: Python's (each
    two-part canonical decomposition not excluded from composition) and node's newer ones."""
    pairs = dict(PAIRS)
    for cp in range(0xC0, 0x30000):
        d = unicodedata.decomposition(chr(cp))
        if not d or d.startswith("<"):
            continue
        parts = d.split()
        if len(parts) == 2 and unicodedata.normalize("NFC", chr(cp)) == chr(cp):
            pairs[(int(parts[0], 16), int(parts[1], 16))] = cp
    return pairs


def _composite(first: int, second: int) -> int | None:
    if _L_BASE <= first < _L_BASE + _L_COUNT and _V_BASE <= second < _V_BASE + _V_COUNT:
        return _S_BASE + ((first - _L_BASE) * _V_COUNT + second - _V_BASE) * _T_COUNT
    if (
        _S_BASE <= first < _S_BASE + _S_COUNT
        and (first - _S_BASE) % _T_COUNT == 0
        and _T_BASE < second < _T_BASE + _T_COUNT
    ):
        return first + second - _T_BASE
    return _pairs().get((first, second))


def _compose(cps: list[int]) -> list[int]:
    """The canonical composition: each character joined to the last starter before it when
    nothing between them blocks it (a mark of the same or a higher class, or a starter)."""
    out: list[int] = []
    starter = -1
    last_class = -1
    for cp in cps:
        k = _class(cp)
        if starter >= 0 and (last_class < k or (last_class == 0 and len(out) - 1 == starter)):
            joined = _composite(out[starter], cp)
            if joined is not None:
                out[starter] = joined
                continue
        if k == 0:
            starter = len(out)
        last_class = k
        out.append(cp)
    return out
