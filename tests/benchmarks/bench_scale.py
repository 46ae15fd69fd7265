"""Benchmark: a workspace of 50 workflows, one of them with 3,000 variables.

Run ``python tests/benchmarks/bench_scale.py [--repeat 5] [--workflows 50] [--variables 3000]``.

Each figure is printed beside the floor it competes with, measured in the same run:

* ``flowctx check`` of the whole workspace and ``flowctx matrix`` of the big workflow, as the
  user runs them (a new process each time, wall time) against a process that only parses the
  same YAML files with PyYAML's C loader; and in-process (CPU time) against the same parse;
* the app: start-up to the filled 3,000-row matrix on screen against a bare Textual app that
  shows the same 3,000 rows in a DataTable (and an empty one: Textual's own start-up), and a
  reload after an edit against parsing the edited file with the C loader.

Best of ``--repeat`` runs, interleaved (flowctx, floor, flowctx, ...) so both see the same
machine load. The workspace mixes the source types of ``bench_resolve`` (config, state with
triggers, data_reference against the embedded database, file, computed).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere in the checkout
    sys.path.insert(0, str(ROOT))

from flowctx_core.check import check_workspace  # noqa: E402
from flowctx_core.session import open_session  # noqa: E402
from tests.benchmarks.bench_resolve import contract_text  # noqa: E402

BIG = "Big"


def write_workspace(base: Path, workflows: int, variables: int) -> Path:
    """``workflows`` folders: one with ``variables`` variables, the rest with 60 each."""
    root = base / "ws"
    for i in range(workflows):
        name = BIG if i == 0 else f"Flow{i:02d}"
        folder = root / "workflows" / name
        folder.mkdir(parents=True)
        text = contract_text(variables if name == BIG else 60)
        (folder / "context_variables.yaml").write_text(text, encoding="utf-8")
    (root / "config").mkdir()
    for k in range(10):
        (root / "config" / f"settings_{k}.json").write_text(
            json.dumps({"region": "eu", "tier": k}), encoding="utf-8"
        )
    seed = root / "seed" / "appdb"
    seed.mkdir(parents=True)
    docs = [
        {"app_id": "app-1", "slot": s, "limit": 100 + s, "owner": f"team-{s}"} for s in range(20)
    ]
    (seed / "policies.json").write_text(json.dumps(docs), encoding="utf-8")
    (root / "fallbacks.json").write_text(json.dumps({"global": {}}), encoding="utf-8")
    (root / "flowctx.yaml").write_text(
        "env:\n  MOZAIKS_CONTEXT_FALLBACKS_FILE: fallbacks.json\n  BENCH_FLAG_0: 'on'\n"
        "launch:\n  app_id: app-1\n",
        encoding="utf-8",
    )
    return root


def contracts(root: Path) -> list[Path]:
    return sorted(root.glob("workflows/*/context_variables.yaml"))


# --- timing helpers ---------------------------------------------------------------------------


def cpu(fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.process_time()
    fn()
    return time.process_time() - start


def wall_process(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def best_pair(a: Callable[[], float], b: Callable[[], float], repeat: int) -> tuple[float, float]:
    best_a = best_b = float("inf")
    for _ in range(repeat):
        best_a = min(best_a, a())
        best_b = min(best_b, b())
    return best_a, best_b


def line(label: str, ours: float, floor: float, floor_label: str) -> str:
    return (
        f"  {label:<38} {ours * 1000:9.0f} ms   {floor_label:<34} {floor * 1000:8.0f} ms"
        f"   {ours / floor:6.2f}x"
    )


PARSE_ONLY = (
    "import sys, yaml\n"
    "for f in sys.argv[1:]:\n"
    "    yaml.load(open(f, encoding='utf-8').read(), Loader=yaml.CSafeLoader)\n"
)


def cli_figures(root: Path, repeat: int) -> list[str]:
    files = [str(p) for p in contracts(root)]
    big = str(root / "workflows" / BIG / "context_variables.yaml")
    env_python = [sys.executable]
    flowctx = [sys.executable, "-m", "flowctx_tui"]
    out = []
    check, parse_all = best_pair(
        lambda: wall_process([*flowctx, "check", str(root)]),
        lambda: wall_process([*env_python, "-c", PARSE_ONLY, *files]),
        repeat,
    )
    out.append(
        line("flowctx check (every workflow)", check, parse_all, "python: C-load every file")
    )
    matrix, parse_big = best_pair(
        lambda: wall_process([*flowctx, "matrix", str(root), "-w", BIG, "--format", "json"]),
        lambda: wall_process([*env_python, "-c", PARSE_ONLY, big]),
        repeat,
    )
    out.append(line("flowctx matrix -w Big --format json", matrix, parse_big, "python: C-load Big"))

    session = open_session(root, env={})
    texts = [Path(f).read_text(encoding="utf-8") for f in files]
    big_text = Path(big).read_text(encoding="utf-8")
    check_cpu, parse_cpu = best_pair(
        lambda: cpu(lambda: check_workspace(open_session(root, env={}))),
        lambda: cpu(lambda: [yaml.load(t, Loader=yaml.CSafeLoader) for t in texts]),
        repeat,
    )
    out.append(line("check_workspace, in-process CPU", check_cpu, parse_cpu, "C-load every file"))
    matrix_cpu, big_cpu = best_pair(
        lambda: cpu(lambda: session.matrix(BIG)),
        lambda: cpu(lambda: yaml.load(big_text, Loader=yaml.CSafeLoader)),
        repeat,
    )
    out.append(line("load + resolve Big, in-process CPU", matrix_cpu, big_cpu, "C-load Big"))
    return out


# --- the app ----------------------------------------------------------------------------------


async def painted(app: Any) -> None:
    done = asyncio.Event()
    app.call_after_refresh(done.set)
    await done.wait()


async def until(predicate: Callable[[], object], timeout: float = 120.0) -> None:
    deadline = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > deadline:
            raise SystemExit("benchmark: timed out")
        await asyncio.sleep(0.001)


async def app_start(root: Path) -> tuple[float, int]:
    from flowctx_tui.app import FlowctxApp

    started = time.perf_counter()
    app = FlowctxApp(open_session(root, env={}), BIG, watch=False)
    async with app.run_test(size=(160, 48)):
        await until(lambda: app.result is not None)
        await painted(app)
        elapsed = time.perf_counter() - started
        rows = app.matrix_view.table.row_count
    return elapsed, rows


async def bare_start(rows: list[tuple[str, ...]]) -> float:
    """A bare Textual app: a DataTable with the same cells (or nothing when ``rows`` is
    empty), from construction to the first paint."""
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable, Static

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            if rows:
                yield DataTable(id="t")
            else:
                yield Static("hello")

        def on_mount(self) -> None:
            if rows:
                table = self.query_one(DataTable)
                table.add_columns(*(f"c{i}" for i in range(len(rows[0]))))
                for i, row in enumerate(rows):
                    table.add_row(*row, key=str(i))

    started = time.perf_counter()
    app = Bare()
    async with app.run_test(size=(160, 48)):
        await painted(app)
        return time.perf_counter() - started


async def app_reload(root: Path, repeat: int) -> tuple[float, float]:
    """An edit to the big contract, reloaded and painted; against C-loading the edited file."""
    from flowctx_tui.app import FlowctxApp

    path = root / "workflows" / BIG / "context_variables.yaml"
    original = path.read_text(encoding="utf-8")
    app = FlowctxApp(open_session(root, env={}), BIG, watch=False)
    best = float("inf")
    texts = []
    async with app.run_test(size=(160, 48)):
        await until(lambda: app.result is not None)
        for i in range(repeat):
            text = original.replace("Feature switch number 0 ", f"Switch {i} ", 1)
            path.write_text(text, encoding="utf-8")
            before = app.result
            start = time.perf_counter()
            app.reload({path})
            await until(lambda b=before: app.result is not b)
            await painted(app)
            best = min(best, time.perf_counter() - start)
            texts.append(text)
    path.write_text(original, encoding="utf-8")
    # the floor outside the app, so that its threads do not slow it down; CPU time, as the
    # parse is single-threaded (wall time here would also count whatever else runs)
    floor = min(cpu(lambda t=text: yaml.load(t, Loader=yaml.CSafeLoader)) for text in texts)
    return best, floor


def app_figures(root: Path, repeat: int) -> list[str]:
    from flowctx_tui.widgets.matrix import full_cells

    rows_ = open_session(root, env={}).matrix(BIG).rows
    plain = [full_cells(r, reveal=False) for r in rows_]
    start = bare = empty = float("inf")
    rows = 0
    for _ in range(repeat):
        took, rows = asyncio.run(app_start(root))
        start = min(start, took)
        bare = min(bare, asyncio.run(bare_start(plain)))
        empty = min(empty, asyncio.run(bare_start([])))
    reload_, parse = asyncio.run(app_reload(root, repeat))
    return [
        line(f"app start-up to {rows:,} rows painted", start, bare, "bare Textual app, same table"),
        line("app start-up to the matrix painted", start, empty, "bare Textual app, empty"),
        line("app reload after an edit, painted", reload_, parse, "C-load the edited file"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workflows", type=int, default=50)
    parser.add_argument("--variables", type=int, default=3000)
    args = parser.parse_args(argv)
    os.environ.pop("FLOWCTX_MONGO_URI", None)
    with tempfile.TemporaryDirectory(prefix="flowctx-scale-") as tmp:
        root = write_workspace(Path(tmp), args.workflows, args.variables)
        size = sum(p.stat().st_size for p in contracts(root))
        print(
            f"{args.workflows} workflows ({BIG}: {args.variables:,} variables, the others 60), "
            f"{size / 1e6:.1f} MB of contracts; best of {args.repeat}, interleaved with the floor"
        )
        print(f"  {'':<38} {'flowctx':>12}   {'floor':<34} {'':>11}   {'ratio':>7}")
        for row in cli_figures(root, args.repeat):
            print(row)
        for row in app_figures(root, args.repeat):
            print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
