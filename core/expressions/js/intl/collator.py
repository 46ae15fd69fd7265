"""``Intl.Collator`` (and ``localeCompare(that, locales, options)``) as node 20 answers it, over
the root collation flowctx reproduces (``strings.py``): the options read in ECMA-402's order
with V8's errors, then sensitivity (which levels count), numeric (runs of digits by value,
leading zeros ignored), caseFirst and ignorePunctuation. A locale whose collation node tailors
(sv, es, da, tr, ja, ru...: measured by scripts/intl_data.mjs) is refused, not guessed."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl.data import table
from flowctx_core.expressions.js.intl.locales import canonical_list, resolve
from flowctx_core.expressions.js.intl.options import IntlObject, coerce_options, get_option
from flowctx_core.expressions.js.values import UNDEFINED, JsError, JsFunction, to_string

SERVICE: Final = "Intl.Collator"
_DIGITS: Final = re.compile(r"[0-9]+")
_VARIABLE: Final = frozenset(("Zs", "Zl", "Zp", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"))
_NUMBER_BAND: Final = 110_000  # a run of digits: its length, then each digit, among digits


@functools.cache
def _root_locales() -> frozenset[str]:
    return frozenset(table("rootCollations"))


#: the characters a tailored collation's ranks cover (scripts/intl_data.mjs's pool)
_POOL: Final = [chr(c) for c in range(0x20, 0x180) if c < 0x7F or c > 0x9F]


Ranks = dict[str, tuple[int, int, int]]


@functools.cache
def _tailored(locale: str) -> Ranks | None:
    """A tailored locale's ranks of each pool character and of each of its contractions (cs's
    ch) at the three levels (-1: ignored), where node's answers on strings of them were checked
    to follow from them."""
    found = table("tailored").get(locale)
    if found is None:
        return None
    rows, units = found
    ranks: Ranks = {c: (r[0], r[1], r[2]) for c, r in zip(_POOL, rows, strict=True)}
    ranks.update({u: (r[0], r[1], r[2]) for u, r in units.items()})
    return ranks


class Collator(IntlObject):
    tag = "Collator"
    __slots__ = ("o",)

    def __init__(self, options: dict[str, Any]) -> None:
        self.o = options

    def member(self, key: str) -> Any:
        if key == "compare":
            return JsFunction("", lambda a=UNDEFINED, b=UNDEFINED, *_: self.compare(a, b), arity=2)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: dict(self.o), arity=0)
        return None

    def compare(self, a: Any, b: Any) -> int:
        ka, kb = self.key(to_string(a)), self.key(to_string(b))
        return -1 if ka < kb else (1 if ka > kb else 0)

    def key(self, s: str) -> tuple[Any, ...]:
        from flowctx_core.expressions.js.strings import _collation_key

        o = self.o
        ranks = _tailored(o["locale"])
        if ranks is not None:
            return self._tailored_key(ranks, s)
        if o["ignorePunctuation"] and not o["numeric"]:
            s = _unpunctuated(s)
        if o["numeric"]:
            primary: list[int] = []
            secondary: list[int] = []
            tertiary: list[int] = []
            at = 0
            for m in [*_DIGITS.finditer(s), None]:
                end = len(s) if m is None else m.start()
                segment = s[at:end]
                if o["ignorePunctuation"]:  # after the runs of digits are found (1.10 is 1, 10)
                    segment = _unpunctuated(segment)
                if segment:
                    p, sec, t = _collation_key(segment)
                    primary += p
                    secondary += sec
                    tertiary += t
                if m is None:
                    break
                digits = m.group().lstrip("0") or "0"
                weights = [_NUMBER_BAND + len(digits), *(100_000 + int(d) for d in digits)]
                primary += weights
                secondary += [0] * len(weights)
                tertiary += [0] * len(weights)
                at = m.end()
            key = (tuple(primary), tuple(secondary), tuple(tertiary))
        else:
            key = _collation_key(s)
        sensitivity = o["sensitivity"]
        if sensitivity == "base":
            return (key[0],)
        if sensitivity == "accent":
            return key[0], key[1]
        upper_first = o["caseFirst"] == "upper"
        cases = tuple(
            (0 if upper_first else 1)
            if unicodedata.category(c) in ("Lu", "Lt")
            else (1 if upper_first else 0)
            for c in _spelled_out(s)
            if unicodedata.category(c)[0] in "LN"
        )
        if sensitivity == "case":
            return key[0], cases
        if not upper_first:
            return key
        if len(cases) != len(key[2]):
            raise Unsupported("flowctx does not reproduce caseFirst 'upper' for these characters")
        return key[0], key[1], tuple(zip(cases, key[2], strict=True))

    def _tailored_key(self, ranks: Ranks, s: str) -> tuple[Any, ...]:
        weights = []
        s = unicodedata.normalize("NFC", s)
        i = 0
        while i < len(s):
            # a contraction first, the longest, as ICU matches them
            c = (
                s[i : i + 3]
                if s[i : i + 3] in ranks and len(s[i : i + 3]) == 3
                else (s[i : i + 2] if len(s[i : i + 2]) == 2 and s[i : i + 2] in ranks else s[i])
            )
            i += len(c)
            found = ranks.get(c)
            if found is None:
                raise Unsupported(
                    f"flowctx reproduces the collation of {self.o['locale']!r} for Latin letters,"
                    " digits and ASCII punctuation only"
                )
            if found[0] >= 0:
                weights.append(found)
        levels = {"base": 1, "accent": 2}.get(self.o["sensitivity"], 3)
        return tuple(tuple(w[level] for w in weights) for level in range(levels))


def _spelled_out(s: str) -> str:
    """The letters the case level sees: ß as ss, æ as ae, compatibility forms decomposed."""
    from flowctx_core.expressions.js.strings import _generated

    expansions = _generated()[2]
    return "".join(expansions.get(c, c) for c in unicodedata.normalize("NFKD", s))


def _unpunctuated(s: str) -> str:
    return "".join(c for c in s if unicodedata.category(c) not in _VARIABLE)


def construct(
    locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any, service: str = SERVICE
) -> Collator:
    requested = canonical_list(locales)
    if options is None:
        raise JsError("Cannot convert undefined or null to object")
    opts = coerce_options(options)

    def option(name: str, kind: str, allowed: tuple[str, ...] | None, default: Any) -> Any:
        return get_option(opts, name, kind, allowed, default, service)

    usage = option("usage", "string", ("sort", "search"), "sort")
    option("localeMatcher", "string", ("lookup", "best fit"), "best fit")
    collation = option("collation", "string", None, UNDEFINED)
    if collation is not UNDEFINED and not re.fullmatch(
        r"[a-zA-Z0-9]{3,8}(?:-[a-zA-Z0-9]{3,8})*", collation
    ):
        raise JsError(f"Invalid collation : {collation}")
    numeric = option("numeric", "boolean", None, False)
    case_first = option("caseFirst", "string", ("upper", "lower", "false"), None)
    locale = resolve("collator", requested)
    default_case, default_ignore = table("collatorDefaults").get(locale, ("false", False))
    if case_first is None:
        case_first = default_case
    tailored = locale not in _root_locales()
    if tailored and _tailored(locale) is None:
        raise Unsupported(
            f"flowctx does not reproduce the collation of {locale!r} (its contractions: da's aa,"
            " cs's ch, hr's dž...)"
        )
    if collation is not UNDEFINED and collation not in ("default", "standard"):
        raise Unsupported(f"flowctx does not reproduce the collation {collation!r}")
    sensitivity = option("sensitivity", "string", ("base", "accent", "case", "variant"), "variant")
    ignore = option("ignorePunctuation", "boolean", None, default_ignore)
    if usage == "search":  # the search collations weigh letters apart (German ä)
        raise Unsupported("flowctx does not reproduce the search collations (usage 'search')")
    if tailored and (
        numeric or case_first != default_case or sensitivity == "case" or ignore != default_ignore
    ):
        raise Unsupported(
            f"flowctx reproduces the collation of {locale!r} with its default options and"
            " sensitivity only"
        )
    return Collator(
        {
            "locale": locale,
            "usage": usage,
            "sensitivity": sensitivity,
            "ignorePunctuation": ignore,
            "collation": "default",
            "numeric": numeric,
            "caseFirst": case_first,
        }
    )


def locale_compare(s: str, other: Any, locales: Any, options: Any) -> int:
    """``s.localeCompare(other, locales, options)``: a new Collator's compare."""
    return construct(locales, options, service="String.prototype.localeCompare").compare(s, other)
