"""The matrix's columns follow the terminal's width, and a resize keeps cursor and scroll."""

from __future__ import annotations

from pathlib import Path

import pytest

from flowctx_core.report.display import display_value, short_value
from flowctx_tui.widgets.matrix import column_widths
from tests.tui.conftest import MakeApp, cell, reloaded, wait_for


def table_fits(app) -> bool:
    """Every column is on screen: nothing to scroll to sideways."""
    table = app.matrix_view.table
    return table.virtual_size.width <= table.size.width


async def test_at_80_columns_value_ends_at_the_edge_cut_with_an_ellipsis(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(80, 30)) as pilot:
        await reloaded(pilot)
        widths = app.matrix_view._widths
        table = app.matrix_view.table
        # the columns cannot all fit 80 columns: Value ends exactly at the table's edge, so no
        # value is cut by the screen mid-word; Origin and Agents are scrolled to
        shown = sum(widths[k] + 2 * table.cell_padding for k in ("name", "type", "source",
                                                                  "status", "value"))  # fmt: skip
        assert shown == table.fill_width
        assert widths["value"] >= 8
        value = cell(app, "factory_name", "value")
        assert len(value) == widths["value"] and value.endswith("…")


@pytest.mark.parametrize("width", [120, 160])
async def test_every_column_is_on_screen_from_120_columns(
    demo: Path, make_app: MakeApp, width: int
):
    """120: the detail below the table; 160: beside it, so the table has 93 columns."""
    app = make_app(demo)
    async with app.run_test(size=(width, 30)) as pilot:
        await reloaded(pilot)
        await wait_for(pilot, lambda: table_fits(app), f"the table to fit {width} columns")
        # Agents, off-screen before below 160 columns, is shown
        assert cell(app, "llm_model", "agents").startswith("Interv")


async def test_at_200_columns_without_detail_the_table_uses_the_width(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(200, 30)) as pilot:
        await reloaded(pilot)
        view = app.matrix_view
        narrow_value = view._widths["value"]
        await pilot.press("d")  # hide the detail: the table gets the whole width
        table = view.table
        await wait_for(pilot, lambda: table.size.width >= 190, "the table to widen")
        await wait_for(pilot, lambda: view._widths["value"] > narrow_value, "wider values")
        await pilot.pause()
        assert table_fits(app)
        # the columns fill the table (no third of the screen left empty)
        used = sum(c.get_render_width(table) for c in table.columns.values())
        assert used >= table.size.width - 4
        # origin and agents grow too, beyond the fixed 28 and 30 of before
        origin = cell(app, "concept_api_endpoints", "origin").rstrip("…")
        full = "fallbacks/fallbacks.json workflows.appgenerator.concept_api_endpoints"
        assert full.startswith(origin) and len(origin) > 40
        assert cell(app, "llm_model", "agents").startswith("InterviewAgent, Planner")
        row = app.result.matrix.row("concept_api_endpoints")
        shown = cell(app, "concept_api_endpoints", "value")
        assert shown == short_value(display_value(row), view._widths["value"])
        assert len(shown) > 50  # 32 before


async def test_a_resize_re_cuts_cells_in_place_keeping_cursor_and_scroll(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(200, 12)) as pilot:
        await reloaded(pilot)
        await pilot.press("d")
        view = app.matrix_view
        view.select("welcome_message")
        await pilot.pause()
        table = view.table
        scrolled = table.scroll_y
        assert scrolled > 0  # the row is further down than 12 lines
        wide = cell(app, "welcome_message", "value")
        await pilot.resize_terminal(110, 12)
        await wait_for(
            pilot, lambda: len(cell(app, "welcome_message", "value")) < len(wide), "narrower"
        )
        await pilot.pause()
        assert view.highlighted.name == "welcome_message"
        assert table.scroll_y == scrolled
        assert table_fits(app)
        await pilot.resize_terminal(200, 12)
        await wait_for(pilot, lambda: cell(app, "welcome_message", "value") == wide, "wide again")
        assert view.highlighted.name == "welcome_message"


def test_widths_share_the_rest_by_weight_and_never_exceed_what_is_needed():
    texts = [("n" * 10, "string", "config", "resolved", "v" * 300, "o" * 30, "a" * 20)]
    roomy = column_widths(400, texts)
    # fixed columns take their longest text (or their label plus a sort arrow)
    assert roomy["name"] == 10 and roomy["status"] == 8
    # nothing is cut when there is room: origin and agents get what they need
    assert (roomy["origin"], roomy["agents"]) == (30, 20)
    assert roomy["value"] == 300
    tight = column_widths(100, texts)
    assert tight["value"] >= tight["origin"] > tight["agents"]
    assert sum(tight.values()) + 14 == 100


async def test_a_resize_across_the_wide_breakpoint_is_laid_out_once_in_the_new_shape(
    demo: Path, make_app: MakeApp
):
    """No frame shows the old layout squeezed into the new width (the detail pane beside a
    table at 120 columns, or under it at 200), and the columns are cut for the new width in
    the first frame after the resize, not some frames later."""
    app = make_app(demo)
    seen: list[tuple[int, bool, bool]] = []
    first_frame: list[bool] = []

    def painted() -> None:
        if not first_frame:
            table = app.matrix_view.table
            # the columns fill the table to the room kept for its scrollbar, no more, no less
            room = table.size.width - table.styles.scrollbar_size_vertical
            first_frame.append(table.virtual_size.width == room)

    def laid_out(_screen) -> None:
        detail = app.query_one("#detail")
        seen.append((app.size.width, app.screen.has_class("-wide"), detail.region.x > 0))
        app.call_after_refresh(painted)

    async with app.run_test(size=(200, 40)) as pilot:
        await reloaded(pilot)
        app.screen.screen_layout_refresh_signal.subscribe(app.screen, laid_out)
        for width in (120, 200, 120):
            seen.clear()
            first_frame.clear()
            await pilot.resize_terminal(width, 40)
            await wait_for(pilot, lambda: seen and first_frame, "the resized layout")
            await pilot.pause()
            wide = width >= 140
            # every layout since the resize: the breakpoint's shape, detail beside only if wide
            assert {s for s in seen if s[0] == width} == {(width, wide, wide)}, seen
            assert first_frame == [True]
