"""Review mode in the app, driven through Pilot over a real git repository: ``--base`` marks
the changed rows, the detail pane shows before and after, the changes view lists what
``flowctx diff`` lists, the routes view marks changed winners, and editing a file updates the
comparison."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowctx_core.review.diff import read_side
from flowctx_core.session import open_session
from flowctx_tui.app import FlowctxApp
from flowctx_tui.cli import main
from tests.diff_repo import SECRET_NEW, SECRET_OLD, change, make_repo, tree_state
from tests.tui.conftest import FIXED_NOW, cell, detail_text, reloaded, wait_for
from tests.tui.test_app_actions import palette_shows


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    repo = make_repo(tmp_path)
    change(repo / "ws")
    return repo / "ws"


def review_app(ws: Path, *, base: str | None = "base", watch: bool = False) -> FlowctxApp:
    side = read_side(base, ws, {}) if base else None
    return FlowctxApp(
        open_session(ws, env={}),
        "Orders",
        watch=watch,
        clock=lambda: FIXED_NOW,
        cursor_blink=False,
        base=side,
    )


def compared(app: FlowctxApp) -> bool:
    return app.comparison is not None and app.comparison.workflow == app.workflow


async def test_base_marks_rows_and_the_detail_shows_before_and_after(ws: Path):
    app = review_app(ws)
    async with app.run_test(size=(160, 48)) as pilot:
        await reloaded(pilot)
        await wait_for(pilot, lambda: compared(app), "the comparison")
        await wait_for(pilot, lambda: cell(app, "region", "status").endswith(" ~"), "the mark")
        assert cell(app, "currency", "status") == "default ! +"  # warned: exposed to none
        assert cell(app, "api_token", "status") == "default ~"
        assert cell(app, "max_items", "status") == "default"  # unchanged: no mark
        app.matrix_view.select("region")
        await wait_for(pilot, lambda: "Changed since base" in detail_text(app), "the detail")
        text = detail_text(app)
        assert "value: eu → us" in text
        assert "git:" in text and "(base)" in text
        app.matrix_view.select("api_token")
        await wait_for(pilot, lambda: "value: *** → ***" in detail_text(app), "masked")
        assert SECRET_OLD not in detail_text(app) and SECRET_NEW not in detail_text(app)
        app.matrix_view.select("max_items")
        await wait_for(pilot, lambda: "Changed since base" not in detail_text(app), "no change")


async def test_the_changes_view_lists_what_diff_lists(ws: Path, capsys):
    app = review_app(ws)
    async with app.run_test(size=(160, 48)) as pilot:
        await reloaded(pilot)
        await wait_for(pilot, lambda: compared(app), "the comparison")
        await wait_for(pilot, lambda: bool(app.query("TabPane#changes")), "the tab")
        await pilot.press("6")
        await wait_for(pilot, lambda: app.query_one("#tabs").active == "changes", "the tab shown")
        view = app._changes_view()
        assert view is not None
        lines = view.lines()
        assert lines[0].startswith("Compared with git:")
        for expected in (
            " ~ region",
            "     value: eu → us",
            " + currency",
            " - legacy_flag",
            "     agents: (no agent) → Reviewer",
            " ~ transition_graph.yaml from Planner [default]: Reviewer → user",
        ):
            assert expected in lines
        assert "Problems (+1 -1)" in lines
        assert not any(SECRET_OLD in x or SECRET_NEW in x for x in lines)
        # the tab's title counts the changes: 5 variables, 1 route, 2 problems
        assert str(app.query_one("#tabs").get_tab("changes").label).endswith("Changes 8")
    # the CLI lists the same changes for this workflow
    main(["diff", str(ws), "--base", "base", "-w", "Orders", "--width", "200"])
    out = capsys.readouterr().out
    assert "  ~ transition_graph.yaml from Planner [default]: Reviewer → user" in out
    assert "Orders: 5 variables, 1 route, problems +1 -1" in out


async def test_the_routes_view_marks_changed_winners(ws: Path):
    app = review_app(ws)
    async with app.run_test(size=(160, 48)) as pilot:
        await reloaded(pilot)
        await wait_for(pilot, lambda: compared(app), "the comparison")
        await pilot.press("3")
        view = await app.mount_view("routes")
        assert view is not None
        view.select_source("Planner")
        await wait_for(
            pilot,
            lambda: any("winner changed since base [default]" in x for x in view.lines()),
            "the marked decision",
        )
        changes = str(view.query_one("#rv-changes").render())
        assert "winner changed since git:" in changes
        assert "[default] transition_graph.yaml: Reviewer → user" in changes


async def test_editing_a_file_updates_the_comparison(ws: Path):
    app = review_app(ws, watch=True)
    async with app.run_test(size=(160, 48)) as pilot:
        await reloaded(pilot)
        await wait_for(pilot, lambda: compared(app), "the comparison")
        assert app.comparison is not None and app.comparison.variable("region") is not None
        contract = ws / "workflows/Orders/context_variables.yaml"
        # back to the base's value: region is no longer a change; a new edit is
        text = contract.read_text(encoding="utf-8").replace('default: "us"', 'default: "eu"')
        contract.write_text(text.replace('default: "5"', 'default: "7"'), encoding="utf-8")
        await wait_for(
            pilot,
            lambda: compared(app) and app.comparison.variable("max_items") is not None,
            "the new comparison",
            timeout=10,
        )
        assert app.comparison.variable("region") is None
        await wait_for(pilot, lambda: cell(app, "region", "status") == "default", "unmarked")
        assert cell(app, "max_items", "status") == "default ~"


async def test_compare_from_the_palette_and_stop(ws: Path):
    repo = ws.parent
    before = tree_state(repo)
    app = review_app(ws, base=None)
    async with app.run_test(size=(160, 48)) as pilot:
        await reloaded(pilot)
        assert app.base is None and not app.query("TabPane#changes")
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Compare with")
        await wait_for(pilot, lambda: palette_shows(app, "Compare with a revision"), "the hit")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen.query("#compare-spec"), "the question")
        await pilot.press("backspace", "backspace", "backspace", "backspace", *"base", "enter")
        await wait_for(pilot, lambda: compared(app), "the comparison", timeout=10)
        assert cell(app, "region", "status") == "default ~"
        assert app.base is not None and "(base)" in app.base.label
        # the status line says the app is reviewing, against what, and how much changed
        count = app._change_count()
        assert count
        status = lambda: str(app.query_one("#status").render())  # noqa: E731
        await wait_for(pilot, lambda: f"{count} changed" in status(), "the review status")
        assert f"review vs {app.base.label}" in status()
        app.stop_comparing()
        await wait_for(pilot, lambda: cell(app, "region", "status") == "default", "no marks")
        await wait_for(pilot, lambda: "review vs" not in status(), "the review status gone")
        await wait_for(pilot, lambda: not app.query("TabPane#changes"), "the tab gone")
    assert tree_state(repo) == before


async def test_a_bad_base_is_said_and_changes_nothing(ws: Path):
    app = review_app(ws, base=None)
    async with app.run_test(size=(160, 48)) as pilot:
        await reloaded(pilot)
        app._base_given("no-such-revision")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.base is None
        assert any("neither a folder nor a revision" in str(n.message) for n in app._notifications)


def test_flowctx_base_opens_the_app_in_review_mode(ws: Path, capsys):
    import argparse

    from flowctx_tui.cli import app_cmd

    parser = argparse.ArgumentParser()
    app_cmd.configure(parser)
    parser.add_argument("--runtime")
    app = app_cmd.build_app(parser.parse_args([str(ws), "-w", "Orders", "--base", "base"]))
    assert app.base is not None and app.base.label.endswith("(base)")
    # a base that cannot be read is said before the terminal switches to the app
    assert main([str(ws), "--base", "no-such-revision"]) == 2
    err = capsys.readouterr().err
    assert "--base: 'no-such-revision' is neither a folder nor a revision of" in err


async def test_at_120_columns_the_review_status_and_the_route_headings_are_not_cut(ws: Path):
    from rich.cells import cell_len
    from textual.widgets import Tree

    app = review_app(ws)
    async with app.run_test(size=(120, 35)) as pilot:
        await reloaded(pilot)
        await wait_for(pilot, lambda: compared(app), "the comparison")
        status = app.query_one("#status")
        said = lambda: str(status.render())  # noqa: E731
        await wait_for(pilot, lambda: "8 changed" in said(), "the review status")
        # everything is still said, in the width there is, to the last part (not cut off)
        assert cell_len(said()) <= status.size.width
        assert said().replace(" │ ", "│").endswith(f"{FIXED_NOW:%H:%M:%S}│not watching")
        assert "vs git:" in said() and "0 errors, " in said()
        await pilot.press("3")
        view = await app.mount_view("routes")
        assert view is not None
        view.select_source("Planner")
        await wait_for(pilot, lambda: any("winner changed" in x for x in view.lines()), "routes")
        tree = view.query_one("#rv-tree", Tree)
        width = tree.scrollable_content_region.width
        headings = [node.label.plain for node in tree.root.children]  # type: ignore[union-attr]
        assert headings == [
            "workflows/Orders/transition_graph.yaml  from Planner: → user"
            "  ~ winner changed since base [default]"
        ]
        assert all(cell_len(h) + 2 <= width for h in headings)  # "▼ " before each
        # why it was decided: the line under the heading
        assert view.lines()[1] == (
            "  rule 2 (line 8) is the first rule that matches: after_turn always holds"
        )
        # and with room to spare the status line says it in full
        await pilot.resize_terminal(200, 35)
        await wait_for(pilot, lambda: "runtime mozaiks" in said(), "the full status")
        assert f"review vs {app.base.label}: 8 changed" in said()


@pytest.mark.parametrize(("base", "offered"), [(None, False), ("base", True)])
async def test_help_and_the_palette_offer_the_changes_tab_only_in_review_mode(
    ws: Path, base: str | None, offered: bool
):
    app = review_app(ws, base=base)
    async with app.run_test(size=(160, 48)) as pilot:
        await reloaded(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: app.screen.query("#help-table"), "help")
        table = app.screen.query_one("#help-table")
        rows = [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert any(ident == "app.tab.changes" for *_, ident in rows) is offered
        assert any(ident == "app.tab.routes" for *_, ident in rows)
        titles = {c.title for c in app.palette_commands()}
        assert ("Changes" in titles) is offered
