"""Measure the long zone names node 20 prints in Date's toString and toTimeString, for every zone
Python's zoneinfo knows (core/expressions/js/datezonenames.json).

V8 asks ICU for the zone's long name in en-US, standard or daylight as daylight saving time
applies at the instant; which of the two is read is decided in flowctx by ``dates._daylight``
(Python's zoneinfo), so each zone's names are kept by that flag: instants from 1970 to 2038 are
printed by node and flagged by Python, and a zone whose flag does not decide its name (two names
under one flag) is left out (flowctx keeps refusing there). Run: python scripts/date_zone_names.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import zoneinfo
from datetime import UTC, datetime, timedelta
from pathlib import Path

OUT = Path(__file__).parent.parent / "core" / "expressions" / "js" / "datezonenames.json"
STEP_MS = 5 * 86_400_000 + 3_600_000 * 7  # every 5 days and 7 hours: all hours of the day met
START, END = 0, (2**31 - 1) * 1000
NODE = r"""
const [zones, times] = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = {};
for (const z of zones) {
  process.env.TZ = z;  // node resets its zone cache on assignment
  out[z] = times.map(t => {
    const s = new Date(t).toString();
    return s.slice(s.indexOf('(') + 1, -1);
  });
}
process.stdout.write(JSON.stringify(out));
"""


def main() -> None:
    times = list(range(START, END, STEP_MS))
    zones = sorted(zoneinfo.available_timezones())
    proc = subprocess.run(
        ["node", "-e", NODE],
        input=json.dumps([zones, times]),
        capture_output=True,
        text=True,
        check=True,
    )
    printed = json.loads(proc.stdout)
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    table: dict[str, list[str]] = {}
    left_out = []
    for z in zones:
        zone = zoneinfo.ZoneInfo(z)
        names: list[set[str]] = [set(), set()]
        for t, name in zip(times, printed[z], strict=True):
            flag = bool((epoch + timedelta(milliseconds=t)).astimezone(zone).dst())
            names[flag].add(name)
        if len(names[0]) > 1 or len(names[1]) > 1 or (not names[0] and not names[1]):
            left_out.append(z)
            continue
        std = next(iter(names[0]), None)
        dst = next(iter(names[1]), None)
        table[z] = [std or dst or "", dst or std or ""]
    OUT.write_text(json.dumps(table, indent=0, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"{len(table)} zones written, {len(left_out)} left out: {left_out}", file=sys.stderr)


if __name__ == "__main__":
    main()
