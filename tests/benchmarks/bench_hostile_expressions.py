"""Benchmark: how long the hostile expressions of tests/core/test_expressions_api.py take.

Run ``python tests/benchmarks/bench_hostile_expressions.py [--repeat 5]``. Each hostile case
(huge repetitions, deep nesting, callbacks inside callbacks, long strings) is evaluated with
and without explain, best of N, beside a trivial comparison in the same dialect measured in the
same run; the ratio shows how much more a hostile input costs than the cheapest one. The
sandbox's budgets should keep every case in milliseconds (the old timed test allowed 1 s).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere in the checkout
    sys.path.insert(0, str(ROOT))

from core.expressions import evaluate  # noqa: E402
from tests.core.test_expressions_api import HOSTILE, HOSTILE_SCOPE  # noqa: E402

TRIVIAL = {"mj": "a === 1", "ag2": "${a} == 1", "python": "a == 1"}


def best_ms(dialect: str, text: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        evaluate(text, HOSTILE_SCOPE, dialect)
        evaluate(text, HOSTILE_SCOPE, dialect, explain=True)
        best = min(best, (time.process_time() - start) * 1000)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    floor = {d: best_ms(d, t, args.repeat * 20) for d, t in TRIVIAL.items()}
    print("CPU time of evaluate + evaluate(explain=True), best of N; floor = a trivial comparison")
    print(f"{'dialect':8} {'case':42} {'ms':>9} {'floor ms':>9} {'ratio':>9}")
    worst = 0.0
    for dialect, text in HOSTILE:
        ms = best_ms(dialect, text, args.repeat)
        worst = max(worst, ms)
        ratio = ms / floor[dialect] if floor[dialect] else float("inf")
        print(f"{dialect:8} {text[:40]!r:42} {ms:9.2f} {floor[dialect]:9.3f} {ratio:8.0f}x")
    print(f"slowest hostile case: {worst:.1f} ms")


if __name__ == "__main__":
    main()
