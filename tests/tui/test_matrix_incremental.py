"""The matrix repaints only what changed: what is on screen must still be exactly the new result.

``MatrixTable.update_rows`` drops only the changed rows from DataTable's render caches, and
``fill`` appends rows in one batch; these tests read the lines the table paints (its
``render_line``, which goes through those caches) after real edits of a real contract.
"""

from __future__ import annotations

from pathlib import Path

from flowctx_tui.widgets.matrix import MatrixTable
from tests.tui.conftest import MakeApp, cell, reloaded, wait_for

CONTRACT = "workflows/AppGenerator/context_variables.yaml"


def painted_lines(table: MatrixTable) -> dict[str, str]:
    """Row key -> the text of the line the table paints for it, for every row on screen."""
    header = table.header_height if table.show_header else 0
    top = round(table.scroll_y)
    out = {}
    for y in range(header, table.size.height):
        index = top + y - header
        if index >= table.row_count:
            break
        key = table.coordinate_to_cell_key((index, 0)).row_key.value
        out[str(key)] = table.render_line(y).text
    return out


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


async def test_one_edited_value_repaints_its_row_and_leaves_the_others(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(160, 50)) as pilot:
        await reloaded(pilot)
        await pilot.pause()
        table = app.matrix_view.table
        assert isinstance(table, MatrixTable)
        before = painted_lines(table)
        assert "deploy_choice" in before and "preview" in before["deploy_choice"]
        result = app.result
        edit(demo / CONTRACT, "default: preview\n", "default: canary\n")
        app.reload({demo / CONTRACT})
        await reloaded(pilot, result)
        await pilot.pause()
        after = painted_lines(table)
        assert "canary" in after["deploy_choice"]
        changed = {k for k in before if before[k] != after.get(k)}
        assert changed == {"deploy_choice"}
        assert cell(app, "deploy_choice", "value") == "canary"


def many_defaults(n: int, value: str) -> str:
    lines = ["definitions:"]
    for i in range(n):
        lines += [
            f"  v{i:03d}:",
            "    type: string",
            f"    source: {{type: state, default: {value}-{i}}}",
        ]
    lines += ["agents:", "  A:", "    variables: [v000]"]
    return "\n".join(lines) + "\n"


async def test_edits_that_change_few_or_all_rows_leave_no_stale_value(workspace, make_app: MakeApp):
    root = workspace({"workflows/W/context_variables.yaml": many_defaults(400, "old")})
    path = root / "workflows/W/context_variables.yaml"
    app = make_app(root, "W")
    async with app.run_test(size=(140, 40)) as pilot:
        await reloaded(pilot)
        await pilot.pause()
        table = app.matrix_view.table
        assert table.row_count >= 400
        # a few rows (the repaint picks them out) ...
        text = path.read_text(encoding="utf-8")
        for i in (0, 3, 7):
            text = text.replace(f"default: old-{i}}}", f"default: few-{i}}}")
        result = app.result
        path.write_text(text, encoding="utf-8")
        app.reload({path})
        await reloaded(pilot, result)
        await pilot.pause()
        lines = painted_lines(table)
        for i in range(len(lines)):
            want = f"few-{i}" if i in (0, 3, 7) else f"old-{i}"
            assert want in lines[f"v{i:03d}"], (i, lines[f"v{i:03d}"])
        # ... then every row (more than are picked out one by one)
        result = app.result
        path.write_text(many_defaults(400, "new"), encoding="utf-8")
        app.reload({path})
        await reloaded(pilot, result)
        await pilot.pause()
        lines = painted_lines(table)
        assert lines and all(f"new-{int(k[1:])}" in line for k, line in lines.items())
        assert all(cell(app, f"v{i:03d}", "value") == f"new-{i}" for i in range(400))
        # and scrolled down, off the first screen: those rows are new too
        table.move_cursor(row=table.row_count - 1, animate=False)
        await wait_for(pilot, lambda: round(table.scroll_y) > 0, "scrolled to the end")
        await pilot.pause()
        lines = painted_lines(table)
        assert "v399" in lines and "new-399" in lines["v399"]
        assert all("old-" not in line for line in lines.values())


async def test_filter_then_clear_shows_every_row_in_order(workspace, make_app: MakeApp):
    root = workspace({"workflows/W/context_variables.yaml": many_defaults(300, "x")})
    app = make_app(root, "W")
    async with app.run_test(size=(140, 40)) as pilot:
        await reloaded(pilot)
        view = app.matrix_view
        everything = view.shown_names
        assert len(everything) >= 300
        filter_input = app.query_one("#filter")
        for text in ("v0", "v02", "v029", "v02", "v0", "v1", ""):
            filter_input.value = text
            await pilot.pause()
            want = [k for k in everything if text in k]
            await wait_for(pilot, lambda w=want: view.shown_names == w, f"filter {text!r}")
            assert [r.key.value for r in view.table.ordered_rows] == want
        await pilot.pause()
        assert view.table.row_count == len(everything)
        lines = painted_lines(view.table)
        # the painted lines are consecutive rows in declaration order (scrolled to where the
        # cursor's row is), each with its own value
        first = everything.index(next(iter(lines)))
        assert list(lines) == everything[first : first + len(lines)]
        assert all(f"x-{int(k[1:])}" in line for k, line in lines.items() if k.startswith("v"))


async def test_a_longer_value_widens_its_column_on_every_row(workspace, make_app: MakeApp):
    root = workspace({"workflows/W/context_variables.yaml": many_defaults(50, "s")})
    path = root / "workflows/W/context_variables.yaml"
    app = make_app(root, "W")
    async with app.run_test(size=(160, 30)) as pilot:
        await reloaded(pilot)
        await pilot.pause()
        table = app.matrix_view.table
        before = table.columns["value"].width  # type: ignore[index]
        result = app.result
        long = "a-much-longer-value-than-any-other"
        edit(path, "default: s-1}", f"default: {long}}}")
        app.reload({path})
        await reloaded(pilot, result)
        await pilot.pause()
        assert table.columns["value"].width > before  # type: ignore[index]
        lines = painted_lines(table)
        width = table.columns["value"].width  # type: ignore[index]
        assert long[: width - 1] in lines["v001"]
        # every row was laid out again at the new widths: the Origin column starts at the
        # same place on each line
        starts = {line.rindex("state def") for k, line in lines.items() if k.startswith("v")}
        assert len(starts) == 1


def painted_row_meta(table: MatrixTable) -> dict[str, set[int]]:
    """Row key -> the row indexes the mouse meta of its painted line names (a click selects
    the row the meta names)."""
    header = table.header_height if table.show_header else 0
    top = round(table.scroll_y)
    out: dict[str, set[int]] = {}
    for y in range(header, table.size.height):
        index = top + y - header
        if index >= table.row_count:
            break
        key = str(table.coordinate_to_cell_key((index, 0)).row_key.value)
        strip = table.render_line(y)
        out[key] = {
            seg.style.meta["row"]
            for seg in strip
            if seg.style and seg.style.meta and "row" in seg.style.meta
        }
    return out


async def test_rendered_cells_reused_across_filters_show_their_own_row_and_place(
    workspace, make_app: MakeApp
):
    # cells are reused by content across a filter's refills: each painted line must still be
    # its own row's value, and a click on it must still name its own place
    root = workspace({"workflows/W/context_variables.yaml": many_defaults(300, "x")})
    path = root / "workflows/W/context_variables.yaml"
    app = make_app(root, "W")
    async with app.run_test(size=(140, 30)) as pilot:
        await reloaded(pilot)
        view = app.matrix_view
        table = view.table
        assert isinstance(table, MatrixTable)
        everything = view.shown_names
        filter_input = app.query_one("#filter")
        for text in ("v", "v0", "v00", "v1", "v2", "v", "v02", ""):
            filter_input.value = text
            want = [k for k in everything if text in k]
            await wait_for(pilot, lambda w=want: view.shown_names == w, f"filter {text!r}")
            await pilot.pause()
            lines = painted_lines(table)
            assert lines
            for k, line in lines.items():
                assert line.lstrip().startswith(k), (text, k, line)
                if k.startswith("v"):
                    assert f"x-{int(k[1:])}" in line, (text, k, line)
            meta = painted_row_meta(table)
            assert all(meta[k] == {view.shown_names.index(k)} for k in lines), text
        # an edit while filtered, then the filter cleared: the new value, nowhere the old
        filter_input.value = "v00"
        await wait_for(pilot, lambda: len(view.shown_names) == 10, "filter v00")
        result = app.result
        edit(path, "default: x-3}", "default: edited-3}")
        app.reload({path})
        await reloaded(pilot, result)
        await pilot.pause()
        assert "edited-3" in painted_lines(table)["v003"]
        filter_input.value = ""
        await wait_for(pilot, lambda: view.shown_names == everything, "filter cleared")
        await pilot.pause()
        lines = painted_lines(table)
        assert "edited-3" in lines["v003"] and "x-3 " not in lines["v003"]


async def test_a_theme_change_repaints_cells_reused_by_content(workspace, make_app: MakeApp):
    root = workspace({"workflows/W/context_variables.yaml": many_defaults(40, "x")})
    app = make_app(root, "W")
    async with app.run_test(size=(140, 30)) as pilot:
        await reloaded(pilot)
        await pilot.pause()
        table = app.matrix_view.table
        assert isinstance(table, MatrixTable)
        header = table.header_height
        before = [list(table.render_line(y)) for y in range(header, header + 5)]
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        await pilot.pause()
        after = [list(table.render_line(y)) for y in range(header, header + 5)]
        assert after != before  # the new theme's colours, not the cached ones
        # and exactly what a table with nothing cached paints
        table._content_cache.clear()
        table._line_content_cache.clear()
        table._clear_caches()
        fresh = [list(table.render_line(y)) for y in range(header, header + 5)]
        assert after == fresh


async def test_a_filter_that_removes_a_few_rows_paints_the_rest_in_place(
    workspace, make_app: MakeApp
):
    # a handful of rows leave (removed where they are, the rest re-indexed once): every line
    # painted is then the row now at that place, and the cursor stays on its variable
    root = workspace({"workflows/W/context_variables.yaml": many_defaults(300, "x")})
    app = make_app(root, "W")
    async with app.run_test(size=(140, 40)) as pilot:
        await reloaded(pilot)
        view = app.matrix_view
        everything = view.shown_names
        assert view.select("v010")
        filter_input = app.query_one("#filter")
        for text in ("-v00", "-v00 -v02", "-v02", ""):
            filter_input.value = text
            want = [k for k in everything if not any(w[1:] in k for w in text.split())]
            await wait_for(pilot, lambda w=want: view.shown_names == w, f"filter {text!r}")
            await pilot.pause()
            assert [r.key.value for r in view.table.ordered_rows] == want
            lines = painted_lines(view.table)
            first = want.index(next(iter(lines)))
            assert list(lines) == want[first : first + len(lines)]
            assert all(f"x-{int(k[1:])}" in line for k, line in lines.items() if k[1:].isdigit())
            highlighted = view.highlighted
            if "v010" in want:
                assert highlighted is not None and highlighted.name == "v010"
