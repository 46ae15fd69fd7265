"""``Intl.PluralRules`` as node 20 answers it: the number rounded as its digit options say,
then its category read from tables measured from node (scripts/intl_data.mjs): every integer
below 2,000 and above it by its last three digits (checked there, with the millions some
languages name apart), and one or two fraction digits; three or more are refused."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl.data import inherited, table
from flowctx_core.expressions.js.intl.locales import canonical_list, resolve
from flowctx_core.expressions.js.intl.numberformat import NumberFormat, _digit_options
from flowctx_core.expressions.js.intl.options import IntlObject, coerce_options, get_option
from flowctx_core.expressions.js.values import UNDEFINED, JsFunction, to_number

SERVICE: Final = "Intl.PluralRules"
_NAMES: Final = {"z": "zero", "o": "one", "t": "two", "f": "few", "m": "many", "x": "other"}


class PluralRules(IntlObject):
    tag = "PluralRules"
    __slots__ = ("digits", "o", "row")

    def __init__(self, options: dict[str, Any], row: dict[str, Any]) -> None:
        self.o = options
        self.row = row
        self.digits = NumberFormat(options)

    def member(self, key: str) -> Any:
        if key == "select":
            return JsFunction(key, lambda n=UNDEFINED, *_: self.select(n), arity=1)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: self.resolved(), arity=0)
        if key == "selectRange":
            return JsFunction(key, _refuse_range, arity=2)
        return None

    def resolved(self) -> dict[str, Any]:
        o = self.o
        out: dict[str, Any] = {"locale": o["locale"], "type": o["type"]}
        out["minimumIntegerDigits"] = o["mnid"]
        if o["mnsd"] is not None:
            out["minimumSignificantDigits"] = o["mnsd"]
            out["maximumSignificantDigits"] = o["mxsd"]
        else:
            out["minimumFractionDigits"] = o["mnfd"]
            out["maximumFractionDigits"] = o["mxfd"]
        out["pluralCategories"] = list(self.row["cats"])
        return out

    def select(self, value: Any) -> str:
        x = to_number(value)
        if x != x or x in (math.inf, -math.inf):
            return "other"
        exact = Decimal(repr(abs(float(x)))) if type(x) is float else Decimal(abs(x))
        whole, fraction = self.digits._rounded(exact)
        whole = whole.lstrip("0") or "0"
        return _NAMES[category(self.row, int(whole), fraction)]


def cardinal_category(locale: str, i: int, fraction: str) -> str:
    """The cardinal category of a number shown with these digits in a (resolved) locale."""
    tag = _plural_locale(locale)
    index = inherited(table("plural")["cardinal"], tag)
    if index is None:
        index = table("plural")["cardinal"]["en"]
    return _NAMES[category(table("pluralRows")[index], i, fraction)]


def _plural_locale(locale: str) -> str:
    from flowctx_core.expressions.js.intl.locales import best_available

    return best_available("plural", locale) or "en"


def category(row: dict[str, Any], i: int, fraction: str) -> str:
    v = len(fraction)
    if v == 0:
        if i < 2000:
            return str(row["int"][i])
        if i % 1_000_000 == 0 and row["millions"]:
            return str(next(iter(row["millions"].values())))
        if not row["period"]:
            raise Unsupported("flowctx does not reproduce this language's plural rule above 1999")
        return str(row["int"][1000 + i % 1000])
    if v > 2 or row["decs"][v - 1] is None:
        raise Unsupported(
            "flowctx reproduces plural categories of numbers with up to two fraction digits"
        )
    dec = row["decs"][v - 1]
    at = i if i < dec["below"] else dec["base"] + i % dec["mod"]
    return str(dec["s"][at * 10**v + int(fraction)])


def _refuse_range(*_: Any) -> Any:
    raise Unsupported("flowctx does not reproduce Intl.PluralRules.prototype.selectRange")


def construct(locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> PluralRules:
    requested = canonical_list(locales)
    opts = coerce_options(options)
    get_option(opts, "localeMatcher", "string", ("lookup", "best fit"), "best fit", SERVICE)
    kind = get_option(opts, "type", "string", ("cardinal", "ordinal"), "cardinal", SERVICE)
    o: dict[str, Any] = {"style": "decimal", "notation": "standard", "type": kind}
    _digit_options(opts, o, SERVICE)
    o["locale"] = resolve("plural", requested)
    o.update(trailingZeroDisplay="auto", useGrouping=False, signDisplay="auto")
    index = inherited(table("plural")[kind], o["locale"])
    if index is None:
        index = table("plural")[kind]["en"]
    return PluralRules(o, table("pluralRows")[index])
