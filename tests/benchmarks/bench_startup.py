"""Benchmark: start-up to a filled matrix, against a bare Textual app with the same widgets.

Run ``python tests/benchmarks/bench_startup.py [--repeat 5]``. Each measurement is a fresh
Python process (so imports count, as they do for a user), run headless, alternating:

* baseline: a bare Textual app with a TabbedContent of three panes, a DataTable with the same
  rows and columns (read from a JSON file, computed once before timing) and a Footer;
* flowctx: the real app on the bundled demo, built by the ``flowctx`` command's own code
  (``app_cmd.build_app``): open the workspace, import the app, mount, reload and resolve off
  the UI thread, fill the matrix, with the file watcher on.

The time is from spawning the process to the first screen refresh after the table holds
every row (both apps poll for that the same way, from a 1 ms timer in their own loop). The median of
the repetitions is printed for each, with the ratio. The target is a ratio of at most 1.5x.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_RATIO = 1.5
WORKFLOW = "AppGenerator"

BASELINE = r"""
import json, sys, time
from textual.app import App
from textual.widgets import DataTable, Footer, Static, TabbedContent, TabPane
from rich.text import Text

ROWS = json.loads(open(sys.argv[1], encoding="utf-8").read())

class Bare(App):
    def compose(self):
        with TabbedContent():
            with TabPane("Matrix"):
                yield DataTable(cursor_type="row")
            with TabPane("Scratchpad"):
                yield Static("scratchpad")
            with TabPane("Routes"):
                yield Static("routes")
        yield Footer()

    def on_mount(self):
        table = self.query_one(DataTable)
        table.add_columns("Name", "Type", "Source", "Status", "Value", "Origin", "Agents")
        for row in ROWS:
            table.add_row(*(Text(c) for c in row), key=row[0])

async def filled(pilot):
    app = pilot.app
    table = app.query_one(DataTable)
    stamp = lambda: (print(time.time(), flush=True), app.exit())

    def check():
        if table.row_count >= len(ROWS):
            timer.stop()
            app.call_after_refresh(stamp)  # once the filled table has been painted

    timer = app.set_interval(0.001, check)

Bare().run(headless=True, size=(120, 36), auto_pilot=filled)
"""

FLOWCTX = r"""
import argparse, sys, time
from flowctx_tui.cli import app_cmd

# exactly what `flowctx` does before app.run(): parse, open the workspace, build the app
parser = argparse.ArgumentParser()
app_cmd.configure(parser)
app = app_cmd.build_app(parser.parse_args(["--workflow", sys.argv[1]]))

async def filled(pilot):
    app = pilot.app
    stamp = lambda: (print(time.time(), flush=True), app.exit())

    def check():
        if app.reload_count >= 1:
            timer.stop()
            assert app.matrix_view.table.row_count == len(app.good.matrix.rows)
            app.call_after_refresh(stamp)  # once the filled table has been painted

    timer = app.set_interval(0.001, check)

app.run(headless=True, size=(120, 36), auto_pilot=filled)
"""


def demo_rows() -> list[list[str]]:
    """The demo's matrix as the table shows it (cells as plain text)."""
    from core.session import open_session
    from flowctx_tui.cli.workspace_args import demo_path
    from flowctx_tui.widgets.matrix import row_cells

    matrix = open_session(demo_path(), env={}).matrix(WORKFLOW)
    return [[c.plain for c in row_cells(r, reveal=False)] for r in matrix.rows]


def time_child(code: str, *args: str) -> float:
    started = time.time()
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"child failed:\n{done.stderr[-2000:]}")
    stamp = float(done.stdout.strip().splitlines()[-1])
    return stamp - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rows = demo_rows()
    with tempfile.TemporaryDirectory() as tmp:
        rows_file = Path(tmp) / "rows.json"
        rows_file.write_text(json.dumps(rows), encoding="utf-8")
        # one untimed run of each warms the disk cache and byte-code
        time_child(BASELINE, str(rows_file))
        time_child(FLOWCTX, WORKFLOW)
        base, ours = [], []
        for _ in range(args.repeat):
            base.append(time_child(BASELINE, str(rows_file)))
            ours.append(time_child(FLOWCTX, WORKFLOW))
    b, o = statistics.median(base), statistics.median(ours)
    ratio = o / b
    print(f"demo workflow {WORKFLOW}: {len(rows)} rows, {args.repeat} runs each, median")
    print(f"  baseline (bare Textual, same widgets and rows): {b * 1000:7.0f} ms")
    print(f"  flowctx (open, resolve, fill the matrix):       {o * 1000:7.0f} ms")
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER"
    print(f"  ratio {ratio:.2f}x (target <= {TARGET_RATIO}x): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
