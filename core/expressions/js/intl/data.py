"""The Intl tables node answers with (``tables/*.json.gz``, written by scripts/intl_data.mjs;
the larger tables of names ``*.json.xz``): each file read on the first use of what needs it,
never at import."""

from __future__ import annotations

import functools
import gzip
import json
import lzma
from importlib import resources
from typing import Any, Final

#: which file holds each table
_FILES: Final = {
    "node": "locales", "icu": "locales", "locales": "locales", "rootCollations": "locales",
    "currencies": "locales", "currencyDigits": "locales", "currencyCommon": "locales",
    "collatorDefaults": "locales",
    "numbers": "numbers", "compacts": "compacts",
    "pluralRules": "pluralrules", "pluralRuleSets": "pluralrules",
    "numberingDigits": "numbering", "numberingRows": "numbering", "numberingPosix": "numbering",
    "numberingPosixRows": "numbering", "compactPercent": "compactpercent",
    "collations": "extensions", "collationHidden": "extensions",
    "collationDefaults": "extensions", "compactCurrency": "compactcurrency",
    "supportedValues": "extensions", "searchAsRoot": "extensions", "hanOrder": "han",
    "unassigned": "han", "emojiMoved": "extensions",
    "relative": "relative", "relativeLocales": "relative",
    "likely": "likely", "likelyExceptions": "likely",
    "currencyBase": "currencies", "currencySymbols": "currencies",
    "currencyOtherDigits": "currencies",
    "currencyAccounting": "currencies",
    "currencyNames": "currencynames", "currencyNamePatterns": "currencynames",
    "currencyNamesAround": "currencynames",
    "calendarSkeletons": "calendars", "calendarEras": "calendars",
    "calendarStyles": "calendarstyles", "calendarStylesFailed": "calendarstyles",
    "calendarEraYears": "calendars", "persianEarlier": "calendars",
    "calendarPartKeys": "calendarparts", "calendarJoins": "calendarparts",
    "calendarMonths": "calendarparts", "calendarMonthSpans": "calendarmonths",
    "chineseMonths": "chinesemonths",
    "calendarLocales": "calendarparts",
    "localeHeirs": "heirs", "localeExplicit": "heirs",
    "dateParts": "dateparts", "dateJoins": "dateparts", "datePartsRefused": "dateparts",
    "lists": "lists", "dates": "dates", "skeletons": "skeletons",
    "collationRanks": "collations", "units": "units", "ranges": "ranges",
    "zoneNames": "zones", "zoneOffsets": "zones", "zoneSpellings": "zones",
    "dateRanges": "dateranges", "dateRangesAborted": "dateranges",
    "dateIntervals": "dateintervals", "dateIntervalsAborted": "dateintervals",
    "rangeFallbacks": "rangefallbacks", "rangeFallbacksRefused": "rangefallbacks",
    "calendarTimesOwn": "calendartimes",
    "zoneNameZones": "zonenames", "zoneNameTimeStyles": "zonenames",
    "zoneNameTimeStyle": "zonenames",
    "zoneNameLocales": "zonenames", "zoneNameRanges": "zonenames",
    "zoneNames-short": "zonenames-short", "zoneNames-long": "zonenames-long",
    "zoneNames-shortGeneric": "zonenames-shortGeneric",
    "zoneNames-longGeneric": "zonenames-longGeneric",
    "zoneParts": "zoneparts", "zoneGmt": "zoneparts", "zonePartsRefused": "zoneparts",
    "calendarZones": "calendarzones",
    "localeInfo": "localeinfo", "currencyFormats": "currencyformats",
    "variantAccents": "variants", "tertiaryRanks": "tertiary",
    "segmenterNames": "segmenter", "segmenterClasses": "segmenter",
    "segmenterRuns": "segmenter", "segmenterLocales": "segmenter",
    "displayNames": "displaynames",
    "languageAliases": "aliases", "scriptAliases": "aliases", "regionAliases": "aliases",
    "unmeasuredLocales": "unmeasured",
}  # fmt: skip


@functools.cache
def _file(name: str) -> dict[str, Any]:
    tables = resources.files(__package__).joinpath("tables")
    packed = tables.joinpath(f"{name}.json.xz")
    if packed.is_file():  # the larger tables of names (tables/zonenames*) compress better so
        raw = lzma.decompress(packed.read_bytes())
    else:
        raw = gzip.decompress(tables.joinpath(f"{name}.json.gz").read_bytes())
    loaded: dict[str, Any] = json.loads(raw)
    return loaded


#: the calendars whose rows another calendar's file holds (each locale's list as its differences
#: from that calendar's)
_SHARED_PARTS: Final = {"dangi": "chinese"}


@functools.cache
def calendar_parts(calendar: str) -> dict[str, Any]:
    """The rows of one calendar's sets of components (``tables/calendarparts-CAL.json.gz``,
    scripts/intl_calendar_parts.mjs: its pool, rows and each locale's list over the keys),
    empty where none were measured."""
    base = _SHARED_PARTS.get(calendar)
    try:
        found = _file(f"calendarparts-{base or calendar}")
    except FileNotFoundError:
        return {}
    if base is None:
        return found
    tags = {}
    for tag, own in found["shared"][calendar].items():
        if isinstance(own, dict):
            own = [own.get(str(i), v) for i, v in enumerate(found["tags"][tag])]
        tags[tag] = own
    return {"pool": found["pool"], "rows": found["rows"], "tags": tags}


def table(name: str) -> Any:
    """One of the tables (``numbers``, ``plural``, ``dates``...)."""
    return _file(_FILES[name])[name]


@functools.cache
def available(service: str) -> frozenset[str]:
    """The locales a service resolves to ("number", "plural", "list", "date", "collator",
    "relative")."""
    if service == "relative":
        return frozenset(table("relativeLocales"))
    if service == "segmenter":
        # (a locale node has that was not measured segments as root does: only el's and
        # en-US-u-va-posix's rules are their own)
        return frozenset(table("segmenterLocales")) | unmeasured("segmenter")
    return frozenset(table("locales")[service])


@functools.cache
def unmeasured(service: str) -> frozenset[str]:
    """The locales node resolves the service to that flowctx's tables do not have
    (scripts/intl_unmeasured.mjs)."""
    return frozenset(table("unmeasuredLocales").get(service, ()))


def inherited(rows: dict[str, Any], tag: str) -> Any:
    """A row of a table kept only where it differs from its parent's: the tag's, else its
    nearest parent's (de-CH, then de)."""
    while True:
        if tag in rows:
            return rows[tag]
        if "-" not in tag:
            return None
        tag = tag.rsplit("-", 1)[0]
