"""Benchmark: start-up to a filled matrix, against a bare Textual app with the same widgets.

Run ``python tests/benchmarks/bench_startup.py [--repeat 5]``. Each measurement is a fresh
Python process (so imports count, as they do for a user), run headless, alternating:

* baseline: a bare Textual app with a TabbedContent of three panes, a DataTable with the same
  rows and columns (read from a JSON file, computed once before timing) and a Footer;
* flowctx: the real app on the bundled demo, built by the ``flowctx`` command's own code
  (``app_cmd.build_app``): open the workspace, import the app, mount, reload and resolve off
  the UI thread, fill the matrix, with the file watcher on.

The time is from spawning the process to the first screen refresh after the table holds
every row. The median of
the repetitions is printed for each, with the ratio. The target is a ratio of at most 1.3x.
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

TARGET_RATIO = 1.3
WORKFLOW = "AppGenerator"

BASELINE = r"""
import json, sys, time
from textual.app import App
from textual.widgets import DataTable, Footer, Static, TabbedContent, TabPane
from rich.text import Text

ROWS = json.loads(open(sys.argv[1], encoding="utf-8").read())


def stamp(app):
    print(time.time(), time.process_time(), flush=True)
    app.exit()

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
        # stamp at the first refresh after the rows are in the table
        self.call_after_refresh(stamp, self)

async def filled(pilot):
    pass

Bare().run(headless=True, size=(120, 36), auto_pilot=filled)
"""

FLOWCTX = r"""
import argparse, sys, time
from flowctx_tui.cli import app_cmd

# exactly what `flowctx` does before app.run(): parse, open the workspace, build the app
parser = argparse.ArgumentParser()
app_cmd.configure(parser)
app = app_cmd.build_app(parser.parse_args(["--workflow", sys.argv[1]]))


def stamp(app):
    print(time.time(), time.process_time(), flush=True)
    app.exit()

async def filled(pilot):
    app = pilot.app
    view = app.matrix_view
    show = view.show_matrix

    def show_and_stamp(*args, **kwargs):
        # stamp at the first refresh after the rows are in the table (before anything the
        # app itself schedules after that paint, such as filling the detail pane)
        app.call_after_refresh(stamp, app)
        return show(*args, **kwargs)

    if app.result is not None:  # flowctx loaded before starting: the first frame had the rows
        app.call_after_refresh(stamp, app)
    else:
        view.show_matrix = show_and_stamp

app.run(headless=True, size=(120, 36), auto_pilot=filled)
"""


def demo_rows() -> list[list[str]]:
    """The demo's matrix as the table shows it (cells as plain text)."""
    from flowctx_core.session import open_session
    from flowctx_tui.cli.workspace_args import demo_path
    from flowctx_tui.widgets.matrix import full_cells

    matrix = open_session(demo_path(), env={}).matrix(WORKFLOW)
    return [list(full_cells(r, reveal=False)) for r in matrix.rows]


def time_child(code: str, *args: str) -> tuple[float, float]:
    """Wall time from spawning to the stamp, and the child's CPU time at the stamp."""
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
    stamp, cpu = (float(x) for x in done.stdout.strip().splitlines()[-1].split())
    return stamp - started, cpu


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
    b = statistics.median(w for w, _ in base)
    o = statistics.median(w for w, _ in ours)
    bc = statistics.median(c for _, c in base)
    oc = statistics.median(c for _, c in ours)
    ratio = o / b
    print(f"demo workflow {WORKFLOW}: {len(rows)} rows, {args.repeat} runs each, median")
    print("                                                  wall      CPU of the process")
    print(
        f"  baseline (bare Textual, same widgets and rows): {b * 1000:5.0f} ms  {bc * 1000:5.0f} ms"
    )
    print(
        f"  flowctx (open, resolve, fill the matrix):       {o * 1000:5.0f} ms  {oc * 1000:5.0f} ms"
    )
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER"
    print(f"  ratio {ratio:.2f}x wall, {oc / bc:.2f}x CPU (target <= {TARGET_RATIO}x): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
