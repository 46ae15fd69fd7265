"""Benchmark: cold start of every command, against bare Python doing the least it could.

Run ``python tests/benchmarks/bench_cold.py [--repeat 15] [--before DIR]``. Each measurement
is a fresh process, as in a pre-commit hook; the commands and their anchors are interleaved so
all see the same machine load. Targets (CPU time, the steady figure on a shared machine):

* ``flowctx check`` on a tiny workspace (one workflow, three variables) against
  ``python -c 'import yaml, pydantic'``: at most 1.5x;
* ``flowctx eval '1 === 1'`` against ``python -c pass``: at most 2.5x;
* ``flowctx schema contract`` against ``python -c 'import pydantic'``: at most 2x;
* ``flowctx --help`` against ``python -c pass``: at most 1.3x.

Floors, without a target, show what no change inside flowctx can remove: for check, the least
a pydantic-validated file costs (import yaml and pydantic, build one model, validate one
value; pydantic's ``main``/``fields`` modules and the validator build are in any use of a
model); for eval, importing the mj engine (the JavaScript-semantics evaluator) with argparse
and json.

``--before DIR``: a checkout of earlier code (``git archive REV | tar -x -C DIR``), run the
same way beside the current one, so each target prints its ratio before and after. Without
it, the ``flowctx`` console script of this interpreter is timed (what a user runs). Byte-code
is written and warmed first, as on a user's machine. Medians of wall and CPU time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from clitiming import Flowctx, interleaved, load_line, python, verdict, versions

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

#: the least any command that validates a file with a pydantic model does
ONE_MODEL = """\
import yaml
from pydantic import BaseModel
class One(BaseModel):
    name: str
One.model_validate({"name": "x"})
"""
#: the least any command that evaluates an mj condition imports
MJ_ENGINE = "import argparse, json, flowctx_core.expressions.mj"

#: (label, flowctx arguments, anchor label, anchor code, target)
TARGETS: list[tuple[str, list[str], str, str, float | None]] = [
    ("check (tiny workspace)", ["check", "{tiny}"], "import yaml, pydantic",
     "import yaml, pydantic", 1.5),
    ("eval '1 === 1'", ["eval", "1 === 1"], "pass", "pass", 2.5),
    ("schema contract", ["schema", "contract"], "import pydantic", "import pydantic", 2.0),
    ("--help", ["--help"], "pass", "pass", 1.3),
    ("check (tiny workspace)", ["check", "{tiny}"], "one pydantic model", ONE_MODEL, None),
    ("eval '1 === 1'", ["eval", "1 === 1"], "import the mj engine", MJ_ENGINE, None),
]  # fmt: skip


def measure(
    flowctx: list[Flowctx], args: list[str], anchor: str, repeat: int
) -> dict[str, tuple[float, float]]:
    commands = {v.label: (v(*args), v.env) for v in flowctx}
    commands["anchor"] = (python(anchor), flowctx[-1].env)
    return interleaved(commands, repeat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--before", metavar="DIR", help="a checkout of earlier code to compare")
    args = parser.parse_args(argv)
    flowctx = versions(args.before)
    print(f"cold start, fresh processes, median of {args.repeat} (interleaved); {load_line()}")
    with tempfile.TemporaryDirectory(prefix="flowctx-cold-") as tmp:
        folder = Path(tmp) / "workflows" / "Tiny"
        folder.mkdir(parents=True)
        (folder / "context_variables.yaml").write_text(TINY, encoding="utf-8")
        for label, cmd, anchor_label, anchor, target in TARGETS:
            got = measure(flowctx, [a.format(tiny=tmp) for a in cmd], anchor, args.repeat)
            aw, ac = got.pop("anchor")
            print(f"flowctx {label}  vs  python -c '{anchor_label}'")
            print(f"  {'python anchor':<10} {aw * 1000:6.0f} ms wall {ac * 1000:6.0f} ms CPU")
            for name, (w, c) in got.items():
                print(
                    f"  {name:<10} {w * 1000:6.0f} ms wall {c * 1000:6.0f} ms CPU   "
                    f"{c / ac:5.2f}x CPU ({verdict(c / ac, target)}), {w / aw:5.2f}x wall"
                )
    print(load_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
