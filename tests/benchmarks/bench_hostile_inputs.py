"""Benchmark: what each hostile file or argument of issue 13 costs a command, against the same
command on a clean workspace measured in the same run.

Run ``python tests/benchmarks/bench_hostile_inputs.py``. Each case is run in-process through
``flowctx``'s ``main()`` (modules imported once beforehand, so this is the command's own work),
best of 3 CPU seconds, and printed with its ratio to the clean baseline. Before issue 13 the
regex cases ran 15 s to minutes, ``--data @/dev/zero`` until the kernel killed it (23 GB) and
the recursive alias ended in RecursionError.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from flowctx_tui.cli import main

CONTRACT = "workflows/W/context_variables.yaml"


def workspace(base: Path, name: str, definitions: str, extra: dict[str, str] | None = None) -> Path:
    root = base / name
    files = {
        CONTRACT: f"definitions:\n{definitions}agents:\n  Agent: {{variables: [v]}}\n",
        **(extra or {}),
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def cpu(args: list[str]) -> float:
    best = float("inf")
    for _ in range(3):
        out, err = io.StringIO(), io.StringIO()
        start = time.process_time()
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            contextlib.suppress(SystemExit),
        ):
            main(args)
        best = min(best, time.process_time() - start)
        assert "Traceback" not in out.getvalue() + err.getvalue()
    return best


def main_bench() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        dref = "  v: {type: object, source: {type: data_reference, database_name: default, "
        seed = {"seed/default/c.json": json.dumps([{"s": "a" * 32 + "!"}])}
        clean = workspace(base, "clean", dref + "collection: c, query_template: {s: x}}}\n", seed)
        cases: dict[str, Callable[[], list[str]]] = {
            "seed $regex (a|aa)+$ on 33 characters, matrix": lambda: [
                "matrix",
                str(
                    workspace(
                        base,
                        "rx",
                        dref + "collection: c, query_template: {s: {$regex: '(a|aa)+$'}}}}\n",
                        seed,
                    )
                ),
            ],
            "trigger regex ^(a|aa)+$ on 35 characters": lambda: [
                "trigger",
                str(
                    workspace(
                        base,
                        "tr",
                        "  v: {type: boolean, source: {type: state, default: false, triggers: "
                        '[{type: user_text, match: {regex: "^(a|aa)+$"}}]}}\n',
                    )
                ),
                "--user",
                "a" * 34 + "!",
            ],
            "recursive alias in the contract, matrix": lambda: [
                "matrix",
                str(
                    workspace(
                        base,
                        "alias",
                        "  v: {type: array, source: {type: config, default: &r [1, *r]}}\n",
                    )
                ),
            ],
            "5,000-digit integer in a file source, matrix": lambda: [
                "matrix",
                str(
                    workspace(
                        base,
                        "int",
                        "  v: {type: object, source: {type: file, path: d.json}}\n",
                        {"d.json": '{"n": ' + "1" * 5000 + "}"},
                    )
                ),
            ],
            "eval --data @/dev/zero (64 MiB cap)": lambda: [
                "eval",
                "--data",
                "@/dev/zero",
                "true",
            ],
            "eval --data 100,000 levels deep": lambda: [
                "eval",
                "--data",
                "[" * 100_000 + "]" * 100_000,
                "true",
            ],
        }
        baseline = cpu(["matrix", str(clean)])
        eval_base = cpu(["eval", "--data", "{}", "true"])
        print(f"{'case':<50} {'CPU s':>7} {'baseline':>9} {'ratio':>6}")
        print(f"{'clean matrix (baseline)':<50} {baseline:7.3f}")
        print(f"{'eval --data {} true (baseline)':<50} {eval_base:7.3f}")
        for name, make in cases.items():
            args = make()
            took = cpu(args)
            base_s = eval_base if args[0] == "eval" else baseline
            print(f"{name:<50} {took:7.3f} {base_s:9.3f} {took / base_s:6.1f}x")


if __name__ == "__main__":
    main_bench()
