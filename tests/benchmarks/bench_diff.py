"""Benchmark: ``flowctx diff`` on the demo, against ``flowctx check`` of the same workspace.

Run ``python tests/benchmarks/bench_diff.py [--runs 10]``.

The demo is copied into a fresh git repository in a temporary folder and committed; one default
is then changed in the working tree. Timed, each as the median of ``--runs``:

* baseline: ``check_report`` of the working tree (read, resolve and check every workflow once),
* reading the base revision through git (``read_side``: cat-file, into memory),
* reading the working tree (``folder_side``),
* the comparison itself (resolve, check and decide every source under every scenario, twice),
* the whole diff, as ``flowctx diff --base HEAD`` does it (the three above).

Figures are printed in milliseconds and as ratios to the baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flowctx_core.check import check_report  # noqa: E402
from flowctx_core.review.diff import compare, folder_side, read_side  # noqa: E402
from flowctx_core.session import open_session  # noqa: E402
from flowctx_tui.cli.workspace_args import demo_path  # noqa: E402


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid"}  # fmt: skip
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="flowctx-bench-diff-") as tmp:
        repo = Path(tmp)
        ws = repo / "ws"
        shutil.copytree(demo_path(), ws)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "demo")
        contract = ws / "workflows/Approvals/context_variables.yaml"
        contract.write_text(
            contract.read_text(encoding="utf-8").replace('default: "30"', 'default: "45"'),
            encoding="utf-8",
        )
        env: dict[str, str] = {}

        def baseline() -> None:
            session = open_session(ws, env=env)
            snap = session.snapshot()
            check_report(snap, session.inputs())

        base = read_side("HEAD", ws, env)
        head = folder_side(ws, env)
        diff = compare(base, head)
        assert diff.changed, "the edit must show as a change"

        def whole() -> None:
            compare(read_side("HEAD", ws, env), folder_side(ws, env))

        figures = {
            "baseline: check of the working tree": median_ms(baseline, args.runs),
            "read the base revision (git)": median_ms(
                lambda: read_side("HEAD", ws, env), args.runs
            ),
            "read the working tree": median_ms(lambda: folder_side(ws, env), args.runs),
            "compare (resolve, check, route x2)": median_ms(lambda: compare(base, head), args.runs),
            "flowctx diff --base HEAD, in all": median_ms(whole, args.runs),
        }
    reference = figures["baseline: check of the working tree"]
    workflows = len(diff.workflows)
    print(f"flowctx diff on the demo ({workflows} workflows), median of {args.runs} runs")
    for label, value in figures.items():
        print(f"  {label:<38} {value:8.1f} ms   {value / reference:5.2f}x baseline")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
