"""The graph view in the real app, driven through Pilot on a private copy of the demo: the
pictures, the scratchpad's scenario moving the winners, edits on disk, masking, snapshots."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from flowctx_tui.widgets.graph import GraphView
from flowctx_tui.widgets.json_editor import JsonEditor
from tests.conftest import settle, until
from tests.tui.conftest import MakeApp

GRAPH = "workflows/AppGenerator/transition_graph.yaml"


async def shown(pilot: Any) -> GraphView:
    """Open the graph tab (once) and wait until the latest change is drawn."""
    app = pilot.app
    await until(pilot, lambda: app.result is not None, "the first load", timeout=20)
    if app.query_one("#tabs").active != "graph":
        await pilot.press("4")
    # bounds for a loaded machine (the suite runs beside other work on two cores)
    await until(pilot, lambda: app.query("#graph-view"), "the graph view", timeout=20)
    view = app.query_one("#graph-view", GraphView)
    await until(
        pilot, lambda: view.graphs is not None and not view.pending, "the graph", timeout=20
    )
    await settle(pilot, lambda: view.pending, timeout=20)
    return view


def box_rows(view: GraphView, agent: str) -> list[str]:
    """The rows inside ``agent``'s box of the first picture (its edges)."""
    lines = view.lines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"┌─ {agent} "))
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("└"):
            break
        rows.append(line)
    return rows


def winner(view: GraphView, agent: str) -> str:
    starred = [row for row in box_rows(view, agent) if row.startswith("│★")]
    assert len(starred) == 1, starred
    return starred[0].split("→ ", 1)[1].split()[0]


async def test_the_graph_tab_draws_every_routing_file(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(120, 50)) as pilot:
        view = await shown(pilot)
        lines = view.lines()
        assert lines[0] == "workflows/AppGenerator/transition_graph.yaml · Mozaiks transition graph"
        assert (
            "workflows/AppGenerator/handoffs.yaml · Mozaiks handoffs (legacy), NOT READ: runtime "
            "mozaiks-0.2.0 never reads handoffs.yaml: its rules route nothing" in lines
        )
        assert lines[1].startswith("┌─ InterviewAgent · agent ─")
        assert box_rows(view, "InterviewAgent")[0].startswith(
            "│  1. → PlannerAgent  context_equals: interview_complete == True"
        )
        assert winner(view, "InterviewAgent") == "user"
        # the winner's line leaves the box heavy and ends in an arrow at user's box
        assert "┝━" in box_rows(view, "InterviewAgent")[1]
        assert next(line for line in lines if line.startswith("┌─ user ")).count("◀") == 1
        assert str(app.query_one("#gv-head").render()).startswith("★ heavy line")
        # the tab is where the other views are, and the focus is in it (to scroll)
        assert app.focused is not None and view in app.focused.ancestors_with_self


async def test_the_scratchpad_scenario_moves_the_winners_live(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(120, 50)) as pilot:
        view = await shown(pilot)
        assert winner(view, "InterviewAgent") == "user"
        assert winner(view, "PlannerAgent") == "user"
        await pilot.press("2")
        await until(pilot, lambda: app.query("#sp-context"), "the scratchpad")
        editor = app.query_one("#sp-context", JsonEditor)
        await until(pilot, lambda: editor.text.strip().startswith("{"), "the context")
        context = json.loads(editor.text)
        context["interview_complete"] = True
        editor.set_text(json.dumps(context))
        app.query_one("#sp-tools", JsonEditor).set_text('["request_revision"]')
        await settle(pilot, timeout=20)
        view = await shown(pilot)
        assert winner(view, "InterviewAgent") == "PlannerAgent"
        assert winner(view, "PlannerAgent") == "InterviewAgent"
        head = str(app.query_one("#gv-head").render())
        assert "context edits" in head and "tools" in head
        # back to no tools: the next rule decides again
        await pilot.press("2")
        app.query_one("#sp-tools", JsonEditor).set_text("[]")
        await settle(pilot, timeout=20)
        view = await shown(pilot)
        assert winner(view, "PlannerAgent") == "user"


async def test_the_graph_follows_the_files_and_keeps_secrets_masked(demo: Path, make_app: MakeApp):
    # without the demo's test files: no "(no test)" marks take the width of the boxes here
    shutil.rmtree(demo / ".flowctx" / "tests")
    app = make_app(demo, env={"OPENAI_API_KEY": "sk-graph-view-4242"})
    async with app.run_test(size=(120, 60)) as pilot:
        view = await shown(pilot)
        path = demo / GRAPH
        text = path.read_text(encoding="utf-8")
        # the interview's rule now matches the default (false), and a rule compares the key
        text = text.replace("    condition_value: true\n", "    condition_value: false\n", 1)
        text += (
            "  - source_agent: ReviewAgent\n"
            "    target_agent: terminate\n"
            "    transition_type: condition\n"
            "    condition_type: context_equals\n"
            "    condition_key: openai_api_key\n"
            "    condition_value: sk-graph-view-4242\n"
        )
        path.write_text(text, encoding="utf-8")
        before = app.result
        app.reload({path})
        await until(pilot, lambda: app.result is not before, "the reload")
        view = await shown(pilot)
        assert winner(view, "InterviewAgent") == "PlannerAgent"
        review = box_rows(view, "ReviewAgent")
        assert any("context_equals: openai_api_key == ***" in row for row in review)
        await pilot.press("r")  # reveal: the picture still masks what is secret
        await settle(pilot, timeout=20)
        assert not any("sk-graph-view-4242" in line for line in view.lines())


async def test_a_workflow_without_routing_files_says_so(workspace: Any, make_app: MakeApp):
    root = workspace({"workflows/W/context_variables.yaml": "definitions: {}\n"})
    app = make_app(root, workflow="W")
    async with app.run_test(size=(100, 30)) as pilot:
        view = await shown(pilot)
        assert view.lines() == [
            "no routing files in this workflow (flow.yaml, transition_graph.yaml, handoffs.yaml)"
        ]


SIZES = pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])


@SIZES
def test_graph_snapshot(snap_compare, demo: Path, make_app: MakeApp, size):
    async def run_before(pilot: Any) -> None:
        await shown(pilot)

    assert snap_compare(make_app(demo), terminal_size=size, run_before=run_before)
