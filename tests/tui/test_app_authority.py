"""mozaiks 0.2.0's verdicts in the app: the demo's Triage workflow, refused at its graph compile,
is marked in the status line with the stage; the routing variable carries the authority mark in
the Source column and its authority, the compiler's refusal and the fix in the detail pane; a
missing runtime context refuses at the context load."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import MakeApp, cell, detail_text, reloaded, wait_for


def status(app) -> str:
    return str(app.query_one("#status").render())


async def test_a_graph_compile_refusal_is_marked_with_its_stage(demo: Path, make_app: MakeApp):
    app = make_app(demo, workflow="Triage")
    async with app.run_test(size=(160, 40)) as pilot:
        await reloaded(pilot)
        assert "REFUSED by the runtime (graph compile)" in status(app)
        # the rows still resolve, and the refused routing variable is marked
        assert cell(app, "urgent", "value") == "false"
        assert cell(app, "urgent", "source") == "state ⇄✗"
        assert cell(app, "ticket_summary", "source") == "state"
        assert app.matrix_view.select("urgent")
        await wait_for(pilot, lambda: "Authority" in detail_text(app), "the authority section")
        text = detail_text(app)
        assert "derived_information, routing, persisted, model-visible; writers: agent_text" in (
            text
        )
        assert "authority_class: declared" in text
        assert (
            "✗ graph compile refuses it: routing context variable 'urgent' has no authorized "
            "deterministic writer" in text
        )
        assert "! trigger 1 never writes it (agent_text" in text


async def test_fixing_the_trigger_lifts_the_refusal(demo: Path, make_app: MakeApp):
    contract = demo / "workflows" / "Triage" / "context_variables.yaml"
    text = contract.read_text(encoding="utf-8")
    contract.write_text(
        text.replace('regex: "urgent:\\\\s*yes"', "equals: URGENT"), encoding="utf-8"
    )
    app = make_app(demo, workflow="Triage")
    async with app.run_test(size=(160, 40)) as pilot:
        await reloaded(pilot)
        assert "REFUSED" not in status(app)
        assert cell(app, "urgent", "source") == "state ⇄"


async def test_a_missing_runtime_context_refuses_at_the_context_load(demo: Path, make_app: MakeApp):
    contract = demo / "workflows" / "Triage" / "context_variables.yaml"
    text = contract.read_text(encoding="utf-8")
    contract.write_text(
        text.replace(
            "definitions:\n",
            "definitions:\n  run_build_binding:\n    type: object\n"
            "    source: {type: runtime, required: true}\n",
        ),
        encoding="utf-8",
    )
    app = make_app(demo, workflow="Triage")
    async with app.run_test(size=(160, 40)) as pilot:
        await reloaded(pilot)
        assert "REFUSED by the runtime (context load)" in status(app)
        assert cell(app, "run_build_binding", "status").startswith("error")


async def test_the_routes_view_shows_the_verdict_and_the_authority(demo: Path, make_app: MakeApp):
    from textual.widgets import Static

    from flowctx_tui.widgets.routes import RoutesView

    app = make_app(demo, workflow="Triage")
    async with app.run_test(size=(160, 40)) as pilot:
        await reloaded(pilot)
        await pilot.press("3")
        view = app.query_one(RoutesView)

        def problems() -> str:
            return str(view.query_one("#rv-problems", Static).render())

        await wait_for(pilot, lambda: "routes on urgent" in problems(), "the authority lines")
        text = problems()
        assert "REFUSED: the runtime would not compile this workflow's graph (graph compile)" in (
            text
        )
        assert "✗ routes on urgent: derived_information, routing" in text
