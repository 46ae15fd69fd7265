"""``Intl.PluralRules`` as node 20 answers it: the number rounded as its digit options say, then
its category by the CLDR plural rules node's ICU has for the locale (UTS #35's operands n, i, v,
w, f, t, e over the digits shown), as scripts/intl_plural_rules.mjs kept them after checking
each locale's rules against node's own answers."""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any, Final

from flowctx_core.expressions.js.intl.data import inherited, table
from flowctx_core.expressions.js.intl.locales import canonical_list, resolve
from flowctx_core.expressions.js.intl.numberformat import NumberFormat, _digit_options
from flowctx_core.expressions.js.intl.options import IntlObject, coerce_options, get_option
from flowctx_core.expressions.js.values import UNDEFINED, JsError, JsFunction, to_number

SERVICE: Final = "Intl.PluralRules"


class PluralRules(IntlObject):
    tag = "PluralRules"
    __slots__ = ("digits", "o", "row")

    def __init__(self, options: dict[str, Any], row: list[Any]) -> None:
        self.o = options
        self.row = row
        self.digits = NumberFormat(options)

    def member(self, key: str) -> Any:
        if key == "select":
            return JsFunction(key, lambda n=UNDEFINED, *_: self.select(n), arity=1)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: self.resolved(), arity=0)
        if key == "selectRange":
            return JsFunction(
                key, lambda x=UNDEFINED, y=UNDEFINED, *_: self.select_range(x, y), arity=2
            )
        return None

    def select_range(self, start: Any, end: Any) -> str:
        """The category of a range: CLDR's plural ranges of its ends' categories (measured
        with node's selectRange, scripts/intl_ranges.mjs), with V8's errors."""
        from flowctx_core.expressions.js.intl.numberrange import plural_range

        if start is UNDEFINED:
            raise JsError("Invalid startRange : undefined")
        if end is UNDEFINED:
            raise JsError("Invalid endRange : undefined")
        x, y = to_number(start), to_number(end)
        if x != x:
            raise JsError("Invalid startRange : NaN")
        if y != y:
            raise JsError("Invalid endRange : NaN")
        return plural_range(self.o["locale"], self.o["type"], self.select(x), self.select(y))

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
        out["pluralCategories"] = list(self.row[1])
        return out

    def select(self, value: Any) -> str:
        x = to_number(value)
        if x != x or x in (math.inf, -math.inf):
            return "other"
        exact = Decimal(repr(abs(float(x)))) if type(x) is float else Decimal(abs(x))
        whole, fraction = self.digits._rounded(exact)
        whole = whole.lstrip("0") or "0"
        return category(self.row, whole, fraction)


def cardinal_category(locale: str, i: int, fraction: str, exponent: int = 0) -> str:
    """The cardinal category of a number shown with these digits in a (resolved) locale;
    ``exponent`` is a compact or scientific number's (its operands e and c)."""
    return category(_rules("cardinal", _plural_locale(locale)), str(i), fraction, exponent)


def _plural_locale(locale: str) -> str:
    from flowctx_core.expressions.js.intl.locales import best_available

    return best_available("plural", locale) or "en"


def _rules(kind: str, locale: str) -> list[Any]:
    """The rule set (``[{category: condition}, categories]``) of a resolved locale."""
    index = inherited(table("pluralRuleSets")[kind], locale)
    if index is None:
        index = table("pluralRuleSets")[kind]["en"]
    rules: list[Any] = table("pluralRules")[index]
    return rules


class _Operands:
    """UTS #35's plural operands of a number as shown: n its absolute value, i its integer
    digits, v and f its visible fraction digits (count, value), w and t the same without trailing
    zeros, e (and c) the compact exponent, 0 outside compact notation."""

    __slots__ = ("e", "f", "i", "n", "t", "v", "w")

    def __init__(self, whole: str, fraction: str) -> None:
        trimmed = fraction.rstrip("0")
        self.n = Decimal(whole + ("." + fraction if fraction else ""))
        # ICU keeps an integer's last 18 digits (1e21's i is 0) and hands them to the rules as
        # a double: 100000000000000030's i is 100000000000000032 there (ru's "few")
        self.i = int(float(int(whole) % 10**18))
        self.v, self.f = len(fraction), int(fraction or "0")
        self.w, self.t = len(trimmed), int(trimmed or "0")
        self.e = 0

    def get(self, name: str) -> Decimal | int:
        value: Decimal | int = getattr(self, "e" if name == "c" else name)
        return value


_RELATION: Final = re.compile(r"([nivwftec])(?:\s*%\s*(\d+))?\s*(!=|=)\s*(.+)")
Condition = Callable[[_Operands], bool]


@functools.cache
def _compiled(condition: str) -> Condition:
    """A rule's condition (``n % 10 = 1 and n % 100 != 11 or v = 2``) as a test of operands:
    ``or`` of ``and`` of relations; a range (``2..4``) holds only for whole values."""
    alternatives = []
    for conjunction in condition.split(" or "):
        relations = []
        for relation in conjunction.split(" and "):
            found = _RELATION.fullmatch(relation.strip())
            if found is None:
                raise ValueError(f"plural rule {relation!r}")
            name, modulus, op, ranges = found.groups()
            spans = []
            for item in ranges.split(","):
                low, _, high = item.strip().partition("..")
                spans.append((int(low), int(high or low)))
            relations.append((name, int(modulus) if modulus else None, op == "=", tuple(spans)))
        alternatives.append(tuple(relations))

    def holds(o: _Operands) -> bool:
        for relations in alternatives:
            for name, modulus, equal, spans in relations:
                x = o.get(name)
                if modulus is not None and name == "n":
                    # ICU takes n's remainder of its double (ar's 12345678901234567890 is
                    # ...168 there: % 100 is 68, "many"), i's of its digits (ru's "many")
                    x = Decimal(math.fmod(float(x), modulus))
                elif modulus is not None:
                    x = x % modulus
                whole = x == int(x)
                hit = whole and any(low <= x <= high for low, high in spans)
                if hit != equal:
                    break
            else:
                return True
        return False

    return holds


def category(rules: list[Any], whole: str, fraction: str, exponent: int = 0) -> str:
    """The category of a number shown as ``whole.fraction`` under a rule set: the first whose
    condition holds, else "other". With an exponent the rules can overlap (fr's 5E-1 is one by
    i and many by e): ICU tries them in its data's order, the categories' names sorted."""
    o = _Operands(whole, fraction)
    o.e = exponent
    items = rules[0].items()
    for name, condition in sorted(items) if exponent else items:
        if _compiled(condition)(o):
            return str(name)
    return "other"


def construct(locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> PluralRules:
    requested = canonical_list(locales)
    opts = coerce_options(options)
    get_option(opts, "localeMatcher", "string", ("lookup", "best fit"), "best fit", SERVICE)
    kind = get_option(opts, "type", "string", ("cardinal", "ordinal"), "cardinal", SERVICE)
    o: dict[str, Any] = {"style": "decimal", "notation": "standard", "type": kind}
    _digit_options(opts, o, SERVICE, plural=True)
    o["locale"] = resolve("plural", requested)
    o.update(trailingZeroDisplay="auto", useGrouping=False, signDisplay="auto")
    return PluralRules(o, _rules(kind, o["locale"]))
