"""Benchmark: what hostile conditions cost against the evaluation bounds, and what the budget
costs on ordinary conditions.

Run ``python tests/benchmarks/bench_hostile_expressions.py [--repeat 5] [--no-before]``.

1. Each hostile condition (tests/core/test_expressions_api.py's HOSTILE and the issue-13 cases
   of tests/reliability/test_eval_bounds.py) is evaluated, with and without explain, in a
   forked child: its CPU time and peak memory growth (RSS high-water mark) are printed against
   the bounds (1 s of CPU, 100 MB).
2. The same cases run under the code before the budget (``--baseline REV``, by default the
   commit before ``core/expressions/budget.py`` was added, unpacked with ``git archive`` into
   a temporary folder), each in a child killed after ``--before-timeout`` seconds or at 4 GB:
   the "before" column.
3. The overhead: the ordinary corpus (the ~2,000 cases of the mj differential corpus and the
   cases of bench_expressions.py), evaluated with the budget and by the baseline in this run;
   the ratio is this code's time over the baseline's.
"""

from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import os
import pickle
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere in the checkout
    sys.path.insert(0, str(ROOT))

from flowctx_core.expressions import evaluate  # noqa: E402
from tests.benchmarks.bench_expressions import CASES as BENCH_CASES  # noqa: E402
from tests.core.test_expressions_api import HOSTILE, HOSTILE_SCOPE  # noqa: E402
from tests.differential import mj_corpus  # noqa: E402
from tests.reliability.test_eval_bounds import ANSWERED, REFUSED  # noqa: E402

CPU_BOUND_S = 1.0
MEMORY_BOUND_MB = 100.0
#: the child's address space in the "before" runs (the old code grew to 3.7 GB on one case)
BEFORE_MEMORY = 4 * 2**30

MEASURE = """
import gc, json, pickle, resource, sys, time
sys.path.insert(0, {root!r})
from flowctx_core.expressions import evaluate
dialect, text, scope = pickle.loads(sys.stdin.buffer.read())
gc.collect()
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.process_time()
result = evaluate(text, scope, dialect)
explained = evaluate(text, scope, dialect, explain=True)
cpu = time.process_time() - start
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
print(json.dumps([cpu, grown, result.success, result.error.message if result.error else ""]))
"""

CORPUS_TIMING = """
import pickle, sys, time
sys.path.insert(0, {root!r})
from flowctx_core.expressions import evaluate
cases, rounds = pickle.loads(sys.stdin.buffer.read())
for dialect, text, scope in cases:  # warm the parse cache
    evaluate(text, scope, dialect)
best = float("inf")
for _ in range(rounds):
    start = time.process_time()
    for dialect, text, scope in cases:
        evaluate(text, scope, dialect)
    best = min(best, time.process_time() - start)
print(best)
"""


def hostile_cases() -> list[tuple[str, str, dict[str, Any]]]:
    cases = [(d, t, HOSTILE_SCOPE) for d, t in HOSTILE]
    cases += [(d, t, {}) for d, t, _ in REFUSED]
    cases += [(d, t, {}) for d, t, _ in ANSWERED]
    return cases


def corpus_cases() -> list[tuple[str, str, dict[str, Any]]]:
    cases = [("mj", e, s) for e in mj_corpus.EXPRESSIONS for s in mj_corpus.SCOPES]
    cases += [(dialect, expr, scope) for _, dialect, expr, scope, _ in BENCH_CASES]
    return cases


def _child(dialect: str, text: str, scope: dict[str, Any], explain: bool, conn: Any) -> None:
    gc.collect()
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.process_time()
    result = evaluate(text, scope, dialect, explain=explain)
    cpu = time.process_time() - start
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
    message = result.error.message if result.error else ""
    conn.send((cpu, grown, result.success, message))
    conn.close()
    os._exit(0)


def _fork(dialect: str, text: str, scope: dict[str, Any], explain: bool) -> tuple[Any, ...]:
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(dialect, text, scope, explain, send))
    child.start()
    send.close()
    if not receive.poll(120):
        child.kill()
        child.join()
        return float("inf"), float("inf"), False, "hang (killed after 120 s)"
    got: tuple[Any, ...] = receive.recv()
    child.join()
    return got


def measure_now(dialect: str, text: str, scope: dict[str, Any]) -> tuple[float, float, float, str]:
    """CPU seconds of ``evaluate`` and of ``evaluate(explain=True)`` (each one evaluation,
    each in a fresh fork), the larger MB of peak RSS growth, and the outcome."""
    cpu, grown, ok, message = _fork(dialect, text, scope, False)
    explain_cpu, explain_grown, _, _ = _fork(dialect, text, scope, True)
    return cpu, explain_cpu, max(grown, explain_grown), "answered" if ok else message


def _limit_memory() -> None:  # runs in the "before" child between fork and exec
    resource.setrlimit(resource.RLIMIT_AS, (BEFORE_MEMORY, BEFORE_MEMORY))


def measure_before(
    baseline: Path, dialect: str, text: str, scope: dict[str, Any], timeout: float
) -> str:
    try:
        done = subprocess.run(
            [sys.executable, "-c", MEASURE.format(root=str(baseline))],
            input=pickle.dumps((dialect, text, scope)),
            capture_output=True,
            timeout=timeout,
            preexec_fn=_limit_memory,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f">{timeout:.0f} s (killed)"
    if done.returncode != 0:
        return f"crashed (exit {done.returncode}: MemoryError at 4 GB?)"
    cpu, grown, _ok, message = json.loads(done.stdout)
    if "MemoryError" in message or "too much memory" in message:
        return f"{cpu:.2f} s, {grown:.0f} MB, then out of memory"
    return f"{cpu:.3f} s, {grown:.0f} MB"


def baseline_tree(rev: str | None) -> tuple[Path, str] | None:
    """The expressions code before the budget, unpacked into a temporary folder."""
    if rev is None:
        added = subprocess.run(
            ["git", "log", "--diff-filter=A", "--format=%H", "--", "core/expressions/budget.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        if not added:
            return None
        rev = added[-1] + "^"
    folder = Path(tempfile.mkdtemp(prefix="flowctx-baseline-"))
    archive = subprocess.run(
        ["git", "archive", rev, "core"], cwd=ROOT, capture_output=True, check=False
    )
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder, rev


def time_corpus(root: Path, cases: list[Any], rounds: int) -> float:
    done = subprocess.run(
        [sys.executable, "-c", CORPUS_TIMING.format(root=str(root))],
        input=pickle.dumps((cases, rounds)),
        capture_output=True,
        check=True,
    )
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds of the corpus timing")
    parser.add_argument("--baseline", default=None, help="git revision before the budget")
    parser.add_argument("--before-timeout", type=float, default=15.0)
    parser.add_argument("--no-before", action="store_true", help="skip the baseline's runs")
    parser.add_argument(
        "--overhead-only", action="store_true", help="only the ordinary corpus's timing"
    )
    args = parser.parse_args()
    base = None if args.no_before else baseline_tree(args.baseline)

    if args.overhead_only:
        overhead(base, args.repeat)
        return
    print(f"bounds: {CPU_BOUND_S:.0f} s CPU, {MEMORY_BOUND_MB:.0f} MB peak growth per condition")
    print("(CPU s of evaluate, and of evaluate(explain=True); MB: the larger peak growth;")
    print(" each evaluation in a fresh fork)")
    if base is not None:
        print(f"before: the code at {base[1]} (evaluate + explain, in one child)")
    print(f"{'dialect':7} {'case':40} {'eval s':>7} {'expl s':>7} {'MB':>6} {'ok':>3}  outcome")
    worst_cpu = worst_mb = 0.0
    for dialect, text, scope in hostile_cases():
        cpu, explain_cpu, grown, outcome = measure_now(dialect, text, scope)
        worst_cpu, worst_mb = max(worst_cpu, cpu, explain_cpu), max(worst_mb, grown)
        within = max(cpu, explain_cpu) < CPU_BOUND_S and grown < MEMORY_BOUND_MB
        shown = textwrap.shorten(outcome, 44, placeholder="...")
        print(
            f"{dialect:7} {text[:38]!r:40} {cpu:7.3f} {explain_cpu:7.3f} {grown:6.1f} "
            f"{'yes' if within else 'NO':>3}  {shown}"
        )
        if base is not None:
            before = measure_before(base[0], dialect, text, scope, args.before_timeout)
            print(f"{'':48}before: {before}")
    print(f"worst: {worst_cpu:.3f} s CPU for one evaluation, {worst_mb:.1f} MB")
    overhead(base, args.repeat)


def overhead(base: tuple[Path, str] | None, repeat: int) -> None:

    cases = corpus_cases()
    print(f"\nordinary corpus: {len(cases)} conditions, best of {repeat} rounds a process,")
    print("the two processes alternated three times (the machine is shared: the minimum is kept)")
    now = before = float("inf")
    for _ in range(3 if base is not None else 1):
        now = min(now, time_corpus(ROOT, cases, repeat))
        if base is not None:
            before = min(before, time_corpus(base[0], cases, repeat))
    print(f"  with the budget: {now * 1e6 / len(cases):.2f} us a condition")
    if base is not None:
        print(f"  before it:       {before * 1e6 / len(cases):.2f} us a condition")
        print(f"  overhead ratio:  {now / before:.3f}x")
        shutil.rmtree(base[0], ignore_errors=True)


if __name__ == "__main__":
    main()
