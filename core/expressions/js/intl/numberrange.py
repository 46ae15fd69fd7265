"""``Intl.NumberFormat.prototype.formatRange`` and ``formatRangeToParts`` as node 20 answers
them, after ICU's NumberRangeFormatter: each end formatted as ``format`` does, the locale's
range pattern between them (scripts/intl_ranges.mjs), the modifiers both ends share collapsed
(a unit always, the number's own affixes where they are longer than one code point: de's
3,00–5,00 €, but en's $3.00 – $5.00), spaces around the range sign where something is
repeated, and the approximately sign where both ends format alike (~5)."""

from __future__ import annotations

from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl import units
from flowctx_core.expressions.js.intl.locales import keywords
from flowctx_core.expressions.js.intl.numberformat import (
    SPACING,
    NumberFormat,
    _default_numbering,
    _numeric,
    merged_literals,
    range_row,
)
from flowctx_core.expressions.js.values import UNDEFINED, JsError, to_units

_row = range_row


#: ICU's pattern white space (the range sign gets spaces unless it has them already)
_PATTERN_SPACE: Final = frozenset("\t\n\v\f\r \u0085\u200e\u200f\u2028\u2029")

Part = tuple[str, str]


def _units(text: str) -> int:
    return len(to_units(text))


def _text(parts: list[Part]) -> str:
    return "".join(v for _, v in parts)


def _plain(parts: list[Part]) -> list[Part]:
    """The parts without ICU's currency spacing (modifiers compare without it)."""
    return [p for p in parts if p is not SPACING]


def _end(value: Any, name: str) -> Any:
    """An end of the range as V8 reads it (ToIntlMathematicalValue), with its errors."""
    exact, x = _numeric(value)
    if exact is None and x != x:
        if isinstance(value, str):
            shown = value
        elif isinstance(value, (int, float)):
            shown = "NaN"
        elif type(value) is dict:
            shown = "#<Object>"
        else:
            raise Unsupported("flowctx does not reproduce how V8 shows this value in the error")
        raise JsError(f"Invalid {name} : {shown}")
    return value


class _Side:
    """One end formatted: its number's own parts and exponent (ICU's inner modifier), the
    affixes of its pattern (the middle modifier), its unit's category (the outer one)."""

    __slots__ = ("affixes", "bare", "category", "core", "inner", "prefix", "quantity", "suffix")

    def __init__(self, nf: Any, value: Any) -> None:
        full = nf.parts(value, ranged=True)
        # a name without the symbol it holds (pt-CV's, beside a compact word)
        self.bare: bool = nf._bare_name
        layers = nf._layers
        number = layers.get("number", full)
        # fr's "mille" holds no digits: an empty number after its compact word
        start, end = layers.get("body", (len(number), len(number)))
        body = number[start:end]
        cut = next((i for i, p in enumerate(body) if p[0] == "exponentSeparator"), len(body))
        self.core, self.inner = body[:cut], body[cut:]
        self.prefix, self.suffix = number[:start], number[end:]
        self.affixes = layers.get("affixes")
        if self.affixes is not None:  # a compact percent's, around the compact number
            self.prefix = self.prefix[len(self.affixes[0]) :]
            self.suffix = self.suffix[: len(self.suffix) - len(self.affixes[1])]
        self.category = layers.get("outer")
        self.quantity = layers["quantity"]
        o = nf.o
        if o["style"] == "currency" and o["currencyDisplay"] == "name":
            # the name is ICU's outer modifier, the sign (with its marks) and a compact part the
            # number's own affixes
            before, after = nf.name_affixes(self.category)
            self.prefix = self.prefix[len(before) :]
            self.suffix = self.suffix[: len(self.suffix) - len(after)]


def _same_quantity(a: _Side, b: _Side, x: Any, y: Any) -> bool:
    """Whether the ends are one number: equal before rounding (-0 and 0 too), or after it
    with the same sign (-0.0001 rounds to -0, not to 0)."""
    (exact_x, float_x), (exact_y, float_y) = _numeric(x), _numeric(y)
    if exact_x is not None and exact_y is not None and exact_x == exact_y:
        return True
    if exact_x is None and exact_y is None and float_x == float_y:
        return True
    return bool(a.quantity == b.quantity)


def _refused(nf: Any) -> None:
    o = nf.o
    if o["style"] == "unit" and o["notation"] == "compact" and o["unit"].startswith("percent-"):
        raise Unsupported("flowctx does not reproduce formatRange with compact percent-per units")
    if o["numberingSystem"] in _row(o["base"]).get("systems", {}):
        raise Unsupported(
            f"flowctx does not reproduce formatRange in the numbering system"
            f" {o['numberingSystem']!r} of {o['base']!r}"
        )


def _range_formatter(nf: Any) -> Any:
    """The formatter V8's range is written with: the Latin digits asked by the option (not
    by the locale's -u-nu-) are dropped, and the range has the locale's own (ar-EG's ١٫٥–٢
    where format writes 1.5)."""
    o = nf.o
    if o["numberingSystem"] != "latn" or "nu" in keywords(o["locale"]):
        return nf
    own = _default_numbering(o["base"])
    return nf if own == "latn" else NumberFormat({**o, "numberingSystem": own})


def range_triples(nf: Any, start: Any, end: Any) -> list[tuple[str, str, str]]:
    """The parts of the range: (type, text, source)."""
    nf = _range_formatter(nf)
    for value, name in ((start, "start"), (end, "end")):
        if value is UNDEFINED:
            raise JsError(f"Invalid {name} : undefined")
    x = _end(start, "start")
    y = _end(end, "end")
    _refused(nf)
    o = nf.o
    a, b = _Side(nf, x), _Side(nf, y)
    unit = o["style"] == "unit" and a.category is not None
    by_name = o["style"] == "currency" and o["currencyDisplay"] == "name"
    if by_name and nf._holds_symbol() and not (a.bare and b.bare):
        raise Unsupported(
            f"flowctx does not reproduce formatRange of currency names in {o['base']!r}, whose"
            " names hold the currency's symbol, below a thousand in compact notation"
        )
    middle_equal = _plain(a.prefix) == _plain(b.prefix) and _plain(a.suffix) == _plain(b.suffix)
    if middle_equal and a.inner == b.inner and _same_quantity(a, b, x, y):
        return [(t, v, "shared") for t, v in merged_literals(nf.parts(x, approx=True, ranged=True))]
    count = sum(1 for c in _text(_plain(a.prefix) + _plain(a.suffix)))
    collapse_middle = middle_equal and count > 1
    repeat = bool(a.inner) or (not collapse_middle and count > 0)
    rp = str(_row(o["base"])["range"])
    rp_prefix, _, rest = rp.partition("{0}")
    infix, _, rp_suffix = rest.partition("{1}")
    if repeat:
        if infix[:1] not in _PATTERN_SPACE:
            infix = " " + infix
        if infix[-1:] not in _PATTERN_SPACE:
            infix += " "
    side1: list[Part] = a.core + a.inner
    side2: list[Part] = b.core + b.inner
    prefix: list[Part] = [("literal", rp_prefix)] if rp_prefix else []
    suffix: list[Part] = [("literal", rp_suffix)] if rp_suffix else []
    length_prefix = _units(rp_prefix)
    if collapse_middle:
        # once around the whole range; its currency spacing beside the first number's digits
        # and the last's (ICU counts the prefix without it: the ends' sources shift)
        prefix = prefix + a.prefix
        suffix = suffix + (b.suffix if not rp_suffix else _plain(b.suffix))
        length_prefix += _units(_text(_plain(a.prefix)))
    else:
        side1 = a.prefix + side1 + a.suffix
        side2 = b.prefix + side2 + b.suffix
    if unit:
        cat = plural_range(o["base"], "cardinal", a.category, b.category)
        found = units.pattern(o["base"], o["unit"], o["unitDisplay"], cat)
        before_text, placeholder, after_text = found.partition("{0}")
        if not placeholder:  # a pattern without the number stands alone (ar's فدان)
            return [(t, v, "shared") for t, v in units.affix_parts(found)]
        prefix = prefix + units.affix_parts(before_text)
        suffix = suffix + units.affix_parts(after_text)
        length_prefix += _units(before_text)
    if a.affixes is not None:
        prefix = prefix + a.affixes[0]
        suffix = suffix + a.affixes[1]
        length_prefix += _units(_text(a.affixes[0]))
    if by_name:
        cat = plural_range(o["base"], "cardinal", a.category, b.category)
        before_name, after_name = nf.name_affixes(cat)
        prefix = prefix + before_name
        suffix = suffix + after_name
        length_prefix += _units(_text(before_name))
    length1, length2 = _units(_text(side1)), _units(_text(side2))
    index0 = length_prefix
    index2 = length_prefix + length1 + _units(infix)
    spans = ((index0, index0 + length1), (index2, index2 + length2))
    laid = merged_literals([*prefix, *side1, ("literal", infix), *side2, *suffix])
    out: list[tuple[str, str, str]] = []
    at = 0
    for kind, text in laid:
        size = _units(text)
        source = "shared"
        for name, (lo, hi) in zip(("startRange", "endRange"), spans, strict=True):
            if lo <= at and at + size <= hi:
                source = name
                break
        out.append((kind, text, source))
        at += size
    return out


def format_range(nf: Any, start: Any, end: Any) -> str:
    return "".join(v for _, v, _ in range_triples(nf, start, end))


def range_parts(nf: Any, start: Any, end: Any) -> list[dict[str, Any]]:
    return [{"type": t, "value": v, "source": s} for t, v, s in range_triples(nf, start, end)]


def plural_range(locale: str, kind: str, first: str, second: str) -> str:
    """CLDR's plural category of a range from its ends' (measured with selectRange)."""
    pairs = _row(locale)[kind]
    return str(pairs.get(f"{first} {second}", "other"))
