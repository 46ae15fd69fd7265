"""Hours, minutes and seconds with a zone's name, fractional seconds or a day period in every
calendar other than the Gregorian, against MemberJunction 5.51.3 under node in one batch: ICU's
generator takes the calendar's own patterns for the time, which a few locales write otherwise
than their Gregorian ones (en's 24 hours with a generic zone name, id's dot after a fraction),
so scripts/intl_calendar_zones.mjs measures the calendar's rows where they differ; a time alone
and beside a date (a weekday alone with minutes or a zone too), every zone style, 1 to 3
fraction digits, each day period width, hour12 and hourCycle; format, formatToParts,
resolvedOptions and toLocaleString compared exactly, nearly nothing refused."""

from __future__ import annotations

import random
from typing import Any

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 47
#: languages whose calendars write their hours otherwise (en, id), whose words join a date and
#: a time (de's 'um', pt's 'às'), right-to-left ones, other digits, regional ones
LOCALES = ["en", "id", "de", "pt", "ja", "ar", "ar-EG", "hi", "ko", "ru", "fr", "es-MX",
           "zh", "zh-Hant", "fi", "cs", "he", "tr", "en-GB", "en-AU", "de-AT", "sv", "pl",
           "vi"]  # fmt: skip
CALENDARS = ["buddhist", "chinese", "coptic", "dangi", "ethioaa", "ethiopic", "hebrew", "indian",
             "islamic", "islamic-civil", "islamic-rgsa", "islamic-tbla", "islamic-umalqura",
             "iso8601", "japanese", "persian", "roc"]  # fmt: skip
DATE = {"weekday": ["narrow", "short", "long"], "era": ["narrow", "short", "long"],
        "year": ["numeric", "2-digit"], "month": ["numeric", "2-digit", "narrow", "short", "long"],
        "day": ["numeric", "2-digit"]}  # fmt: skip
ZONES = ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"]
TIME_ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Tokyo"]
FORMS = [
    "new Intl.DateTimeFormat(payload.l, payload.o).format(payload.t)",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).formatToParts(payload.t))",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).resolvedOptions())",
    "new Date(payload.t).toLocaleString(payload.l, payload.o)",
]


def _date(r: random.Random) -> dict[str, Any]:
    roll = r.random()
    if roll < 0.25:  # none: the time alone
        return {}
    if roll < 0.35:  # a weekday alone (its minutes, seconds or a zone)
        return {"weekday": r.choice(DATE["weekday"])}
    # (an era alone with a time: ICU's own patterns; the ISO calendar names no era)
    found = {k: r.choice(v) for k, v in DATE.items() if r.random() < 0.4 and k != "weekday"}
    if r.random() < 0.3:
        found["weekday"] = r.choice(DATE["weekday"])
    if not set(found) - {"era", "weekday"}:
        found.update(month=r.choice(DATE["month"]), day="numeric")
    return found


def _options(r: random.Random) -> dict[str, Any]:
    options = _date(r)
    weekday_alone = list(options) == ["weekday"]
    kind = r.choice(["zone", "zone", "fraction", "period"] if not weekday_alone else ["zone"])
    if weekday_alone:  # (ICU has patterns of its own for a weekday with hours, EEE h)
        options["minute"] = r.choice(["numeric", "2-digit"])
        if r.random() < 0.5:
            options["second"] = r.choice(["numeric", "2-digit"])
    else:
        options["hour"] = r.choice(["numeric", "2-digit"])
        if r.random() < 0.8 or kind == "fraction":
            options["minute"] = r.choice(["numeric", "2-digit"])
            if r.random() < 0.5:
                options["second"] = r.choice(["numeric", "2-digit"])
    if kind == "zone":
        options["timeZoneName"] = r.choice(ZONES)
    elif kind == "fraction":
        options["fractionalSecondDigits"] = r.choice([1, 2, 3])
        if r.random() < 0.3:
            options["timeZoneName"] = r.choice(ZONES)
    else:
        options["dayPeriod"] = r.choice(["narrow", "short", "long"])
    if "hour" in options and r.random() < 0.4:
        if r.random() < 0.5:
            options["hour12"] = r.random() < 0.5
        else:
            options["hourCycle"] = r.choice(["h11", "h12", "h23", "h24"])
    options["calendar"] = r.choice([c for c in CALENDARS if "era" not in options or c != "iso8601"])
    options["timeZone"] = r.choice(TIME_ZONES)
    return options


def cases() -> list[tuple[str, tuple[str, dict[str, Any]]]]:
    r = random.Random(SEED)
    built = []
    for _ in range(600):
        t = r.randrange(-2208988800000, 4102444800000)  # 1900 to 2100
        options = _options(r)
        locale = r.choice(LOCALES)
        if r.random() < 0.3:  # the calendar in the tag
            locale = f"{locale}-u-ca-{options.pop('calendar')}"
        payload = {"l": locale, "o": options, "t": t}
        built.append(("calendar.zone", (r.choice(FORMS), {"payload": payload})))
    return built


def test_hours_with_a_zone_a_fraction_or_a_day_period_in_every_calendar(
    mj_oracle: MjOracle,
) -> None:
    tally = judge(mj_oracle, cases())
    counts = tally.counts["calendar.zone"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] >= 500, tally.table(examples=True)
