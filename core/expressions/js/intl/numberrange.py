"""``Intl.NumberFormat.prototype.formatRange`` and ``formatRangeToParts`` as node 20 answers
them, after ICU's NumberRangeFormatter: each end formatted as ``format`` does, the locale's
range pattern between them (scripts/intl_ranges.mjs), the modifiers both ends share collapsed
(a unit always, the number's own affixes where they are longer than one code point: de's
3,00–5,00 €, but en's $3.00 – $5.00), spaces around the range sign where something is
repeated, and the approximately sign where both ends format alike (~5)."""

from __future__ import annotations

from typing import Any

from flowctx_core.expressions.js.intl.data import inherited, table


def _row(locale: str) -> dict[str, Any]:
    rows = table("ranges")
    found: dict[str, Any] = inherited(rows, locale) or rows["en"]
    return found


def approximately_sign(locale: str, numbering: str) -> str:
    """The locale's approximately sign (en's ~, de's ≈)."""
    return str(_row(locale)["approx"])
