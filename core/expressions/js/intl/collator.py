"""``Intl.Collator`` (and ``localeCompare(that, locales, options)``) as node 20 answers it, over
the root collation flowctx reproduces (``strings.py``): the options read in ECMA-402's order
with V8's errors, then sensitivity (which levels count), numeric (runs of digits by value,
leading zeros ignored), caseFirst and ignorePunctuation. The collators node tailors (sv, es's
trad, de's phonebk, eor, the search collations, en-US-u-va-posix...) compare with their
measured weights (scripts/intl_collations.mjs) over the characters and options the
measurement checked; the rest is refused, not guessed."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl.data import table
from flowctx_core.expressions.js.intl.locales import (
    best_available,
    canonical_list,
    resolve_keywords,
    with_keywords,
)
from flowctx_core.expressions.js.intl.options import IntlObject, coerce_options, get_option
from flowctx_core.expressions.js.unicategory import category as js_category
from flowctx_core.expressions.js.unicodenorm import js_normalize
from flowctx_core.expressions.js.values import (
    UNDEFINED,
    JsError,
    JsFunction,
    host_refusal,
    to_string,
)

SERVICE: Final = "Intl.Collator"
#: what some collators report depends on the collators node's process made before (ICU's
#: cache): the host's state
_PROCESS_WHY: Final = "node's answer depends on the collators its process made before"
_PROCESS: Final = host_refusal(
    "what this collator reports (zh's, a search collator's with -u-co-)", _PROCESS_WHY
)
#: a run of digits numeric reads: any decimal digit (Nd), of any script, mixed or not (١٢ is 12,
#: as 1٢ and 𝟏𝟐 are), as ICU weighs every Nd character as its digit
_DIGITS: Final = re.compile(r"\d+")
#: where numeric puts a number in the root order: before every character of the digits' group,
#: ① and ½ included (they are no Nd), after the symbols (€)
_NUMBER_LEAD: Final = 99_999
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


#: a measured collator's columns: (sensitivity, caseFirst) -> the columns keyed, in order
_COLUMNS: Final = {
    ("base", "false"): (0,), ("accent", "false"): (0, 1),
    ("case", "false"): (0, 2), ("case", "upper"): (0, 3), ("case", "lower"): (0, 4),
    ("variant", "false"): (0, 1, 5), ("variant", "upper"): (0, 1, 6),
    ("variant", "lower"): (0, 1, 7),
}  # fmt: skip
#: the bit of each (sensitivity, caseFirst) among the combinations node's answers were checked
#: on (eight without ignorePunctuation, then eight with it)
_COMBOS: Final = {key: bit for bit, key in enumerate(_COLUMNS)}

#: a character's weights in each column: one, or several (ß as ss, with the mark between)
Weights = tuple[float | tuple[float, ...], ...]


class Model:
    """A collator measured from node (scripts/intl_collations.mjs): each character of a pool
    (Basic Latin to IPA Extensions) and each contraction of the collator (Czech ch) with its
    rank in each column (-1: it weighs nothing there), the expansions (ß as ss) with the weights
    of their spelling, the characters it does not model, and the combinations of sensitivity,
    caseFirst and ignorePunctuation whose answers were checked against node's."""

    __slots__ = (
        "backwards", "blocked", "name", "numeric_at", "ranks", "units", "unmodelled", "valid",
        "variable",
    )  # fmt: skip

    def __init__(self, name: str, ranks: dict[str, Weights], row: list[Any]) -> None:
        self.name = name
        self.ranks = ranks
        _units, _columns, self.valid, _expansions, unmodelled, backwards, blocked, at, variable = (
            row
        )
        self.unmodelled = frozenset(unmodelled)
        self.backwards = bool(backwards)  # fr-CA weighs accents from the end (cote, côte, coté)
        # the pairs of letters that keep a contraction from starting at their second (Danish
        # aA: aAa is no a and Aa)
        self.blocked = frozenset(blocked)
        self.numeric_at = at  # where numeric puts a run of digits (en-US-u-va-posix: first)
        self.variable = frozenset(variable)  # what ignorePunctuation drops
        self.units = tuple(u for u in ranks if len(u) > 1)  # its contractions (Czech ch)

    def accented(self, s: str) -> bool:
        """Whether a contraction's last letter comes with an accent (Hausa's ts in tś): ICU
        weighs it as the contraction and an accent, which the model does not."""
        for unit in self.units:
            at = s.find(unit[:-1])
            while at >= 0:
                after = s[at + len(unit) - 1 : at + len(unit)]
                if after and after != unit[-1] and js_normalize(after, "NFD")[0] == unit[-1]:
                    return True
                at = s.find(unit[:-1], at + 1)
        return False

    def checked(self, sensitivity: str, case_first: str, ignore: bool, numeric: bool) -> bool:
        key = (sensitivity, "false" if sensitivity in ("base", "accent") else case_first)
        bit = _COMBOS[key] + (8 if ignore else 0) + (16 if numeric else 0)
        return bool(self.valid >> bit & 1)


@functools.cache
def _model(key: str) -> Model | None:
    found = table("collationRanks")
    rows = found["collators"]
    row = rows.get(key)
    if isinstance(row, str):  # weighs the pool as another collator does (eor's in most locales)
        row = rows[row]
    if row is None:
        return None
    units, columns, _valid, expansions, *_ = row
    items = [*found["pool"], *units]
    cols = [found["columns"][i] for i in columns]
    ranks: dict[str, Weights] = {c: tuple(col[i] for col in cols) for i, c in enumerate(items)}
    for c, weights in expansions.items():
        ranks[c] = tuple(tuple(w) for w in weights)
    return Model(key, ranks, row)


class Collator(IntlObject):
    tag = "Collator"
    __slots__ = ("base", "defaults", "o", "unsettled")

    def __init__(
        self,
        options: dict[str, Any],
        base: str,
        defaults: tuple[str, bool] = ("false", False),
        unsettled: bool = False,
    ) -> None:
        self.o = options
        self.base = base  # the locale without its -u- keywords
        self.defaults = defaults  # the locale's own caseFirst and ignorePunctuation
        self.unsettled = unsettled  # what it reports depends on node's process

    def _measured(self) -> Model | None:
        """The measured collator this one compares with, None where flowctx's root collation
        does (refused where node makes a collator flowctx has not measured)."""
        o = self.o
        if self.base == "en-US" and "-va-posix" in o["locale"]:
            name = "en-US-u-va-posix"
            if o["usage"] == "search":
                name += "/search"
            elif o["collation"] != "default":
                name += f"/{o['collation']}"
        elif o["usage"] == "search":
            # the search collations of most locales are the root's (scripts/intl_extensions.mjs)
            if self.base in table("searchAsRoot") and self.base in _root_locales():
                return None
            name = f"{self.base}/search"
        elif o["collation"] != "default":
            # the emoji collation moves the emoji alone (measured: every other character sorts
            # as in the root), so a locale of the root's compares in it as in its own
            if o["collation"] == "emoji" and self.base in _root_locales():
                return None
            name = f"{self.base}/{o['collation']}"
        elif self.base in _root_locales():
            return None
        else:
            name = self.base
        model = _model(name)
        if model is None:
            described = _described(o, self.base)
            raise Unsupported(f"flowctx does not reproduce the collation {described}")
        return model

    def member(self, key: str) -> Any:
        if key == "compare":
            return JsFunction("", lambda a=UNDEFINED, b=UNDEFINED, *_: self.compare(a, b), arity=2)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: self.resolved(), arity=0)
        return None

    def resolved(self) -> dict[str, Any]:
        if self.unsettled:
            raise Unsupported(_PROCESS)
        return dict(self.o)

    def compare(self, a: Any, b: Any) -> int:
        x, y = to_string(a), to_string(b)
        model = self._measured()
        moved = _emoji_moved(x) or _emoji_moved(y)
        if model is None and self.o["collation"] == "emoji" and moved:
            raise Unsupported("flowctx does not reproduce the emoji collation's order of emoji")
        apart = _SEARCH_APART.search(x) or _SEARCH_APART.search(y)
        if model is None and self.o["usage"] == "search" and apart:
            raise Unsupported(
                "flowctx reproduces the root search collation outside Arabic, Thai, Lao,"
                " Hangul and the relation signs it reorders"
            )
        if model is None:
            try:
                ka, kb = self.key(x), self.key(y)
            except Unsupported:
                # what the root's own algorithm does not weigh (caseFirst upper on some
                # letters) node's root collator does as measured, over the measured pool
                root = _model("und")
                if root is None:
                    raise
                ka, kb = self._measured_key(root, x), self._measured_key(root, y)
        else:
            ka, kb = self._measured_key(model, x), self._measured_key(model, y)
        return -1 if ka < kb else (1 if ka > kb else 0)

    def key(self, s: str) -> tuple[Any, ...]:
        """The root collation's key with the options (flowctx's own algorithm)."""
        from flowctx_core.expressions.js.strings import _collation_key

        o = self.o
        shifted = bool(o["ignorePunctuation"])
        if o["numeric"]:
            primary: list[int] = []
            secondary: list[float] = []
            tertiary: list[int] = []
            at = 0
            for m in [*_DIGITS.finditer(s), None]:
                end = len(s) if m is None else m.start()
                segment = s[at:end]
                # (punctuation is left out after the runs of digits are found: 1.10 is 1, 10)
                if segment:
                    p, sec, t = _collation_key(segment, shifted)
                    primary += p
                    secondary += sec
                    tertiary += t
                if m is None:
                    break
                value = [unicodedata.decimal(d) for d in m.group()]
                while len(value) > 1 and value[0] == 0:
                    value.pop(0)  # leading zeros ignored
                weights = [_NUMBER_LEAD, len(value), *(100_000 + d for d in value)]
                primary += weights
                secondary += [0] * len(weights)
                tertiary += [0] * len(weights)
                at = m.end()
            key: tuple[Any, ...] = (tuple(primary), tuple(secondary), tuple(tertiary))
        else:
            key = _collation_key(s, shifted)
        sensitivity = o["sensitivity"]
        if sensitivity == "base":
            return (key[0],)
        if sensitivity == "accent":
            return key[0], key[1]
        upper_first = o["caseFirst"] == "upper"
        cases = tuple(
            (0 if upper_first else 1) if _upper(c) else (1 if upper_first else 0)
            for c in _spelled_out(s)
            # numeric: a run of digits weighs as its value (a2 is a02 at the case level too)
            if js_category(c)[0] in ("L" if o["numeric"] else "LN") or _letter_form(c)
        )
        if sensitivity == "case":
            return key[0], cases
        if o["caseFirst"] == "false":
            return key
        if not upper_first and len(cases) != len(key[2]):
            # lower first, where the case level does not line up: the third level alone (as
            # before forms of letters were weighed)
            return key[0], key[1], tuple((0, t) for t in key[2])
        if len(cases) != len(key[2]):
            raise Unsupported(
                f"flowctx does not reproduce caseFirst {o['caseFirst']!r} for these characters"
            )
        return key[0], key[1], tuple(zip(cases, key[2], strict=True))

    def _measured_key(self, model: Model, s: str) -> tuple[Any, ...]:
        """A string's key in a measured collator: its characters' (and contractions') weights,
        column by column, as scripts/intl_collations.mjs checked them against node's answers;
        a run of digits by its value where numeric asks (leading zeros ignored)."""
        o = self.o
        ignore = bool(o["ignorePunctuation"])
        if not model.checked(o["sensitivity"], o["caseFirst"], ignore, o["numeric"]):
            raise Unsupported(
                f"flowctx does not reproduce the collation {_described(o, self.base)} with"
                f" sensitivity {o['sensitivity']!r}, caseFirst {o['caseFirst']!r},"
                f" ignorePunctuation {ignore} and numeric {o['numeric']}"
            )
        ranks = model.ranks
        units: list[Weights] = []
        s = js_normalize(s, "NFC")
        last: str | None = None  # the single letter before
        if model.accented(s):
            raise Unsupported(
                f"flowctx does not reproduce the collation {_described(o, self.base)} where a"
                " letter with an accent ends one of its contractions"
            )
        i = 0
        while i < len(s):
            if ignore and s[i] in model.variable:
                i += 1  # after the runs of digits are found (1.10 is 1, 10)
                continue
            if o["numeric"] and "0" <= s[i] <= "9":
                # a run of digits by its value (leading zeros ignored), where digits go
                end = i
                while end < len(s) and "0" <= s[end] <= "9":
                    end += 1
                digits = s[i:end].lstrip("0") or "0"
                zero = ranks["0"]
                units.append((model.numeric_at, *zero[1:]))
                last = None
                for band in (len(digits), *(100_000 + int(d) for d in digits)):
                    units.append((_NUMBER_BAND + band, *zero[1:]))
                i = end
                continue
            # a contraction first, the longest, as ICU matches them (not where the letter before
            # keeps it from starting)
            unit = next(
                (s[i : i + n] for n in (3, 2) if len(s[i : i + n]) == n and s[i : i + n] in ranks),
                s[i],
            )
            if last is not None and last + s[i] in model.blocked:
                unit = s[i]
            last = unit if len(unit) == 1 else None
            found = ranks.get(unit)
            if found is None or unit in model.unmodelled:
                raise Unsupported(
                    f"flowctx reproduces the collation {_described(o, self.base)} for Latin"
                    " letters, digits and ASCII punctuation only"
                )
            units.append(found)
            i += len(unit)
        columns = _COLUMNS[
            o["sensitivity"], "false" if o["sensitivity"] in ("base", "accent") else o["caseFirst"]
        ]
        key = [
            tuple(w for unit in units for w in _weights(unit[col]) if w != -1) for col in columns
        ]
        if model.backwards and len(key) > 1 and columns[1] == 1:
            key[1] = key[1][::-1]
        return tuple(key)


def _letter_form(c: str) -> bool:
    """Whether the character is another form of one letter (ª, Ⓜ, ｓ): a letter to the case
    level, whatever its category."""
    if js_category(c)[0] == "L":
        return False
    d = js_normalize(c, "NFKD")
    return len(d) == 1 and js_category(d)[0] == "L"


def _upper(c: str) -> bool:
    """Upper case to the case level: an upper-case letter, or a form of one (Ⓜ, ᴬ)."""
    if js_category(c) in ("Lu", "Lt"):
        return True
    d = js_normalize(c, "NFKD")
    return len(d) == 1 and d != c and js_category(d) in ("Lu", "Lt")


def _weights(found: float | tuple[float, ...]) -> tuple[float, ...]:
    """A unit's weights in one column: one, or an expansion's several."""
    return found if isinstance(found, tuple) else (found,)


def _described(o: dict[str, Any], base: str) -> str:
    if "-va-posix" in o["locale"] and o["collation"] != "default" and o["usage"] != "search":
        return f"{o['collation']!r} of en-US-u-va-posix"
    if "-va-posix" in o["locale"]:
        return "of en-US-u-va-posix" + (" (usage 'search')" if o["usage"] == "search" else "")
    if o["usage"] == "search":
        return f"of {base!r} (usage 'search')"
    if o["collation"] != "default":
        return f"{o['collation']!r} of {base!r}"
    return f"of {base!r}"


def _spelled_out(s: str) -> str:
    """The letters the case level sees: ß as ss, æ as ae, compatibility forms decomposed."""
    from flowctx_core.expressions.js.strings import _generated

    expansions = _generated()[2]
    return "".join(expansions.get(c, c) for c in js_normalize(s, "NFKD"))


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
    # node's default locale from the environment (de-DE) is reported whole, its collation is
    # the one the collator has (de's)
    reported = locale
    locale = best_available("collator", locale) or locale
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
    # measured: a locale whose standard collation has a name of its own (zh's pinyin) reports
    # it as "default" or by its name, and a collation option's in its locale or not
    # (zh-u-co-zhuyin, zh), by the collators its process made before (zh-u-co-unihan's)
    unsettled = own is not None
    if locale == "zh" and chosen == "stroke" and usage != "search":
        # node answers stroke in a fresh process and default once it has made enough other
        # collators (ICU's cache)
        raise Unsupported(host_refusal("zh's stroke collation", _PROCESS_WHY))
    # a search collator of a locale with -u-co- (de-u-co-phonebk) compares as the locale's
    # search collator (measured over 100,000 fresh draws); its resolved locale drops the
    # -u-co- in a fresh node and keeps it once the process has made a search collator of
    # another locale with that -u-co- (de-AT-u-co-phonebk's, measured)
    unsettled = unsettled or (usage == "search" and _has_collation(locale, asked))
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
            "locale": with_keywords(reported, kept),
            "usage": usage,
            "sensitivity": sensitivity,
            "ignorePunctuation": ignore,
            "collation": chosen,
            "numeric": numeric,
            "caseFirst": case_first,
        },
        locale,
        (default_case, default_ignore),
        unsettled,
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
