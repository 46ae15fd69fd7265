"""Benchmark: start-up to a filled matrix, against bare Textual apps with the same widgets.

Run ``python tests/benchmarks/bench_startup.py [--repeat 9] [--before REV]``. Each measurement
is a fresh Python process (so imports count, as they do for a user), run headless at 120x36,
with byte-code written and read as an installed flowctx has it, interleaved round by round:

* bare: a bare Textual app with a TabbedContent of three panes, a DataTable with the demo's
  rows and columns (read from a JSON file computed once before timing) and a Footer (the
  baseline of the earlier rounds);
* bare, same widgets: the app's own widget tree and stylesheet (``app.tcss``) built from plain
  Textual widgets: five tab panes, the filter bar (label, Input, count), the problems line, the
  table beside the detail pane (stacked at this width, as the app is), the status line and a
  Footer with the app's footer keys; what Textual itself costs for what the app shows;
* core alone: the same process without Textual, importing flowctx and loading, resolving and
  checking the workflow as the app does before its first frame (``loader.load``);
* flowctx: the ``flowctx`` command on the bundled demo, through its own ``main`` (run headless
  into the pipe): parse, open the workspace, load, import the app, mount, the watcher on;
* with ``--before REV``: the same flowctx run on the code at REV (``git archive`` into a
  temporary folder, imported from there), for the before/after ratio.

Timed from spawning the process to the first screen refresh that shows every row (for
flowctx: before what the app itself schedules after that paint, the detail pane and the tests'
start, which are timed too as "settled"). CPU is the child's own at that moment (steadier than
wall time on a shared machine). Medians of ``--repeat``. The target is flowctx at most 1.3x
the bare app; the ratio against the same widgets says how much of the rest is flowctx's.
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

from tests.benchmarks.baseline import child_env, export, label, load_average  # noqa: E402

TARGET_RATIO = 1.3
WORKFLOW = "AppGenerator"

STAMP = r"""
import sys, time
def stamp(app, last=True):
    print(time.time(), time.process_time(), flush=True)
    if last:
        app.exit()
"""

BASELINE = (
    STAMP
    + r"""
import json
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
        # stamp at the first refresh after the rows are in the table
        self.call_after_refresh(stamp, self)

async def filled(pilot):
    pass

Bare().run(headless=True, size=(120, 36), auto_pilot=filled)
"""
)

SAME_WIDGETS = (
    STAMP
    + r"""
import json
from textual.app import App
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Footer, Input, Static, TabbedContent, TabPane
from rich.text import Text

ROWS = json.loads(open(sys.argv[1], encoding="utf-8").read())
TABS = ("Matrix", "Scratchpad", "Routes", "Graph", "Tests")

class SameWidgets(App):
    CSS_PATH = sys.argv[2]
    BINDINGS = [
        Binding(key, "bell", text)
        for key, text in (("w", "Workflow"), ("r", "Reveal"), ("l", "Launch"), ("f1", "Help"))
    ]
    AUTO_FOCUS = "#matrix-table"

    def compose(self):
        self.screen.add_class("-narrow")  # 120 columns: the detail pane under the table
        with TabbedContent(id="tabs"):
            for n, title in enumerate(TABS, 1):
                with TabPane(f"{n} {title}", id=title.lower()):
                    if title != "Matrix":
                        yield Static(f"The {title.lower()} view is loading", classes="view-loading")
                        continue
                    with Vertical(id="matrix-view"):
                        with Horizontal(id="filter-bar"):
                            yield Static("Filter", id="filter-label")
                            yield Input(placeholder="name  status:error", id="filter")
                            yield Static("32 variables", id="matrix-count")
                        yield Static("", id="problems")
                        with Horizontal(id="matrix-body"):
                            yield DataTable(
                                id="matrix-table", cursor_type="row", zebra_stripes=True
                            )
                            with VerticalScroll(id="detail"):
                                yield Static("detail", id="detail-body")
        yield Static("demo · AppGenerator · live", id="status")
        yield Footer()

    def on_mount(self):
        self.query_one("#problems").display = False
        table = self.query_one(DataTable)
        for label, width in zip(
            ("Name", "Type", "Source", "Status", "Value", "Origin", "Agents"),
            (22, 8, 16, 8, 20, 18, 12),
        ):
            table.add_column(label, width=width)
        for row in ROWS:
            table.add_row(*(Text(c) for c in row), key=row[0])
        self.call_after_refresh(stamp, self)

async def filled(pilot):
    pass

SameWidgets().run(headless=True, size=(120, 36), auto_pilot=filled)
"""
)

CORE_ALONE = (
    STAMP
    + r"""
import argparse
from flowctx_tui.cli.workspace_args import add_workspace_args, open_from_args, pick_workflow
from flowctx_tui import loader

parser = argparse.ArgumentParser()
add_workspace_args(parser)
args = parser.parse_args(["--workflow", sys.argv[1]])
session = open_from_args(args, quiet=True)
result = loader.load(session, pick_workflow(session, args.workflow), {}, {})
assert result.matrix.rows and "textual" not in sys.modules
print(time.time(), time.process_time(), flush=True)
"""
)

FLOWCTX = (
    STAMP
    + r"""
from flowctx_tui.cli import app_cmd, main
from flowctx_tui.app import FlowctxApp

# the `flowctx` command itself (its main(), as a user runs it), headless into this pipe
app_cmd.no_terminal_reason = lambda *streams: ""
run = FlowctxApp.run
def headless(self, *args, **kwargs):
    return run(self, headless=True, size=(120, 36), auto_pilot=settled)
FlowctxApp.run = headless

# the first paint with the rows: stamped before the app's own after-paint work (the detail
# pane, the tests' start) is scheduled, as the bare apps stamp right after their paint
apply = FlowctxApp._apply
def first_paint(self, result):
    if self.result is None:
        self.call_after_refresh(stamp, self, False)
    apply(self, result)
FlowctxApp._apply = first_paint

async def settled(pilot):
    # and once that work is done too
    pilot.app.call_after_refresh(stamp, pilot.app)

main(["--workflow", sys.argv[1]])
"""
)


def demo_rows() -> list[list[str]]:
    """The demo's matrix as the table shows it (cells as plain text)."""
    from flowctx_core.session import open_session
    from flowctx_tui.cli.workspace_args import demo_path
    from flowctx_tui.widgets.matrix import full_cells

    matrix = open_session(demo_path(), env={}).matrix(WORKFLOW)
    return [list(full_cells(r, reveal=False)) for r in matrix.rows]


def time_child(code: str, *args: str, tree: Path | None = None) -> list[tuple[float, float]]:
    """Per stamp the child printed: wall time from spawning to it, and its CPU time then."""
    started = time.time()
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tree or ROOT,
        env=child_env(tree),
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"child failed:\n{done.stderr[-2000:]}")
    stamps = [line.split() for line in done.stdout.strip().splitlines() if line.strip()]
    return [(float(wall) - started, float(cpu)) for wall, cpu in stamps]


def median(runs: list[list[tuple[float, float]]], stamp: int = 0) -> tuple[float, float]:
    return (
        statistics.median(r[stamp][0] for r in runs),
        statistics.median(r[stamp][1] for r in runs),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--before", metavar="REV", help="also time the app at this revision")
    args = parser.parse_args(argv)
    rows = demo_rows()
    css = str(ROOT / "flowctx_tui" / "app.tcss")
    with tempfile.TemporaryDirectory() as tmp:
        before_tree = export(args.before, Path(tmp)) if args.before else None
        rows_file = Path(tmp) / "rows.json"
        rows_file.write_text(json.dumps(rows), encoding="utf-8")
        kinds = {
            "bare": lambda: time_child(BASELINE, str(rows_file)),
            "same": lambda: time_child(SAME_WIDGETS, str(rows_file), css),
            "core": lambda: time_child(CORE_ALONE, WORKFLOW),
            "flowctx": lambda: time_child(FLOWCTX, WORKFLOW),
        }
        if before_tree is not None:
            kinds["before"] = lambda: time_child(FLOWCTX, WORKFLOW, tree=before_tree)
        for run in kinds.values():  # one untimed run of each: disk cache and byte-code
            run()
        runs: dict[str, list[list[tuple[float, float]]]] = {kind: [] for kind in kinds}
        for _ in range(args.repeat):
            for kind, run in kinds.items():
                runs[kind].append(run())
    bare, same, core = median(runs["bare"]), median(runs["same"]), median(runs["core"])
    ours, settled = median(runs["flowctx"]), median(runs["flowctx"], 1)
    print(
        f"demo workflow {WORKFLOW}: {len(rows)} rows, 120x36, {args.repeat} runs each "
        f"(interleaved), median; {load_average()} at the end"
    )
    print(f"  {'':56} {'wall':>8} {'CPU':>8}")

    def line(text: str, figure: tuple[float, float]) -> None:
        print(f"  {text:<56} {figure[0] * 1000:5.0f} ms {figure[1] * 1000:5.0f} ms")

    line("bare Textual: 3 tabs, DataTable, Footer (the baseline)", bare)
    line("bare Textual, the app's widgets and stylesheet", same)
    line("flowctx's core alone: import, load, resolve, check", core)
    line("flowctx: first frame with the rows", ours)
    line("flowctx: settled (detail pane filled, tests started)", settled)
    ratio = ours[1] / bare[1]
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER"
    print(
        f"  flowctx / bare: {ours[0] / bare[0]:.2f}x wall, {ratio:.2f}x CPU "
        f"(target <= {TARGET_RATIO}x CPU): {verdict}"
    )
    print(
        f"  flowctx / bare with the app's widgets: {ours[0] / same[0]:.2f}x wall, "
        f"{ours[1] / same[1]:.2f}x CPU"
    )
    own = ours[1] - same[1] - (core[1] - bare_python_cpu())
    print(
        f"  of flowctx's CPU: Textual with these widgets {same[1] * 1000:.0f} ms, the core "
        f"{(core[1] - bare_python_cpu()) * 1000:.0f} ms (beyond Python's start), the app's own "
        f"rest {own * 1000:.0f} ms"
    )
    if "before" in runs:
        was = median(runs["before"])
        print(f"  before: {label(args.before or '')}")
        line("flowctx before: first frame with the rows", was)
        print(
            f"  before / bare: {was[1] / bare[1]:.2f}x CPU -> after {ratio:.2f}x CPU; "
            f"after / before: {ours[0] / was[0]:.2f}x wall, {ours[1] / was[1]:.2f}x CPU"
        )
    return 0


def bare_python_cpu() -> float:
    """CPU of a Python that starts and stops (what every child pays before its own work)."""
    cpus = [time_child(STAMP + "\nprint(time.time(), time.process_time())")[0][1] for _ in range(5)]
    return statistics.median(cpus)


if __name__ == "__main__":
    raise SystemExit(main())
