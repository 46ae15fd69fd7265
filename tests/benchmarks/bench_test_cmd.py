"""Benchmark: ``flowctx test`` cases per second, against resolving the workspace once.

Run ``python tests/benchmarks/bench_test_cmd.py [--cases 10,100,1000] [--repeat 5]``. The demo
workspace is copied to a temporary folder and given a test file of N cases over its
AppGenerator routes (context values vary per case, so cases share one snapshot and matrix as
most real suites do; every tenth case sets an environment variable, which costs a resolution
of its own). Timed in the same run, best of N:

* baseline: ``session.matrix("AppGenerator")``, one load and resolution of the workflow;
* test: ``run_workspace_tests`` on the file (parse, validate, resolve per distinct env, route
  and judge each case), and the same with ``measure`` (coverage) added.

Printed: each time, the ratio to the baseline, and cases per second. The aim: a case costs a
small fraction of a resolution (cases reuse one snapshot).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from flowctx_core.session import open_session
from flowctx_core.testing.coverage import default_matrices, measure
from flowctx_core.testing.run import run_workspace_tests
from flowctx_tui.cli.workspace_args import demo_path

SOURCES = [
    ("InterviewAgent", "{interview_complete: %s}", "PlannerAgent"),
    ("PlannerAgent", "{plan_approved: %s}", "PatternAgent"),
    ("ReviewAgent", "{deploy_choice: %s}", "terminate"),
]


def test_file(n: int) -> str:
    lines = ["workflow: AppGenerator", "cases:"]
    for i in range(n):
        source, ctx, target = SOURCES[i % len(SOURCES)]
        value = "production" if source == "ReviewAgent" else "true"
        lines.append(f"  - name: case {i}")
        if i % 10 == 9:
            lines.append(f"    env: {{MAX_BUILD_ITERATIONS: {i}}}")
        lines.append(f"    context: {ctx % value}")
        lines.append(f"    expect:\n      route: {{from: {source}, to: {target}}}")
    return "\n".join(lines) + "\n"


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", default="10,100,1000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        shutil.copytree(demo_path(), root)
        shutil.rmtree(root / ".flowctx" / "tests", ignore_errors=True)
        (root / ".flowctx" / "tests").mkdir(parents=True)
        session = open_session(root, env={})
        base = best(lambda: session.matrix("AppGenerator"), args.repeat)
        print(f"baseline: one resolution of AppGenerator {base * 1000:.1f} ms")
        for n in (int(x) for x in args.cases.split(",")):
            (root / ".flowctx" / "tests" / "bench.yaml").write_text(test_file(n))
            run = run_workspace_tests(session)
            assert run.passed == n, (run.passed, run.failed, run.problems)
            t = best(lambda: run_workspace_tests(session), args.repeat)

            def with_coverage() -> None:
                done = run_workspace_tests(session)
                snap = session.snapshot(["AppGenerator"])
                routes = {"AppGenerator": snap.routes["AppGenerator"]}
                measure(done, routes, default_matrices(session, routes))

            c = best(with_coverage, args.repeat)
            print(
                f"{n:>5} cases: test {t * 1000:8.1f} ms ({t / base:5.1f}x a resolution, "
                f"{n / t:7.0f} cases/s, {t / n / base:.3f} resolutions per case); "
                f"with coverage {c * 1000:8.1f} ms ({n / c:7.0f} cases/s)"
            )


if __name__ == "__main__":
    main()
