"""The rules behind a time zone's name that drawn instants rarely meet, against MemberJunction
5.51.3 under node in one batch, each built where it turns:

- a generic name as a partial location ("CET (Alemania)"): ICU names a zone by its metazone's
  generic name, but where the metazone's reference zone (for the locale's region) keeps another
  offset at the same wall time, by that name with the zone's country. A short generic name that
  is also the standard one (es, eu, en-GB, it: CET) is read so even where no daylight time is
  near, and the two zones may differ for a few hours only, where they change on other days or
  at other hours (Ceuta, El Aaiún, Tunis, Algiers, Berlin before 1980);
- Etc/GMT0, Etc/GMT+0, Etc/GMT-0, Etc/Greenwich and Greenwich (any case): node reports them as
  UTC, but ICU names them as its zone Etc/GMT, by the metazone GMT ("Greenwich Mean Time",
  "GMT") from 1970 to the end of 9999, else in the GMT format; UTC's other spellings keep UTC's
  names;
- el's 24-hour times (hour12 false, hourCycle h23 or h24, -u-hc-h23) write the zone in the long
  width of its kind (GMT-05:00 for shortOffset), and V8 reads that width back
  (resolvedOptions().timeZoneName); its 12-hour times write the style asked.
"""

from __future__ import annotations

from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

DTF = "new Intl.DateTimeFormat(payload.l, payload.o)"
FORMAT = f"{DTF}.format(payload.t)"
PARTS = f"JSON.stringify({DTF}.formatToParts(payload.t))"
RESOLVED = f"JSON.stringify({DTF}.resolvedOptions())"
GENERIC = ("shortGeneric", "longGeneric")
ALL_STYLES = ("short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric")

#: (locale, zone, instant) where a generic name turns to or from a partial location
PARTIAL = [
    ("eu", "Europe/Berlin", 237816000000),  # 1977-07-15: Paris in summer time, Berlin not
    ("eu", "Europe/Berlin", 313934400000),  # 1979-12-15: both in winter time
    ("es", "Europe/Berlin", 205243200000),
    ("it", "Europe/Berlin", 16891200000),  # 1970-07-15
    ("en-GB", "Europe/Berlin", 300888000000),
    ("de", "Europe/Berlin", 237816000000),  # (de's reference zone is Berlin itself)
    ("de", "Europe/Paris", 237816000000),
    ("es", "Africa/Algiers", 1752548326259),  # 2025-07-15: CET all year, Paris in summer
    ("es", "Africa/Algiers", 1768478400000),
    ("nl", "Africa/Algiers", 1615704250541),
    ("en-GB", "Africa/Tunis", 1617470095126),
    ("eu", "Africa/Tunis", 1634249148069),
    ("ca", "Africa/Tunis", 797568570987),
    ("ca", "Africa/Ceuta", 310086080031),  # 1979-10-28, between two zones' changes
    ("pl", "Africa/Ceuta", 409222818825),
    ("pl", "Africa/El_Aaiun", 637880742379),
    ("it", "Europe/Copenhagen", 147978778919),
    ("es", "Europe/Oslo", 198042341481),
    ("es", "Europe/Podgorica", 384947798053),
    ("it-VA", "Europe/Stockholm", 23131443299),
    ("it", "Europe/Vaduz", 176075391451),
]
GREENWICH = ["Greenwich", "GREENWICH", "Etc/Greenwich", "Etc/GMT0", "etc/gmt0", "Etc/GMT+0",
             "Etc/GMT-0"]  # fmt: skip
UTC_TOO = ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "GMT0", "GMT+0", "GMT-0", "UCT", "Zulu",
           "Universal", "Etc/Zulu"]  # fmt: skip
#: around the metazone's first and last instants (1970-01-01, 9999-12-31 23:59 UTC) and between
GMT_TIMES = [-1, 0, 1773000000000, -2208988800000, 253402300739999, 253402300740000]
GMT_LOCALES = ["en", "de", "es", "fr", "ja", "ko", "ar", "hi", "en-GB", "eu"]
EL_CYCLES = [{"hour12": False}, {"hourCycle": "h23"}, {"hourCycle": "h24"}, {"hour12": True},
             {"hourCycle": "h11"}, {}]  # fmt: skip
EL_FIELDS = [{"hour": "numeric"}, {"hour": "2-digit", "minute": "2-digit"},
             {"year": "numeric", "month": "long", "day": "numeric", "hour": "numeric",
              "minute": "2-digit"},
             {"hour": "numeric", "minute": "2-digit", "second": "2-digit",
              "fractionalSecondDigits": 2}]  # fmt: skip
EL_ZONES = ["America/New_York", "Europe/Athens", "UTC", "Asia/Kolkata"]


def _cases() -> list[tuple[str, tuple[str, dict[str, object]]]]:
    cases = []
    for i, (locale, zone, t) in enumerate(PARTIAL):
        for style in GENERIC:
            o: dict[str, object] = {"timeZone": zone, "timeZoneName": style}
            if i % 3 == 1:
                o.update(hour="numeric", minute="2-digit")
            expr = PARTS if i % 2 else FORMAT
            cases.append(("zones.partial", (expr, {"payload": {"l": locale, "o": o, "t": t}})))
    for i, zone in enumerate(GREENWICH + UTC_TOO):
        for j, t in enumerate(GMT_TIMES if zone in GREENWICH else GMT_TIMES[1:3]):
            locale = GMT_LOCALES[(i + j) % len(GMT_LOCALES)]
            for k, style in enumerate(ALL_STYLES[(i + j) % 3 :: 2]):
                o = {"timeZone": zone, "timeZoneName": style}
                if k == 1:
                    o.update(hour="numeric", minute="2-digit")
                payload = {"l": locale, "o": o, "t": t}
                cases.append(("zones.greenwich", (FORMAT, {"payload": payload})))
        for time_style in ("full", "long"):
            o = {"timeZone": zone, "timeStyle": time_style}
            payload = {"l": GMT_LOCALES[i % len(GMT_LOCALES)], "o": o, "t": 1773000000000}
            cases.append(("zones.greenwich", (PARTS, {"payload": payload})))
        o = {"timeZone": zone, "timeZoneName": "long"}
        cases.append(("zones.greenwich", (RESOLVED, {"payload": {"l": "en", "o": o}})))
    for i, cycle in enumerate(EL_CYCLES):
        for j, fields in enumerate(EL_FIELDS):
            for k, style in enumerate(ALL_STYLES):
                zone = EL_ZONES[(i + j + k) % len(EL_ZONES)]
                o = {**fields, **cycle, "timeZone": zone, "timeZoneName": style}
                locale = "el-u-hc-h23" if (i, j, k) == (5, 0, 0) else ("el", "el-CY")[k % 2]
                expr = (FORMAT, PARTS, RESOLVED)[(i + k) % 3]
                payload = {"l": locale, "o": o, "t": 1773000000000 + 4 * 30 * 86400000 * (k % 2)}
                cases.append(("zones.el", (expr, {"payload": payload})))
    return cases


def test_zone_names_turn_where_icu_turns_them(mj_oracle: MjOracle) -> None:
    cases = _cases()
    tally = judge(mj_oracle, cases)
    for family in ("zones.partial", "zones.greenwich", "zones.el"):
        counts = tally.counts[family]
        assert counts["disagree"] == 0, tally.table(examples=True)
        assert counts["agree"] == sum(1 for f, _ in cases if f == family), tally.table(
            examples=True
        )
