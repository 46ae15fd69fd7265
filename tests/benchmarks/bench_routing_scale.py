"""Benchmark: ``graph``, ``check`` and ``diff`` on workflows of 100 to 1,000 agents.

Run ``python tests/benchmarks/bench_routing_scale.py [--agents 100,500,1000] [--repeat 3]
[--kinds transition_graph] [--code PATH]``. For each size it writes the workspace of
``tests/scale_workspace.py`` (5 rules per agent, every condition distinct: 500 agents is 2,500
rules per routing file) into a git repository with 5 saved scenarios and an edit, and prints
the CPU seconds of, each in a fresh interpreter (imports included, start-up of Python not):

* baseline: opening the workspace and resolving the workflow once (``Session.matrix``), the
  least any of the commands does;
* ``flowctx graph`` (text), ``flowctx check`` and ``flowctx diff --base HEAD`` (6 scenarios:
  the default and the 5 saved ones, on both sides), and each one's ratio to the baseline.

``--code PATH`` measures another checkout's code (e.g. a worktree of main, for the figures
before a change) against the same workspaces. Best of ``--repeat`` runs, interleaved.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere in the checkout
    sys.path.insert(0, str(ROOT))

from tests.scale_workspace import KINDS, WORKFLOW, make_routing_repo  # noqa: E402

#: runs in the child: CPU seconds of one call, printed as JSON (stdout of the command dropped)
CHILD = """
import contextlib, io, json, sys, time
sys.path.insert(0, {code!r})
what, args = {what!r}, {args!r}
start = time.process_time()
if what == "baseline":
    from flowctx_core.session import open_session
    open_session({root!r}).matrix({workflow!r})
else:
    from flowctx_tui.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        main(args)
cpu = time.process_time() - start
print(json.dumps(cpu), file=sys.__stdout__)
"""


def cpu_of(code: Path, root: Path, what: str, args: list[str]) -> float:
    script = CHILD.format(code=str(code), what=what, args=args, root=str(root), workflow=WORKFLOW)
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=root,
        check=False,
        timeout=900,
    )
    if done.returncode != 0:
        raise SystemExit(f"{what} failed:\n{done.stderr[-2000:]}")
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--agents", default="100,500,1000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--kinds", default="transition_graph", help=f"of {', '.join(KINDS)}")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to measure")
    args = parser.parse_args()
    kinds = tuple(args.kinds.split(","))
    commands = {
        "graph": ["graph", "--format", "text"],
        "check": ["check"],
        "diff": ["diff", "--base", "HEAD"],
    }
    print(f"code: {args.code}; routing files: {', '.join(kinds)}; CPU seconds, best of "
          f"{args.repeat}")  # fmt: skip
    head = f"{'agents':>6} {'rules':>6} {'baseline':>9}"
    for name in commands:
        head += f" {name:>7} {'ratio':>6}"
    print(head)
    with tempfile.TemporaryDirectory() as tmp:
        for agents in (int(n) for n in args.agents.split(",")):
            root = make_routing_repo(Path(tmp) / f"ws{agents}", agents, kinds=kinds)
            best: dict[str, float] = {}
            for _ in range(args.repeat):
                for name, argv in [("baseline", []), *commands.items()]:
                    took = cpu_of(args.code, root, name, [*argv[:1], str(root), *argv[1:]])
                    best[name] = min(best.get(name, took), took)
            line = f"{agents:>6} {agents * 5 * len(kinds):>6} {best['baseline']:>9.2f}"
            for name in commands:
                line += f" {best[name]:>7.2f} {best[name] / best['baseline']:>6.1f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
