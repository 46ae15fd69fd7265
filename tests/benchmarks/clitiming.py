"""Timing the ``flowctx`` command as a user runs it: fresh processes, CPU time.

Shared by the command-line benchmarks (bench_cold, bench_expressions' batch, bench_matrix_json).
On a shared machine the child's CPU time (user + system, from ``getrusage``) is the steady
figure; wall time is printed beside it where it helps. ``--before DIR`` in those scripts names
a checkout of earlier code (``git archive REV | tar -x -C DIR``): it is run the same way
(``python -P -m flowctx_tui`` with ``DIR`` first on ``PYTHONPATH``) beside the current code, in
the same run, so the printed before/after ratios see the same machine load.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Flowctx:
    """One version of the command: its argument list and environment."""

    label: str
    argv: tuple[str, ...]
    env: dict[str, str]

    def __call__(self, *args: str) -> list[str]:
        return [*self.argv, *args]


def base_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte-code written and reused, as installed
    env.pop("FLOWCTX_MONGO_URI", None)
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)  # flowctx's own choice is what is measured
    return env


def versions(before: str | None) -> list[Flowctx]:
    """The current code (its console script when installed, as a user runs it) and, with
    ``before``, the code in that folder run as ``python -P -m flowctx_tui``; then both that
    way, so that they start alike (``-P``: the working directory, this checkout, is not put
    ahead of ``PYTHONPATH``)."""
    env = base_env()
    script = Path(sys.executable).parent / "flowctx"
    if before is None:
        argv = (str(script),) if script.is_file() else (sys.executable, "-m", "flowctx_tui")
        return [Flowctx("flowctx", argv, env)]
    old = dict(env)
    old["PYTHONPATH"] = os.pathsep.join(p for p in (before, env.get("PYTHONPATH")) if p)
    now = Flowctx("after", (sys.executable, "-P", "-m", "flowctx_tui"), env)
    return [Flowctx("before", (sys.executable, "-P", "-m", "flowctx_tui"), old), now]


def run_once(
    args: list[str], env: dict[str, str], cwd: Path = ROOT, ok: tuple[int, ...] = (0, 1)
) -> tuple[float, float]:
    """Wall seconds and the child's CPU seconds (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:
        raise SystemExit(f"{args[:6]} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def interleaved(
    commands: dict[str, tuple[list[str], dict[str, str]]],
    repeat: int,
    cwd: Path = ROOT,
    ok: tuple[int, ...] = (0, 1),
) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of each command, run in turn ``repeat`` times after one
    warm-up run each (byte-code written, files in the disk cache)."""
    for args, env in commands.values():
        run_once(args, env, cwd, ok)
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, (args, env) in commands.items():
            runs[name].append(run_once(args, env, cwd, ok))
    return {
        name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r))
        for name, r in runs.items()
    }


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def load_line() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}), {os.cpu_count()} CPUs"


def verdict(ratio: float, target: float | None) -> str:
    if target is None:
        return "no target"
    return f"{'ok' if ratio <= target else 'OVER'}; target <= {target}x"
