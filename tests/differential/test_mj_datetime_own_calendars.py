"""DateTimeFormat's zones in the calendars other than the Gregorian, against MemberJunction 5.51.3
under node in one batch:

- ``timeStyle`` full and long (alone and beside each ``dateStyle``) in every calendar, with the
  zone's name (UTC's as the style writes it, measured: tables/calendarstyles; any other zone's
  from flowctx's zone names), and in the Gregorian calendar for the locales whose own calendar is
  another (fa's ``fa-u-ca-gregory``);
- the locales whose own calendar is another (fa and ps: Persian, th: Buddhist) with hours beside
  a zone's name, fractional seconds or a day period, in their own calendar (tables/zoneparts
  measures their times in it), in the Gregorian and in the other calendars
  (tables/calendarzones), a time alone and beside a date.

format, formatToParts, resolvedOptions and toLocaleString are compared exactly."""

from __future__ import annotations

import random
from typing import Any

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle
from tests.differential.test_mj_datetime_composed import FORMS, ZONES

SEED = 53
CALENDARS = ["buddhist", "chinese", "coptic", "dangi", "ethioaa", "ethiopic", "hebrew", "indian",
             "islamic", "islamic-civil", "islamic-rgsa", "islamic-tbla", "islamic-umalqura",
             "iso8601", "japanese", "persian", "roc", "gregory"]  # fmt: skip
STYLE_LOCALES = ["fa", "fa-IR", "th", "th-TH", "ps", "ja", "ja-JP", "ar-SA", "ar-EG", "he", "zh",
                 "zh-Hant", "en", "en-GB", "de", "fr", "hi", "ko", "ru", "am", "es-MX"]  # fmt: skip
OWN_LOCALES = ["fa", "fa-IR", "th", "th-TH", "ps"]
TIME_ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Asia/Tehran",
              "Asia/Bangkok", "Australia/Lord_Howe"]  # fmt: skip
DATE = {"weekday": ["short", "long"], "year": ["numeric", "2-digit"],
        "month": ["numeric", "2-digit", "short", "long"],
        "day": ["numeric", "2-digit"]}  # fmt: skip


def _instant(r: random.Random) -> int:
    return r.randrange(-2208988800000, 4102444800000)  # 1900 to 2100


def _with_calendar(r: random.Random, locale: str, options: dict[str, Any]) -> str:
    """The calendar asked by option, by the tag, or not at all (the locale's own)."""
    roll = r.random()
    calendar = r.choice(CALENDARS)
    if roll < 0.4:
        options["calendar"] = calendar
    elif roll < 0.7:
        return f"{locale}-u-ca-{calendar}"
    return locale


def style_cases(r: random.Random) -> list[tuple[str, tuple[str, dict[str, Any]]]]:
    built = []
    for _ in range(220):
        options: dict[str, Any] = {"timeStyle": r.choice(["full", "long"])}
        date_style = r.choice([None, "full", "long", "medium", "short"])
        if date_style:
            options["dateStyle"] = date_style
        locale = _with_calendar(r, r.choice(STYLE_LOCALES), options)
        options["timeZone"] = r.choice(TIME_ZONES)
        payload = {"l": locale, "o": options, "t": _instant(r)}
        built.append(("calendar.styles", (r.choice(FORMS), {"payload": payload})))
    return built


def own_calendar_cases(r: random.Random) -> list[tuple[str, tuple[str, dict[str, Any]]]]:
    built = []
    for _ in range(220):
        options: dict[str, Any] = {}
        if r.random() < 0.5:
            options.update({k: r.choice(v) for k, v in DATE.items() if r.random() < 0.5})
            if set(options) == {"weekday"}:
                options["day"] = "numeric"
        options["hour"] = r.choice(["numeric", "2-digit"])
        if r.random() < 0.8:
            options["minute"] = r.choice(["numeric", "2-digit"])
            if r.random() < 0.5:
                options["second"] = r.choice(["numeric", "2-digit"])
        kind = r.choice(["zone", "zone", "fraction", "period"])
        if kind == "zone":
            options["timeZoneName"] = r.choice(ZONES)
        elif kind == "fraction" and "minute" in options:
            options["fractionalSecondDigits"] = r.choice([1, 2, 3])
        else:
            options["dayPeriod"] = r.choice(["narrow", "short", "long"])
        if r.random() < 0.3:
            options["hour12"] = r.random() < 0.5
        locale = r.choice(OWN_LOCALES)
        if r.random() < 0.5:  # else the locale's own calendar
            locale = _with_calendar(r, locale, options)
        options["timeZone"] = r.choice(TIME_ZONES)
        payload = {"l": locale, "o": options, "t": _instant(r)}
        built.append(("own calendar", (r.choice(FORMS), {"payload": payload})))
    return built


def test_styles_with_a_zone_in_every_calendar(mj_oracle: MjOracle) -> None:
    tally = judge(mj_oracle, style_cases(random.Random(SEED)))
    counts = tally.counts["calendar.styles"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] >= 215, tally.table(examples=True)


def test_zones_fractions_and_day_periods_where_the_own_calendar_is_another(
    mj_oracle: MjOracle,
) -> None:
    tally = judge(mj_oracle, own_calendar_cases(random.Random(SEED + 1)))
    counts = tally.counts["own calendar"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] >= 210, tally.table(examples=True)


def cycle_cases(r: random.Random) -> list[tuple[str, tuple[str, dict[str, Any]]]]:
    """Styles with a time in each hour cycle (hourCycle, or hour12: th's h11 for true) where the
    locale's own calendar is another, in it, the Gregorian and the others."""
    built = []
    for _ in range(120):
        options: dict[str, Any] = {"timeStyle": r.choice(["full", "long", "medium", "short"])}
        date_style = r.choice([None, "full", "long", "medium", "short"])
        if date_style:
            options["dateStyle"] = date_style
        cycle = r.choice(["h11", "h12", "h23", "h24", True, False])
        if isinstance(cycle, bool):
            options["hour12"] = cycle
        else:
            options["hourCycle"] = cycle
        locale = r.choice(OWN_LOCALES)
        if r.random() < 0.4:
            locale = _with_calendar(r, locale, options)
        options["timeZone"] = r.choice(["UTC", "UTC", "Asia/Bangkok"])
        payload = {"l": locale, "o": options, "t": _instant(r)}
        built.append(("own cycles", (r.choice(FORMS), {"payload": payload})))
    return built


def test_styles_in_an_hour_cycle_where_the_own_calendar_is_another(mj_oracle: MjOracle) -> None:
    tally = judge(mj_oracle, cycle_cases(random.Random(SEED + 2)))
    counts = tally.counts["own cycles"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    assert counts["agree"] >= 115, tally.table(examples=True)
