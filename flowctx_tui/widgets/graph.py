"""The graph view: the workflow's routing files drawn as boxes and lines, under the scenario.

One picture per routing file (``flowctx_core.routing.graph_draw``): a box per step or agent listing
its paths or rules in evaluation order, a line from each to its target, the route each node
takes under the scenario starred and drawn heavy in the success colour. Everything drawn is
``flowctx_core.routing.graph.build_graphs`` output (the same decisions as the routes view and
``flowctx graph``); nothing is decided here. Condition values that are secret are masked in
the picture whatever ``reveal`` says, as in ``flowctx graph``.

Hooks, as the routes view's: ``update_workspace(...)`` from the app after every (re)load with
the matrix and routing files it read, and ``set_scenario(scenario)`` with the scratchpad's
scenario, so the winners follow both the files and the scenario live. Work runs off the UI
thread, debounced; a stale computation is dropped.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer
from textual.events import Resize
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from flowctx_core.base.secrets import mask_text
from flowctx_core.model.filenames import ROUTING_FILES
from flowctx_core.model.scenarios import Scenario
from flowctx_core.routing import Routes, load_routes
from flowctx_core.routing.graph import RoutingGraph, build_graphs, with_coverage
from flowctx_core.routing.graph_draw import Row, draw
from flowctx_tui.latest_run import LatestRun

if TYPE_CHECKING:
    from flowctx_core.model.matrix import Matrix
    from flowctx_core.session import Session
    from flowctx_core.testing.coverage import Coverage

#: how each part of the drawing looks (tags from flowctx_core.routing.graph_draw)
STYLES = {
    "border": "",
    "name": "bold",
    "user": "bold cyan",
    "end": "bold",
    "missing": "bold red",
    "detail": "dim",
    "winner": "bold green",
    "edge": "",
    "arrow": "",
    "text": "",
    "ends": "yellow",
    "fails": "bold red",
    "outcome:true": "green",
    "outcome:false": "red",
    "outcome:error": "bold red",
    "outcome:always": "cyan",
    "outcome:not evaluable": "yellow",
    "outcome:skipped": "dim",
}
NO_FILES = f"no routing files in this workflow ({', '.join(ROUTING_FILES.values())})"


def styled(rows: list[Row]) -> Text:
    text = Text(no_wrap=True, overflow="ignore")
    for n, row in enumerate(rows):
        if n:
            text.append("\n")
        for segment, tag in row:
            text.append(segment, STYLES.get(tag, ""))
    return text


def compute_graphs(
    session: Session,
    workflow: str,
    scenario: Scenario,
    env_overrides: dict[str, str],
    launch: dict[str, Any],
    matrix: Matrix | None = None,
    routes: Routes | None = None,
) -> tuple[RoutingGraph, ...]:
    """The graphs under ``scenario``. Runs in a thread; the app passes what its last load
    read and resolved, else it is read here."""
    if routes is None:
        routes = load_routes(session.load(workflow))
    if matrix is None:
        matrix = session.matrix(workflow, env_overrides, launch)
    return build_graphs(routes, matrix, scenario, env=session.effective_env(env_overrides))


def _compute(
    work: Callable[[], tuple[RoutingGraph, ...]], cancel: threading.Event
) -> tuple[RoutingGraph, ...] | Exception:
    """Runs in the worker thread; a newer change (``cancel``) only drops the result."""
    try:
        return work()
    except Exception as exc:  # a bug must show, not take the app down
        return exc


class GraphView(Widget):
    """Every routing file of the workflow as a picture, winners marked, following the scenario."""

    DEFAULT_CSS = """
    GraphView {
        layout: vertical;
        height: 1fr;
    }
    GraphView #gv-head {
        height: 1;
        color: $text-muted;
        padding: 0 1;
    }
    GraphView #gv-scroll {
        height: 1fr;
        overflow: auto auto;
    }
    GraphView .gv-title {
        width: auto;
        padding: 1 1 0 1;
        text-style: bold underline;
    }
    GraphView .gv-picture {
        width: auto;
        padding: 0 1;
    }
    """

    can_focus = False
    reveal: reactive[bool] = reactive(False, init=False)

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.session: Session | None = None
        self.workflow: str | None = None
        self.matrix: Matrix | None = None
        self.routes: Routes | None = None
        self.env_overrides: dict[str, str] = {}
        self.launch: dict[str, Any] = {}
        self.scenario = Scenario()
        #: the graphs shown, once computed
        self.graphs: tuple[RoutingGraph, ...] | None = None
        # graphs are computed off the UI thread; the latest change wins (no deadline: drawing
        # is bounded by the routing files' size, not by what the user types)
        self._run: LatestRun[tuple[RoutingGraph, ...] | Exception] = LatestRun(
            self, group="graph", start=self._start, show=self._shown
        )
        self._drawn_width = 0
        #: (file kind, rule index) of the rules no test case takes (``set_coverage``)
        self._coverage: Coverage | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="gv-head")
        yield ScrollableContainer(id="gv-scroll", can_focus=True)

    def on_mount(self) -> None:
        self._show_head()
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
        self.session, self.workflow, self.matrix = session, workflow, matrix
        self.routes = routes
        self.env_overrides, self.launch = dict(env_overrides), dict(launch)
        if self.is_mounted:
            self._schedule()

    def set_scenario(self, scenario: Scenario) -> None:
        self.scenario = scenario
        if self.is_mounted:
            self._show_head()
            self._schedule()

    def set_coverage(self, coverage: Coverage | None) -> None:
        """Draw the rules no test case takes dashed, marked "(no test)"."""
        self._coverage = coverage
        if self.is_mounted and self.graphs is not None:
            self.run_worker(self._draw(), group="graph-draw", exclusive=True)

    def _marked(self, graphs: tuple[RoutingGraph, ...]) -> tuple[RoutingGraph, ...]:
        coverage = self._coverage
        if coverage is None:
            return graphs
        untested = {(r.kind, r.index) for r in coverage.uncovered() if r.workflow == self.workflow}
        return with_coverage(graphs, untested)

    @property
    def pending(self) -> bool:
        """True until the latest change has been drawn."""
        return self._run.pending

    # --- computing -----------------------------------------------------------------------

    def _schedule(self) -> None:
        self._run.changed()

    def _start(self) -> None:
        if self.session is None or self.workflow is None:
            return
        work = partial(
            compute_graphs,
            self.session,
            self.workflow,
            self.scenario,
            dict(self.env_overrides),
            dict(self.launch),
            self.matrix,
            self.routes,
        )
        self._run.run(partial(_compute, work))

    async def _shown(self, graphs: tuple[RoutingGraph, ...] | Exception) -> None:
        if isinstance(graphs, Exception):
            why = mask_text(f"internal error while drawing: {type(graphs).__name__}: {graphs}")
            await self._show([Static(why, classes="gv-title")])
            return
        self.graphs = graphs
        await self._draw()

    # --- drawing -------------------------------------------------------------------------

    def _width(self) -> int:
        return max(60, self.size.width - 3)

    async def _draw(self) -> None:
        graphs = self._marked(self.graphs or ())
        width = self._drawn_width = self._width()
        if not graphs:
            await self._show([Static(Text(NO_FILES, "dim"), classes="gv-title")])
            return
        # a workflow of hundreds of rules takes a while to draw: not on the UI thread
        pictures = await asyncio.to_thread(lambda: [styled(draw(g, width)) for g in graphs])
        parts: list[Widget] = []
        for graph, picture in zip(graphs, pictures, strict=True):
            parts.append(Static(Text(f"{graph.file} · {graph.title}"), classes="gv-title"))
            parts.append(Static(picture, classes="gv-picture"))
        await self._show(parts)

    async def _show(self, parts: list[Widget]) -> None:
        scroll = self.query_one("#gv-scroll", ScrollableContainer)
        with self.app.batch_update():
            await scroll.remove_children()
            await scroll.mount_all(parts)

    def on_resize(self, event: Resize) -> None:
        # the boxes take the width there is: redraw when it changes
        if self.graphs is not None and self._width() != self._drawn_width:
            self.run_worker(self._draw(), group="graph-draw", exclusive=True)

    def _show_head(self) -> None:
        s = self.scenario
        given = [
            name
            for name, value in (
                ("data", s.data),
                ("context edits", s.context_overrides),
                ("context removed", s.context_removed),
                ("payload", s.payload),
                ("stepResult", s.step_result),
                ("flowContext", s.flow_context),
                ("tools", s.tools_called),
            )
            if value
        ]
        scenario = ", ".join(given) if given else "empty"
        self.query_one("#gv-head", Static).update(
            Text(f"★ heavy line: the route taken · scenario: {scenario} (edit it in Scratchpad)")
        )

    def lines(self) -> list[str]:
        """The view's text as drawn (titles and pictures), for tests and copying."""
        out: list[str] = []
        for static in self.query("#gv-scroll Static").results(Static):
            content = static.render()
            out += (content.plain if isinstance(content, Text) else str(content)).splitlines()
        return out
