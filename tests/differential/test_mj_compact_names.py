"""A compact number's unit and currency name against MemberJunction 5.51.3 under node, in one
batch: ICU chooses the unit's or the name's words by the number before the compact step
divides it, rounded as the options round it (ru's 1,2 тыс. л. is 1235 years, "many"), and a
compact word of its own for exactly one (fr's mille) stands for every value one (1,0 K) but
not for -1; the sign is the compact pattern's (sw-CD's yuro elfu +1); a name that holds its
symbol (pt-CV's € euro, en-AT's) leaves it out beside a compact word."""

from __future__ import annotations

import random

from flowctx_core.expressions.js.intl.data import table
from tests.differential.draw import judge
from tests.differential.oracle import MjOracle

SEED = 61
EXPR = "new Intl.NumberFormat(payload.l, payload.o).format(payload.n)"
PARTS = "new Intl.NumberFormat(payload.l, payload.o).formatToParts(payload.n)"
NUMBERS = [1234.5678, 1200, 1000, 1500, 2e6, 21000, 1.5e9, 1100000, "1234.5678", 1e6, 1.5,
           15.67, 1001, 1021.4, 999999, 11000, 3, -1000, -21000, 999.9, 1049, 31e6]  # fmt: skip
DIGITS = [{}, {}, {"maximumFractionDigits": 2}, {"minimumFractionDigits": 1},
          {"maximumSignificantDigits": 3}, {"signDisplay": "always"},
          {"roundingPriority": "lessPrecision", "maximumSignificantDigits": 2}]  # fmt: skip
PLURAL_RICH = ["ru", "ar", "pl", "uk", "lt", "cs", "fr", "he", "sl", "cy", "ga", "br", "mt",
               "be", "lv", "gd"]  # fmt: skip
# the locales whose names hold the symbol, or whose sign stands inside the compact word
NAMED = ["en-AT", "en-DE", "en-NL", "tr-TR", "pt-CV", "kea-CV", "sw-CD", "yrl", "fr-LU", "fr"]


def _options(r: random.Random) -> dict[str, object]:
    o: dict[str, object] = {"notation": "compact", "compactDisplay": r.choice(["short", "long"])}
    if r.random() < 0.6:
        o.update(style="unit", unit=r.choice(["year", "day", "meter", "byte", "hour"]))
        o["unitDisplay"] = r.choice(["short", "long", "narrow"])
    else:
        o.update(style="currency", currency=r.choice(["USD", "EUR", "RUB"]))
        o["currencyDisplay"] = "name"
    return {**o, **r.choice(DIGITS)}


def test_compact_units_and_names_agree_with_node(mj_oracle: MjOracle) -> None:
    r = random.Random(SEED)
    every = sorted(table("locales")["number"])
    tags = PLURAL_RICH * 40 + NAMED * 20 + r.sample(every, 300)
    cases = []
    for tag in tags:
        payload = {"l": tag, "o": _options(r), "n": r.choice(NUMBERS)}
        cases.append(("compact", (EXPR, {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["compact"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    # en-AT's names below a thousand and a few currencies' own patterns stay refused
    assert counts["agree"] >= len(cases) * 0.97, tally.table(examples=True)


def test_compact_ranges_agree_with_node(mj_oracle: MjOracle) -> None:
    """formatRange and its parts: the name's words once, after both ends (fr's "mille – 21
    mille dollars", whose one holds no digits), the approximately sign at every place a
    sign has (yrl's ~1 miliãu~ita), he's closing mark and the space before a name one
    literal."""
    r = random.Random(SEED + 1)
    every = sorted(table("locales")["number"])
    plain = [x for x in NUMBERS if not isinstance(x, str)]
    cases = []
    for tag in PLURAL_RICH * 12 + NAMED * 10 + r.sample(every, 150):
        a, b = sorted(r.choice(plain) for _ in range(2))
        if r.random() < 0.3:
            b = a  # ends that format alike
        method = r.choice(["formatRange", "formatRangeToParts", "formatToParts"])
        args = "payload.a, payload.b" if "Range" in method else "payload.a"
        expr = f"JSON.stringify(new Intl.NumberFormat(payload.l, payload.o).{method}({args}))"
        payload = {"l": tag, "o": _options(r), "a": a, "b": b}
        cases.append(("range", (expr, {"payload": payload})))
    tally = judge(mj_oracle, cases)
    counts = tally.counts["range"]
    assert counts["disagree"] == 0, tally.table(examples=True)
    # en-AT's and pt-CV's names in ranges stay refused
    assert counts["agree"] >= len(cases) * 0.95, tally.table(examples=True)


def test_compact_names_of_right_to_left_symbols(mj_oracle: MjOracle) -> None:
    """Whether a name holds its symbol is read without the mark a right-to-left symbol writes
    after itself (ar's د.إ.‏): the name's parts gain no stray mark."""
    cases = []
    for tag in ("ar", "ar-EG", "fa", "he"):
        for code in ("AED", "EGP", "KWD", "USD"):
            for n in (5, 1500, 2e6, -21000):
                o = {"style": "currency", "currency": code, "currencyDisplay": "name",
                     "notation": "compact"}  # fmt: skip
                expr = f"JSON.stringify({PARTS})"
                cases.append(("rtl", (expr, {"payload": {"l": tag, "o": o, "n": n}})))
    tally = judge(mj_oracle, cases)
    assert tally.counts["rtl"]["agree"] == len(cases), tally.table(examples=True)
