"""What the root collation needs beyond its generated order (``rootorder.json``, measured by
scripts/intl_data.mjs): the precomposed letters node weighs as letters of their own (й, أ,
ো...), each right after the letter of its block that precedes it in node's order, their
decomposed spellings (и and a breve) read as the same letters, as canonical equivalence
requires; and the accents' order at the second level (acute before grave, ring before
diaeresis)."""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources


@functools.cache
def _table() -> dict[str, list[list[int]]]:
    text = resources.files(__package__).joinpath("rootorder.json").read_text("utf-8")
    table: dict[str, list[list[int]]] = json.loads(text)
    return table


def _rows() -> list[list[int]]:
    return _table()["contractions"]


@functools.cache
def _mark_ranks() -> dict[str, int]:
    return {chr(cp): rank for rank, group in enumerate(_table()["marks"], 1) for cp in group}


def accent_weight(c: str) -> int:
    """An accent's weight at the second level: its rank in node's order (a mark node's data
    does not order comes after them, by code point)."""
    found = _mark_ranks().get(c)
    return found if found is not None else 1000 + ord(c)


#: the second-level weight between the letters of ß, æ, œ (ss, ae, oe): after every accent
EXPANSION_ACCENT = 0x10FFFF


def add_contractions(weights: dict[str, tuple[int, int, int]]) -> None:
    """Give each such letter a primary of its own just after its predecessor's."""
    offset = 0.0
    last_pred = -1
    for cp, pred, same in _rows():
        found = weights.get(chr(pred))
        if found is None:
            continue
        if pred != last_pred:
            offset, last_pred = 0.0, pred
        if not same:
            offset += 0.01
        upper = 1 if chr(cp).isupper() else 0
        weights[chr(cp)] = (found[0] + offset, 0, upper)  # type: ignore[assignment]


@functools.cache
def _spellings() -> tuple[dict[str, str], frozenset[str]]:
    spelled = {unicodedata.normalize("NFD", chr(cp)): chr(cp) for cp, _, _ in _rows()}
    marks = frozenset(d[-1] for d in spelled)
    return spelled, marks


def composed(s: str) -> str:
    """``s`` with the decomposed spellings of those letters written as the letters."""
    spelled, marks = _spellings()
    if not any(c in marks for c in s):
        return s
    for decomposed, letter in spelled.items():
        s = s.replace(decomposed, letter)
    return s
