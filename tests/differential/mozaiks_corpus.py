"""A fresh, larger draw against the published Mozaiks runtime: agreement counts per kind.

    python tests/differential/mozaiks_corpus.py [--generated 2000] [--batch 250] [--seed N]
        [--examples 3]

Runs the 15 workflows shipped in ``mozaiks==0.2.0``'s wheel (copied into a temporary folder),
the demo, and ``--generated`` workspaces drawn afresh (or from ``--seed``), batched through one
harness process per ``--batch``; prints agree/disagree per kind for each set, the time each
side took, and ``--examples`` disagreements per kind (case, flowctx's answer, 0.2.0's answer,
the 0.2.0 function that decides). Installs the runtime's venv under ``tests/.cache`` on first
use.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.differential.mozaiks_cases import (
    demo_cases,
    demo_workspace,
    generated_cases,
    shipped_cases,
    shipped_workspace,
    with_factory_app,
)
from tests.differential.mozaiks_compare import KINDS, Case, Tally, compare_case
from tests.differential.mozaiks_oracle import MozaiksOracle, oracle_or_reason


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(oracle: MozaiksOracle, cases: list[Case], batch: int) -> tuple[Tally, str]:
    """Counts, and the time each side took: wall clock, and CPU seconds (the figure that does
    not depend on what else the machine is running)."""
    tally = Tally()
    cases = with_factory_app(oracle, cases)
    runtime_wall = flowctx_wall = runtime_cpu = flowctx_cpu = 0.0
    for start in range(0, len(cases), batch):
        chunk = cases[start : start + batch]
        t0, c0 = time.perf_counter(), _children_cpu()
        answers = oracle.run([c.request() for c in chunk])
        t1, c1, p1 = time.perf_counter(), _children_cpu(), time.process_time()
        for case, answer in zip(chunk, answers, strict=True):
            compare_case(case, answer, tally)
        runtime_wall += t1 - t0
        runtime_cpu += c1 - c0
        flowctx_wall += time.perf_counter() - t1
        flowctx_cpu += time.process_time() - p1
    timing = (
        f"0.2.0 {runtime_wall:.1f} s wall / {runtime_cpu:.1f} s CPU, "
        f"flowctx {flowctx_wall:.1f} s wall / {flowctx_cpu:.1f} s CPU"
    )
    return tally, timing


def report(label: str, tally: Tally, timing: str, examples: int) -> None:
    table = tally.table()
    print(f"\n== {label}: {timing}")
    print(f"{'kind':16} {'agree':>8} {'disagree':>9}")
    for kind in KINDS:
        if kind in table:
            agree, disagree = table[kind]
            print(f"{kind:16} {agree:8} {disagree:9}")
    shown: dict[str, int] = {}
    for line in tally.lines(limit=10_000):
        kind = line.split(" | ")[0]
        if shown.get(kind, 0) < examples:
            shown[kind] = shown.get(kind, 0) + 1
            print("  " + line.replace("\n", "\\n"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generated", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=250)
    parser.add_argument("--seed", type=int, default=None, help="default: a fresh draw")
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args(argv)
    oracle = oracle_or_reason()
    if isinstance(oracle, str):
        print(f"cannot run: {oracle}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="mozaiks-corpus-") as tmp:
        base = Path(tmp)
        t0 = time.perf_counter()
        shipped = shipped_cases(shipped_workspace(oracle, base))
        report("15 shipped workflows", *measure(oracle, shipped, args.batch), args.examples)
        demo = demo_cases(demo_workspace(base))
        report("demo", *measure(oracle, demo, args.batch), args.examples)
        t1, p1 = time.perf_counter(), time.process_time()
        # a fresh draw is still a seeded one, so that what it finds can be drawn again
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        print(f"\n(generated workspaces: --seed {seed})")
        gen = generated_cases(base / "gen", args.generated, seed=seed)
        print(
            f"\n(drew {len(gen)} workspaces in {time.perf_counter() - t1:.1f} s wall / "
            f"{time.process_time() - p1:.1f} s CPU)"
        )
        report(f"{len(gen)} generated workspaces", *measure(oracle, gen, args.batch), args.examples)
        print(f"\ntotal {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
