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
from flowctx_core.expressions.js.intl.locales import (
    canonical_list,
    resolve_keywords,
    with_keywords,
)
from flowctx_core.expressions.js.intl.options import IntlObject, coerce_options, get_option
from flowctx_core.expressions.js.values import UNDEFINED, JsError, JsFunction, to_string

SERVICE: Final = "Intl.Collator"
_DIGITS: Final = re.compile(r"[0-9]+")
_VARIABLE: Final = frozenset(("Zs", "Zl", "Zp", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"))
_NUMBER_BAND: Final = 110_000  # a run of digits: its length, then each digit, among digits
#: where the root's search collation orders otherwise than its standard one (measured over
#: every BMP character: Arabic and its presentation forms, Thai and Lao, Hangul, relation
#: signs, enclosed and halfwidth forms); elsewhere the two agree
_SEARCH_APART: Final = re.compile(
    "[\u0600-\u08ff\u0e00-\u0eff\u1100-\u11ff\u2200-\u22ff\u2a00-\u2aff"
    "\u3100-\u32ff\ua960-\ua97f\uac00-\ud7ff\ufb00-\ufeff\uff00-\uffff]"
)


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
    __slots__ = ("base", "defaults", "o")

    def __init__(
        self, options: dict[str, Any], base: str, defaults: tuple[str, bool] = ("false", False)
    ) -> None:
        self.o = options
        self.base = base  # the locale without its -u- keywords
        self.defaults = defaults  # the locale's own caseFirst and ignorePunctuation

    def _check(self) -> None:
        """What flowctx does not reproduce, refused when a comparison needs it (the options
        resolve exactly, whatever they are)."""
        o = self.o
        if self.base == "en-US" and "-va-posix" in o["locale"]:
            raise Unsupported("flowctx does not reproduce the collation of en-US-u-va-posix")
        # the emoji collation moves the emoji alone (measured: every other character sorts
        # as in the root), so a locale of the root's compares in it as in its own
        emoji = o["collation"] == "emoji" and self.base in _root_locales()
        if o["collation"] != "default" and not emoji:
            raise Unsupported(f"flowctx does not reproduce the collation {o['collation']!r}")
        if o["usage"] == "search" and (
            self.base not in table("searchAsRoot") or self.base not in _root_locales()
        ):
            # the tailored search collations weigh letters apart (German ä, Danish case);
            # the others are the root's (scripts/intl_extensions.mjs)
            raise Unsupported(
                f"flowctx does not reproduce the search collation of {self.base!r} (usage 'search')"
            )
        tailored = self.base not in _root_locales()
        if tailored and _tailored(self.base) is None:
            raise Unsupported(
                f"flowctx does not reproduce the collation of {self.base!r} (its contractions:"
                " da's aa, cs's ch, hr's dž...)"
            )
        default_case = self.defaults[0]
        if tailored and o["caseFirst"] != default_case and default_case != "false":
            raise Unsupported(
                f"flowctx reproduces the collation of {self.base!r} with its own caseFirst only"
            )

    def member(self, key: str) -> Any:
        if key == "compare":
            return JsFunction("", lambda a=UNDEFINED, b=UNDEFINED, *_: self.compare(a, b), arity=2)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: dict(self.o), arity=0)
        return None

    def compare(self, a: Any, b: Any) -> int:
        self._check()
        x, y = to_string(a), to_string(b)
        if self.o["collation"] == "emoji" and (_emoji_moved(x) or _emoji_moved(y)):
            raise Unsupported("flowctx does not reproduce the emoji collation's order of emoji")
        if self.o["usage"] == "search" and (_SEARCH_APART.search(x) or _SEARCH_APART.search(y)):
            raise Unsupported(
                "flowctx reproduces the root search collation outside Arabic, Thai, Lao, Hangul"
                " and the relation signs it reorders"
            )
        ka, kb = self.key(x), self.key(y)
        return -1 if ka < kb else (1 if ka > kb else 0)

    def key(self, s: str) -> tuple[Any, ...]:
        from flowctx_core.expressions.js.strings import _collation_key

        o = self.o
        ranks = _tailored(self.base)
        if ranks is not None:
            if o["ignorePunctuation"] and not o["numeric"]:  # spaces and punctuation ignored
                s = _unpunctuated(s)
            key = self._tailored_key(ranks, s)
        elif o["ignorePunctuation"] and not o["numeric"]:
            s = _unpunctuated(s)
        if ranks is not None:
            pass
        elif o["numeric"]:
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
        if ranks is not None and sensitivity == "variant" and o["caseFirst"] == self.defaults[0]:
            return key  # the locale's own case order is in its measured ranks (da: upper)
        if ranks is not None and (sensitivity != "variant" or o["caseFirst"] == "upper"):
            spelled = _spelled_out(s)
            if spelled != unicodedata.normalize("NFKD", s):
                # a tailored locale's ranks weigh ß as one letter, node as ss (equal at the
                # first level: ja's ß is ss); and tr puts ß before ss at the case level
                raise Unsupported(
                    f"flowctx reproduces the collation of {self.base!r} with its own options"
                    " only for ß, æ, œ and the other expansions"
                )
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
            if self.o["ignorePunctuation"] and unicodedata.category(s[i]) in _VARIABLE:
                i += 1  # after the runs of digits are found (1.10 is 1, 10)
                continue
            if self.o["numeric"] and "0" <= s[i] <= "9":
                # a run of digits by its value (leading zeros ignored), where digits go
                end = i
                while end < len(s) and "0" <= s[end] <= "9":
                    end += 1
                digits = s[i:end].lstrip("0") or "0"
                p, sec, ter = ranks["0"]
                weights.append((p, sec, ter))
                weights.append((_NUMBER_BAND + len(digits), sec, ter))
                weights.extend((_NUMBER_BAND + 100_000 + int(d), sec, ter) for d in digits)
                i = end
                continue
            i += len(c)
            found = ranks.get(c)
            if found is None:
                raise Unsupported(
                    f"flowctx reproduces the collation of {self.base!r} for Latin letters,"
                    " digits and ASCII punctuation only"
                )
            if found[0] >= 0:
                weights.append(found)
        return tuple(tuple(w[level] for w in weights) for level in range(3))


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
    numeric = option("numeric", "boolean", None, UNDEFINED)
    case_first = option("caseFirst", "string", ("upper", "lower", "false"), UNDEFINED)
    locale, found = resolve_keywords("collator", requested)
    kept = {k: v for k, v in found.items() if k == "va"}
    # -u-kn- and -u-kf-: V8 keeps a valid one in the locale even where an option overrides it
    if found.get("kn") in ("", "false"):
        kept["kn"] = found["kn"]
        if numeric is UNDEFINED:
            numeric = found["kn"] == ""
    if found.get("kf") in ("upper", "lower", "false"):
        kept["kf"] = found["kf"]
        if case_first is UNDEFINED:
            case_first = found["kf"]
    # the collation: the option's (lowercased), else the -u-co-'s, where the locale has it;
    # V8 shows it in the locale either way (but the option's neither in ICU's alias locales,
    # zh-TW, nor beside a kept -u-kn- or -u-kf-, where the tag's stays); the search
    # collations replace it
    chosen, shown = "default", True
    own = table("collationDefaults").get(locale)  # zh's pinyin: reported as "default"
    asked = found.get("co", "")
    tag_co = asked if _has_collation(locale, asked) or asked == own else None
    if collation is not UNDEFINED and collation.lower() == own:
        shown = False  # the locale's own by its name: the locale keeps the tag's
    elif collation is not UNDEFINED:  # the option wins, valid or not, over a -u-co-
        tag_co = None
        if _has_collation(locale, collation.lower()):
            chosen = collation.lower()
            shown = locale not in table("collationHidden") and not {"kn", "kf"} & set(kept)
            if not shown and {"kn", "kf"} & set(kept) and _has_collation(locale, asked):
                tag_co = asked
    elif tag_co is not None and tag_co != own:
        chosen = tag_co
    if locale == "zh" and chosen == "stroke" and usage != "search":
        # measured: node answers stroke in a fresh process and default once it has made
        # enough other collators (ICU's cache), so the answer depends on the process's past
        raise Unsupported(
            "flowctx does not reproduce zh's stroke collation: node's answer depends on the"
            " collators its process made before"
        )
    if usage == "search" and tag_co is not None:
        # measured: de-u-co-phonebk searching resolves to de in a fresh node, and keeps its
        # -u-co- once the process has made other collators
        raise Unsupported(
            "flowctx does not reproduce a search collator of a locale with -u-co-: node's answer"
            " depends on the collators its process made before"
        )
    if usage == "search":
        chosen = "default"
    elif chosen != "default" and shown:
        kept["co"] = chosen
    elif tag_co is not None:
        kept["co"] = tag_co
    # the locale's own caseFirst and punctuation belong to its standard collation: the
    # search collation and the others (emoji, eor...) keep neither (da's upper first, th's
    # punctuation ignored)
    default_case, default_ignore = table("collatorDefaults").get(locale, ("false", False))
    if usage == "search" or chosen != "default":
        default_case, default_ignore = "false", False
    if case_first is UNDEFINED:
        case_first = default_case
    numeric = numeric is True
    sensitivity = option("sensitivity", "string", ("base", "accent", "case", "variant"), "variant")
    # V8 sets ICU's punctuation handling only for true: false leaves th's default (ignored)
    ignore = option("ignorePunctuation", "boolean", None, default_ignore) or default_ignore
    return Collator(
        {
            "locale": with_keywords(locale, kept),
            "usage": usage,
            "sensitivity": sensitivity,
            "ignorePunctuation": ignore,
            "collation": chosen,
            "numeric": numeric,
            "caseFirst": case_first,
        },
        locale,
        (default_case, default_ignore),
    )


@functools.cache
def _moved() -> frozenset[int]:
    runs = table("emojiMoved")
    return frozenset(
        cp for start, count in zip(runs[::2], runs[1::2], strict=True)
        for cp in range(start, start + count)
    )  # fmt: skip


def _emoji_moved(s: str) -> bool:
    """Whether the string holds a character the emoji collation moves
    (scripts/intl_extensions.mjs)."""
    moved = _moved()
    joined = s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return any(ord(c) in moved for c in joined)


def _has_collation(locale: str, name: str) -> bool:
    """Whether the locale takes this collation (scripts/intl_extensions.mjs)."""
    taking = table("collations").get(name)
    return taking is not None and (taking == "*" or locale in taking)


def locale_compare(s: str, other: Any, locales: Any, options: Any) -> int:
    """``s.localeCompare(other, locales, options)``: a new Collator's compare."""
    return construct(locales, options, service="String.prototype.localeCompare").compare(s, other)
