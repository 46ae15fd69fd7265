"""Benchmark: how fast an edit on disk reaches the screen, and the matrix with 3,000 rows.

Run ``python tests/benchmarks/bench_reload.py [--edits 20] [--rows 3000] [--before REV]``.

1. Reload latency (target: on screen within 40 ms of the save, median). The real app runs
   headless on a copy of the demo with the real file watcher. Each edit changes one default in the
   contract, alternately written in place and saved editor-style (temporary file + rename).
   Timed from the end of the save to: the watcher's report (FilesChanged), the resolved result
   (WorkspaceLoaded), the new value in the table, and the next screen refresh (on screen).

2. 3,000 rows. A generated contract with that many variables, no watcher. Timed: start-up to
   the filled matrix; a reload where one value changed, split into the worker's load and
   resolve (core) and the table's update in place by row key plus the paint; the same table
   cleared and refilled with every row and painted (what in-place updates avoid: the baseline
   in this run); typing a filter that leaves a handful of rows, and clearing it; one keystroke
   at a time, typing ``var_0001`` and deleting it again (target: 35 ms a keystroke, median);
   the same keystrokes in a bare Textual app (an Input and a DataTable with the same cells and
   column widths, refilled with ``clear`` and ``add_row``: Textual's own figure for them);
   sorting.

With ``--before REV`` both parts also run on the code at REV (``git archive`` into a temporary
folder), each side in its own child process, alternating for ``--rounds`` rounds; each figure
is printed for both with the ratio after/before. The keystroke's CPU time (this process's,
nothing else runs in it meanwhile) is printed beside its wall time: on a shared machine it is
the steadier of the two.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    # after PYTHONPATH: a "before" child imports flowctx from the tree it names
    sys.path.append(str(ROOT))

from flowctx_core.session import open_session  # noqa: E402
from flowctx_tui.app import FlowctxApp  # noqa: E402
from flowctx_tui.cli.workspace_args import demo_path  # noqa: E402
from flowctx_tui.messages import FilesChanged, WorkspaceLoaded  # noqa: E402
from flowctx_tui.widgets.matrix import full_cells, row_cells  # noqa: E402

CONTRACT = "workflows/AppGenerator/context_variables.yaml"
#: save-to-screen on the demo, median
TARGET_MS = 40.0
#: one keystroke in the filter at 3,000 rows, median
TARGET_KEY_MS = 35.0


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def summary(label: str, values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return f"  {label:<34} median {ms(statistics.median(values))}   p95 {ms(p95)}"


def cell(app: FlowctxApp, name: str, column: str) -> str:
    try:
        value = app.matrix_view.table.get_cell(name, column)
    except Exception:
        return ""
    return getattr(value, "plain", str(value))


async def painted(app: FlowctxApp) -> None:
    """Return once the screen has refreshed after now."""
    done = asyncio.Event()
    app.call_after_refresh(done.set)
    await done.wait()


async def until(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.perf_counter() + timeout
    while not predicate():
        if time.perf_counter() > deadline:
            raise SystemExit("benchmark: timed out")
        await asyncio.sleep(0.0005)


#: what each part measures, in the order printed: key -> label
RELOAD_FIGURES = {
    "detect": "watcher reported the change",
    "resolved": "resolved off the UI thread",
    "table": "new value in the table",
    "screen": "on screen (next refresh)",
    "write": "  ... plain writes",
    "rename": "  ... editor saves (temp+rename)",
}
ROWS_FIGURES = {
    "first": "start-up to the filled matrix",
    "in_place": "reload, one value changed",
    "worker": "  load + resolve (worker thread)",
    "ui": "  table update in place + paint",
    "refill": "baseline: clear + refill + paint",
    "narrow": "filter down to 10 rows",
    "widen": "clear the filter (all rows back)",
    "keystrokes": "one filter keystroke (type, delete)",
    "keystroke_cpu": "  ... its CPU time",
    "bare_keystrokes": "Textual alone: the same keystrokes",
    "bare_keystroke_cpu": "  ... its CPU time",
    "sorting": "sort by status",
}
Figures = dict[str, list[float]]


async def reload_latency(edits: int) -> Figures:
    seen: dict[type, float] = {}

    def hook(message: Any) -> None:
        if isinstance(message, (FilesChanged, WorkspaceLoaded)):
            seen.setdefault(type(message), time.perf_counter())

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "demo"
        shutil.copytree(demo_path(), root)
        path = root / CONTRACT
        original = path.read_text(encoding="utf-8")
        app = FlowctxApp(open_session(root, env={}), "AppGenerator", watch=True)
        detect, resolved, table, screen, modes = [], [], [], [], {"write": [], "rename": []}
        async with app.run_test(size=(120, 36), message_hook=hook) as pilot:
            await until(lambda: app.result is not None)
            await pilot.pause(0.3)  # let the watcher settle
            for i in range(edits):
                value = f"bench-{i}"
                text = original.replace("default: preview\n", f"default: {value}\n", 1)
                mode = "rename" if i % 2 else "write"
                seen.clear()
                if mode == "rename":
                    tmp_file = path.with_name(f".{path.name}.swp-save")
                    tmp_file.write_text(text, encoding="utf-8")
                    os.replace(tmp_file, path)
                else:
                    path.write_text(text, encoding="utf-8")
                saved = time.perf_counter()
                await until(lambda v=value: cell(app, "deploy_choice", "value") == v)
                in_table = time.perf_counter()
                await painted(app)
                on_screen = time.perf_counter()
                detect.append(seen.get(FilesChanged, in_table) - saved)
                resolved.append(seen.get(WorkspaceLoaded, in_table) - saved)
                table.append(in_table - saved)
                screen.append(on_screen - saved)
                modes[mode].append(on_screen - saved)
                await pilot.pause(0.05)
    return {
        "detect": detect,
        "resolved": resolved,
        "table": table,
        "screen": screen,
        "write": modes["write"],
        "rename": modes["rename"],
    }


def big_contract(rows: int) -> str:
    lines = ["definitions:"]
    for i in range(rows):
        name = f"var_{i:05d}"
        if i % 3 == 0:
            lines += [
                f"  {name}:",
                "    type: string",
                f"    source: {{type: config, env_var: BENCH_{i}, default: value-{i}}}",
            ]
        elif i % 3 == 1:
            lines += [
                f"  {name}:",
                "    type: integer",
                f"    source: {{type: state, default: {i}}}",
            ]
        else:
            lines += [f"  {name}:", "    type: object", "    source: {type: computed}"]
    lines += ["agents:", "  Agent:", "    variables: [var_00000, var_00001]"]
    return "\n".join(lines) + "\n"


async def many_rows(rows: int) -> Figures:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "big"
        path = root / "workflows" / "Big" / "context_variables.yaml"
        path.parent.mkdir(parents=True)
        path.write_text(big_contract(rows), encoding="utf-8")
        started = time.perf_counter()
        app = FlowctxApp(open_session(root, env={}), "Big", watch=False)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(lambda: app.result is not None, timeout=60)
            await painted(app)
            first = time.perf_counter() - started
            view = app.matrix_view
            total = len(app.good.matrix.rows)
            assert view.table.row_count == total

            # one value changed on disk: the table is updated in place, by row key
            in_place, worker = [], []
            for i in range(5):
                # a state default (a config default is ignored when its env var is declared)
                edited = big_contract(rows).replace(
                    "{type: state, default: 1}", f"{{type: state, default: {90000 + i}}}", 1
                )
                path.write_text(edited)
                before = app.result
                t = time.perf_counter()
                app.reload({path})
                await until(lambda b=before: app.result is not b, timeout=60)
                await painted(app)
                in_place.append(time.perf_counter() - t)
                worker.append(app.result.elapsed_ms / 1000 if app.result else 0.0)
                assert cell(app, "var_00001", "value") == str(90000 + i)
            ui = [total_ - work for total_, work in zip(in_place, worker, strict=True)]

            # baseline in the same run: clear the table and add every row again
            refill = []
            table = view.table
            widths = dict(view._widths)
            cells = [
                row_cells(r, full_cells(r, reveal=False), widths) for r in app.good.matrix.rows
            ]
            keys = [r.name for r in app.good.matrix.rows]
            for _ in range(3):
                t = time.perf_counter()
                with app.batch_update():
                    table.clear()
                    for key, row in zip(keys, cells, strict=True):
                        table.add_row(*row, key=key)
                await painted(app)
                refill.append(time.perf_counter() - t)
            view.show_matrix(app.good.matrix)  # back to the app's own bookkeeping
            await pilot.pause()

            # filtering as the user types, and clearing the filter
            filter_input = app.query_one("#filter")
            narrow, widen = [], []
            for _ in range(3):
                t = time.perf_counter()
                filter_input.value = "var_0001"
                await until(lambda: len(view.shown_names) == 10)
                await painted(app)
                narrow.append(time.perf_counter() - t)
                t = time.perf_counter()
                filter_input.value = ""
                await until(lambda: len(view.shown_names) == total)
                await painted(app)
                widen.append(time.perf_counter() - t)

            # one keystroke at a time: each prefix of the word typed, then deleted char by char
            word = "var_0001"
            keystrokes, keystroke_cpu = [], []
            prefixes = [word[:k] for k in range(1, len(word) + 1)]
            prefixes += [word[:k] for k in range(len(word) - 1, -1, -1)]
            for _ in range(2):
                for prefix in prefixes:
                    want = sum(1 for r in app.good.matrix.rows if prefix in r.name.lower())
                    t, c = time.perf_counter(), time.process_time()
                    filter_input.value = prefix
                    await until(lambda w=want: len(view.shown_names) == w)
                    await painted(app)
                    keystrokes.append(time.perf_counter() - t)
                    keystroke_cpu.append(time.process_time() - c)

            bare = (keys, cells, widths)

            # sorting by status (most urgent first)
            sorting = []
            for _ in range(3):
                t = time.perf_counter()
                view.sort_column = "status"
                view.sort_reverse = not view.sort_reverse
                view._apply_sort()
                await painted(app)
                sorting.append(time.perf_counter() - t)
    bare_keystrokes, bare_cpu = await bare_filter(*bare, prefixes)
    return {
        "bare_keystrokes": bare_keystrokes,
        "bare_keystroke_cpu": bare_cpu,
        "rows": [float(total)],
        "first": [first],
        "in_place": in_place,
        "worker": worker,
        "ui": ui,
        "refill": refill,
        "narrow": narrow,
        "widen": widen,
        "keystrokes": keystrokes,
        # the CPU time of this process (nothing else runs in it meanwhile) is steadier on a
        # busy machine than the wall time, which waits for the other processes on the cores
        "keystroke_cpu": keystroke_cpu,
        "sorting": sorting,
    }


async def bare_filter(
    keys: list[str], cells: list[Any], widths: dict[str, int], prefixes: list[str]
) -> tuple[list[float], list[float]]:
    """The keystrokes in a bare Textual app: an Input, and a DataTable with the same cells
    and column widths that is cleared and refilled with the matching rows (``add_row``, by key)."""
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable, Input

    rows = list(zip(keys, cells, strict=True))

    class Bare(App[None]):
        def compose(self) -> ComposeResult:
            yield Input(id="filter")
            yield DataTable(id="table", cursor_type="row", zebra_stripes=True)

        def on_mount(self) -> None:
            table = self.query_one(DataTable)
            for key, width in widths.items():
                table.add_column(key, key=key, width=width)
            for key, row in rows:
                table.add_row(*row, key=key)

        def on_input_changed(self, event: Input.Changed) -> None:
            word = event.value.lower()
            table = self.query_one(DataTable)
            table.clear()
            shown = [(k, c) for k, c in rows if word in k.lower()]
            for key, row in shown:
                table.add_row(*row, key=key)

    app = Bare()
    wall, cpu = [], []
    async with app.run_test(size=(160, 48)) as pilot:
        await painted(app)
        table = app.query_one(DataTable)
        filter_input = app.query_one(Input)
        for prefix in prefixes:  # once: each keystroke is a refill of up to 3,000 rows
            want = sum(1 for k in keys if prefix in k.lower())
            t, c = time.perf_counter(), time.process_time()
            filter_input.value = prefix
            await until(lambda w=want: table.row_count == w, timeout=60)
            await painted(app)
            wall.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        await pilot.pause()
    return wall, cpu


def compare(label: str, after: list[float], before: list[float] | None) -> str:
    """One figure: median and p95, and with a before, its median and the ratio."""
    line = summary(label, after)
    if before:
        was = statistics.median(before)
        line += f"   before {ms(was)}   {statistics.median(after) / was:5.2f}x"
    return line


def report(args: argparse.Namespace, after: Figures, before: Figures | None) -> None:
    def verdict(values: list[float], target_ms: float) -> str:
        return "ok" if statistics.median(values) * 1000 <= target_ms else "OVER"

    print(f"reload latency: {args.edits} edits of the demo contract, real watcher")
    for key, label in RELOAD_FIGURES.items():
        print(compare(label, after[key], before[key] if before else None))
    screen = verdict(after["screen"], TARGET_MS)
    was = f" (before: {verdict(before['screen'], TARGET_MS)})" if before else ""
    print(f"  target: median on screen <= {TARGET_MS:.0f} ms: {screen}{was}")
    total = int(after["rows"][0])
    print(f"\nmatrix with {total} rows ({args.rows} declared + runtime rows), 160x48")
    for key, label in ROWS_FIGURES.items():
        print(compare(label, after[key], before[key] if before else None))
        if key == "refill":
            ratio = statistics.median(after["ui"]) / statistics.median(after["refill"])
            print(f"  in-place update / refill ratio: {ratio:.2f}x (the cursor and scroll stay)")
        if key == "keystroke_cpu":
            key_ = verdict(after["keystrokes"], TARGET_KEY_MS)
            was = f" (before: {verdict(before['keystrokes'], TARGET_KEY_MS)})" if before else ""
            print(f"  target: median keystroke <= {TARGET_KEY_MS:.0f} ms: {key_}{was}")


def measure(edits: int, rows: int) -> Figures:
    figures = asyncio.run(reload_latency(edits))
    figures.update(asyncio.run(many_rows(rows)))
    return figures


def run_child(tree: Path | None, args: argparse.Namespace) -> Figures:
    """This script's measurement in a child process, importing flowctx from ``tree`` (this
    checkout when None)."""
    from tests.benchmarks.baseline import child_env

    command = [sys.executable, __file__, "--json", "--edits", str(args.edits)]
    done = subprocess.run(
        [*command, "--rows", str(args.rows)],
        capture_output=True,
        text=True,
        env=child_env(tree),
        cwd=tree or ROOT,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"child failed:\n{done.stderr[-2000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    want = str((tree or ROOT).resolve())
    if not out["flowctx"].startswith(want):  # measured the code meant, or say so
        raise SystemExit(f"the child imported flowctx from {out['flowctx']}, not {want}")
    figures: Figures = out["figures"]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--before", metavar="REV", help="also measure the code at this revision")
    parser.add_argument("--rounds", type=int, default=2, help="with --before: rounds per side")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.json:  # a child of --before: the figures, for the parent to print
        import flowctx_tui

        figures = measure(args.edits, args.rows)
        print(json.dumps({"flowctx": flowctx_tui.__file__, "figures": figures}))
        return 0
    if not args.before:
        report(args, measure(args.edits, args.rows), None)
        return 0
    from tests.benchmarks.baseline import export, label, load_average

    with tempfile.TemporaryDirectory() as tmp:
        tree = export(args.before, Path(tmp))
        after: Figures = {}
        before: Figures = {}
        for _ in range(args.rounds):  # alternating, so both sides see the same load
            for side, figures in ((before, run_child(tree, args)), (after, run_child(None, args))):
                for key, values in figures.items():
                    side.setdefault(key, []).extend(values)
    after["rows"] = after["rows"][:1]
    print(f"after: this checkout; before: {label(args.before)}; {args.rounds} rounds each, ")
    print(f"alternating, in child processes; {load_average()} at the end\n")
    report(args, after, before)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
