"""Locale lists as ECMA-402 and V8 read them: ``Intl.getCanonicalLocales``, the locale a
service resolves to (the longest prefix of the asked tag that node has, else en-US) and
``supportedLocalesOf``, with V8's errors."""

from __future__ import annotations

import os
import re
from typing import Any, Final

from flowctx_core.expressions.budget import MAX_ITEMS
from flowctx_core.expressions.js.common import LENT, Unsupported
from flowctx_core.expressions.js.intl.data import available, table, unmeasured
from flowctx_core.expressions.js.localecase import _TAG
from flowctx_core.expressions.js.values import (
    HOLE,
    UNDEFINED,
    JsError,
    host_refusal,
    js_in,
    to_int,
    to_string,
)

DEFAULT: Final = "en-US"
_POSIX_LOCALE: Final = re.compile(r"([A-Za-z]{2,3})(?:_([A-Za-z]{4}))?(?:_([A-Za-z]{2}|[0-9]{3}))?")


def default_locale() -> str:
    """node's default locale, which ICU reads from the environment as TZ is read for the zone:
    the first of LC_ALL, LC_MESSAGES and LANG that is set (set empty: und), its codeset cut off
    (de_DE.UTF-8 is de-DE); C, POSIX and none set are en-US. A modifier (@euro), an empty or
    otherwise odd value is refused: node keeps such a tag whole (de-DE-x-lvariant-euro, und,
    xx-YY), where flowctx's services resolve to a locale they have."""
    value = next(
        (v for v in map(os.environ.get, ("LC_ALL", "LC_MESSAGES", "LANG")) if v is not None),
        None,
    )
    if value is None:
        return DEFAULT
    name = value.split(".", 1)[0]
    if name in ("C", "POSIX", "en_US_POSIX"):
        return DEFAULT
    found = _POSIX_LOCALE.fullmatch(name)
    if found is None:
        raise Unsupported(
            f"flowctx does not reproduce node's default locale from the environment's {value!r}"
        )
    tag = canonical_list("-".join(p for p in found.groups() if p))[0]
    if best_available("number", tag) != tag:
        raise Unsupported(
            f"flowctx does not reproduce node's default locale {tag} (from {value!r}), which"
            " its data does not have"
        )
    return tag


#: the regular grandfathered tags, which ICU replaces whole (no-bok, no-nyn and zh-min-nan V8
#: refuses first, for their extended language subtag)
_GRANDFATHERED: Final = {"art-lojban": "jbo", "zh-guoyu": "zh", "zh-hakka": "hak",
                         "zh-xiang": "hsn", "cel-gaulish": "xtg"}  # fmt: skip
_LOCALE_ERROR: Final = "Incorrect locale information provided"
#: CLDR's aliases of calendars, which ICU replaces in a tag's -u-ca- and V8 in the option
CALENDAR_ALIASES: Final = {"islamicc": "islamic-civil", "ethiopic-amete-alem": "ethioaa"}


def _invalid(tag: str) -> JsError:
    """V8's error for a tag that is not well-formed: "Incorrect locale information provided"
    where it does not start with a language identifier (a language, then a script, a region
    and variants, up to a singleton), else ICU's refusal, "Invalid language tag: " and the tag
    in ASCII lowercase (its UTF-8 bytes, each shown as a Latin-1 character)."""
    if not _starts_with_language_id(tag):
        return JsError(_LOCALE_ERROR)
    shown = tag.encode("utf-8").decode("latin-1")
    return JsError("Invalid language tag: " + re.sub("[A-Z]+", lambda m: m[0].lower(), shown))


def _starts_with_language_id(tag: str) -> bool:
    tokens = tag.split("-")
    if tokens[-1] == "" and len(tokens) > 1:  # V8 splits with getline: no empty last token
        tokens.pop()
    if not re.fullmatch(r"[A-Za-z]{2,3}|[A-Za-z]{5,8}", tokens[0]):
        return False
    rest = tokens[1:]
    if rest and re.fullmatch(r"[A-Za-z]{4}", rest[0]) and not _singleton(rest[0]):
        rest = rest[1:]
    if rest and re.fullmatch(r"[A-Za-z]{2}|[0-9]{3}", rest[0]):
        rest = rest[1:]
    for token in rest:
        if _singleton(token):
            return True
        if not re.fullmatch(r"[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}", token):
            return False
    return True


def _singleton(token: str) -> bool:
    return len(token) == 1 and token.isascii() and token.isalnum()


def canonical_tag(tag: str) -> str:
    """One tag in its canonical form (cases, aliases, the -u- extension's keys sorted and
    their ``true`` values dropped), or V8's RangeError for a tag that is not well-formed."""
    if tag.lower() in _GRANDFATHERED:
        return _GRANDFATHERED[tag.lower()]
    if not _TAG.match(tag):
        raise _invalid(tag)
    parts = tag.lower().split("-")
    head: list[str] = []
    i = 0
    while i < len(parts) and len(parts[i]) != 1:
        head.append(parts[i])
        i += 1
    extensions: dict[str, list[str]] = {}
    while i < len(parts):
        singleton = parts[i]
        i += 1
        body: list[str] = []
        while i < len(parts) and (singleton == "x" or len(parts[i]) != 1):
            body.append(parts[i])
            i += 1
        if singleton in extensions:
            raise JsError(_LOCALE_ERROR)
        extensions[singleton] = body
    # the aliases ICU replaces (tables/aliases, scripts/intl_aliases.mjs)
    language = head[0]
    out = [language]
    variants: list[str] = []
    scripts, regions = table("scriptAliases"), table("regionAliases")
    for p in head[1:]:
        if len(p) == 4 and p.isalpha():
            out.append(scripts.get(p.title(), p.title()))
        elif (len(p) == 2 and p.isalpha()) or (len(p) == 3 and p.isdigit()):
            out.append(p.upper())
        elif len(p) == 3 and p.isalpha():
            raise JsError(_LOCALE_ERROR)  # an extended language subtag: V8 refuses it
        else:
            if p in variants:
                raise JsError(_LOCALE_ERROR)
            variants.append(p)
    aliased = table("languageAliases").get(language)
    if aliased is not None:
        # a language with a script or a region fills those the tag lacks (sh-Cyrl is sr-Cyrl,
        # prs-IR fa-IR, tl-PH fil-PH)
        into = aliased.split("-")
        script = [p for p in out[1:] if len(p) == 4] or [p for p in into[1:] if len(p) == 4]
        region = [p for p in out[1:] if len(p) != 4] or [p for p in into[1:] if len(p) != 4]
        out = [into[0], *script, *region]
    if len(out) > 1 and len(out[-1]) != 4 and out[-1] in regions:
        out[-1] = _region_alias(out[0], out[1] if len(out) > 2 else "", regions[out[-1]])
    base = "-".join(out)
    if variants == ["posix"] and "va" not in extensions.get("u", []):
        # CLDR's alias, as V8 applies it: the variant POSIX alone is -u-va-posix
        variants = []
        extensions["u"] = [*extensions.get("u", []), "va", "posix"]
    text = "-".join([base, *sorted(variants)])
    for singleton in sorted(k for k in extensions if k != "x"):
        body = extensions[singleton]
        if singleton == "u":
            body = _canonical_u(body)
        text += "-" + "-".join([singleton, *body]) if body else ""
    if "x" in extensions:
        text += "-" + "-".join(["x", *extensions["x"]])
    return text


def _region_alias(language: str, script: str, found: str | list[str]) -> str:
    """A region alias's replacement: its one region, or of a region that stood for several
    (SU, 172, CS...) the one the language's likely subtags name among them, else the first."""
    if isinstance(found, str):
        return found
    from flowctx_core.expressions.js import intl

    # (Intl.Locale's likely subtags build on this module: reached through the loader)
    likely = intl.service("locale").likely_region(language, script)
    return likely if likely in found else found[0]


def _canonical_u(body: list[str]) -> list[str]:
    attributes: list[str] = []
    i = 0
    while i < len(body) and len(body[i]) != 2:
        attributes.append(body[i])
        i += 1
    keywords: dict[str, list[str]] = {}
    while i < len(body):
        key = body[i]
        i += 1
        value: list[str] = []
        while i < len(body) and len(body[i]) != 2:
            value.append(body[i])
            i += 1
        keywords.setdefault(key, [v for v in value if v != "true"] if value != ["true"] else [])
    out = list(attributes)
    for key in sorted(keywords):
        out.append(key)
        joined = "-".join(keywords[key])
        if key == "ca" and joined in CALENDAR_ALIASES:
            out.extend(CALENDAR_ALIASES[joined].split("-"))
        else:
            out.extend(keywords[key])
    return out


def canonical_list(locales: Any) -> list[str]:
    """CanonicalizeLocaleList: a string, or the elements of an array (each a string or an
    object read as its string); undefined, a number or a boolean is the empty list."""
    if locales is UNDEFINED:
        return []
    if locales is None:
        raise JsError("Cannot convert undefined or null to object")
    if isinstance(locales, str):
        items = [locales]
    elif isinstance(locales, (list, tuple)):
        items = [_language_id(item) for item in locales if item is not HOLE]
    elif isinstance(locales, (bool, int, float)):
        return []
    else:
        items = _elements(locales)
    seen: list[str] = []
    for item in items:
        tag = canonical_tag(item)
        if tag not in seen:
            seen.append(tag)
    return seen


def refuse_cached_empty(locales: Any, options: Any, what: str) -> None:
    """Refuse the locale '' given without options to a method node 20 answers through its
    process's cache (Number, BigInt and Date's toLocale*String, String's localeCompare): V8
    keeps the formatter its last call without options made, keyed by the locale as text, and
    a call without a locale keys it ''. So '' is the default locale after such a call in the
    process, and V8's RangeError otherwise: the process's history decides, not the condition."""
    if type(locales) is str and not locales and options is UNDEFINED:
        raise Unsupported(
            host_refusal(
                f"{what} with the locale ''",
                "node 20 answers it from its process's cache of earlier calls: the default "
                "locale's after a call without a locale, else RangeError",
            )
        )


def _language_id(item: Any) -> str:
    """One element of a locale list: a string, or an object read as its string."""
    if isinstance(item, str):
        return item
    if item is UNDEFINED or item is None or isinstance(item, (bool, int, float)):
        raise JsError("Language ID should be string or object.")
    return to_string(item)


#: Intl.Locale's class, which intl/locale.py (a reader of this module) enters here: a list that
#: is an Intl.Locale is its own tag
LOCALE_TYPES: list[type] = []


def _elements(locales: Any) -> list[str]:
    """The locale list of any other object (ECMA-402's CanonicalizeLocaleList): an Intl.Locale
    is its own tag; else the elements of ToObject(locales) up to its length, those it has. A
    function's length is its parameter count and it has no elements, a RegExp, a BigInt, a
    Symbol or a Date no length: each is the empty list, as a plain object without one is."""
    from flowctx_core.expressions.js.proxies import JsProxy

    if type(locales) in LOCALE_TYPES:
        return [locales.text]
    if type(locales) is JsProxy:
        raise Unsupported("flowctx does not reproduce a Proxy as a list of locales")
    get_member = LENT["get_member"]
    length = to_int(get_member(locales, "length"))
    count = int(min(max(length, 0), 2**53 - 1))
    if count > MAX_ITEMS:
        raise Unsupported("flowctx does not reproduce a list of locales this long")
    return [
        _language_id(get_member(locales, str(k))) for k in range(count) if js_in(str(k), locales)
    ]


def _base(tag: str) -> str:
    """The tag without its extensions and private use (what availability is looked up by)."""
    parts = tag.split("-")
    for i, p in enumerate(parts[1:], 1):
        if len(p) == 1:
            return "-".join(parts[:i])
    return tag


def best_available(service: str, tag: str, refuse: bool = True) -> str | None:
    """The longest prefix of the tag that the service has (ECMA-402's BestAvailableLocale);
    one node has that flowctx did not measure (pcm's, kab's) is refused, or with ``refuse``
    false returned as it is."""
    have, missing = available(service), unmeasured(service)
    candidate = _base(tag)
    while candidate:
        if candidate in have:
            return candidate
        if candidate in missing:
            if not refuse:
                return candidate
            raise Unsupported(
                f"flowctx does not reproduce the locale {candidate!r} in Intl (node has it; "
                "its data was not measured)"
            )
        cut = candidate.rfind("-")
        if cut < 0:
            return None
        if cut >= 2 and candidate[cut - 2] == "-":
            cut -= 2
        candidate = candidate[:cut]
    return None


def keywords(tag: str) -> dict[str, str]:
    """A canonical tag's -u- keywords, each with its value ("" for true)."""
    if "-u-" not in tag:
        return {}
    out: dict[str, str] = {}
    key = None
    for p in tag.split("-u-", 1)[1].split("-"):
        if len(p) == 1:
            break
        if len(p) == 2:
            key = p
            out[key] = ""
        elif key is not None:
            out[key] = f"{out[key]}-{p}" if out[key] else p
    return out


def with_keywords(base: str, kept: dict[str, str]) -> str:
    """The resolved locale: the available tag and the keywords the service kept, sorted."""
    if not kept:
        return base
    body = [f"{k}-{v}" if v else k for k, v in sorted(kept.items())]
    return f"{base}-u-" + "-".join(body)


def resolve_keywords(service: str, locales: Any) -> tuple[str, dict[str, str]]:
    """ResolveLocale's start: the first asked tag the service has (its longest available
    prefix, else en-US) and that tag's -u- keywords, for the service to keep those it reads
    and supports (``va``, a variant to ICU, every service keeps)."""
    for tag in canonical_list(locales):
        found = best_available(service, tag)
        if found is not None:
            return found, keywords(tag)
    default = default_locale()
    if default != DEFAULT:
        # the environment's (LANG=de_DE.UTF-8): V8 takes the default locale whole, unmatched
        # (a collator's resolved locale is de-DE, with de's data)
        if best_available(service, default) is None:
            raise Unsupported(
                f"flowctx does not reproduce {service} data for node's default locale {default}"
            )
        return default, {}
    return DEFAULT, {}


def resolve(service: str, locales: Any) -> str:
    """The locale a service that reads no -u- keyword resolves ``locales`` to: the available
    tag, with ``va`` kept (the others are dropped, as V8 drops them)."""
    base, found = resolve_keywords(service, locales)
    return with_keywords(base, {k: v for k, v in found.items() if k == "va"})


def base_of(locale: str) -> str:
    """A resolved locale without its -u- extension (what the tables are looked up by)."""
    return _base(locale)


def supported(
    service: str, locales: Any, options: Any = UNDEFINED, where: str = "Intl"
) -> list[str]:
    """``Intl.X.supportedLocalesOf``: the asked tags (canonical) that the service has; V8's
    errors name the method (``where``)."""
    from flowctx_core.expressions.js.intl.options import get_option

    tags = canonical_list(locales)
    if options is None:
        raise JsError(f"{where} called on null or undefined")
    get_option(options, "localeMatcher", "string", ("lookup", "best fit"), "best fit", where)
    return [tag for tag in tags if best_available(service, tag, refuse=False) is not None]
