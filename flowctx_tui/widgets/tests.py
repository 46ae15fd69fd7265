"""The Tests tab: every case of the workspace's ``.flowctx/tests`` files, PASS or FAIL, re-run
after every reload, with the selected case's verdicts and explain trees below the list.

Runs ``flowctx_core.testing.run.run_workspace_tests`` and ``coverage.measure`` (what
``flowctx test --coverage`` prints) off the UI thread, debounced; a stale run is dropped. The
coverage it measures is posted (``TestsRan``) so the routes and graph views can mark the rules
no case takes. Everything shown is masked as the command masks it, and escaped for the
terminal as every other view's text is.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import DataTable, Static

from flowctx_core.base.diagnostics import location
from flowctx_core.base.secrets import mask_text

if TYPE_CHECKING:
    from flowctx_core.model.matrix import Matrix
    from flowctx_core.routing import Routes
    from flowctx_core.session import Session
    from flowctx_core.testing.coverage import Coverage
    from flowctx_core.testing.run import TestRun

DEBOUNCE = 0.1
_STATUS_STYLE = {
    "PASS": "bold green",
    "FAIL": "bold red",
    "ERROR": "bold yellow",
    "WITHHELD": "bold magenta",
}


def _fitted(text: str, room: int | None) -> str:
    """``text`` cut to ``room`` cells with an ellipsis (None: whole)."""
    if room is None or len(text) <= room:
        return text
    return text[: room - 1] + "…"


@dataclass(frozen=True)
class TestsOutcome:
    __test__ = False  # not a pytest test class, whatever its name
    run: TestRun
    coverage: Coverage | None


def compute_tests(session: Session) -> TestsOutcome:
    """Run every test file of the workspace and measure coverage over the workflows tested.
    Runs in a thread."""
    from flowctx_core.testing.coverage import default_matrices, measure
    from flowctx_core.testing.run import run_workspace_tests

    run = run_workspace_tests(session)
    routes = {name: r for name, r in run.routes.items() if not r.empty}
    coverage = measure(run, routes, default_matrices(session, routes)) if routes else None
    return TestsOutcome(run, coverage)


class TestsRan(Message):
    """A test run finished: the app hands its coverage to the routes and graph views."""

    __test__ = False  # not a pytest test class, whatever its name

    def __init__(self, outcome: TestsOutcome) -> None:
        super().__init__()
        self.outcome = outcome


def _clean(text: str) -> str:
    """Masked, and with control characters shown rather than sent to the terminal."""
    from flowctx_tui.cli.terminal import escape_controls

    return escape_controls(mask_text(text))


class TestsView(Widget):
    """Every test case with its verdict; the selected case's details below."""

    __test__ = False  # not a pytest test class, whatever its name

    DEFAULT_CSS = """
    TestsView {
        layout: vertical;
        height: 1fr;
    }
    TestsView #tv-head {
        /* wraps (at a space) rather than cut at 80 columns */
        height: auto;
        max-height: 3;
        padding: 0 1;
    }
    TestsView #tv-table {
        height: 1fr;
    }
    TestsView #tv-detail {
        height: auto;
        max-height: 50%;
        padding: 0 1;
        overflow-y: auto;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+r", "rerun", "Run tests", id="tests.rerun"),
    ]

    reveal: reactive[bool] = reactive(False, init=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.session: Session | None = None
        self.workflow: str | None = None
        self.outcome: TestsOutcome | None = None
        self._generation = 0
        self._shown_generation = 0
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static("running the tests…", id="tv-head")
        table: DataTable[Any] = DataTable(id="tv-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static("", id="tv-detail")

    def on_mount(self) -> None:
        table = self.query_one("#tv-table", DataTable)
        table.add_columns("", "workflow", "case", "where")
        if self.session is not None:
            self._schedule()

    # --- hooks ---------------------------------------------------------------------------

    def update_workspace(
        self,
        session: Session,
        workflow: str,
        matrix: Matrix,
        *,
        env_overrides: dict[str, str],
        launch: dict[str, Any],
        routes: Routes | None = None,
    ) -> None:
        # test files carry their own inputs: the app's overrides do not apply to them
        self.session, self.workflow = session, workflow
        if self.is_mounted:
            self._schedule()

    @property
    def pending(self) -> bool:
        return self._shown_generation != self._generation

    def action_rerun(self) -> None:
        self._schedule()

    # --- running -------------------------------------------------------------------------

    def _schedule(self) -> None:
        self._generation += 1
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self._start)

    def _start(self) -> None:
        self._timer = None
        if self.session is None:
            return
        self.run_worker(
            self._compute(self._generation), group="tests", exclusive=True, exit_on_error=False
        )

    async def _compute(self, generation: int) -> None:
        assert self.session is not None
        try:
            outcome = await asyncio.to_thread(compute_tests, self.session)
        except Exception as exc:  # a bug must show, not take the app down
            if generation == self._generation:
                self._shown_generation = generation
                why = f"internal error while running the tests: {type(exc).__name__}: {exc}"
                self.query_one("#tv-head", Static).update(Text(_clean(why), "bold red"))
            return
        if generation != self._generation:
            return  # files changed meanwhile: a newer run shows
        self.outcome = outcome
        self._show(outcome)
        self._shown_generation = generation
        self.post_message(TestsRan(outcome))

    # --- showing -------------------------------------------------------------------------

    def _case_room(
        self, table: DataTable[Any], statuses: list[str], workflows: list[str], places: list[str]
    ) -> int | None:
        """How wide the case column may be (None: no need to cut), so that no column is cut
        by the table's edge mid-word: the case is cut with an ellipsis where every column
        then fits, else where the case column ends at the edge (where it stands, the next
        column, is then scrolled to)."""
        width = table.size.width - table.styles.scrollbar_size_vertical
        if width <= 0:
            return None
        taken = max(map(len, statuses), default=0) + max(
            (len(_clean(w)) for w in [*workflows, "workflow"]), default=0
        )
        where = max((len(p) for p in [*places, "where"]), default=0)
        fits_all = width - taken - where - 2 * table.cell_padding * 4
        if fits_all >= 24:
            return fits_all
        room = width - taken - 2 * table.cell_padding * 3
        return room if room >= 16 else None

    def on_resize(self) -> None:
        if self.outcome is not None:
            self._show(self.outcome)

    def _show(self, outcome: TestsOutcome) -> None:
        from flowctx_core.report.testrun import summary_line

        run = outcome.run
        table = self.query_one("#tv-table", DataTable)
        at = table.cursor_row
        table.clear()
        statuses = [r.status for r in run.results] + ["ERROR"] * bool(run.problems)
        places = [_clean(str(r.loc)) for r in run.results]
        room = self._case_room(table, statuses, [r.workflow for r in run.results], places)
        # the case column as wide as what it shows now: DataTable only ever widens a column,
        # so a case cut for a narrow screen would otherwise keep the old width
        case = table.columns[table.ordered_columns[2].key]
        shown = [_fitted(_clean(r.name), room) for r in run.results]
        case.content_width = max([len("case"), *map(len, shown)])
        for i, result in enumerate(run.results):
            table.add_row(
                Text(result.status, _STATUS_STYLE[result.status]),
                Text(_clean(result.workflow)),
                Text(_fitted(_clean(result.name), room)),
                Text(_clean(str(result.loc))),
                key=str(i),
            )
        for j, problem in enumerate(run.problems):
            table.add_row(
                Text("ERROR", _STATUS_STYLE["ERROR"]),
                Text(""),
                Text(_clean(problem.message)),
                Text(_clean(location(problem.file, problem.line, problem.column))),
                key=f"p{j}",
            )
        if table.row_count:
            table.move_cursor(row=min(max(at, 0), table.row_count - 1))
        head = Text()
        if not run.results and not run.problems:
            head.append("no test files: add .flowctx/tests/<name>.yaml, or save one from the ")
            head.append("Routes or Scratchpad tab (ctrl+o)")
        else:
            head.append(_clean(summary_line(run)), "bold red" if run.exit_code else "bold green")
            if outcome.coverage is not None:
                head.append(f" · {outcome.coverage.summary_line()}", "dim")
        self.query_one("#tv-head", Static).update(head)
        self._show_detail()

    @on(DataTable.RowHighlighted, "#tv-table")
    def _row_changed(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    def _show_detail(self) -> None:
        from flowctx_core.report.testrun import case_lines

        detail = self.query_one("#tv-detail", Static)
        outcome = self.outcome
        table = self.query_one("#tv-table", DataTable)
        if outcome is None or not table.row_count:
            detail.update("")
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value or ""
        if key.startswith("p"):
            problem = outcome.run.problems[int(key[1:])]
            detail.update(Text(_clean(problem.format()), "bold yellow"))
            return
        result = outcome.run.results[int(key)]
        lines = case_lines(result)
        if result.status == "PASS":
            lines += [f"      {v.kind}: {v.expected}" for v in result.verdicts]
        detail.update(Text("\n".join(_clean(line) for line in lines)))

    def lines(self) -> list[str]:
        """The view's text (head, rows, detail), for tests and copying."""
        out = [str(self.query_one("#tv-head", Static).render())]
        table = self.query_one("#tv-table", DataTable)
        for row in range(table.row_count):
            out.append("  ".join(str(c) for c in table.get_row_at(row)))
        out += str(self.query_one("#tv-detail", Static).render()).splitlines()
        return out
