"""The pieces of ICU's DateIntervalFormat that intervals.py rebuilds (its skeletons' handling, the
nearest interval skeleton, a pattern's widening and split, V8's spans); the whole is compared
with node in tests/differential/test_mj_datetime_intervals.py."""

from __future__ import annotations

import pytest

from flowctx_core.expressions.js.common import Unsupported
from flowctx_core.expressions.js.intl import intervals as I


@pytest.mark.parametrize(
    ("skeleton", "converted"),
    [
        ("ahhmm", "hamm"),  # one hour letter, the day period after it
        ("HHmm", "Hmm"),
        ("yMMMdahmm", "yMMMdhamm"),
        ("kkmm", "kmm"),
        ("Kmm", "Kamm"),  # a 12-hour letter without a day period gets a
        ("yMd", "yMd"),  # no hour: unchanged
    ],
)
def test_hour_written_as_one_letter(skeleton: str, converted: str) -> None:
    assert I._normalize_hour(skeleton, flexible=False) == converted


def test_flexible_day_periods_are_refused() -> None:
    with pytest.raises(Unsupported, match="flexible day periods"):
        I._normalize_hour("ahmm", flexible=True)
    assert I._normalize_hour("HHmm", flexible=True) == "Hmm"


@pytest.mark.parametrize(
    ("skeleton", "split"),
    [
        ("yMMddhamm", ("yMMdd", "yMd", "hamm", "ahm")),
        ("yyMMMMEEEd", ("yyMMMMEEEd", "yyMMMMEd", "", "")),
        ("LLLLy", ("LLLLy", "LLLLy", "", "")),  # a stand-alone month stays as it is
        ("Hmmsszzzz", ("", "", "Hmmsszzzz", "ssHmz")),
        ("hamO", ("", "", "ham", "ahm")),  # the localized GMT format is in neither
    ],
)
def test_date_and_time_skeletons(skeleton: str, split: tuple[str, str, str, str]) -> None:
    assert I._split_skeleton(skeleton) == split


SKELETONS = {k: {} for k in ("d", "y", "Md", "MMMd", "MMMEd", "yMMM", "yMMMd", "yMMMM", "h",
                             "H", "hm", "Hm", "hmv", "Hmv")}  # fmt: skip


@pytest.mark.parametrize(
    ("skeleton", "best"),
    [
        ("MMMd", ("MMMd", 0)),
        ("MMMMd", ("MMMd", 1)),  # widths differ
        ("MMMMMd", ("MMMd", 1)),
        ("Md", ("Md", 0)),
        ("yMMMMM", ("yMMMM", 1)),  # the nearest width
        ("ahm", ("hm", 2)),  # a is stripped
        ("ahmz", ("hmv", 2)),  # z read as v
        ("Kam", ("hm", 2)),
        ("km", ("Hm", 2)),
    ],
)
def test_nearest_interval_skeleton(skeleton: str, best: tuple[str, int]) -> None:
    assert I._best(SKELETONS, skeleton) == best


def test_other_fields_are_no_match() -> None:
    assert I._best(SKELETONS, "ssahm")[1] == -1
    assert I._best(SKELETONS, "EEEE")[1] == -1


def test_equally_near_skeletons_are_refused() -> None:
    with pytest.raises(Unsupported, match="equally near"):
        I._best({"yMMMd": {}, "yMMMMMd": {}}, "yMMMMd")


def test_a_field_at_the_skeletons_width_is_widened() -> None:
    items = I.parse("MMM d\u2009–\u2009d, y")
    widened = I._adjust(items, "yMMMMd", "yMMMd", 1)
    assert widened == [("F", "M", 4), " ", ("F", "d", 1), "\u2009–\u2009", ("F", "d", 1),
                       ", ", ("F", "y", 1)]  # fmt: skip
    # a width the pattern writes otherwise than its skeleton is kept (ja's MM in yMd)
    assert I._adjust(I.parse("y/MM/dd"), "yMd", "yMd", 1) == I.parse("y/MM/dd")
    # v as z, h as K, where the skeleton asked for them
    swapped = I._adjust(I.parse("h:mm – h:mm a v"), "aKmz", "hmv", 2)
    assert [it[1] for it in swapped if isinstance(it, tuple)] == ["K", "m", "K", "m", "a", "z"]


def test_quoted_words_are_literals() -> None:
    assert I.parse("HH–HH' Uhr'") == [("F", "H", 2), "–", ("F", "H", 2), " Uhr"]
    assert I.parse("d 'de' MMMM") == [("F", "d", 1), " de ", ("F", "M", 4)]
    assert I.parse("h 'o''clock'") == [("F", "h", 1), " o'clock"]


@pytest.mark.parametrize(
    ("pattern", "at"),
    [
        ("MMM d – d, y", 4),  # the second d
        ("h:mm – h:mm a", 4),
        ("y–y", 2),
        ("d.–d. MMM", 2),
        ("MMM y", 3),  # nothing written twice: one part
    ],
)
def test_split_at_the_first_field_written_again(pattern: str, at: int) -> None:
    assert I.split_at(I.parse(pattern)) == at


def test_v8_reads_each_dates_span_from_the_fields_written_twice() -> None:
    pieces = [("Jan", "month"), (" ", None), ("5", "day"), (" – ", None), ("17", "day"),
              (", ", None), ("2006", "year")]  # fmt: skip
    assert I._v8_parts(pieces, 0) == [
        ("month", "Jan", "shared"), ("literal", " ", "shared"), ("day", "5", "startRange"),
        ("literal", " – ", "shared"), ("day", "17", "endRange"), ("literal", ", ", "shared"),
        ("year", "2006", "shared"),
    ]  # fmt: skip
    # the later date first: the first writing is the end's
    assert I._v8_parts(pieces, 1)[2] == ("day", "5", "endRange")
    # nothing written twice: no span (V8 writes the start date by its own pattern)
    assert I._v8_parts([("Jan", "month")], 0) is None
