"""``Intl.NumberFormat`` (and ``Number.prototype.toLocaleString(locales, options)``) as node 20
answers it: the options read in ECMA-402's order with V8's errors, digits rounded half away
from zero from the shortest digits of the double (as ICU does), then the locale's symbols,
group sizes and affixes (decimal, percent, currency, accounting, compact) measured from node
(scripts/intl_*.mjs), in any decimal numbering system, and units around the decimal number
(units.py), a currency's name around a compact number too; formatRange in numberrange.py."""

from __future__ import annotations

import functools
import importlib
import math
import re
import unicodedata
from decimal import (
    ROUND_DOWN,
    ROUND_HALF_DOWN,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    ROUND_UP,
    Decimal,
    localcontext,
)
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl import units
from flowctx_core.expressions.js.intl.data import inherited, table
from flowctx_core.expressions.js.intl.locales import resolve_keywords, with_keywords
from flowctx_core.expressions.js.intl.options import (
    IntlObject,
    coerce_options,
    get_number_option,
    get_option,
    number_option,
    read,
)
from flowctx_core.expressions.js.numberlocales import NumberShape
from flowctx_core.expressions.js.numbershape import number_shape
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsFunction,
    to_number,
    to_string,
    truthy,
)

SERVICE: Final = "Intl.NumberFormat"
#: the rounding increments ECMA-402 allows
_INCREMENTS: Final = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000)
_NUMBERING: Final = {
    "0": "latn", "\u0660": "arab", "\u06f0": "arabext", "\u09e6": "beng", "\u0966": "deva",
    "\u1040": "mymr", "\u0f20": "tibt", "\u0e50": "thai", "\u17e0": "khmr", "\u0ae6": "gujr",
    "\u0a66": "guru", "\u0ce6": "knda", "\u0d66": "mlym", "\u0b66": "orya", "\u0be6": "tamldec",
    "\u0c66": "telu", "\u1810": "mong", "\u07c0": "nkoo", "\U0001e950": "adlm",
    "\u1c50": "olck", "\uabf0": "mtei", "\ua620": "vaii", "\U00011066": "brah",
}  # fmt: skip
_WELL_FORMED_NU: Final = re.compile(r"[a-zA-Z0-9]{3,8}(?:-[a-zA-Z0-9]{3,8})*\Z")


def _number_row(locale: str) -> dict[str, Any]:
    row = inherited(table("numbers"), locale)
    if row is None:
        row = table("numbers")["en"]
    return row  # type: ignore[no-any-return]


def currency_digits(code: str) -> int:
    """A currency's digits: node's listed currencies', else those ICU keeps for a code it does
    not list (a former currency's: BYR's 0, ESP's 0; a fund's: CLF's 4), else 2."""
    found = table("currencyDigits").get(code)
    if found is None:
        found = table("currencyOtherDigits").get(code, 2)
    return int(found)


#: what a numbering system other than the locale's own changes in its row (the rest of the
#: override is the shape's: group, point, sizes, nan, infinity)
_ROW_KEYS: Final = ("dec", "pct", "cur", "minus", "exp", "expMinus", "sizes", "pctSign",
                    "curGroup", "curDecimal", "plusAt")  # fmt: skip


def _inherited_key(rows: dict[str, Any], tag: str, key: str) -> Any:
    """A key of a table whose locales keep only what differs from their parent's: the tag's,
    else its nearest parent's that has it."""
    while True:
        row = rows.get(tag)
        if row is not None and key in row:
            return row[key]
        if "-" not in tag:
            return None
        tag = tag.rsplit("-", 1)[0]


def decimal_system(name: str) -> bool:
    """Whether ICU has this numbering system and it has ten digits (V8 takes no other)."""
    return name in table("numberingDigits")


#: the bidi marks numbering systems put around signs (ALM, LRM, RLM)
_BIDI_MARKS: Final = "\u061c\u200e\u200f"


def _override(base: str, nu: str, posix: bool = False) -> dict[str, Any]:
    """What the numbering system changes in the locale's numbers (scripts/intl_numbering.mjs):
    nothing for its own system; or what en-US-u-va-posix changes in en-US."""
    if posix:
        # en-US-u-va-posix's symbols and patterns in that system (measured)
        posix_row: dict[str, Any] = (
            table("numberingPosix") if nu == "latn" else table("numberingPosixRows")[nu]
        )
        return posix_row
    if nu == _default_numbering(base):
        return {}
    rows = inherited(table("numberingRows"), base) or {}
    found: dict[str, Any] = rows.get(nu, {})
    return found


def numbered_shape(base: str, nu: str, posix: bool = False) -> NumberShape:
    """The locale's number shape in a numbering system: its digits, and its symbols where the
    system has its own (and en-US-u-va-posix's)."""
    shape = number_shape(base)
    ov = _override(base, nu, posix)
    if not ov and nu == _default_numbering(base):
        return shape
    _digits, minus, group, point, primary, secondary, min_group, nan, infinity = shape
    if "dec" in ov or "minus" in ov:
        negative = ov.get("dec", _number_row(base)["dec"])[1]
        sign = ov.get("minus", _number_row(base)["minus"])
        lead = negative[: negative.index(0)] if 0 in negative else negative
        minus = "".join(sign if p == 1 else str(p) for p in lead)
    if "sizes" in ov:
        primary, secondary = ov["sizes"][0] if ov["sizes"][0][0] else (1000, 1000)
    return (
        table("numberingDigits")[nu],
        minus,
        ov.get("group", group),
        ov.get("point", point),
        primary,
        secondary,
        (2 if ov["min2"] else 1) if "min2" in ov else min_group,
        ov.get("nan", nan),
        ov.get("infinity", infinity),
    )


class NumberFormat(IntlObject):
    tag = "NumberFormat"
    __slots__ = (
        "_bare_name",
        "_category",
        "_layers",
        "_marks",
        "_negative",
        "_opening",
        "_pattern",
        "_shift",
        "_unscaled",
        "o",
    )

    def __init__(self, options: dict[str, Any]) -> None:
        self.o = options
        self._marks = ""
        self._opening = ""
        self._bare_name = False  # a name beside a compact word: without a symbol it holds
        self._shift = 0
        #: a compact number's magnitude before it was divided by its power of ten
        self._unscaled: Decimal | None = None
        self._negative = False  # the number being formatted is negative: its rounding mode
        #: where the last parts' pieces stand, for formatRange (numberrange.py): the number's
        #: own parts (start, end, where its exponent starts), the unit's pattern around it,
        #: the rounded quantity
        self._layers: dict[str, Any] = {}

    def member(self, key: str) -> Any:
        if key == "format":
            return JsFunction("", lambda x=UNDEFINED, *_: self.format(x), arity=1)
        if key == "formatToParts":
            return JsFunction(key, lambda x=UNDEFINED, *_: self.parts_objects(x), arity=1)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: self.resolved(), arity=0)
        if key in ("formatRange", "formatRangeToParts"):
            # loaded on first use; it builds on this module
            numberrange = importlib.import_module("flowctx_core.expressions.js.intl.numberrange")
            method = numberrange.format_range if key == "formatRange" else numberrange.range_parts
            return JsFunction(key, lambda x=UNDEFINED, y=UNDEFINED, *_: method(self, x, y), arity=2)
        return None

    # --- options ----------------------------------------------------------------------------

    def resolved(self) -> dict[str, Any]:
        o = self.o
        out: dict[str, Any] = {"locale": o["locale"], "numberingSystem": o["numberingSystem"]}
        out["style"] = o["style"]
        if o["style"] == "currency":
            out["currency"] = o["currency"]
            out["currencyDisplay"] = o["currencyDisplay"]
            out["currencySign"] = o["currencySign"]
        if o["style"] == "unit":
            out["unit"] = o["unit"]
            out["unitDisplay"] = o["unitDisplay"]
        out["minimumIntegerDigits"] = o["mnid"]
        if o["mnsd"] is not None:
            out["minimumSignificantDigits"] = o["mnsd"]
            out["maximumSignificantDigits"] = o["mxsd"]
        if o["mnfd"] is not None:
            out["minimumFractionDigits"] = o["mnfd"]
            out["maximumFractionDigits"] = o["mxfd"]
        out["useGrouping"] = o["useGrouping"]
        out["notation"] = o["notation"]
        if o["notation"] == "compact":
            out["compactDisplay"] = o["compactDisplay"]
        out["signDisplay"] = o["signDisplay"]
        out["roundingMode"] = o["roundingMode"]
        out["roundingIncrement"] = o["roundingIncrement"]
        out["trailingZeroDisplay"] = o["trailingZeroDisplay"]
        out["roundingPriority"] = o["roundingPriority"]
        return out

    # --- formatting -------------------------------------------------------------------------

    def format(self, value: Any) -> str:
        return "".join(v for _, v in self.parts(value))

    def parts_objects(self, value: Any) -> list[dict[str, Any]]:
        # he's compact number's closing mark and the space before a name are one literal
        return [{"type": t, "value": v} for t, v in merged_literals(self.parts(value))]

    def parts(
        self, value: Any, approx: bool = False, ranged: bool = False
    ) -> list[tuple[str, str]]:
        """The parts of the number; ``approx``: as formatRange shows two ends that format
        alike (ICU's approximately sign where the sign goes, en's ~5, ~-5); ``ranged``: an
        end of a range, which V8 hands ICU as decimal digits, never as a double."""
        exact, x = _numeric(value)
        o = self.o
        double = not ranged and _read_as_double(value)
        if exact is not None and o["roundingIncrement"] not in (1, 5) and double:
            exact = _icu_double_digits(x)
        if o["style"] == "percent" and exact is not None:
            exact = exact.scaleb(2)
        negative = (
            x < 0 or (x == 0 and math.copysign(1.0, x) < 0)
            if exact is None
            else (exact.is_signed())
        )
        if exact is not None:
            exact = abs(exact)
        self._negative = bool(negative)
        body, is_zero = self._body(exact, x)
        sign = _sign(o["signDisplay"], negative, is_zero, x != x)
        signed = 1 if sign or approx else 0
        self._layers["quantity"] = (negative, self._layers["digits"])
        row = self._row()
        percent_unit = self._percent_unit()
        kind = {"decimal": "dec", "percent": "pct", "currency": "cur", "unit": "dec"}[o["style"]]
        if percent_unit:
            kind = "pct"
        template = row[kind][signed]
        by_name = kind == "cur" and o["currencyDisplay"] == "name"
        # a compact number by name: the name's pattern goes around the compact one (below)
        compact_name = by_name and o["notation"] == "compact" and exact is not None
        self._bare_name = False
        if by_name:
            self._category = self._category_of(body)
            self._layers["outer"] = self._category
        if by_name and not compact_name:
            template = self._name_patterns(self._category)[signed]
            if sign and _override(o["base"], o["numberingSystem"], o["posix"]).get("dec"):
                template = _without_own_marks(template, _number_row(o["base"])["dec"][1])
        own = self._own_currency_format()
        if own is not None and kind == "cur" and not by_name:
            template = own[signed]
        accounting = kind == "cur" and o["currencySign"] == "accounting" and not by_name
        if accounting:  # the locale's accounting patterns: en's ($1.00), nb's £ 1,00
            ov = _override(o["base"], o["numberingSystem"], o["posix"])
            rows = table("currencyAccounting")
            # a numbering system's own where it has them (de in arab: no parentheses)
            pair = ov.get("acc") or inherited(rows, o["base"]) or rows["en"]
            template = pair[{"+": 0, "-": 1}.get(sign or ("+" if approx else ""), 2)]
        if (sign or ("+" if approx else "")) == "+" and kind == "dec" and "plusAt" in row:
            template = row["plusAt"]
        if o["notation"] == "compact" and kind == "pct":
            # ICU's unit percent around the signed compact number (infinity: the plain one)
            number = row["dec"][signed] if exact is None else self._compact_template(signed)
            if approx:
                number = _with_approx(number, sign, self._symbol_marks())
            return self._compact_percent(number, body, sign, row)
        # a name goes around the compact number (1.2M euros), as a unit does
        inner = None
        if compact_name:
            # the sign is the compact pattern's (sw-CD's yuro elfu +1), around which the
            # name's pattern goes
            inner = self._compact_template(signed)
            compact_word = any(isinstance(p, list) for p in self._pattern[0])
            # pt-CV's names hold the symbol (1 € euro); ICU leaves it out beside a compact
            # word, not below a thousand (5 € euros)
            self._bare_name = compact_word and self._holds_symbol()
            template = self._name_patterns(self._category, compact_word)[0]
        if o["notation"] == "compact" and exact is not None and not by_name:
            compact = self._compact_template(signed)
            # accounting keeps its pattern where the magnitude has no compact part (en's ($5),
            # but -$5M)
            has_part = any(isinstance(p, list) for p in self._pattern[0])
            # a magnitude without a compact part keeps the currency's own pattern (en-CH's €12)
            if not ((accounting or own is not None) and not has_part):
                template = compact
        marks = self._symbol_marks()
        if approx and not sign and "plusAt" in row and template is row["plusAt"]:
            # the plus sign's own marks, where its pattern holds them (ckb in thai's U+200E+):
            # the approximately sign takes the symbol's place, marks and all
            marks = _marks_beside_sign(template)
        if approx and inner is not None:
            inner = _with_approx(inner, sign, marks)
        elif approx:
            template = _with_approx(template, sign, marks)
        out: list[tuple[str, str]] = []
        symbol = self._symbol() if kind == "cur" else ""
        sign_part = ("plusSign", row["plus"]) if sign == "+" else ("minusSign", row["minus"])
        for i, piece in enumerate(template):
            if piece is _APPROX:
                out.append(("approximatelySign", _approximately(o)))
            elif piece == 0 and inner is not None:
                for p in inner:
                    if p is _APPROX:
                        out.append(("approximatelySign", _approximately(o)))
                    elif p == 0:
                        self._layers["body"] = (len(out), len(out) + len(body))
                        out.extend(body)
                    elif p == 1:  # a sign inside a compact word (yrl's miliãu-ita)
                        out.append(sign_part)
                    elif isinstance(p, list):
                        out.append(("compact", p[0]))
                    else:
                        out.append(("literal", p))
                # fr's "mille" holds no digits: an empty number after its compact word
                self._layers.setdefault("body", (len(out), len(out)))
            elif piece == 0:
                self._layers["body"] = (len(out), len(out) + len(body))
                out.extend(body)
            elif piece == 1:
                # a name's pattern is the locale's: the marks a numbering system writes around
                # its signs (arab's U+061C, arabext's U+200E) come with the sign, as ICU's
                # symbol holds them
                before, after = self._sign_marks() if by_name else ("", "")
                if before:
                    out.append(("literal", before))
                out.append(sign_part)
                if after:
                    out.append(("literal", after))
            elif piece == 2:
                # no currency spacing beside a name (ja's 1.00スイス フラン)
                spaced = exact is not None and self._digit_class() and not by_name
                if self._opening:
                    out.append(("literal", self._opening))
                out.extend(_spaced(symbol, template, i, spaced))
                if self._marks:
                    out.append(("literal", self._marks))
            elif isinstance(piece, list):
                out.append(("compact", piece[0]))
            elif kind == "pct" and row["pctSign"] in piece:
                before, _, after = piece.partition(row["pctSign"])
                out.extend(
                    p
                    for p in (
                        ("literal", before),
                        ("unit" if percent_unit else "percentSign", row["pctSign"]),
                        ("literal", after),
                    )
                    if p[1]
                )
            else:
                out.append(("literal", piece))
        if o["style"] == "unit" and not percent_unit:
            return self._unit(out, body)
        return out

    def _own_currency_format(self) -> list[Any] | None:
        """The pattern and separators CLDR gives the currency in the locale, where they are not
        the locale's (en-CH's €1,234.50 against its US$ 1'234.50): [positive, signed, group,
        decimal] (scripts/intl_currency_formats.mjs)."""
        o = self.o
        if o["style"] != "currency":
            return None
        row = inherited(table("currencyFormats"), o["base"]) or {}
        own: list[Any] | None = row.get(o["currency"])
        plain = o["numberingSystem"] == _default_numbering(o["base"]) and not o["posix"]
        if own is None:
            # the locale's own pattern where its number row holds a currency's (en-CH's)
            pattern = row.get("")
            accounting = o["currencySign"] == "accounting"
            if pattern is not None and (accounting or not plain):
                raise Unsupported(
                    f"flowctx does not reproduce accounting or other digits' currencies"
                    f" in {o['base']!r} (its tables were measured through a currency with a"
                    " pattern of its own)"
                )
            simple = o["currencyDisplay"] != "name"
            if pattern is None or not plain or not simple:
                return None
            return [pattern[0], pattern[1], None, None]
        if not plain or o["currencyDisplay"] == "name" or o["currencySign"] == "accounting":
            raise Unsupported(
                f"flowctx does not reproduce {o['currency']} in {o['base']!r} in another"
                " numbering system, by name or in accounting (CLDR's own pattern for it)"
            )
        return own

    def _symbol_marks(self) -> tuple[str, str]:
        """The bidi marks the sign's symbol holds before and after it (ar's U+200E, ar-EG's
        U+061C), apart from the marks of the pattern around it."""
        o = self.o
        minus = numbered_shape(o["base"], o["numberingSystem"], o["posix"])[1]
        core = minus.strip(_BIDI_MARKS) or minus[-1:]
        at = minus.find(core)
        return minus[:at], minus[at + len(core) :]

    def _percent_unit(self) -> bool:
        """Whether V8 formats the unit as ICU's percent (percent and percent-per-Y, short and
        narrow): the locale's percent pattern, unscaled, its sign a unit part (eu's −% 2)."""
        o = self.o
        return (
            o["style"] == "unit"
            and o["unitDisplay"] != "long"
            and o["unit"].partition("-per-")[0] == "percent"
            and not (o["notation"] == "compact" and "-per-" in o["unit"])
        )

    def _unit(
        self, number: list[tuple[str, str]], body: list[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        """The signed number inside the unit's pattern for its plural category; a pattern
        without the number (ar's one acre) is the unit alone."""
        o = self.o
        compact_percent = None
        if o["notation"] == "compact" and o["unit"].startswith("percent-per-"):
            ov = _override(o["base"], o["numberingSystem"], o["posix"])
            if "pct" in ov or "pctSign" in ov:
                raise Unsupported(
                    "flowctx does not reproduce compact percents in a numbering system with"
                    " percent patterns of its own"
                )
            before, after = inherited(table("compactPercent"), o["base"]) or ([], [["", "%"]])
            compact_percent = "".join(v for _, v in before) + "{0}" + "".join(v for _, v in after)
        found = units.pattern(
            o["base"], o["unit"], o["unitDisplay"], self._category_of(body), compact_percent
        )
        before, placeholder, after = found.partition("{0}")
        self._layers["outer"] = self._category_of(body)
        self._layers["number"] = number
        if not placeholder:
            return units.affix_parts(found)
        return merged_literals(units.affix_parts(before) + number + units.affix_parts(after))

    def _compact_percent(
        self, compact: list[Any], body: list[tuple[str, str]], sign: str, row: dict[str, Any]
    ) -> list[tuple[str, str]]:
        """A compact percent: ICU formats it as the unit percent, whose pattern (de's 50 %
        with a plain space, tr's %-12 B) goes around the signed compact number
        (scripts/intl_compact_percent.mjs)."""
        o = self.o
        ov = _override(o["base"], o["numberingSystem"], o["posix"])
        if "pct" in ov or "pctSign" in ov:
            raise Unsupported(
                "flowctx does not reproduce compact percents in a numbering system with percent"
                " patterns of its own"
            )
        before, after = inherited(table("compactPercent"), o["base"]) or ([], [["unit", "%"]])
        out: list[tuple[str, str]] = [(t, v) for t, v in before]
        for piece in compact:
            if piece is _APPROX:
                out.append(("approximatelySign", _approximately(o)))
            elif piece == 0:
                self._layers["body"] = (len(out), len(out) + len(body))
                out.extend(body)
            elif piece == 1:
                out.append(
                    ("plusSign", row["plus"]) if sign == "+" else ("minusSign", row["minus"])
                )
            elif isinstance(piece, list):
                out.append(("compact", piece[0]))
            else:
                out.append(("literal", piece))
        out.extend((t, v) for t, v in after)
        # the percent is ICU's outer modifier here (formatRange says it once)
        self._layers["affixes"] = ([(t, v) for t, v in before], [(t, v) for t, v in after])
        return out

    def _sign_marks(self) -> tuple[str, str]:
        """The bidi marks a numbering system writes before and after a sign in its own
        patterns (arab's U+061C before, arabext's U+200E on both sides), or empty."""
        ov = _override(self.o["base"], self.o["numberingSystem"], self.o["posix"])
        dec = ov.get("dec")
        return _marks_around_sign(dec[1] if isinstance(dec, list) and len(dec) > 1 else [])

    def _row(self) -> dict[str, Any]:
        """The locale's number row, with what its numbering system changes."""
        row = _number_row(self.o["base"])
        ov = _override(self.o["base"], self.o["numberingSystem"], self.o["posix"])
        if not ov:
            return row
        if self.o["notation"] == "compact" and (ov.get("compact")):
            raise Unsupported(
                f"flowctx does not reproduce compact notation in the numbering system"
                f" {self.o['numberingSystem']!r} of {self.o['base']!r}"
            )
        return {**row, **{k: ov[k] for k in _ROW_KEYS if k in ov}}

    def _category_of(self, body: list[tuple[str, str]]) -> str:
        """The plural category of the number as shown (a currency's name and a unit agree
        with it), at its whole magnitude: scientific 1E3 is a thousand to ICU's plural rules
        (fr's 1 k mètres). A compact number's unit or name agrees with the number before it
        was divided, rounded as the options round it: ICU chooses the unit's words before
        the compact step scales the number (ru's 1,2 тыс. л. is 1235 years, "many"; with two
        fraction digits 1234.57, "other": 1,23 тыс. г.)."""
        if self._unscaled is not None:
            from flowctx_core.expressions.js import intl

            whole, fraction = self._rounded(self._unscaled)
            found: str = intl.service("plural").cardinal_category(
                self.o["base"], int(whole), fraction, 0
            )
            return found
        digits = table("numberingDigits")[self.o["numberingSystem"]]
        back = str.maketrans(digits, "0123456789")
        whole = "".join(v for k, v in body if k == "integer").translate(back)
        fraction = "".join(v for k, v in body if k == "fraction").translate(back)
        if not whole.isdigit() or (fraction and not fraction.isdigit()):
            return "other"  # NaN, infinity
        if self._shift:
            with localcontext() as ctx:
                ctx.prec = 400
                shown = Decimal(whole + ("." + fraction if fraction else ""))
                whole, _, fraction = f"{shown.scaleb(self._shift):f}".partition(".")
        from flowctx_core.expressions.js import intl

        category: str = intl.service("plural").cardinal_category(
            self.o["base"], int(whole), fraction, self._shift
        )
        return category

    def _digit_class(self) -> bool:
        """Whether the digits are decimal digits to ICU's currency spacing (Han digits are
        letters: no space beside a currency code)."""
        digits = table("numberingDigits")[self.o["numberingSystem"]]
        return unicodedata.category(digits[0]) == "Nd"

    def _symbol(self, display: str | None = None) -> str:
        """The currency as the display shows it; ``display``: another display's, read
        without the marks it writes beside itself (a name's symbol, pt-CV's €)."""
        code = self.o["currency"]
        shown = display is None
        display = display or self.o["currencyDisplay"]
        if display == "code" or code not in table("currencyBase"):
            return str(code)  # a currency ICU does not know is shown by its code
        if display == "name":
            return self._name()
        found = _inherited_key(table("currencySymbols"), self.o["base"], code)
        entry = found if found is not None else table("currencyBase")[code]
        sym = entry[0] or code
        narrow = display == "narrowSymbol"
        if len(entry) > 2 and shown:  # a right-to-left symbol's closing mark, outside its part
            self._marks = entry[3] if narrow else entry[2]
        if len(entry) > 4 and shown:  # and its opening mark (he's U+200E before CN¥)
            self._opening = entry[5] if narrow else entry[4]
        return str(entry[1] or sym) if narrow else str(sym)

    def name_affixes(self, category: str) -> tuple[list[Any], list[Any]]:
        """The parts a currency's name puts before and after the number in a plural category
        (formatRange says it once, in the range's category)."""
        self._category = category
        template = self._name_patterns(category, self._bare_name)[0]
        pieces = [("currency", self._name()) if p == 2 else ("literal", p) for p in template]
        at = template.index(0)
        return pieces[:at], pieces[at + 1 :]

    def _name_patterns(self, category: str, compact_word: bool = False) -> list[Any]:
        """The locale's patterns of a currency's name in a plural category (positive, signed);
        beside a compact word, en-AT's are its language's (21K euros), and a name without the
        symbol it holds has its language's plain space (pt-CV's 1 mil euros)."""
        base = self.o["base"]
        if self._named_around() and not compact_word:
            # tr's ₺1,00 Türk lirası, en-150's € 1,00 euros: as below, for one currency (beside
            # a compact word its name alone, 1,2 B Türk lirası)
            raise Unsupported(
                f"flowctx does not reproduce the name of {self.o['currency']} in {base!r}, where"
                " ICU writes the currency's symbol and its name around the number"
            )
        patterns = _inherited_key(table("currencyNamePatterns"), base, category)
        if patterns is None:
            patterns = _inherited_key(table("currencyNamePatterns"), base, "other")
        if self._bare_name:
            patterns = [[" " if p == "\xa0" else p for p in t] for t in patterns]
        if patterns[0].count(2) > 1 and compact_word:
            return [p[p.index(0) :] for p in patterns]
        if patterns[0].count(2) > 1:
            # en-AT's € 1,00 euros: ICU writes the symbol before the number and the name
            # after it, and garbles the text where the symbol is longer than one character
            # (en-NL's "AED 1.0 UAE dirhams0", "AED  UAE dirhams5")
            raise Unsupported(
                f"flowctx does not reproduce currency names in {base!r}, where ICU writes the"
                " currency's symbol and its name around the number"
            )
        return list(patterns)

    def _name(self, whole: bool = False) -> str:
        """The currency's name in the plural category; ``whole``: with the symbol some
        locales' names hold (pt-CV's € euro), which ICU leaves out beside a compact word."""
        names = _inherited_key(table("currencyNames"), self.o["base"], self.o["currency"]) or {}
        name = str(names.get(self._category) or names.get("other") or self.o["currency"])
        if self._bare_name and not whole:
            symbol = self._symbol("symbol")
            name = name[len(symbol) :]
            name = name[1:] if name[:1] in (" ", "\xa0") else name
        return name

    def _named_around(self) -> bool:
        """Whether the locale writes this currency's name with its symbol before the number
        where its other names have none (tr's TRY: tables/currencynames)."""
        around = inherited(table("currencyNamesAround"), self.o["base"]) or ()
        return self.o["currency"] in around

    def _holds_symbol(self) -> bool:
        """Whether the locale's name of the currency holds its symbol: pt-CV's 1 € euro, or
        en-AT's, whose name patterns write the symbol too and whose table holds symbol and
        name as one (€euros), or tr's of TRY alone."""
        symbol = self._symbol("symbol")
        name = self._name(whole=True)
        raw = _inherited_key(table("currencyNamePatterns"), self.o["base"], "other")
        joined = raw is not None and raw[0].count(2) > 1
        # (tr's Türk lirası alike, for its one currency: ₺Türk lirası in the table)
        joined = joined or self._named_around()
        after = name[len(symbol) : len(symbol) + 1]
        return name.startswith(symbol) and (joined or after in (" ", "\xa0"))

    def _body(self, exact: Decimal | None, x: float) -> tuple[list[tuple[str, str]], bool]:
        """The number's own parts (no sign, no affixes), and whether it rounded to zero."""
        o = self.o
        self._shift = 0
        self._unscaled = None
        self._layers = {"digits": ("nan",) if x != x else ("infinity",)}
        shape = numbered_shape(o["base"], o["numberingSystem"], o["posix"])
        digits, _minus, group, point, primary, secondary, min_group, nan, infinity = shape
        row = self._row()
        if o["style"] == "currency":  # names too (de-AT groups money apart)
            group, point = row["curGroup"] or group, row["curDecimal"] or point
            own = self._own_currency_format()
            if own is not None and own[2] is not None:
                group, point = own[2], own[3]
        kind = {"decimal": 0, "percent": 1, "currency": 2, "unit": 0}[o["style"]]
        if self._percent_unit():
            kind = 1
        if o["style"] == "currency" and o["currencyDisplay"] == "name":
            kind = 0  # a name's pattern is the decimal one (en-US-u-va-posix in arab: ungrouped)
        if o["notation"] == "compact" and kind == 1:
            kind = 0  # a compact percent groups as the decimal pattern (or's 1,00,00,000)
        primary, secondary = row["sizes"][kind]
        sizes = _accounting_sizes(o)
        if sizes is not None:  # en-IN's accounting pattern groups by three
            primary, secondary = sizes
            ov = _override(o["base"], o["numberingSystem"], o["posix"])
            group = ov.get("accGroup") or group  # en-US-u-va-posix's, grouped there alone
            if "accMin2" in ov:
                min_group = 2 if ov["accMin2"] else 1
        if exact is None:
            # dz's word for infinity is an integer part to V8; ∞ and en-US-u-va-posix's INF are
            # infinity parts (measured)
            named = "infinity" if infinity == "\u221e" or infinity.isascii() else "integer"
            return ([("nan", nan)] if x != x else [(named, infinity)]), False
        exponent: int | None = None
        if o["notation"] == "compact":
            whole, fraction = self._compact(exact)
        elif o["notation"] in ("scientific", "engineering"):
            whole, fraction, exponent = self._scientific(exact)
            self._shift = exponent
        else:
            whole, fraction = self._rounded(exact)
        is_zero = set(whole + fraction) <= {"0"}
        self._layers["digits"] = (whole.lstrip("0"), fraction.rstrip("0"), self._shift)
        whole = whole.zfill(o["mnid"])
        grouping = o["useGrouping"]
        out: list[tuple[str, str]] = []
        if grouping == "always" and (primary == 0 or primary >= 1000):
            primary = secondary = 3  # a pattern without grouping: ICU groups by three
        if grouping is False or len(whole) <= primary:
            groups = [whole]
        elif grouping == "always" or len(whole) >= primary + (
            # the digits before the first group: the locale's (ee's three), at least two for
            # min2 (compact's own); padding zeros count (00,999)
            min_group if grouping == "auto" else max(min_group, 2)
        ):
            groups = [whole[-primary:]]
            rest = whole[:-primary]
            while rest:
                groups.append(rest[-secondary:])
                rest = rest[:-secondary]
            groups.reverse()
        else:
            groups = [whole]
        table = str.maketrans("0123456789", digits)
        for i, g in enumerate(groups):
            if i:
                out.append(("group", group))
            out.append(("integer", g.translate(table)))
        if fraction:
            out.append(("decimal", point))
            out.append(("fraction", fraction.translate(table)))
        if exponent is not None:
            out.append(("exponentSeparator", row["exp"]))
            if exponent < 0:  # the sign may stand between direction marks (ar, arabext)
                minus = row["expMinus"]
                core = minus.strip(_BIDI_MARKS) or minus[-1]
                at = minus.find(core)
                if minus[:at]:
                    out.append(("literal", minus[:at]))
                out.append(("exponentMinusSign", core))
                if minus[at + len(core) :]:
                    out.append(("literal", minus[at + len(core) :]))
            out.append(("exponentInteger", _exponent_digits(abs(exponent), table)))
        return out, is_zero

    def _rounded(self, d: Decimal) -> tuple[str, str]:
        """The digits of ``d`` (its magnitude) rounded as the options ask: to significant or
        fraction digits, or the more or less precise of the two (roundingPriority, compact's
        own), in the rounding mode (for the number's sign) and increment."""
        o = self.o
        mode = _UNSIGNED_MODES[o["roundingMode"]][self._negative]
        kind = o["roundingType"]
        with localcontext() as ctx:
            ctx.prec = 400
            if kind == "significantDigits":
                whole, fraction, _ = _raw_precision(d, o["mnsd"], o["mxsd"], mode)
            elif kind == "fractionDigits":
                whole, fraction, _ = _raw_fixed(
                    d, o["mnfd"], o["mxfd"], o["roundingIncrement"], mode
                )
            else:
                by_digits = _raw_precision(d, o["mnsd"], o["mxsd"], mode)
                by_fraction = _raw_fixed(d, o["mnfd"], o["mxfd"], o["roundingIncrement"], mode)
                finer = by_digits[2] <= by_fraction[2]
                chosen = by_digits if finer == (kind == "morePrecision") else by_fraction
                whole, fraction, _ = chosen
        if o["trailingZeroDisplay"] == "stripIfInteger" and set(fraction) <= {"0"}:
            fraction = ""
        return whole.lstrip("0") or "0", fraction

    def _compact(self, d: Decimal) -> tuple[str, str]:
        """The number divided by its magnitude's power of ten and rounded (a second time when
        rounding carried it into the next magnitude: 999,999 is 1M); the pattern is kept for
        the template."""
        _no_scaled_increment(self.o)
        self._unscaled = d
        by_name = self.o["currencyDisplay"] == "name"
        if self.o["style"] == "currency" and not by_name:
            # one display: ICU has no long currency patterns
            rows = table("compactCurrency")
            magnitudes = inherited(rows, self.o["base"]) or rows["en"]
        else:
            table_ = inherited(table("compacts"), self.o["base"]) or table("compacts")["en"]
            magnitudes = table_[self.o["compactDisplay"]]
        top = len(magnitudes) - 1
        k = d.adjusted() if d != 0 else 0
        for _ in range(2):
            # past the largest magnitude ICU keeps its pattern: 1e21 is 1,000,000,000T
            exp, patterns = magnitudes[min(max(k, 0), top)]
            whole, fraction = self._rounded(d.scaleb(-exp))
            self._shift = exp
            shown = Decimal(whole + ("." + fraction if fraction else "")).scaleb(exp)
            if shown == 0 or shown.adjusted() <= k:
                break
            k = shown.adjusted()
        from flowctx_core.expressions.js import intl

        # plural rules build on this module: reached through the loader, not imported back
        category = intl.service("plural").cardinal_category(self.o["base"], int(whole), fraction)
        found = None
        one = patterns.get("=1")
        # the table's "=1" is what node wrote for exactly 1: a pattern of its own where it
        # differs from the category one's (fr's mille, not 1 millier), which ICU uses for
        # every value one (fr's 1,0 K is "mille" too); else the category one's, measured at 1
        # alone (ru's 1,0 тысячи is "other", lt's 21 tūkstantis "one")
        own = one is not None and "one" in patterns and patterns["one"] != one
        if own and one is not None:
            # -1 is not one to ICU (fr's -1 millier: the category's pattern); a shown plus
            # goes before the own pattern (+mille)
            if whole == "1" and set(fraction) <= {"0"} and not self._negative:
                found = [one[0], [1, *one[0]]]
        elif whole == "1" and not fraction:
            found = one
        if category == "one" and "one" not in patterns:
            found = found or one
        found = found or patterns.get(category) or patterns.get("other")
        if found is None and exp == 0 and patterns:
            # below the first compact magnitude every category has the plain pattern (measured
            # alike in every locale); lt's and ro's rows name only those their samples met
            found = next(iter(patterns.values()))
        if found is None:
            raise Unsupported("flowctx does not reproduce this compact pattern")
        self._pattern = found
        return whole, fraction

    def _compact_template(self, signed: int) -> list[Any]:
        pattern = list(self._pattern[signed])
        ov = _override(self.o["base"], self.o["numberingSystem"], self.o["posix"])
        plain = not any(isinstance(piece, list) for piece in pattern)
        money = self.o["style"] == "currency" and self.o["currencyDisplay"] != "name"
        if money and "cur" in ov and plain:
            # no compact part (a number below a thousand): the numbering system's own money
            # pattern (en-US-u-va-posix's ¤ 0, fa in latn's)
            return list(ov["cur"][signed])
        if signed and "dec" in ov:
            # the numbering system's own marks around the sign (arabext's), as in its
            # plain pattern
            own = _number_row(self.o["base"])["dec"][1]
            old, new = own[: own.index(0)], ov["dec"][1][: ov["dec"][1].index(0)]
            if pattern[: len(old)] == old:
                pattern[: len(old)] = new
        return pattern

    def _scientific(self, d: Decimal) -> tuple[str, str, int]:
        _no_scaled_increment(self.o)
        step = 3 if self.o["notation"] == "engineering" else 1
        if d == 0:
            whole, fraction = self._rounded(d)
            return whole, fraction, 0
        exponent = d.adjusted() // step * step
        for _ in range(2):
            whole, fraction = self._rounded(d.scaleb(-exponent))
            if len(whole) <= step:
                return whole, fraction, exponent
            exponent += step
        return whole, fraction, exponent


#: each roundingMode's rounding of a magnitude: (for a positive number, for a negative one)
_UNSIGNED_MODES: Final = {
    "ceil": (ROUND_UP, ROUND_DOWN), "floor": (ROUND_DOWN, ROUND_UP),
    "expand": (ROUND_UP, ROUND_UP), "trunc": (ROUND_DOWN, ROUND_DOWN),
    "halfCeil": (ROUND_HALF_UP, ROUND_HALF_DOWN), "halfFloor": (ROUND_HALF_DOWN, ROUND_HALF_UP),
    "halfExpand": (ROUND_HALF_UP, ROUND_HALF_UP), "halfTrunc": (ROUND_HALF_DOWN, ROUND_HALF_DOWN),
    "halfEven": (ROUND_HALF_EVEN, ROUND_HALF_EVEN),
}  # fmt: skip


def _raw_precision(d: Decimal, least: int, most: int, mode: str) -> tuple[str, str, int]:
    """ToRawPrecision: ``d`` to ``most`` significant digits, trailing fraction zeros dropped
    down to ``least`` digits; and the magnitude of its last digit."""
    if d == 0:
        return "0", "0" * (least - 1), 1 - most
    q = d.quantize(Decimal(1).scaleb(d.adjusted() - most + 1), rounding=mode)
    whole, _, fraction = f"{q:f}".partition(".")
    fraction = fraction.rstrip("0")
    count = len((whole + fraction).lstrip("0"))
    if count < least:
        fraction += "0" * (least - count)
    return whole, fraction, q.adjusted() - most + 1


def _raw_fixed(
    d: Decimal, least: int, most: int, increment: int, mode: str
) -> tuple[str, str, int]:
    """ToRawFixed: ``d`` to a multiple of ``increment`` units of the ``most``-th fraction
    digit, trailing fraction zeros dropped down to ``least``; and the magnitude -most."""
    step = Decimal(increment).scaleb(-most)
    q = ((d / step).to_integral_value(rounding=mode) * step).quantize(Decimal(1).scaleb(-most))
    whole, _, fraction = f"{q:f}".partition(".")
    stripped = fraction.rstrip("0")
    return whole, (stripped if len(stripped) >= least else fraction[:least]), -most


def _no_scaled_increment(o: dict[str, Any]) -> None:
    if o["roundingIncrement"] != 1:
        raise Unsupported(
            "flowctx does not reproduce a roundingIncrement in compact, scientific or "
            "engineering notation (ICU rounds the scaled digits otherwise)"
        )


def merged_literals(parts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Adjacent literals as one part: V8's literals are the gaps between ICU's fields (ko's
    space before the number's own right-to-left mark)."""
    out: list[tuple[str, str]] = []
    for kind, text in parts:
        if kind == "literal" and out and out[-1][0] == "literal":
            out[-1] = ("literal", out[-1][1] + text)
        else:
            out.append((kind, text))
    return out


#: where the approximately sign goes in a template (formatRange's ~5)
_APPROX: Final = object()


def range_row(locale: str) -> dict[str, Any]:
    """The locale's row of range patterns (scripts/intl_ranges.mjs), its parents' else en's."""
    rows = table("ranges")
    found: dict[str, Any] = inherited(rows, locale) or rows["en"]
    return found


def _marks_beside_sign(template: list[Any]) -> tuple[str, str]:
    """The bidi marks right before and after a template's sign."""
    at = template.index(1)
    head = template[at - 1] if at and isinstance(template[at - 1], str) else ""
    tail = template[at + 1] if at + 1 < len(template) and isinstance(template[at + 1], str) else ""
    before = head[len(head.rstrip(_BIDI_MARKS)) :]
    return before, tail[: len(tail) - len(tail.lstrip(_BIDI_MARKS))]


def _approximately(o: dict[str, Any]) -> str:
    """The locale's approximately sign (en's ~, de's ≈), or its numbering system's (the
    root's ~ in arab and arabext: de's ≈ is ~ there)."""
    own = _override(o["base"], o["numberingSystem"], o["posix"]).get("approx")
    return str(own if own is not None else range_row(o["base"])["approx"])


def _with_approx(template: list[Any], sign: str, marks: tuple[str, str]) -> list[Any]:
    """The signed template with the approximately sign right before the sign's symbol, the
    marks it holds included (ar's \u200f~\u200e-5.00 €); without a sign the symbol's marks go
    too, the pattern's stay (ar's \u200f~5.00 €). A template without a sign (en's accounting
    ($5.00)) has no place for it; each place a sign has gets one (yrl's ~1 miliãu~ita)."""
    if 1 not in template:
        return template
    at = template.index(1)
    before, after = marks
    head, tail = list(template[:at]), list(template[at + 1 :])
    own_before = own_after = ""
    if before and head and isinstance(head[-1], str) and head[-1].endswith(before):
        own_before, head[-1] = before, head[-1][: -len(before)]
    if after and tail and isinstance(tail[0], str) and tail[0].startswith(after):
        own_after, tail[0] = after, tail[0][len(after) :]
    sign_pieces = [own_before, 1, own_after] if sign else []
    rest = _with_approx(tail, sign, marks)
    return [p for p in [*head, _APPROX, *sign_pieces, *rest] if p != ""]


_DECIMAL_LITERAL: Final = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\Z")


_JS_SPACE: Final = " \t\n\r\v\f\u00a0\ufeff\u2028\u2029"


def _read_as_double(value: Any) -> bool:
    """Whether format reads the value as a double (not a BigInt, nor a decimal text)."""
    if getattr(value, "big", None) is not None:
        return False
    return not (isinstance(value, str) and _DECIMAL_LITERAL.match(value.strip(_JS_SPACE)))


def _icu_double_digits(x: float) -> Decimal:
    """The digits ICU keeps of a double before it rounds to an increment other than 1 or 5:
    its fast conversion (the double times a power of ten, in doubles, rounded to an integer),
    not the shortest digits that read back as the double, which its other roundings use.
    They differ in the last digits: 1e17 + 24 is 100000000000000040 to it (node writes
    ...050 with an increment of 25, ...030 without one)."""
    n = abs(x)
    if n == 0:
        return Decimal(repr(x))  # -0 keeps its sign
    exponent = math.frexp(n)[1] - 1
    if exponent <= 52 and n == int(n):
        d = Decimal(int(n))
    elif exponent <= -1023 or exponent >= 1024:  # subnormal: ICU's slow, exact path
        d = Decimal(repr(n))
    else:
        frac = int((52 - exponent) / 3.32192809488736234787031942948939017586)  # log2(10)
        i = frac
        if frac >= 0:
            while i >= 22:
                n *= 1e22
                i -= 22
            n *= float(10**i)
        else:
            while i <= -22:
                n /= 1e22
                i += 22
            n /= float(10**-i)
        d = Decimal(math.floor(n + 0.5)).scaleb(-frac)
    return -d if x < 0 or (x == 0 and math.copysign(1.0, x) < 0) else d


def _numeric(value: Any) -> tuple[Decimal | None, float]:
    """The value format reads: an exact decimal (strings keep all their digits, as V8's
    format does), or None with NaN or an infinity."""
    big = getattr(value, "big", None)
    if big is not None:
        return Decimal(big), float(1 if big >= 0 else -1)
    if isinstance(value, str):
        text = value.strip(_JS_SPACE)
        if _DECIMAL_LITERAL.match(text):
            d = Decimal(text)
            return d, -1.0 if d.is_signed() else 1.0
    x = to_number(value)
    if x != x or x in (math.inf, -math.inf):
        return None, float(x)
    if type(x) is float:
        return Decimal(repr(x)), x
    return Decimal(x), float(x)


def _sign(display: str, negative: bool, zero: bool, nan: bool) -> str:
    if display == "never":
        return ""
    if display == "auto":
        return "-" if negative and not nan else ""
    if display == "always":
        return "-" if negative and not nan else "+"
    if display == "exceptZero":
        if zero or nan:
            return ""
        return "-" if negative and not nan else "+"
    # negative
    return "-" if negative and not zero and not nan else ""


#: ICU's currency spacing (one object: formatRange tells it from the pattern's own literals)
SPACING: Final = ("literal", "\u00a0")


def _spaced(symbol: str, template: list[Any], i: int, digits: bool) -> list[tuple[str, str]]:
    """ICU's currency spacing: a symbol that ends (or starts) with a letter next to decimal
    digits is set apart by a no-break space."""

    def plain(c: str) -> bool:
        return unicodedata.category(c)[0] not in "SZ"

    parts = [("currency", symbol)]
    if not digits:  # NaN, infinity: no digit beside the symbol
        return parts
    if i + 1 < len(template) and template[i + 1] == 0 and symbol and plain(symbol[-1]):
        parts.append(SPACING)
    if i > 0 and template[i - 1] == 0 and symbol and plain(symbol[0]):
        parts.insert(0, SPACING)
    return parts


# --- the constructor -------------------------------------------------------------------------


def construct(
    locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any, service: str = SERVICE
) -> NumberFormat:
    """``new Intl.NumberFormat``; ``service`` names the caller in V8's errors
    (Number.prototype.toLocaleString)."""
    return NumberFormat(read_options(locales, options, service))


@functools.cache
def _default_numbering(locale: str) -> str:
    digits = number_shape(locale)[0]
    found = _NUMBERING.get(digits[0])
    if found is None:
        found = next((k for k, v in table("numberingDigits").items() if v == digits), None)
    if found is None:
        raise Unsupported(f"flowctx does not reproduce the numbering system of {locale!r}")
    return found


def numbering(base: str, keywords: dict[str, str], option: Any) -> tuple[str, dict[str, str]]:
    """The numbering system ResolveLocale and the option choose, and the keywords the locale
    keeps: the option wins (and drops a different -u-nu-), a system V8 does not take (an
    algorithmic one, a name ICU does not have) is the locale's own."""
    kept = {k: v for k, v in keywords.items() if k == "va"}
    asked = keywords.get("nu")
    if option is not UNDEFINED:
        if asked == option and decimal_system(option):
            kept["nu"] = option
        return (option if decimal_system(option) else _default_numbering(base)), kept
    if asked is not None and decimal_system(asked):
        kept["nu"] = asked
        return asked, kept
    return _default_numbering(base), kept


def read_options(locales: Any, options: Any, service: str = SERVICE) -> dict[str, Any]:
    from flowctx_core.expressions.js.intl.locales import canonical_list

    requested = canonical_list(locales)
    if options is None:
        raise JsError(f"{service} called on null or undefined")
    opts = coerce_options(options)

    def option(name: str, allowed: tuple[str, ...] | None, default: Any) -> Any:
        return get_option(opts, name, "string", allowed, default, service)

    option("localeMatcher", ("lookup", "best fit"), "best fit")
    nu = option("numberingSystem", None, UNDEFINED)
    if nu is not UNDEFINED and not _WELL_FORMED_NU.match(nu):
        raise JsError(f"Invalid numberingSystem : {nu}")
    base, found = resolve_keywords("number", requested)
    style = option("style", ("decimal", "percent", "currency", "unit"), "decimal")
    currency = option("currency", None, UNDEFINED)
    if currency is not UNDEFINED and not re.fullmatch(r"[A-Za-z]{3}", currency):
        raise JsError(f"Invalid currency code : {currency}")
    if style == "currency" and currency is UNDEFINED:
        raise JsError("Currency code is required with currency style.")
    currency_display = option(
        "currencyDisplay", ("code", "symbol", "narrowSymbol", "name"), "symbol"
    )
    currency_sign = option("currencySign", ("standard", "accounting"), "standard")
    unit = option("unit", None, UNDEFINED)
    if unit is not UNDEFINED and not units.well_formed(unit):
        raise JsError(f"Invalid unit argument for {service}() '{unit}'")
    if style == "unit" and unit is UNDEFINED:
        raise JsError(f"Invalid unit argument for {service}() ''")
    unit_display = option("unitDisplay", ("short", "narrow", "long"), "short")
    if currency is not UNDEFINED:
        currency = currency.upper()
    # V8 11.3 reads and checks roundingIncrement here, before notation and the digits (an
    # increment of 3 fails before a minimumIntegerDigits of 22 or a notation of "x" would)
    increment = get_number_option(opts, "roundingIncrement", 1, 5000, 1)
    if increment not in _INCREMENTS:
        raise JsError("roundingIncrement value is out of range.")
    notation = option("notation", ("standard", "scientific", "engineering", "compact"), "standard")
    o: dict[str, Any] = {"locale": base, "numberingSystem": "", "style": style,
                         "currency": currency, "currencyDisplay": currency_display,
                         "currencySign": currency_sign, "unit": unit,
                         "unitDisplay": unit_display, "notation": notation}  # fmt: skip
    _digit_options(opts, o, service, increment=increment)
    o["compactDisplay"] = option("compactDisplay", ("short", "long"), "short")
    o["useGrouping"] = _use_grouping(opts, "min2" if notation == "compact" else "auto", service)
    o["signDisplay"] = option(
        "signDisplay", ("auto", "never", "always", "exceptZero", "negative"), "auto"
    )
    o["roundingMode"] = option(
        "roundingMode",
        ("ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand",
         "halfTrunc", "halfEven"),
        "halfExpand",
    )  # fmt: skip
    if o["signDisplay"] == "never":  # ICU has no accounting form without signs: V8 says so
        o["currencySign"] = "standard"
    o["numberingSystem"], kept = numbering(base, found, nu)
    o["base"], o["locale"] = base, with_keywords(base, kept)
    o["posix"] = base == "en-US" and kept.get("va") == "posix"
    return o


def _digit_options(opts: Any, o: dict[str, Any], service: str = SERVICE,
                   plural: bool = False, increment: int = 1) -> None:  # fmt: skip
    """SetNumberFormatDigitOptions (ECMA-402 2023), as V8 11.3 reads and checks them: the
    digits, roundingPriority, the digits resolved, the checks of the increment (NumberFormat's
    only, read by its constructor before notation), trailingZeroDisplay (NumberFormat's);
    roundingMode is read later, by the constructor."""
    style, notation = o["style"], o["notation"]
    if style == "currency":  # compact too, where fraction digits are asked
        mnfd_default = currency_digits(o["currency"])
        mxfd_default = mnfd_default
    else:
        mnfd_default = 0
        mxfd_default = 0 if style == "percent" else 3
    mnid = get_number_option(opts, "minimumIntegerDigits", 1, 21, 1)
    mnfd = read(opts, "minimumFractionDigits")
    mxfd = read(opts, "maximumFractionDigits")
    mnsd = read(opts, "minimumSignificantDigits")
    mxsd = read(opts, "maximumSignificantDigits")
    if plural:
        increment = 1
    priority = get_option(opts, "roundingPriority", "string",
                          ("auto", "morePrecision", "lessPrecision"), "auto",
                          "SetNumberFormatDigitOptions")  # fmt: skip
    if increment != 1:
        mxfd_default = mnfd_default
    has_sd = mnsd is not UNDEFINED or mxsd is not UNDEFINED
    has_fd = mnfd is not UNDEFINED or mxfd is not UNDEFINED
    need_sd = need_fd = True
    if priority == "auto":
        need_sd = has_sd
        if need_sd or (not has_fd and notation == "compact"):
            need_fd = False
    o.update(mnid=mnid, mnsd=None, mxsd=None, mnfd=None, mxfd=None)
    if need_sd:
        if has_sd:
            o["mnsd"] = number_option(mnsd, "minimumSignificantDigits", 1, 21, 1)
            o["mxsd"] = number_option(mxsd, "maximumSignificantDigits", o["mnsd"], 21, 21)
        else:
            o.update(mnsd=1, mxsd=21)
    if need_fd:
        if has_fd:
            lo = number_option(mnfd, "minimumFractionDigits", 0, 20, None)
            hi = number_option(mxfd, "maximumFractionDigits", 0, 20, None)
            if lo is None:
                lo = min(mnfd_default, hi)
            elif hi is None:
                hi = max(mxfd_default, lo)
            elif lo > hi:
                raise JsError("maximumFractionDigits value is out of range.")
            o.update(mnfd=lo, mxfd=hi)
        else:
            o.update(mnfd=mnfd_default, mxfd=mxfd_default)
    if not need_sd and not need_fd:  # compact's own: the more precise of 1-2 digits and 0
        o.update(mnsd=1, mxsd=2, mnfd=0, mxfd=0, compactRounding=True)
        kind = "morePrecision"
    elif priority == "auto":
        kind = "significantDigits" if need_sd else "fractionDigits"
    else:
        kind = priority
    if increment != 1:
        if kind != "fractionDigits":
            raise JsError("RoundingType is not fractionDigits")
        if o["mxfd"] != o["mnfd"]:
            raise JsError("maximumFractionDigits not equal to minimumFractionDigits")
    trailing = "auto"
    if not plural:
        trailing = get_option(
            opts, "trailingZeroDisplay", "string", ("auto", "stripIfInteger"), "auto", service
        )
    if o.get("compactRounding") and trailing == "auto":
        # what V8 reports for compact's own rounding (with stripIfInteger it reports auto)
        priority = "morePrecision"
    elif trailing == "stripIfInteger":
        priority = "auto"  # V8 reads it back from ICU's settings, where it is lost then

    o.update(roundingType=kind, roundingMode="halfExpand", roundingIncrement=increment,
             roundingPriority=priority, trailingZeroDisplay=trailing)  # fmt: skip


def _exponent_digits(exponent: int, table: dict[int, Any]) -> str:
    """An exponent's digits as ICU writes them: from the last, each inserted in UTF-16 code
    units at its running position less the digits before it, so a system with astral digits
    (mathbold) gets each next digit inside the previous one's surrogate pair (E\ud835𝟐\udfcf
    for 21), as node shows."""
    from flowctx_core.expressions.js.values import from_units, to_units

    units: list[str] = []
    at = 0
    for j, d in enumerate(reversed(str(exponent))):
        digit = to_units(d.translate(table))
        place = at - j
        units[place:place] = list(digit)
        at += len(digit)
    return from_units("".join(units))


def _marks_around_sign(negative: list[Any]) -> tuple[str, str]:
    """The bidi marks right before and after the sign of a negative pattern, or empty."""
    if 1 not in negative:
        return "", ""
    at = negative.index(1)

    def mark(i: int) -> str:
        piece = negative[i] if 0 <= i < len(negative) else None
        return piece if isinstance(piece, str) and not piece.strip(_BIDI_MARKS) else ""

    return mark(at - 1), mark(at + 1)


def _without_own_marks(template: list[Any], own_negative: list[Any]) -> list[Any]:
    """A currency name's pattern (measured in the locale's own numbering system) without the
    marks that system writes around the sign (ar-EG's U+061C): another system's come with
    the sign."""
    before, after = _marks_around_sign(own_negative)
    out = list(template)
    if 1 not in out:
        return out
    at = out.index(1)
    if before and at > 0 and isinstance(out[at - 1], str) and out[at - 1].endswith(before):
        out[at - 1] = out[at - 1][: -len(before)]
    following = out[at + 1] if at + 1 < len(out) else None
    if after and isinstance(following, str) and following.startswith(after):
        out[at + 1] = following[len(after) :]
    return [p for p in out if p != ""]


def _accounting_sizes(o: dict[str, Any]) -> tuple[int, int] | None:
    """The group sizes of the locale's accounting pattern where they are not its currency
    pattern's (scripts/intl_currencies.mjs)."""
    if o["style"] != "currency" or o["currencySign"] != "accounting":
        return None
    if o["currencyDisplay"] == "name":
        return None
    ov = _override(o["base"], o["numberingSystem"], o["posix"])
    if "accSizes" in ov:  # a numbering system's (en-US-u-va-posix groups only these)
        primary, secondary = ov["accSizes"]
        return (primary, secondary) if primary else (1000, 1000)  # [0, 0]: no grouping
    rows = table("currencyAccounting")
    pattern = inherited(rows, o["base"]) or rows["en"]
    return (pattern[3][0], pattern[3][1]) if len(pattern) > 3 else None


def _use_grouping(opts: Any, default: str, service: str) -> Any:
    value = read(opts, "useGrouping")
    if value is UNDEFINED:
        return default
    if value is True:
        return "always"
    if not truthy(value):
        return False
    text = to_string(value)
    if text in ("true", "false"):
        return default
    if text not in ("min2", "auto", "always"):
        raise JsError(f"Value {text} out of range for {service} options property useGrouping")
    return text
