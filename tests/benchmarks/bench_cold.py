"""Benchmark: cold start of the CLI, against bare Python doing the least it could.

Run ``python tests/benchmarks/bench_cold.py [--repeat 15]``. Each measurement is a fresh
process, as in a pre-commit hook; pairs are interleaved so both see the same machine load:

* ``flowctx check`` on a tiny workspace (one workflow, three variables) against
  ``python -c 'import yaml, pydantic'`` (target: at most 1.5x);
* ``flowctx --help`` against ``python -c pass`` (target: at most 1.3x);
* the same check against the least a pydantic-validated file costs: import yaml and pydantic,
  build one model and validate one value (no target: it shows how much of the check is what
  any use of a pydantic model pays: its ``main``/``fields`` modules, the validator build and
  the plugin scan through ``importlib.metadata``).

The ``flowctx`` console script of this interpreter is used when installed (what a user runs),
else ``python -m flowctx_tui``. Byte-code is written and warmed first, as on a user's machine
(the child environment drops ``PYTHONDONTWRITEBYTECODE``). Medians of wall time and of the
child's CPU time (user + system) are printed; on a shared machine the CPU figure is the steadier.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TINY = """\
definitions:
  greeting:
    type: string
    source: {type: config, env_var: GREETING, default: hello}
  stage:
    type: string
    source: {type: state, default: start}
  count:
    type: integer
    source: {type: state, default: 0}
agents:
  Greeter:
    variables: [greeting, stage]
"""

TARGETS = {"check": 1.5, "help": 1.3}

#: the floor of any command that validates a file with a pydantic model
ONE_MODEL = """\
import yaml
from pydantic import BaseModel
class One(BaseModel):
    name: str
One.model_validate({"name": "x"})
"""


def flowctx_command() -> list[str]:
    script = Path(sys.executable).parent / "flowctx"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "flowctx_tui"]


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("FLOWCTX_MONGO_URI", None)
    return env


def run_once(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and the child's CPU seconds (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # check exits 1 on errors; the tiny workspace has none
        raise SystemExit(f"{args} failed:\n{done.stderr.decode()[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def pair(
    ours: list[str], anchor: list[str], repeat: int, env: dict[str, str]
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    run_once(ours, env)  # warm byte-code and the disk cache
    run_once(anchor, env)
    a, b = [], []
    for _ in range(repeat):
        a.append(run_once(ours, env))
        b.append(run_once(anchor, env))
    return a, b


def report(label: str, anchor_label: str, ours: list, anchor: list, target: float) -> None:
    ow = statistics.median(w for w, _ in ours)
    aw = statistics.median(w for w, _ in anchor)
    oc = statistics.median(c for _, c in ours)
    ac = statistics.median(c for _, c in anchor)
    wall_ok = "ok" if ow / aw <= target else "OVER"
    cpu_ok = "ok" if oc / ac <= target else "OVER"
    if not target:  # a floor, not a target
        wall_ok = cpu_ok = "no target"
    print(f"  {label:<34} {ow * 1000:6.0f} ms wall {oc * 1000:6.0f} ms CPU")
    print(f"  {anchor_label:<34} {aw * 1000:6.0f} ms wall {ac * 1000:6.0f} ms CPU")
    print(
        f"  ratio {ow / aw:.2f}x wall ({wall_ok}), {oc / ac:.2f}x CPU ({cpu_ok})"
        + (f"; target <= {target}x" if target else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    env = child_env()
    flowctx = flowctx_command()
    py = [sys.executable]
    with tempfile.TemporaryDirectory(prefix="flowctx-cold-") as tmp:
        folder = Path(tmp) / "workflows" / "Tiny"
        folder.mkdir(parents=True)
        (folder / "context_variables.yaml").write_text(TINY, encoding="utf-8")
        check, imports = pair(
            [*flowctx, "check", tmp], [*py, "-c", "import yaml, pydantic"], args.repeat, env
        )
        help_, bare = pair([*flowctx, "--help"], [*py, "-c", "pass"], args.repeat, env)
        check2, one_model = pair([*flowctx, "check", tmp], [*py, "-c", ONE_MODEL], args.repeat, env)
    print(f"cold start, fresh processes, median of {args.repeat} (interleaved)")
    report(
        "flowctx check (tiny workspace)",
        "python -c 'import yaml, pydantic'",
        check,
        imports,
        TARGETS["check"],
    )
    report("flowctx --help", "python -c pass", help_, bare, TARGETS["help"])
    report("flowctx check (tiny workspace)", "python: one pydantic model", check2, one_model, 0)
    floor = statistics.median(c for _, c in one_model) / statistics.median(c for _, c in imports)
    print(f"  one pydantic model alone is {floor:.2f}x 'import yaml, pydantic' (CPU)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
