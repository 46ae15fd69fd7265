"""Benchmark: the first date formatted in each calendar, in a fresh process, against the
first in the Gregorian calendar (the tables each reads on first use: calendars, calendarparts,
calendarmonths beside the Gregorian's dates and skeletons).

Run ``python tests/benchmarks/bench_calendars.py [--repeat 5]``: for each calendar, the median
of the wall time a fresh interpreter takes to evaluate one ``toLocaleString`` with a set of
components (so the calendar's rows are read), minus the median of ``1 === 1``, and the ratio to
the Gregorian's; then the sizes of the tables.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

CALENDARS = ("gregory", "japanese", "persian", "buddhist", "roc", "iso8601", "islamic-civil",
             "islamic-tbla", "islamic", "islamic-rgsa", "islamic-umalqura", "hebrew", "coptic",
             "ethiopic", "ethioaa", "indian")  # fmt: skip
PROGRAM = """
from flowctx_core.expressions import evaluate
evaluate({expr!r}, {{"payload": {{"o": {{"weekday": "short", "year": "numeric", "month": "long",
    "day": "numeric", "hour": "numeric", "minute": "2-digit", "timeZone": "UTC"}}}}}}, "mj")
"""


def _run(expr: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", PROGRAM.format(expr=expr)], check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    base = statistics.median(_run("1 === 1") for _ in range(args.repeat))
    print(f"{'calendar':<18} {'first use (ms)':>15} {'vs gregory':>11}")
    gregory = None
    for calendar in CALENDARS:
        expr = f"new Date(1700000000000).toLocaleString('de-u-ca-{calendar}', payload.o)"
        cost = statistics.median(_run(expr) for _ in range(args.repeat)) - base
        gregory = gregory or cost
        print(f"{calendar:<18} {cost * 1000:>15.0f} {cost / gregory:>10.2f}x")
    tables = Path(__file__).resolve().parents[2] / "core" / "expressions" / "js" / "intl" / "tables"
    for name in ("calendars", "calendarparts", "calendarmonths", "dateparts", "skeletons"):
        size = (tables / f"{name}.json.gz").stat().st_size
        print(f"tables/{name}.json.gz: {size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
