"""DateTimeFormat's option sets that node has no measured row for in flowctx's tables, composed
as ICU's pattern generator composes them (the date's pattern and the time's joined by the
locale's date-and-time pattern) with the options V8 reads back from the whole pattern, against
MemberJunction 5.51.3 under node in one batch: a date with a zone's name, fractional seconds or
a day period in the Gregorian calendar (a weekday or an era alone too), and a date with hours,
minutes or seconds, or a zone's name, fractional seconds or a day period alone, in every other
calendar ICU counts; format, formatToParts and
resolvedOptions compared exactly, nearly nothing refused."""

from __future__ import annotations

import random
from typing import Any

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 36
#: languages whose words put pattern letters into the join (fi's 'klo', cs's 'v', de's 'um',
#: pt's 'às'), right-to-left ones, other digits (a locale's -u-hc- has a test of its own,
#: test_mj_datetime_locale_cycles; not th or fa, whose own calendar is another:
#: locale.datetime draws their plain sets)
LOCALES = ["en", "de", "fi", "cs", "pt", "ja", "zh-Hant", "ar", "ar-EG", "hi", "ko", "ru", "fr",
           "es-MX", "sv", "tr", "pl", "he", "sr-Latn", "en-GB", "de-CH", "hu"]  # fmt: skip
CALENDARS = ["buddhist", "coptic", "ethioaa", "ethiopic", "hebrew", "indian", "islamic",
             "islamic-civil", "islamic-tbla", "islamic-umalqura", "iso8601", "japanese",
             "persian", "roc"]  # fmt: skip
DATE = {"weekday": ["narrow", "short", "long"], "era": ["narrow", "short", "long"],
        "year": ["numeric", "2-digit"], "month": ["numeric", "2-digit", "narrow", "short", "long"],
        "day": ["numeric", "2-digit"]}  # fmt: skip
ZONES = ["short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"]
FORMS = [
    "new Intl.DateTimeFormat(payload.l, payload.o).format(payload.t)",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).formatToParts(payload.t))",
    "JSON.stringify(new Intl.DateTimeFormat(payload.l, payload.o).resolvedOptions())",
    "new Date(payload.t).toLocaleString(payload.l, payload.o)",
]


def _date(r: random.Random) -> dict[str, Any]:
    roll = r.random()
    if roll < 0.2:  # a weekday or an era alone
        name = r.choice(["weekday", "era"])
        return {name: r.choice(DATE[name])}
    found = {k: r.choice(v) for k, v in DATE.items() if r.random() < 0.4}
    return found or {"month": r.choice(DATE["month"]), "day": "numeric"}


def _gregorian(r: random.Random) -> dict[str, Any]:
    """A date with a zone's name, fractional seconds (with their minute) or a day period."""
    options = _date(r)
    weekday_alone = list(options) == ["weekday"]
    kind = r.choice(["zone", "fraction", "period"] if not weekday_alone else ["zone"])
    if kind == "zone":
        options["timeZoneName"] = r.choice(ZONES)
    if kind == "fraction":
        options.update(minute="2-digit", fractionalSecondDigits=r.choice([1, 2, 3]))
        if r.random() < 0.5:
            options["second"] = "2-digit"
    if kind == "period":
        options["dayPeriod"] = r.choice(["narrow", "short", "long"])
    for name in ("hour", "minute", "second"):
        if r.random() < 0.3 and not (weekday_alone and name == "hour" and kind != "zone"):
            options.setdefault(name, r.choice(["numeric", "2-digit"]))
    if "hour" in options and "second" in options:  # (an hour and a second need their minute)
        options.setdefault("minute", "2-digit")
    if "hour" in options and r.random() < 0.3:
        options["hourCycle"] = r.choice(["h11", "h12", "h23", "h24"])
    return options


def _calendar(r: random.Random) -> dict[str, Any]:
    """A date with hours, minutes or seconds in another calendar (no hours beside a weekday
    alone: ICU has patterns of its own for those), or with a zone's name, fractional seconds or
    a day period alone."""
    options = _date(r)
    alone = list(options)
    if r.random() < 0.3:
        # (ICU has patterns of its own for a weekday with a day period)
        fields = ["timeZoneName", "fractionalSecondDigits", "dayPeriod"][
            : 2 if alone == ["weekday"] else 3
        ]
        field = r.choice(fields)
        values = {"timeZoneName": ZONES, "fractionalSecondDigits": [1, 2, 3],
                  "dayPeriod": ["narrow", "short", "long"]}[field]  # fmt: skip
        options[field] = r.choice(values)
        options["calendar"] = r.choice([c for c in CALENDARS if alone != ["era"] or c != "iso8601"])
        return options
    names = ["minute", "second"] if alone == ["weekday"] else ["hour", "minute", "second"]
    for name in r.sample(names, r.randint(1, len(names))):
        options[name] = r.choice(["numeric", "2-digit"])
    if "hour" in options and r.random() < 0.3:
        options["hour12"] = r.random() < 0.5
    # (the ISO calendar names no era)
    options["calendar"] = r.choice([c for c in CALENDARS if alone != ["era"] or c != "iso8601"])
    return options


def test_composed_option_sets_agree_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    cases = []
    for i in range(600):
        family = "composed.gregorian" if i % 2 else "composed.calendar"
        options = _gregorian(r) if i % 2 else _calendar(r)
        # (another zone's name is time zones' own matter: UTC's here)
        zones = ["UTC"] if "timeZoneName" in options else ["UTC", "Asia/Tokyo", "Europe/Paris"]
        options["timeZone"] = r.choice(zones)
        t = r.randrange(-2208988800000, 4102444800000)
        payload = {"l": r.choice(LOCALES), "o": options, "t": t}
        cases.append((family, (r.choice(FORMS), {"payload": payload})))
    tally = judge(mj_oracle, cases)
    for family in ("composed.gregorian", "composed.calendar"):
        counts = tally.counts[family]
        assert counts["disagree"] == 0, tally.table(examples=True)
        # (refused: where a month's letter, L or M, would change what V8 reads and is not
        # known, and a weekday with hours, for which ICU has patterns of its own)
        assert counts["agree"] >= 290, tally.table(examples=True)
