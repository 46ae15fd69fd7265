"""The app for a MemberJunction workspace: its flow agents' routes and graphs.

MJ agents have no context-variable matrix, so the app opens on the Routes tab: the selected
agent's steps (one row each, with where the run goes after it under the default results
5.51.3 stores), the selected step's decision with every candidate path explained, and the
agent's graph. The Problems tab lists what ``flowctx check`` says. Everything shown comes from
the same core calls as ``flowctx routes``, ``graph`` and ``check``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Footer, Select, Static, TabbedContent, TabPane

from flowctx_core.memberjunction.agents import RUNTIME, MjWorkspace
from flowctx_core.memberjunction.flow import machine
from flowctx_core.memberjunction.flow.graph import build_graph
from flowctx_core.memberjunction.flow.model import Agent
from flowctx_core.routing.graph_draw import draw, plain


def _where(hop: machine.Hop) -> str:
    if hop.winner is not None:
        fails = " (fails once entered)" if hop.entered_failure else ""
        return f"→ {hop.winner.name}{fails}"
    if hop.chat is not None:
        return "chat: the run ends"
    return "✗ the run fails" if hop.failed else "■ the flow ends"


class MjApp(App[int]):
    """``MjApp(workspace, agent_name)``: the routes, graph and problems of MJ flow agents."""

    TITLE = "flowctx"
    CSS = """
    #agent-bar { height: 3; }
    #agent-bar Static { width: auto; padding: 1 1; }
    #steps { height: auto; max-height: 14; }
    #decision { padding: 0 1; }
    #start { padding: 0 1; }
    #graph { padding: 0 1; }
    """
    BINDINGS: ClassVar[list[Any]] = [Binding("q", "quit", "Quit", id="mj.quit")]

    def __init__(self, workspace: MjWorkspace, agent: str | None = None) -> None:
        super().__init__()
        self.workspace = workspace
        names = workspace.workflows()
        self.agent_name = agent if agent in names else (names[0] if names else None)

    @property
    def agent(self) -> Agent | None:
        return self.workspace.flows.get(self.agent_name) if self.agent_name else None

    def compose(self) -> ComposeResult:
        names = self.workspace.workflows()
        with Horizontal(id="agent-bar"):
            yield Static(f"{self.workspace.root} · runtime {RUNTIME}", id="where")
            yield Select(
                [(n, n) for n in names],
                value=self.agent_name if self.agent_name else Select.BLANK,
                allow_blank=not names,
                id="agent",
            )
        with TabbedContent(id="tabs", initial="routes"):
            with TabPane("Routes", id="routes"), VerticalScroll():
                yield Static(id="start")
                yield DataTable(id="steps", cursor_type="row")
                yield Static(id="decision")
                yield Static(id="graph")
            with TabPane("Problems", id="problems"), VerticalScroll():
                yield Static(id="problem-list")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#steps", DataTable)
        table.add_columns("step", "type", "status", "start", "after it (default result)")
        self._show_problems()
        self._show_agent()

    def _show_problems(self) -> None:
        problems = self.workspace.problems()
        lines = [p.format() for p in problems] or ["no problems"]
        for agent, why in self.workspace.others:
            lines.append(f"{agent.loc}: note: agent '{agent.name}' is not a flow agent ({why})")
        self.query_one("#problem-list", Static).update(Text("\n".join(lines)))

    def _show_agent(self) -> None:
        table = self.query_one("#steps", DataTable)
        table.clear()
        agent = self.agent
        if agent is None:
            self.query_one("#decision", Static).update("no flow agents in this workspace")
            return
        start = machine.start(agent)
        first = start.winner.name if start.winner is not None else None
        for step in agent.steps:
            hop = machine.next_hop(agent, step, machine.default_result(step, {}), {})
            mark = "first" if step.name == first else ("yes" if step.starting else "")
            table.add_row(step.name, step.type or "—", step.status, mark, _where(hop), key=step.id)
        width = max(60, (self.size.width or 100) - 4)
        graph = build_graph(agent)
        self.query_one("#graph", Static).update(Text(plain(draw(graph, width))))
        self._show_start(start)

    def _show_start(self, hop: machine.Hop) -> None:
        head = f"{hop.agent.name}: the starting step"
        body = (
            f"winner: {hop.winner.name} ({hop.reason})" if hop.winner else f"no route: {hop.reason}"
        )
        self.query_one("#start", Static).update(Text(f"{head}: {body}"))

    @on(Select.Changed, "#agent")
    def _agent_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.agent_name:
            self.agent_name = event.value
            self._show_agent()

    @on(DataTable.RowHighlighted, "#steps")
    def _step_highlighted(self, event: DataTable.RowHighlighted) -> None:
        agent = self.agent
        key = event.row_key.value if event.row_key is not None else None
        step = agent.step(key) if agent is not None and key else None
        if agent is None or step is None:
            return
        from flowctx_tui.cli.mj_views import as_decision
        from flowctx_tui.cli.routes_cmd import render_text

        hop = machine.next_hop(agent, step, machine.default_result(step, {}), {})
        text = render_text(agent.name, [as_decision(hop)], reveal=False)
        self.query_one("#decision", Static).update(Text(text + "\n"))


def open_app(path: Path, agent: str | None, env: dict[str, str]) -> Any:
    from flowctx_core.memberjunction.agents import open_mj

    return MjApp(open_mj(path, env), agent)
