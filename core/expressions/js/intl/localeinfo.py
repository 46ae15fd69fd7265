"""The lists ``Intl.Locale`` offers (calendars, collations, hourCycles, numberingSystems,
textInfo, timeZones, weekInfo: getters in node 20) as node answers them: a -u- keyword names
its one value; otherwise ICU's data by the region (the tag's, else its likely one), by the
language with the region where CLDR's time data names both (fr-CA), or by the locale's own data
(its nearest parent's), measured in scripts/intl_locale_info.mjs (7 KB)."""

from __future__ import annotations

import functools
from typing import Any, Final

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl.data import table
from flowctx_core.expressions.js.values import UNDEFINED, JsError

#: the first day of the week -u-fw- names
_FW: Final = {"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7}


def _info() -> dict[str, Any]:
    found: dict[str, Any] = table("localeInfo")
    return found


@functools.cache
def _known() -> frozenset[str]:
    sets = table("locales")
    return frozenset(t for v in sets.values() if isinstance(v, list) for t in v)


#: calendar keywords V8 shows by ICU's name
_CALENDAR_ALIASES: Final = {"islamicc": "islamic-civil", "ethiopic-amete-alem": "ethioaa"}


def _parent(tag: str, default_script: str) -> str:
    """ICU's parent of a tag: the tag less its last subtag, but a language with a script other
    than its own falls to the root (bn-Hant is not bn's)."""
    if "-" not in tag:
        return "und"
    head = tag.rsplit("-", 1)[0]
    parts = tag.split("-")
    if len(parts) == 2 and len(parts[1]) == 4 and parts[1] != default_script:
        return "und"
    return head


def _by_parent(rows: dict[str, Any], tag: str, default_script: str) -> Any:
    while tag not in rows and tag != "und":
        tag = _parent(tag, default_script)
    return rows.get(tag, rows["und"])


def _region_row(region: str, key: str) -> Any:
    row = _info()["region"].get(region, {})
    return row.get(key, _info()["world"][key])


def lists(
    key: str,
    base: str,
    kws: dict[str, str],
    parts: tuple[str, str, str],
    likely: tuple[str, str, str],
) -> Any:
    """One of the lists for a canonical base tag (language, script, region), its keywords, its
    parts and its language's likely script, its likely region and its likely language."""
    language, script, region = parts
    if "rg" in kws and key in ("calendars", "hourCycles", "weekInfo", "timeZones"):
        raise Unsupported("flowctx does not reproduce the region override -u-rg-")
    default_script, likely_region, likely_language = likely
    place = region or likely_region
    by_region = ("calendars", "hourCycles", "weekInfo", "timeZones")
    if key in by_region and place and place not in set(_info()["regions"]):
        raise Unsupported(f"flowctx does not reproduce Intl.Locale's {key} for the region {place}")
    if key == "calendars":
        if "ca" in kws:
            return [_CALENDAR_ALIASES.get(kws["ca"], kws["ca"])]
        return list(_region_row(place, "calendars"))
    if key == "collations":
        if "co" in kws:
            return [kws["co"]]
        return list(_by_parent(_info()["collations"], base, default_script))
    if key == "numberingSystems":
        if "nu" in kws:
            return [kws["nu"]]
        return list(_by_parent(_info()["numbering"], base, default_script))
    if key == "hourCycles":
        if "hc" in kws:
            return [kws["hc"]]
        if "nu" in kws and kws["nu"] not in _info()["nu"]:
            raise JsError("Internal error. Icu error.")
        hours = _info()["hours"]
        # CLDR's time data names a language with a region (fr-CA), or alone (eo) where the tag
        # has none
        for tag in (base, f"{language}-{region}") if region else (base, language):
            if tag in hours:
                return list(hours[tag])
        if language == "und" and script and likely_region:
            # ICU's hour cycle reads no language from und: it takes the likely locale's language
            # and region, the unknown ZZ replaced (und-Deva-ZZ is hi-Deva-IN's h12, und-Latn-001
            # en-001's); the week and the calendars keep ZZ's
            found = hours.get(f"{likely_language}-{likely_region}")
            return list(found if found is not None else _region_row(likely_region, "hourCycles"))
        if language == "und" and not script and place in _info()["undHours"]:
            return list(_info()["undHours"][place])
        return list(_region_row(place, "hourCycles"))
    if key == "timeZones":
        return list(_region_row(region, "timeZones")) if region else UNDEFINED
    if key == "weekInfo":
        week = dict(_region_row(place, "weekInfo"))
        if "fw" in kws:
            if kws["fw"] not in _FW:
                raise Unsupported(f"flowctx does not reproduce the first day -u-fw-{kws['fw']}")
            week["firstDay"] = _FW[kws["fw"]]
        week["weekend"] = list(week["weekend"])
        return week
    if key == "textInfo":
        tag = base
        while tag not in _known() and tag not in table("likely") and tag != "und":
            tag = _parent(tag, default_script)
        rtl = tag in set(_info()["rtl"])
        return {"direction": "rtl" if rtl else "ltr"}
    raise KeyError(key)
