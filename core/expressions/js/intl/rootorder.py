"""The root collation's precomposed letters that node weighs as letters of their own (й, أ,
ো... ``rootcontractions.json``, measured by scripts/intl_data.mjs): each right after the letter
of its block that precedes it in node's order, and its decomposed spelling (и and a breve)
read as the same letter, as canonical equivalence requires."""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources


@functools.cache
def _rows() -> list[list[int]]:
    text = resources.files(__package__).joinpath("rootcontractions.json").read_text("utf-8")
    rows: list[list[int]] = json.loads(text)
    return rows


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
