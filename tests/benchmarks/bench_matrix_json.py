"""Benchmark: ``flowctx matrix --format json`` as a user runs it, against PyYAML's C loader.

Run ``python tests/benchmarks/bench_matrix_json.py [--sizes 10,300,3000,max] [--repeat 5]
[--before DIR] [--compact]``. For each size a workspace with one workflow of that many
variables (the source mix of bench_resolve: config, state with triggers, data_reference
against the embedded database, file, computed) is written, and fresh processes are timed,
interleaved:

* ``flowctx matrix PATH --format json`` (load, validate, resolve, the authority policy, the
  JSON built, masked and written: all the command does), with the garbage collector on, as
  the command runs;
* a process that reads the same contract with ``yaml.load(text, Loader=yaml.CSafeLoader)``.

The marginal cost of a size is its median CPU time minus that of the smallest size (the start
of a process and its imports cancel out). Targets: at 3,000 variables, flowctx's marginal at
most 1.3x the C loader's; and linear: its marginal per variable at the largest size within
10% of that at 300 (``max`` is the largest contract of this mix flowctx reads, under the byte
and node budgets of ``flowctx_core.base.yamlmarks``: about 6,900 variables, so 8,000 of them
are refused before any work). ``--compact`` writes the same sources in fewer YAML values
(bench_resolve's compact mix: no descriptions, one trigger per state variable), so the
linearity target's 8,000 variables fit under the same budgets (``max``: about 8,600); run it
with ``--sizes 10,300,3000,8000``. ``--before DIR`` runs a checkout of earlier code beside
the current one (tests/benchmarks/clitiming.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from clitiming import load_line, python, run_once, versions

from tests.benchmarks.bench_resolve import (
    WORKFLOW,
    largest_accepted,
    write_workspace,
)

PROFILE = (
    "env:\n  MOZAIKS_CONTEXT_FALLBACKS_FILE: fallbacks.json\n  BENCH_FLAG_0: 'on'\n"
    "launch:\n  app_id: app-1\n"
)
C_LOAD = (
    "import sys, yaml\n"
    "with open(sys.argv[1], encoding='utf-8') as f:\n"
    "    yaml.load(f.read(), Loader=yaml.CSafeLoader)\n"
)
TARGET_RATIO = 1.3
TARGET_GROWTH = 0.10
#: runs of each size up to 300 variables per round (cheap; see main)
SMALL_EXTRA = 4


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,300,3000,max")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", metavar="DIR", help="a checkout of earlier code to compare")
    parser.add_argument(
        "--compact", action="store_true", help="the compact mix: 8,000 variables fit the budgets"
    )
    args = parser.parse_args(argv)
    sizes = sorted(
        largest_accepted(args.compact) if s.strip() == "max" else int(s)
        for s in args.sizes.split(",")
    )
    flowctx = versions(args.before)
    env = flowctx[-1].env
    cpu: dict[str, dict[int, list[float]]] = {v.label: {} for v in flowctx}
    cpu["C loader"] = {}
    with tempfile.TemporaryDirectory(prefix="flowctx-matrix-json-") as tmp:
        roots = {}
        for n in sizes:
            root, _ = write_workspace(Path(tmp), n, args.compact)
            (root / "flowctx.yaml").write_text(PROFILE, encoding="utf-8")
            roots[n] = root
        contract = {
            n: str(r / "workflows" / WORKFLOW / "context_variables.yaml") for n, r in roots.items()
        }

        def commands(n: int) -> dict[str, tuple[list[str], dict[str, str]]]:
            out = {
                v.label: (v("matrix", str(roots[n]), "--format", "json"), v.env) for v in flowctx
            }
            out["C loader"] = ([*python(C_LOAD), contract[n]], env)
            return out

        for n in sizes:  # warm byte-code, the disk cache, and check every run succeeds
            for args_, env_ in commands(n).values():
                run_once(args_, env_, ok=(0,))
        for _ in range(args.repeat):
            for n in sizes:
                # the marginal of a small size is a few ms over a process of ~180 ms: more
                # runs, so the scheduler's noise does not decide the linearity figure
                for _ in range(SMALL_EXTRA if n <= 300 else 1):
                    for name, (args_, env_) in commands(n).items():
                        cpu[name].setdefault(n, []).append(run_once(args_, env_, ok=(0,))[1])
    median = {name: {n: statistics.median(v) for n, v in by.items()} for name, by in cpu.items()}
    floor = sizes[0]
    print(
        f"flowctx matrix --format json, fresh processes, CPU median of {args.repeat} "
        f"(x{SMALL_EXTRA} up to 300 variables) "
        f"(interleaved); marginal = minus the {floor}-variable run; "
        f"{'compact' if args.compact else 'full'} mix; {load_line()}"
    )
    head = f"{'variables':>9} {'C loader':>10}"
    for v in flowctx:
        head += f" {v.label:>10} {'ratio':>6} {'us/var':>7}"
    print(head)
    c_marg = {n: median["C loader"][n] - median["C loader"][floor] for n in sizes}
    for n in sizes[1:]:
        line = f"{n:>9,} {c_marg[n] * 1000:>8.0f}ms"
        for v in flowctx:
            m = median[v.label][n] - median[v.label][floor]
            line += f" {m * 1000:>8.0f}ms {m / c_marg[n]:>5.2f}x {m / n * 1e6:>7.1f}"
        print(line)
    print(
        f"(whole process at {floor} variables: C loader {median['C loader'][floor] * 1000:.0f} ms"
        + "".join(f", {v.label} {median[v.label][floor] * 1000:.0f} ms" for v in flowctx)
        + ")"
    )
    for v in flowctx:
        marg = {n: median[v.label][n] - median[v.label][floor] for n in sizes}
        if 3000 in marg:
            ratio = marg[3000] / c_marg[3000]
            verdict = "ok" if ratio <= TARGET_RATIO else "OVER"
            print(
                f"{v.label}: marginal at 3,000 variables {ratio:.2f}x the C loader "
                f"({verdict}; target <= {TARGET_RATIO}x)"
            )
        top = sizes[-1]
        if 300 in marg and top > 300:
            growth = (marg[top] / top) / (marg[300] / 300)
            verdict = "ok" if growth <= 1 + TARGET_GROWTH else "OVER"
            print(
                f"{v.label}: marginal per variable, 300 -> {top:,} variables: {growth:.2f}x "
                f"({verdict}; target <= {1 + TARGET_GROWTH:.1f}x)"
            )
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
