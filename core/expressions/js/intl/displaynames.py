"""``Intl.DisplayNames`` as node 20 answers it: ICU's display names of languages, regions,
scripts, currencies, calendars and date-time fields in each locale node has, measured from
node (scripts/intl_display_names.mjs, ``tables/displaynames.json.gz``), a locale's names kept
where they differ from its parent's.

A language code is named as ICU names a locale: its extensions and private use dropped, its
aliases replaced (iw is he, sh is sr-Latn, SU is RU), then the locale's dialect name for the
whole combination where it has one (British English) and languageDisplay asks it, else the
language's name with the script's, the region's and the variants' names in the locale's
pattern (Englisch (Vereinigtes Königreich)), their parentheses written as brackets. Region,
script and calendar codes are looked up as written (``us`` has no name: node answers ``us``);
a currency code in any case. Narrow is short to ICU's display names, except for the
date-time fields."""

from __future__ import annotations

import functools
import re
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl.data import table
from flowctx_core.expressions.js.intl.locales import canonical_list, resolve_keywords
from flowctx_core.expressions.js.intl.options import IntlObject, get_option
from flowctx_core.expressions.js.values import UNDEFINED, JsError, JsFunction, to_string

SERVICE: Final = "Intl.DisplayNames"
#: V8's message for a code or an options argument it refuses (a RangeError and a TypeError)
_INVALID: Final = "invalid_argument"
_TYPES: Final = ("language", "region", "script", "currency", "calendar", "dateTimeField")
_FIELDS: Final = frozenset(
    ("era", "year", "quarter", "month", "weekOfYear", "weekday", "day", "dayPeriod", "hour",
     "minute", "second", "timeZoneName")
)  # fmt: skip
#: the tags ICU replaces whole (BCP 47's grandfathered ones it knows)
_GRANDFATHERED: Final = {
    "art-lojban": "jbo", "zh-guoyu": "zh", "zh-hakka": "hak", "zh-xiang": "hsn",
    "zh-min-nan": "nan", "cel-gaulish": "xtg", "no-bok": "nb", "no-nyn": "nn", "i-ami": "ami",
    "i-bnn": "bnn", "i-hak": "hak", "i-klingon": "tlh", "i-lux": "lb", "i-navajo": "nv",
    "i-pwn": "pwn", "i-tao": "tao", "i-tay": "tay", "i-tsu": "tsu",
}  # fmt: skip
_CALENDAR_ASKED: Final = {"gregory": "gregorian", "ethioaa": "ethiopic-amete-alem"}
#: a region or a script: ICU takes the empty code too (it sets none), which has no name
_REGION: Final = re.compile(r"[A-Za-z]{2}|[0-9]{3}")
_REGION_CODE: Final = re.compile(r"|[A-Za-z]{2}|[0-9]{3}")
_SCRIPT_CODE: Final = re.compile(r"|[A-Za-z]{4}")
_CURRENCY: Final = re.compile(r"[A-Za-z]{3}")
_CALENDAR: Final = re.compile(r"[A-Za-z0-9]{3,8}(?:-[A-Za-z0-9]{3,8})*")
#: a subtag of any kind: what ICU reads a language tag from, one that breaks it is an error
_SUBTAG: Final = re.compile(r"[A-Za-z0-9]{1,8}")
_VARIANT: Final = re.compile(r"[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}")


class DisplayNames(IntlObject):
    tag = "DisplayNames"
    __slots__ = ("data_locale", "o")

    def __init__(self, options: dict[str, Any], data_locale: str) -> None:
        self.o = options
        self.data_locale = data_locale

    def member(self, key: str) -> Any:
        if key == "of":
            return JsFunction(key, lambda v=UNDEFINED, *_: self.of(v), arity=1)
        if key == "resolvedOptions":
            return JsFunction(key, lambda *_: dict(self.o), arity=0)
        return None

    def of(self, value: Any) -> Any:
        code = to_string(value)
        kind = self.o["type"]
        style = self.o["style"]
        short = style != "long"
        none = self.o["fallback"] == "none"
        tag = self.data_locale
        if kind == "dateTimeField":
            if code not in _FIELDS:
                raise JsError(_INVALID)
            found = _lookup(tag, f"field-{style}", code)
            if found is None:
                raise Unsupported(f"flowctx does not reproduce the name of {code} in {tag}")
            return found
        if kind == "region":
            if not _REGION_CODE.fullmatch(code):
                raise JsError(_INVALID)
            return _or_code(_name(tag, "region", code, short), code, none)
        if kind == "script":
            if not _SCRIPT_CODE.fullmatch(code):
                raise JsError(_INVALID)
            return _or_code(_name(tag, "script", code, short), code, none)
        if kind == "currency":
            if not _CURRENCY.fullmatch(code):
                raise JsError(_INVALID)
            upper = code.upper()
            name = _name(tag, "currency", upper, short)
            # a locale may name a currency by its code (EUR); V8 takes a name that is the code
            # as written for no name
            if none and (name is None or name == code):
                return UNDEFINED
            return code if name is None else name
        if kind == "calendar":
            if not _CALENDAR.fullmatch(code):
                raise JsError(_INVALID)
            # V8 asks ICU for gregory and ethioaa by their older names, which ICU answers back
            asked = _CALENDAR_ASKED.get(code, code)
            return _or_code(_name(tag, "calendar", code, short), asked, none)
        language, script, region = _language_id(code)
        dialect = self.o["languageDisplay"] == "dialect"
        found = _language_name(tag, language, script, region, short, dialect, not none)
        return UNDEFINED if found is None else found


def _or_code(name: str | None, code: str, none: bool) -> Any:
    if name is not None:
        return name
    return UNDEFINED if none else code


# --- the tables ---------------------------------------------------------------------------------


@functools.cache
def _data() -> dict[str, Any]:
    found: dict[str, Any] = table("displayNames")
    return found


def _chain(tag: str) -> list[dict[str, Any]]:
    rows = _data()["rows"]
    out = []
    while True:
        if tag in rows:
            out.append(rows[tag])
        if "-" not in tag:
            return out
        tag = tag.rsplit("-", 1)[0]


def _lookup(tag: str, kind: str, code: str) -> Any:
    """The nearest row's entry for the code (a name, None for none), or None."""
    for row in _chain(tag):
        names = row.get(kind)
        if names is not None and code in names:
            return names[code]
    return None


def field_name(tag: str, field: str) -> str | None:
    """A date field's long name in a locale (ICU's pattern generator appends a field the
    pattern lacks with this name: sw-CD's "Muda wa siku" where sw's is "AM/PM")."""
    found = _lookup(tag, "field-long", field)
    return None if found is None else str(found)


def _name(tag: str, kind: str, code: str, short: bool) -> str | None:
    """A code's name in the style: the short name, kept only where it is not the long one
    (0: no short name, 1: the long one again below a parent that had its own)."""
    if short:
        for row in _chain(tag):
            names = row.get(f"{kind}-short")
            if names is not None and code in names:
                found = names[code]
                if found == 0:
                    return None
                if found == 1:
                    break
                return str(found)
    found = _lookup(tag, kind, code)
    return None if found is None else str(found)


def _pattern(tag: str) -> tuple[str, str]:
    for row in _chain(tag):
        if "pattern" in row:
            pattern, separator = row["pattern"]
            return str(pattern), str(separator)
    raise Unsupported(f"flowctx does not reproduce the composed names of {tag}")


# --- a language code, as ICU reads and canonicalizes it -----------------------------------------


def _language_id(code: str) -> tuple[str, str, str]:
    """The language, script, region and variants of a code ICU reads as a language tag, its
    aliases replaced; its extensions and private use dropped (V8 names the tag's base). A
    code ICU refuses is V8's RangeError; a form flowctx does not read is refused."""
    if code == "":
        return "", "", ""
    code = _GRANDFATHERED.get(code.lower(), code)
    tokens = code.split("-")
    if any(not _SUBTAG.fullmatch(t) for t in tokens):
        raise JsError(_INVALID)
    low = [t.lower() for t in tokens]
    if not low[0].isalpha() or (len(low[0]) == 1 and low[0] not in "xi"):
        raise JsError(_INVALID)
    if low[0] == "x":  # private use alone: no language, ICU's root
        _extensions(low, code)
        return "", "", ""
    if not re.fullmatch(r"[a-z]{2,3}", low[0]):
        raise Unsupported(f"flowctx does not reproduce the name of the language code {code!r}")
    i = 1
    script = region = ""
    if i < len(low) and re.fullmatch(r"[a-z]{3}", low[i]):
        raise Unsupported(f"flowctx does not reproduce the name of {code!r} (an extended language)")
    if i < len(low) and re.fullmatch(r"[a-z]{4}", low[i]):
        script = low[i].title()
        i += 1
    if i < len(low) and _REGION.fullmatch(low[i]):
        region = low[i].upper()
        i += 1
    variants: list[str] = []
    while i < len(low) and len(low[i]) > 1:
        if not _VARIANT.fullmatch(low[i]):
            raise JsError(_INVALID)
        if low[i] in variants:
            raise JsError(_INVALID)
        variants.append(low[i])
        i += 1
    _extensions(low[i:], code)
    language = "" if low[0] == "und" else low[0]
    if language == "sgn" and region:  # a sign language by its country (sgn-BR is bzs)
        raise Unsupported(f"flowctx does not reproduce the alias of {code!r}")
    aliased = _data()["langAlias"].get(language)
    if aliased is not None:
        parts = aliased.split("-")
        language = parts[0]
        for p in parts[1:]:  # the tag's own script and region stay
            if len(p) == 4:
                script = script or p
            elif region:
                raise Unsupported(f"flowctx does not reproduce the alias of {code!r}")
            else:
                region = p
    script = _data()["scriptAlias"].get(script, script)
    by = _data()["regionBy"].get(region)
    if by is not None:  # SU: the country of the language's, else the first (RU)
        if script:
            raise Unsupported(
                f"flowctx does not reproduce which country {region} stands for in {code!r}"
            )
        region = by.get(language or "und", by[""])
    region = _data()["regionAlias"].get(region, region)
    if variants:
        raise Unsupported(f"flowctx does not reproduce the names of variants ({code!r})")
    return language, script, region


def _extensions(rest: list[str], code: str) -> None:
    """The extensions and private use after a tag's base: each singleton once, with at least
    one subtag (of two to eight characters but in the private use), else V8's RangeError. ICU
    reads no more of them here: what they say is dropped."""
    seen: set[str] = set()
    i = 0
    while i < len(rest):
        singleton = rest[i]
        if len(singleton) != 1:
            raise JsError(_INVALID)
        body = []
        i += 1
        while i < len(rest) and (singleton == "x" or len(rest[i]) > 1):
            body.append(rest[i])
            i += 1
        if not body or singleton in seen:
            raise JsError(_INVALID)
        seen.add(singleton)


# --- the names --------------------------------------------------------------------------------


def _escaped(tag: str, name: str) -> str:
    """The parentheses of the pattern's kind (fullwidth in zh's) written as brackets of that
    kind, to keep the pattern's own apart."""
    if "\uff08" in _pattern(tag)[0]:
        return name.translate(str.maketrans("\uff08\uff09", "\uff3b\uff3d"))
    return name.translate(str.maketrans("()", "[]"))


def _inside(tag: str, kind: str, code: str, short: bool, alone: str) -> str:
    """A name as a composed name writes it: its parentheses as brackets, or as measured where
    the locale writes it otherwise (kept whole, ``xx (...)``)."""
    sfx = "-short" if short else ""
    found = _lookup(tag, f"inside{sfx}", f"{kind}:{code}")
    if found is None:
        return alone if kind == "language" else _escaped(tag, alone)
    pattern = _pattern(tag)[0]
    if kind == "language":
        after = pattern.split("{0}", 1)[1].replace("{1}", "Qaaa")
        return str(found)[: len(found) - len(after)]
    before, after = pattern.replace("{0}", "xx").split("{1}", 1)
    return str(found)[len(before) : len(found) - len(after)]


def _language_name(
    tag: str,
    language: str,
    script: str,
    region: str,
    short: bool,
    dialect: bool,
    substitute: bool,
) -> str | None:
    """The name ICU gives; a part without a name is written as its code (no language as
    "root"), or, without ``substitute`` (fallback "none"), there is no name: None."""
    if dialect and language and (script or region):
        key = "-".join(p for p in (language, script, region) if p)
        found = _name(tag, "dialect", key, short)
        if found is not None:
            return found
    # no language (und) is ICU's root, which a few locales name (yrl's raisi)
    name = _name(tag, "language", language or "und", short)
    if name is None and not substitute:
        return None
    extras = []
    for kind, code in (("script", script), ("region", region)):
        if code:
            alone = _name(tag, kind, code, short)
            if alone is None and not substitute:
                return None
            extras.append(code if alone is None else _inside(tag, kind, code, short, alone))
    if name is None:
        name = language or "root"
        if not extras:
            return name
    elif not extras:
        return name
    else:
        name = _inside(tag, "language", language or "und", short, name)
    return _composed(tag, name, extras)


def _composed(tag: str, name: str, extras: list[str]) -> str:
    pattern, separator = _pattern(tag)
    joined = extras[0]
    for extra in extras[1:]:
        joined = separator.replace("{0}", joined, 1).replace("{1}", extra, 1)
    return pattern.replace("{0}", name, 1).replace("{1}", joined, 1)


# --- the constructor ----------------------------------------------------------------------------


def construct(locales: Any = UNDEFINED, options: Any = UNDEFINED, *_: Any) -> DisplayNames:
    requested = canonical_list(locales)
    if options is not UNDEFINED and (
        options is None or isinstance(options, (str, bool, int, float))
    ):
        raise JsError(_INVALID)  # GetOptionsObject: an object or undefined
    get_option(options, "localeMatcher", "string", ("lookup", "best fit"), "best fit", SERVICE)
    base, found = resolve_keywords("number", requested)
    if "va" in found:
        raise Unsupported(f"flowctx does not reproduce DisplayNames for a -u-va- locale ({base})")
    style = get_option(options, "style", "string", ("long", "short", "narrow"), "long", SERVICE)
    kind = get_option(options, "type", "string", _TYPES, UNDEFINED, SERVICE)
    if kind is UNDEFINED:
        raise JsError(_INVALID)
    fallback = get_option(options, "fallback", "string", ("code", "none"), "code", SERVICE)
    display = get_option(
        options, "languageDisplay", "string", ("dialect", "standard"), "dialect", SERVICE
    )
    resolved: dict[str, Any] = {"locale": base, "style": style, "type": kind, "fallback": fallback}
    if kind == "language":
        resolved["languageDisplay"] = display
    return DisplayNames(resolved, base)
