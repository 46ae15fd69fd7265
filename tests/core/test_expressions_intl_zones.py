"""Time zones, their names, day periods, fractional seconds and ranges in ``Intl.DateTimeFormat``
(issue 36, item 7) through ``flowctx eval``: node 20.20.2's answers (ICU 78.2, tzdata 2025c),
measured; what flowctx refuses by name."""

from __future__ import annotations

import json

import pytest

from flowctx_tui.cli import main

PAYLOAD = {
    "wdhm": {"weekday": "short", "hour": "numeric", "minute": "2-digit"},
    "f4_f": {
        "timeZone": "UTC",
        "minute": "2-digit",
        "second": "2-digit",
        "fractionalSecondDigits": 3,
    },
    "r5_ds": {"dateStyle": "medium"},
    "r5_ts": {"timeStyle": "short"},
    "r5_month": {"month": "long"},
    "r5_wdmin": {"weekday": "narrow", "minute": "2-digit", "timeZone": "UTC"},
    "r5_dt": {"dateStyle": "long", "timeStyle": "short", "timeZone": "Asia/Kolkata"},
    "r5_hm": {"hour": "numeric", "minute": "2-digit", "timeZone": "America/New_York"},
    "kolkata": {"timeZone": "asia/kolkata"},
    "kyiv": {"timeZone": "Europe/Kyiv"},
    "est": {"timeZone": "EST"},
    "gmt5": {"timeZone": "etc/gmt+5"},
    "ny": {"timeZone": "America/New_York"},
    "lordhowe": {"timeZone": "Australia/Lord_Howe"},
    "berlin": {"timeZone": "Europe/Berlin"},
    "casa": {"timeZone": "Africa/Casablanca"},
    "nyo": {"timeZone": "America/New_York", "timeZoneName": "shortOffset"},
    "nyl": {
        "timeZone": "America/New_York",
        "timeZoneName": "longOffset",
        "hour": "numeric",
        "minute": "2-digit",
    },
    "kol": {"timeZone": "Asia/Kolkata", "timeZoneName": "longOffset"},
    "utcl": {"timeZone": "UTC", "timeZoneName": "long"},
    "hmz": {
        "timeZone": "Asia/Kolkata",
        "timeZoneName": "shortOffset",
        "hour": "numeric",
        "minute": "2-digit",
    },
    "fsd": {
        "timeZone": "UTC",
        "minute": "2-digit",
        "second": "2-digit",
        "fractionalSecondDigits": 2,
    },
    "fsdonly": {"timeZone": "UTC", "fractionalSecondDigits": 3},
    "dp": {"timeZone": "UTC", "dayPeriod": "long"},
    "dphm": {"timeZone": "UTC", "dayPeriod": "short", "hour": "numeric", "minute": "2-digit"},
    "ts": {"timeZone": "UTC", "timeStyle": "short"},
    "ds": {"timeZone": "UTC", "dateStyle": "medium"},
    "month": {"timeZone": "UTC", "month": "long"},
    "fsd2": {"fractionalSecondDigits": 4},
    "tznbad": {"timeZoneName": "x"},
    "tzds": {"timeZoneName": "short", "dateStyle": "short"},
    "tzfsdds": {"timeZoneName": "short", "fractionalSecondDigits": 1, "timeStyle": "short"},
    "bad": {"timeZone": "Mars/Olympus"},
    "offset": {"timeZone": "+05:30"},
    # zones' own names (their metazone's, their location's, else the GMT format)
    "la_s": {"timeZone": "America/Los_Angeles", "timeZoneName": "short"},
    "la_lg": {
        "timeZone": "America/Los_Angeles",
        "timeZoneName": "longGeneric",
        "hour": "numeric",
        "minute": "2-digit",
    },
    "ber_l": {"timeZone": "Europe/Berlin", "timeZoneName": "long"},
    "ber_sg": {"timeZone": "Europe/Berlin", "timeZoneName": "shortGeneric"},
    "ber_lg": {"timeZone": "Europe/Berlin", "timeZoneName": "longGeneric"},
    "tok_lg": {"timeZone": "Asia/Tokyo", "timeZoneName": "longGeneric"},
    "dub_s": {"timeZone": "Europe/Dublin", "timeZoneName": "short"},
    "lon_l": {"timeZone": "Europe/London", "timeZoneName": "long"},
    "gmt5_l": {"timeZone": "Etc/GMT+5", "timeZoneName": "long"},
    "knox_lg": {"timeZone": "America/Indiana/Knox", "timeZoneName": "longGeneric"},
    "ny_full": {"timeZone": "America/New_York", "timeStyle": "full"},
    "kol_long": {"timeZone": "Asia/Kolkata", "timeStyle": "long", "dateStyle": "medium"},
    "syd_s": {
        "timeZone": "Australia/Sydney",
        "timeZoneName": "short",
        "year": "numeric",
        "month": "short",
        "day": "numeric",
    },
}

# (condition, node's value)
CASES = [
    ("new Intl.DateTimeFormat('en', payload.kolkata).resolvedOptions().timeZone",
     "Asia/Calcutta"),
    ("new Intl.DateTimeFormat('en', payload.kyiv).resolvedOptions().timeZone",
     "Europe/Kiev"),
    ("new Intl.DateTimeFormat('en', payload.est).resolvedOptions().timeZone",
     "America/Panama"),
    ("new Intl.DateTimeFormat('en', payload.gmt5).resolvedOptions().timeZone",
     "Etc/GMT+5"),
    ("new Date(0).toLocaleString('en-US', payload.ny)",
     "12/31/1969, 7:00:00 PM"),
    ("new Date(Date.UTC(2026, 2, 8, 6, 59, 59)).toLocaleString('en-US', payload.ny)",
     "3/8/2026, 1:59:59 AM"),
    ("new Date(Date.UTC(2026, 2, 8, 7)).toLocaleString('en-US', payload.ny)",
     "3/8/2026, 3:00:00 AM"),
    ("new Date(-3e12).toLocaleString('en-US', payload.ny)",
     "12/7/1874, 1:43:58 PM"),
    ("new Date(Date.UTC(2100, 6, 1)).toLocaleString('en-GB', payload.lordhowe)",
     "01/07/2100, 10:30:00"),
    ("new Date(Date.UTC(50000, 6, 1)).toLocaleString('de', payload.berlin)",
     "1.7.50000, 02:00:00"),
    ("new Date(Date.UTC(2026, 0, 1)).toLocaleString('en', payload.casa)",
     "1/1/2026, 1:00:00 AM"),
    ("new Date(Date.UTC(2070, 3, 1)).toLocaleString('en', payload.casa)",
     "4/1/2070, 1:00:00 AM"),
    ("new Intl.DateTimeFormat('en', payload.nyo).format(-3e12)",
     "12/7/1874, GMT-4:56:02"),
    ("new Intl.DateTimeFormat('en', payload.nyl).format(-3e12)",
     "1:43 PM GMT-04:56:02"),
    ("new Intl.DateTimeFormat('fi', payload.kol).format(0)",
     "1.1.1970 klo UTC+05.30"),
    ("new Intl.DateTimeFormat('ar-EG', payload.kol).format(0)",
     ("\u0661\u200f/\u0661\u200f/\u0661\u0669\u0667\u0660\u060c \u063a\u0631\u064a"
      "\u0646\u062a\u0634+\u0660\u0665:\u0663\u0660")),
    ("new Intl.DateTimeFormat('en', payload.utcl).format(0)",
     "1/1/1970, Coordinated Universal Time"),
    ("new Intl.DateTimeFormat('de', payload.utcl).format(0)",
     "1.1.1970, Koordinierte Weltzeit"),
    ("JSON.stringify(new Intl.DateTimeFormat('zh', payload.hmz).formatToParts(0))",
     ("[{\"type\":\"timeZoneName\",\"value\":\"GMT+5:30\"},{\"type\":\"literal\",\"va"
      "lue\":\" \"},{\"type\":\"hour\",\"value\":\"05\"},{\"type\":\"literal\",\"valu"
      "e\":\":\"},{\"type\":\"minute\",\"value\":\"30\"}]")),
    ("JSON.stringify(new Intl.DateTimeFormat('en', payload.hmz).resolvedOptions())",
     ("{\"locale\":\"en\",\"calendar\":\"gregory\",\"numberingSystem\":\"latn\",\"tim"
      "eZone\":\"Asia/Calcutta\",\"hourCycle\":\"h12\",\"hour12\":true,\"hour\":\"num"
      "eric\",\"minute\":\"2-digit\",\"timeZoneName\":\"shortOffset\"}")),
    ("new Intl.DateTimeFormat('en', payload.fsd).format(1234)",
     "00:01.23"),
    ("new Intl.DateTimeFormat('de', payload.fsd).format(1234)",
     "00:01,23"),
    ("JSON.stringify(new Intl.DateTimeFormat('ar', payload.fsd).formatToParts(1234))",
     ("[{\"type\":\"minute\",\"value\":\"00\"},{\"type\":\"literal\",\"value\":\":\"}"
      ",{\"type\":\"second\",\"value\":\"01\"},{\"type\":\"literal\",\"value\":\".\"}"
      ",{\"type\":\"fractionalSecond\",\"value\":\"23\"}]")),
    ("new Intl.DateTimeFormat('en', payload.fsdonly).format(1234)",
     "234"),
    ("new Intl.DateTimeFormat('en', payload.dp).format(Date.UTC(2020, 0, 1, 12))",
     "noon"),
    ("new Intl.DateTimeFormat('en', payload.dp).format(Date.UTC(2020, 0, 1, 12, 30))",
     "noon"),
    ("new Intl.DateTimeFormat('en', payload.dp).format(Date.UTC(2020, 0, 1, 3))",
     "in the morning"),
    ("new Intl.DateTimeFormat('es', payload.dphm).format(Date.UTC(2020, 0, 1, 12))",
     "12:00"),
    ("new Intl.DateTimeFormat('es', payload.dphm).format(Date.UTC(2020, 0, 1, 12, 1))",
     "12:01"),
    ("new Intl.DateTimeFormat('zh', payload.dphm).format(Date.UTC(2020, 0, 1, 19))",
     "19:00"),
    ("JSON.stringify(new Intl.DateTimeFormat('en', payload.dphm).resolvedOptions())",
     ("{\"locale\":\"en\",\"calendar\":\"gregory\",\"numberingSystem\":\"latn\",\"tim"
      "eZone\":\"UTC\",\"hourCycle\":\"h12\",\"hour12\":true,\"dayPeriod\":\"short\","
      "\"hour\":\"numeric\",\"minute\":\"2-digit\"}")),
    ("new Intl.DateTimeFormat('en', payload.ts).formatRange(0, 30000)",
     "12:00 AM"),
    ("JSON.stringify(new Intl.DateTimeFormat('en', payload.ds).formatRangeToParts(0, 3600000))",
     ("[{\"type\":\"month\",\"value\":\"Jan\",\"source\":\"shared\"},{\"type\":\"lite"
      "ral\",\"value\":\" \",\"source\":\"shared\"},{\"type\":\"day\",\"value\":\"1\""
      ",\"source\":\"shared\"},{\"type\":\"literal\",\"value\":\", \",\"source\":\"sh"
      "ared\"},{\"type\":\"year\",\"value\":\"1970\",\"source\":\"shared\"}]")),
    ("new Intl.DateTimeFormat('en', payload.month).formatRange(0, 86400000)",
     "January"),
    ("new Intl.DateTimeFormat('en', payload.r5_ds).formatRange(0, 5e9)",
     "Jan 1\u2009\u2013\u2009Feb 27, 1970"),
    ("JSON.stringify(new Intl.DateTimeFormat('de', payload.r5_ds).formatRangeToParts(0, 5e8))",
     ("[{\"type\":\"day\",\"value\":\"01\",\"source\":\"startRange\"},{\"type\":\"lit"
      "eral\",\"value\":\".\u2013\",\"source\":\"shared\"},{\"type\":\"day\",\"value"
      "\":\"06\",\"source\":\"endRange\"},{\"type\":\"literal\",\"value\":\".\",\"sou"
      "rce\":\"shared\"},{\"type\":\"month\",\"value\":\"01\",\"source\":\"shared\"},"
      "{\"type\":\"literal\",\"value\":\".\",\"source\":\"shared\"},{\"type\":\"year"
      "\",\"value\":\"1970\",\"source\":\"shared\"}]")),
    ("new Intl.DateTimeFormat('ja', payload.r5_ts).formatRange(0, 5e6)",
     "0\u664200\u5206\uff5e1\u664223\u5206"),
    ("new Intl.DateTimeFormat('en').formatRange(0, 5e10)",
     "1/1/1970\u2009\u2013\u20098/2/1971"),
    ("new Intl.DateTimeFormat('ru', payload.r5_month).formatRange(0, 5e9)",
     "\u044f\u043d\u0432\u0430\u0440\u044c \u2013 \u0444\u0435\u0432\u0440\u0430\u043b\u044c"),
    ("new Intl.DateTimeFormat('ar-EG', payload.r5_dt).formatRange(0, 5e9)",
     ("\u0661 \u064a\u0646\u0627\u064a\u0631 \u0661\u0669\u0667\u0660 \u0641\u064a "
      "\u0665:\u0663\u0660 \u0635 \u2013 \u0662\u0668 \u0641\u0628\u0631\u0627\u064a"
      "\u0631 \u0661\u0669\u0667\u0660 \u0641\u064a \u0662:\u0662\u0663 \u0635")),
    ("new Intl.DateTimeFormat('en-GB', payload.r5_dt).formatRange(0, 5e4)",
     "1 January 1970 at 05:30"),
    # not measured whole: built as ICU's DateIntervalFormat builds it (intervals.py)
    ("new Intl.DateTimeFormat('en', payload.r5_wdmin).formatRange(0, 5e9)",
     "T, 0\u2009\u2013\u2009F, 53"),
    ("new Intl.DateTimeFormat('en', payload.r5_hm).formatRange(0, 5e7)",
     "12/31/1969, 7:00\u202fPM\u2009\u2013\u20091/1/1970, 8:53\u202fAM"),
    ("new Intl.DateTimeFormat('fr-u-nu-arab', payload.r5_hm).formatRange(0, 5e7)",
     ("\u0663\u0661/\u0661\u0662/\u0661\u0669\u0666\u0669 \u0661\u0669:\u0660\u0660"
      "\u2009\u2013\u2009\u0660\u0661/\u0660\u0661/\u0661\u0669\u0667\u0660 \u0660"
      "\u0668:\u0665\u0663")),
    ("new Intl.DateTimeFormat('en', payload.r5_hm).formatRange(new Date(0), new Date(5e7))",
     "12/31/1969, 7:00\u202fPM\u2009\u2013\u20091/1/1970, 8:53\u202fAM"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('de-CH', "
      "payload.f4_f)"),
     "59:59.987"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('fr-u-hc-"
      "h11-nu-arab', payload.f4_f)"),
     "\u0665\u0669:\u0665\u0669\u066b\u0669\u0668\u0667"),
    ("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('de', payload.f4_f)",
     "59:59,987"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('en-IN', "
      "payload.f4_f)"),
     "59:59.987"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('es-MX', "
      "payload.f4_f)"),
     "59:59.987"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('pt-PT', "
      "payload.f4_f)"),
     "59:59,987"),
    ("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('ar', payload.f4_f)",
     "59:59.987"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('ar-EG', "
      "payload.f4_f)"),
     "\u0665\u0669:\u0665\u0669\u066b\u0669\u0668\u0667"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('it-CH', "
      "payload.f4_f)"),
     "59:59.987"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('fr-CA', "
      "payload.f4_f)"),
     "59 min 59,987 s"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('de-u-nu-"
      "arab', payload.f4_f)"),
     "\u0665\u0669:\u0665\u0669\u066b\u0669\u0668\u0667"),
    (("new Date(Date.UTC(1999, 11, 31, 23, 59, 59, 987)).toLocaleTimeString('en-u-nu-"
      "arabext', payload.f4_f)"),
     "\u06f5\u06f9:\u06f5\u06f9\u066b\u06f9\u06f8\u06f7"),
    # a zone's name: its metazone's standard, daylight or generic name, its own (British Summer
    # Time), a partial location in the hour a fall-back repeats, the location before 1970 and
    # after 9999, the GMT format where the locale has no name (ICU 78, measured)
    ("new Date(0).toLocaleString('en-US', payload.la_s)",
     "12/31/1969, 4:00:00 PM PST"),
    ("new Date(Date.UTC(2024, 6, 1)).toLocaleString('en-US', payload.la_s)",
     "6/30/2024, 5:00:00 PM PDT"),
    ("new Intl.DateTimeFormat('en', payload.la_lg).format(Date.UTC(2024, 6, 1))",
     "5:00 PM Pacific Time"),
    ("new Intl.DateTimeFormat('de', payload.ber_l).format(Date.UTC(2024, 6, 1))",
     "1.7.2024, Mitteleurop\u00e4ische Sommerzeit"),
    ("new Intl.DateTimeFormat('fr', payload.ber_sg).format(Date.UTC(2024, 0, 1))",
     "01/01/2024 heure : Allemagne"),
    ("new Intl.DateTimeFormat('en', payload.ber_lg).format(Date.UTC(2024, 9, 27, 0, 30))",
     "10/27/2024, Central European Time (Germany)"),
    ("new Intl.DateTimeFormat('en', payload.ber_lg).format(-3e12)",
     "12/7/1874, Germany Time"),
    ("new Intl.DateTimeFormat('en', payload.ber_lg).format(8.64e15)",
     "9/13/275760, Germany Time"),
    ("new Intl.DateTimeFormat('en', payload.tok_lg).format(0)",
     "1/1/1970, Japan Standard Time"),
    ("new Intl.DateTimeFormat('en-GB', payload.dub_s).format(Date.UTC(2024, 6, 1))",
     "01/07/2024, GMT+1"),
    ("new Intl.DateTimeFormat('en', payload.lon_l).format(Date.UTC(2024, 6, 1))",
     "7/1/2024, British Summer Time"),
    ("new Intl.DateTimeFormat('ja', payload.gmt5_l).format(0)",
     "1969/12/31 GMT-05:00"),
    ("new Intl.DateTimeFormat('en', payload.knox_lg).format(0)",
     "12/31/1969, Central Time"),
    ("new Intl.DateTimeFormat('ar-EG', payload.ber_l).format(0)",
     ("\u0661\u200f/\u0661\u200f/\u0661\u0669\u0667\u0660\u060c \u062a\u0648\u0642"
      "\u064a\u062a \u0648\u0633\u0637 \u0623\u0648\u0631\u0648\u0628\u0627 \u0627"
      "\u0644\u0631\u0633\u0645\u064a")),
    ("new Date(Date.UTC(2024, 6, 1)).toLocaleTimeString('de', payload.ny_full)",
     "20:00:00 Nordamerikanische Ostk\u00fcsten-Sommerzeit"),
    ("new Date(Date.UTC(2024, 6, 1)).toLocaleString('fr', payload.kol_long)",
     "1 juil. 2024, 05:30:00 UTC+5:30"),
    ("JSON.stringify(new Intl.DateTimeFormat('en-AU', payload.syd_s).formatToParts(0))",
     ("[{\"type\":\"day\",\"value\":\"1\"},{\"type\":\"literal\",\"value\":\" \"},{\""
      "type\":\"month\",\"value\":\"Jan\"},{\"type\":\"literal\",\"value\":\" \"},{\""
      "type\":\"year\",\"value\":\"1970\"},{\"type\":\"literal\",\"value\":\", \"},{"
      "\"type\":\"timeZoneName\",\"value\":\"AEST\"}]")),
    ("JSON.stringify(new Intl.DateTimeFormat('en', payload.ber_sg).resolvedOptions())",
     ("{\"locale\":\"en\",\"calendar\":\"gregory\",\"numberingSystem\":\"latn\",\"tim"
      "eZone\":\"Europe/Berlin\",\"year\":\"numeric\",\"month\":\"numeric\",\"day\":"
      "\"numeric\",\"timeZoneName\":\"shortGeneric\"}")),
    ("new Intl.DateTimeFormat('en-u-nu-arab', payload.la_s).format(Date.UTC(1850, 5, 1))",
     "\u0665/\u0663\u0661/\u0661\u0668\u0665\u0660, GMT-\u0667:\u0665\u0662:\u0665\u0668"),
    ("new Intl.DateTimeFormat('zh-Hant', payload.la_lg).format(Date.UTC(2024, 6, 1))",
     "\u4e0b\u53485:00 [\u592a\u5e73\u6d0b\u6642\u9593]"),
    # an interval pattern's own day periods: zh-Hant's flexible ones beside a single time's am/pm
    (("JSON.stringify(new Intl.DateTimeFormat('zh-Hant', payload.wdhm).formatRangeToP"
      "arts(Date.UTC(2026, 5, 1, 0, 30), Date.UTC(2026, 5, 1, 0, 30) + 60000))"),
     ("[{\"type\":\"weekday\",\"value\":\"\u9031\u4e00\",\"source\":\"shared\"},{\"ty"
      "pe\":\"literal\",\"value\":\" \",\"source\":\"shared\"},{\"type\":\"dayPeriod"
      "\",\"value\":\"\u51cc\u6668\",\"source\":\"shared\"},{\"type\":\"hour\",\"valu"
      "e\":\"12\",\"source\":\"startRange\"},{\"type\":\"literal\",\"value\":\":\",\""
      "source\":\"startRange\"},{\"type\":\"minute\",\"value\":\"30\",\"source\":\"st"
      "artRange\"},{\"type\":\"literal\",\"value\":\"\u81f3\",\"source\":\"shared\"},"
      "{\"type\":\"hour\",\"value\":\"12\",\"source\":\"endRange\"},{\"type\":\"liter"
      "al\",\"value\":\":\",\"source\":\"endRange\"},{\"type\":\"minute\",\"value\":"
      "\"31\",\"source\":\"endRange\"}]")),
    (("JSON.stringify(new Intl.DateTimeFormat('zh-Hant', payload.wdhm).formatToParts("
      "Date.UTC(2026, 5, 1, 0, 30)))"),
     ("[{\"type\":\"weekday\",\"value\":\"\u9031\u4e00\"},{\"type\":\"dayPeriod\",\"v"
      "alue\":\"\u4e0a\u5348\"},{\"type\":\"hour\",\"value\":\"12\"},{\"type\":\"lite"
      "ral\",\"value\":\":\"},{\"type\":\"minute\",\"value\":\"30\"}]")),
    (("JSON.stringify(new Intl.DateTimeFormat('zh-Hant', payload.wdhm).formatRangeToP"
      "arts(Date.UTC(2026, 5, 1, 5, 30), Date.UTC(2026, 5, 1, 5, 30) + 60000))"),
     ("[{\"type\":\"weekday\",\"value\":\"\u9031\u4e00\",\"source\":\"shared\"},{\"ty"
      "pe\":\"literal\",\"value\":\" \",\"source\":\"shared\"},{\"type\":\"dayPeriod"
      "\",\"value\":\"\u6e05\u6668\",\"source\":\"shared\"},{\"type\":\"hour\",\"valu"
      "e\":\"5\",\"source\":\"startRange\"},{\"type\":\"literal\",\"value\":\":\",\"s"
      "ource\":\"startRange\"},{\"type\":\"minute\",\"value\":\"30\",\"source\":\"sta"
      "rtRange\"},{\"type\":\"literal\",\"value\":\"\u81f3\",\"source\":\"shared\"},{"
      "\"type\":\"hour\",\"value\":\"5\",\"source\":\"endRange\"},{\"type\":\"literal"
      "\",\"value\":\":\",\"source\":\"endRange\"},{\"type\":\"minute\",\"value\":\"3"
      "1\",\"source\":\"endRange\"}]")),
]  # fmt: skip


@pytest.mark.parametrize(("condition", "answer"), CASES)
def test_node_answers(condition: str, answer: str, capsys: pytest.CaptureFixture[str]) -> None:
    # the answer rides in the payload (MemberJunction's conditions hold no braces)
    scope = json.dumps({**PAYLOAD, "answer": answer})
    code = main(["eval", f"{condition} === payload.answer", "--payload", scope])
    assert (code, capsys.readouterr().out) == (0, "true\n"), condition


ERRORS = [
    ("new Intl.DateTimeFormat('en').formatRange(0)",
     "Invalid time value"),
    ("new Intl.DateTimeFormat('en').formatRange(NaN, 0)",
     "Invalid time value"),
    ("new Intl.DateTimeFormat('en', payload.fsd2).format(0)",
     "fractionalSecondDigits value is out of range."),
    ("new Intl.DateTimeFormat('en', payload.tznbad).format(0)",
     "Value x out of range for Intl.DateTimeFormat options property timeZoneName"),
    ("new Intl.DateTimeFormat('en', payload.tzds).format(0)",
     "Can't set option timeZoneName when dateStyle is used"),
    ("new Intl.DateTimeFormat('en', payload.tzfsdds).format(0)",
     "Can't set option timeZoneName when timeStyle is used"),
    ("new Intl.DateTimeFormat('en', payload.bad).format(0)",
     "Invalid time zone specified: Mars/Olympus"),
    ("new Intl.DateTimeFormat('en', payload.offset).format(0)",
     "Invalid time zone specified: +05:30"),
]  # fmt: skip


@pytest.mark.parametrize(("condition", "message"), ERRORS)
def test_v8_errors(condition: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", condition, "--payload", json.dumps(PAYLOAD)])
    assert code != 0
    assert message in capsys.readouterr().err.splitlines()[0], condition


@pytest.mark.parametrize(
    ("condition", "message"),
    [
        # Gaza's rules are measured to 2118: a later year no year from 2090 on is like (its
        # January 1st's weekday, its and its neighbours' leap days) is not answered
        ("new Date(Date.UTC(2177, 5, 1)).toLocaleString('en', payload.gaza_lg)",
         "flowctx does not reproduce the name of the time zone Asia/Gaza then"),
        # ICU's interval patterns with flexible day periods
        ("new Intl.DateTimeFormat('en', payload.wd).formatRange(0, 5e9)",
         "flowctx does not reproduce formatRange of two dates with the dayPeriod option"),
        # ICU appends a second without its minute beside a date with the field's name
        ("new Intl.DateTimeFormat('fi', payload.year_fsd).format(0)",
         "flowctx does not reproduce DateTimeFormat with these options"),
    ],
)  # fmt: skip
def test_refused_by_name(condition: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    scope = {**PAYLOAD, "gaza_lg": {"timeZone": "Asia/Gaza", "timeZoneName": "longGeneric"},
             "year_fsd": {"year": "numeric", "second": "2-digit", "fractionalSecondDigits": 1},
             "wd": {"hour": "numeric", "minute": "2-digit", "second": "2-digit",
                    "dayPeriod": "long"}}  # fmt: skip
    code = main(["eval", condition, "--payload", json.dumps(scope)])
    assert code != 0
    assert message in capsys.readouterr().err, condition


@pytest.mark.parametrize(
    ("zone", "condition", "answer"),
    [
        # measured: TZ=Asia/Kolkata node -p '...'
        ("Asia/Kolkata", "new Intl.DateTimeFormat().resolvedOptions().timeZone", "Asia/Calcutta"),
        ("Asia/Kolkata", "new Intl.DateTimeFormat('en', payload.ts).format(0)", "5:30 AM"),
        ("US/Eastern", "new Intl.DateTimeFormat().resolvedOptions().timeZone", "America/New_York"),
        ("Etc/UTC", "new Intl.DateTimeFormat().resolvedOptions().timeZone", "UTC"),
    ],
)  # fmt: skip
def test_node_zone_is_tz(
    zone: str,
    condition: str,
    answer: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TZ", zone)
    scope = json.dumps({"answer": answer, "ts": {"timeStyle": "short"}})
    code = main(["eval", f"{condition} === payload.answer", "--payload", scope])
    assert (code, capsys.readouterr().out) == (0, "true\n"), condition


def test_a_tz_icu_does_not_read_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # node reads TZ as written: asia/kolkata is no zone to ICU (resolvedOptions().timeZone is
    # undefined there), so flowctx says so rather than guess
    monkeypatch.setenv("TZ", "asia/kolkata")
    code = main(["eval", "new Intl.DateTimeFormat().resolvedOptions().timeZone === 'UTC'"])
    assert code != 0
    assert (
        "flowctx does not reproduce node's time zone TZ='asia/kolkata'" in capsys.readouterr().err
    )
