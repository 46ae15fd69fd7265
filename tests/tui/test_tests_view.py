"""The Tests tab in the real app, through Pilot on a private copy of the demo: every case with
its verdict, a failing case's explain tree, verdicts following an edit on disk, and secrets
never shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flowctx_tui.widgets.tests import TestsView
from tests.conftest import settle, until
from tests.tui.conftest import MakeApp, reloaded

TESTS = ".flowctx/tests/routing.yaml"


async def shown(pilot: Any) -> TestsView:
    app = pilot.app
    await until(pilot, lambda: app.result is not None, "the first load", timeout=20)
    if app.query_one("#tabs").active != "tests":
        await pilot.press("5")
    await until(pilot, lambda: app.query("#tests-view"), "the tests view", timeout=20)
    view = app.query_one("#tests-view", TestsView)
    await until(pilot, lambda: view.outcome is not None, "the first test run", timeout=20)
    await settle(pilot, lambda: view.pending, timeout=20)
    return view


async def routes_from_review_agent(pilot: Any) -> Any:
    """The Routes tab, showing what leaves ReviewAgent (its routing settled)."""
    app = pilot.app
    await until(pilot, lambda: app.result is not None, "the first load", timeout=20)
    await pilot.press("3")
    await until(pilot, lambda: app.query("#routes-view"), "the routes view", timeout=20)
    view = app.query_one("#routes-view")
    view.select_source("ReviewAgent")
    await until(
        pilot,
        lambda: view.outcome is not None and view.outcome.source == "ReviewAgent",
        "the routes from ReviewAgent",
        timeout=20,
    )
    await settle(pilot, lambda: view.pending, timeout=20)
    return view


async def test_the_tests_tab_lists_every_case_of_the_demo(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(140, 45)) as pilot:
        view = await shown(pilot)
        lines = view.lines()
        assert lines[0].startswith("17 passed, 0 failed (17 cases in 3 files)")
        assert "rules" in lines[0] and "MC/DC" in lines[0]
        # table rows (the detail of the selected case below them ends with its location)
        rows = [line for line in lines if line.startswith("PASS") and not line.endswith(")")]
        assert len(rows) == 17
        assert any("the interview is complete, so the planner takes over" in r for r in rows)


async def test_a_saved_edit_shows_the_new_verdict_and_the_explain_tree(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(140, 45)) as pilot:
        view = await shown(pilot)
        before = app.result
        path = demo / TESTS
        text = path.read_text()
        # the author now expects a complete interview to stay with the interviewer
        path.write_text(
            text.replace(
                "route: {from: InterviewAgent, to: PlannerAgent}",
                "route: {from: InterviewAgent, to: user}",
            )
        )
        app.reload([path])
        await reloaded(pilot, before)
        await until(
            pilot,
            lambda: view.outcome is not None and view.outcome.run.failed == 1,
            "the failing verdict",
            timeout=20,
        )
        await settle(pilot, lambda: view.pending, timeout=20)
        lines = view.lines()
        assert lines[0].startswith("16 passed, 1 failed")
        failing = next(i for i, line in enumerate(lines) if line.startswith("FAIL"))
        table = app.query_one("#tv-table")
        table.focus()
        table.move_cursor(row=failing - 1)  # the head line is lines[0]
        await pilot.pause()
        detail = "\n".join(view.lines())
        assert "expected from InterviewAgent to user" in detail
        assert "got to PlannerAgent" in detail
        # the rule of transition_graph.yaml that decided (handoffs.yaml is never read)
        assert "+ ${interview_complete} == True -> true" in detail


async def test_a_broken_test_file_is_an_error_row_with_its_location(demo: Path, make_app: MakeApp):
    (demo / ".flowctx/tests/broken.yaml").write_text(
        "workflow: AppGenerator\ncases:\n  - name: x\n    expect: {rute: 1}\n"
    )
    app = make_app(demo)
    async with app.run_test(size=(140, 45)) as pilot:
        view = await shown(pilot)
        lines = view.lines()
        error = next(line for line in lines if line.startswith("ERROR"))
        assert "unknown field 'rute' (did you mean 'route'?)" in error
        assert ".flowctx/tests/broken.yaml:4:14" in error
        assert "OPENAI" not in "\n".join(lines) and "sk-demo" not in "\n".join(lines)


async def test_save_as_test_from_the_routes_view_writes_a_case_that_passes(
    demo: Path, make_app: MakeApp, capsys
):
    from flowctx_tui.cli import main
    from flowctx_tui.screens.save_test import SaveTestScreen

    app = make_app(demo)
    async with app.run_test(size=(140, 45)) as pilot:
        await routes_from_review_agent(pilot)
        await pilot.press("ctrl+o")
        await until(
            pilot, lambda: isinstance(app.screen, SaveTestScreen), "the save dialog", timeout=10
        )
        preview = str(app.screen.query_one("#save-test-preview").render())
        assert 'route: {"from": "ReviewAgent", "to": "user"}' in preview
        name = app.screen.query_one("#save-test-name")
        name.value = "a preview deploy goes back to the user"
        await pilot.press("ctrl+s")
        await until(
            pilot, lambda: not isinstance(app.screen, SaveTestScreen), "the dialog to close"
        )
    written = (demo / ".flowctx/tests/AppGenerator.yaml").read_text()
    assert written.startswith('workflow: "AppGenerator"\ncases:\n')
    assert '- name: "a preview deploy goes back to the user"' in written
    capsys.readouterr()
    code = main(["test", str(demo), "--file", str(demo / ".flowctx/tests/AppGenerator.yaml")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "PASS  AppGenerator: a preview deploy goes back to the user" in out


async def test_save_as_test_from_the_scratchpad_keeps_the_inputs_and_masks_secrets(
    demo: Path, make_app: MakeApp, capsys
):
    from flowctx_tui.cli import main
    from flowctx_tui.screens.save_test import SaveTestScreen

    app = make_app(demo)
    async with app.run_test(size=(140, 45)) as pilot:
        await until(pilot, lambda: app.result is not None, "the first load", timeout=20)
        await pilot.press("2")
        await until(pilot, lambda: app.query("#sp-expr"), "the scratchpad", timeout=20)
        pad = app.query_one("#scratchpad-view")
        app.query_one("#sp-expr").value = "context.openai_api_key.length > 10 && data.n === 2"
        area = app.query_one("#sp-data").text_area  # typed, as the author would
        area.replace('{"n": 2}', (0, 0), area.document.end)
        await until(
            pilot,
            lambda: pad.result is not None and pad.result.value is True and not pad.pending,
            "the result",
            timeout=20,
        )
        await pilot.press("ctrl+o")
        await until(
            pilot, lambda: isinstance(app.screen, SaveTestScreen), "the save dialog", timeout=10
        )
        # an existing file of another workflow is refused on screen, nothing written
        app.screen.query_one("#save-test-file").value = "approvals"
        await pilot.press("ctrl+s")
        error = str(app.screen.query_one("#save-test-error").render())
        assert "tests workflow 'Approvals', not 'AppGenerator'" in error
        app.screen.query_one("#save-test-file").value = "conditions"
        await pilot.press("ctrl+s")
        await until(
            pilot, lambda: not isinstance(app.screen, SaveTestScreen), "the dialog to close"
        )
    written = (demo / ".flowctx/tests/conditions.yaml").read_text()
    assert '"expression": "context.openai_api_key.length > 10 && data.n === 2"' in written
    assert '"value": true' in written and 'data: {"n": 2}' in written
    assert "sk-demo" not in written
    capsys.readouterr()
    code = main(["test", str(demo), "--file", str(demo / ".flowctx/tests/conditions.yaml")])
    assert code == 0, capsys.readouterr().out


async def test_routes_and_graph_mark_the_rule_no_test_takes(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(160, 60)) as pilot:
        await until(pilot, lambda: app.result is not None, "the first load", timeout=20)
        # the tests run in the background once the matrix is shown: no need to open the tab
        await until(pilot, lambda: app.coverage is not None, "the background test run", timeout=30)
        await pilot.press("3")
        await until(pilot, lambda: app.query("#routes-view"), "the routes view", timeout=20)
        view = app.query_one("#routes-view")
        view.select_source("PatternAgent")
        await until(
            pilot,
            lambda: (
                view.outcome is not None
                and view.outcome.source == "PatternAgent"
                and not view.pending
            ),
            "the routes from PatternAgent",
            timeout=20,
        )
        await settle(pilot, lambda: view.pending, timeout=20)
        lines = view.lines()
        to_builder = next(line for line in lines if "→ WorkflowBundleBuilderAgent" in line)
        to_itself = next(line for line in lines if "→ PatternAgent" in line and "." in line[:8])
        assert to_builder.endswith("· no test")
        assert "no test" not in to_itself
        await pilot.press("4")
        await until(pilot, lambda: app.query("#graph-view"), "the graph view", timeout=20)
        graph = app.query_one("#graph-view")
        await until(
            pilot, lambda: graph.graphs is not None and not graph.pending, "the graph", timeout=20
        )
        await settle(pilot, lambda: graph.pending, timeout=20)
        drawn = "\n".join(graph.lines())
        assert "→ WorkflowBundleBuilderAgent (no test)  context_expression:" in drawn
        # handoffs.yaml is never read by mozaiks 0.2.0: its rules are neither taken nor owed a test
        assert drawn.count("(no test)") == 1 and "NOT READ" in drawn
        assert "┆" in drawn  # its line is dashed


async def test_a_verdict_that_reads_a_secret_is_withheld_in_the_tab(demo: Path, make_app: MakeApp):
    """A case probing a bit of the demo's key shows WITHHELD and the secret it reads, never a
    pass or a fail; the head line counts it apart."""
    (demo / ".flowctx/tests/probe.yaml").write_text(
        "workflow: AppGenerator\ncases:\n  - name: bit 0\n    expect:\n      condition:\n"
        '        {expression: "(context.openai_api_key.charCodeAt(0) & 1) !== 0", value: true}\n'
    )
    app = make_app(demo)
    async with app.run_test(size=(140, 45)) as pilot:
        view = await shown(pilot)
        lines = view.lines()
        assert lines[0].startswith("17 passed, 0 failed, 1 withheld")
        row = next(i for i, line in enumerate(lines) if line.startswith("WITHHELD"))
        assert "bit 0" in lines[row]
        table = app.query_one("#tv-table")
        table.focus()
        table.move_cursor(row=row - 1)
        await pilot.pause()
        detail = "\n".join(view.lines())
        assert "withheld: reads secret `context.openai_api_key`" in detail
        assert "sk-demo" not in detail


def _tree(root: Path) -> dict[str, float]:
    return {
        p.relative_to(root).as_posix(): p.stat().st_mtime
        for p in root.rglob("*")
        if "__pycache__" not in p.parts
    }


async def test_save_as_test_on_the_installed_demo_copies_it_first(
    tmp_path: Path, make_app: MakeApp, monkeypatch, capsys
):
    """The bundled demo is part of the installed package: ctrl+o never writes into it. The
    app offers to copy it (./flowctx-demo by default), shows the copy, saves there, and the
    toast names the file in full."""
    from flowctx_tui.cli import main
    from flowctx_tui.cli.workspace_args import demo_path
    from flowctx_tui.screens.copy_demo import CopyDemoScreen
    from flowctx_tui.screens.save_test import SaveTestScreen

    installed = demo_path()
    before = _tree(installed)
    monkeypatch.chdir(tmp_path)
    app = make_app(installed)
    async with app.run_test(size=(80, 24)) as pilot:
        await routes_from_review_agent(pilot)
        await pilot.press("ctrl+o")
        await until(
            pilot, lambda: isinstance(app.screen, CopyDemoScreen), "the copy offer", timeout=10
        )
        why = str(app.screen.query_one("#copy-demo-why").render())
        assert "part of the installed flowctx package" in why
        target = tmp_path / "flowctx-demo"
        assert app.screen.query_one("#copy-demo-path").value == str(target)
        await pilot.press("ctrl+s")
        await until(
            pilot, lambda: isinstance(app.screen, SaveTestScreen), "the save dialog", timeout=20
        )
        assert app.session.root == target  # the app shows the copy now
        app.screen.query_one("#save-test-name").value = "saved from the copy"
        await pilot.press("ctrl+s")
        await until(
            pilot, lambda: not isinstance(app.screen, SaveTestScreen), "the dialog to close"
        )
        saved = target / ".flowctx/tests/AppGenerator.yaml"
        toasts = [str(n.message) for n in app._notifications]
        assert f"Saved as a test in {saved}" in toasts, toasts
        await settle(pilot, timeout=20)
    assert _tree(installed) == before  # nothing written into the package
    assert '- name: "saved from the copy"' in saved.read_text()
    capsys.readouterr()
    code = main(["test", str(target), "--file", str(saved)])
    assert code == 0, capsys.readouterr().out


async def test_no_column_is_cut_by_the_edge_at_80_or_120_columns(demo: Path, make_app: MakeApp):
    """At 120 columns every column fits, the longest case cut with an ellipsis; at 80 the case
    column ends at the table's edge (where it stands is scrolled to); a resize re-cuts."""
    app = make_app(demo)
    long_case = "a large production spend is not escalated while Escalate is disabled"

    def fitted() -> tuple[int, int, list[str]]:
        table: Any = app.query_one("#tv-table")
        room = table.size.width - table.styles.scrollbar_size_vertical
        widths = [c.get_render_width(table) for c in table.ordered_columns]
        cases = [str(table.get_row_at(i)[2]) for i in range(table.row_count)]
        return room, sum(widths), [c for c in cases if c.startswith("a large production")]

    async with app.run_test(size=(120, 35)) as pilot:
        await shown(pilot)
        room, used, cut = fitted()
        assert used <= room  # every column, where included, on screen
        assert cut[0].endswith("…") and long_case.startswith(cut[0][:-1])
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        table: Any = app.query_one("#tv-table")
        case_end = sum(c.get_render_width(table) for c in table.ordered_columns[:3])
        room, used, cut = fitted()
        assert case_end == room  # the case column ends at the edge: no word cut by it
        assert cut[0].endswith("…")
        await pilot.resize_terminal(200, 40)
        await settle(pilot)
        room, used, cut = fitted()
        assert used <= room and cut == [long_case]  # whole again
