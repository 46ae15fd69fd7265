"""What a user meets in the first hour: the detail pane's scroll, closing screens, the palette,
help, key map conflicts, where screenshots go, themes and the look of the table."""

from __future__ import annotations

from pathlib import Path

from tests.tui.conftest import MakeApp, reloaded, wait_for


async def test_a_new_row_opens_the_detail_at_its_top_a_reload_keeps_the_place(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(150, 20)) as pilot:
        await reloaded(pilot)
        detail = app.query_one("#detail")
        app.matrix_view.select("stack_catalog")  # a long JSON value
        await pilot.pause()
        detail.focus()
        await pilot.press("end")
        await pilot.wait_for_scheduled_animations()  # "end" scrolls smoothly
        await wait_for(pilot, lambda: detail.scroll_y > 0, "the detail scrolled down")
        # the next row opens at its top, not in the middle of its JSON
        app.matrix_view.table.focus()
        await pilot.press("down")
        await wait_for(pilot, lambda: app.matrix_view.highlighted.name == "style_guide", "row")
        await wait_for(pilot, lambda: detail.scroll_y == 0, "the new row at its top")
        # the same row after a reload stays where the user scrolled to
        detail.focus()
        await pilot.press("end")
        await pilot.wait_for_scheduled_animations()  # "end" scrolls smoothly
        await wait_for(pilot, lambda: detail.scroll_y > 0, "the detail scrolled down")
        scrolled = detail.scroll_y
        path = demo / "workflows/AppGenerator/context_variables.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("gpt-4o-mini", "gpt-4.1"))
        before = app.result
        app.reload({path})
        await reloaded(pilot, since=before)
        assert app.matrix_view.highlighted.name == "style_guide"
        assert detail.scroll_y == scrolled


def notifications(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_f8_without_a_folder_saves_to_the_per_user_state_folder_and_says_where(
    demo: Path, make_app: MakeApp, tmp_path: Path, monkeypatch
):
    cwd = tmp_path / "repo"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    state = tmp_path / "state"
    app = make_app(demo, env={"XDG_STATE_HOME": str(state)})
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        await pilot.press("f8")
        folder = state / "flowctx" / "screenshots"
        await wait_for(pilot, lambda: list(folder.glob("*.svg")), "the screenshot")
        await pilot.press("f8")  # the same second (fixed clock): a second file, not overwritten
        await wait_for(pilot, lambda: len(list(folder.glob("*.svg"))) == 2, "two screenshots")
        assert list(cwd.iterdir()) == []  # nothing in the user's repository
        (first, second) = sorted(folder.glob("*.svg"))
        said = notifications(app)
        assert f"Screenshot saved to {first}" in said
        assert f"Screenshot saved to {second}" in said


async def test_f8_falls_back_to_home_local_state(demo: Path, make_app: MakeApp, tmp_path: Path):
    app = make_app(demo, env={"HOME": str(tmp_path / "home")})
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        await pilot.press("f8")
        folder = tmp_path / "home" / ".local" / "state" / "flowctx" / "screenshots"
        await wait_for(pilot, lambda: list(folder.glob("*.svg")), "the screenshot")
        assert any(str(folder) in n for n in notifications(app))


async def test_one_escape_closes_the_launch_values_editor(demo: Path, make_app: MakeApp):
    from flowctx_tui.screens.launch import LaunchScreen

    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LaunchScreen), "the editor")
        button = str(app.screen.query_one("#launch-cancel").label)
        assert "esc" in button
        await pilot.press(*'{"app_id": "x"')  # typing in the JSON editor, which has the focus
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, LaunchScreen), "closed")
        assert app.launch == {}  # cancelled, nothing applied


async def test_the_palette_finds_themes_and_keys(demo: Path, make_app: MakeApp):
    from flowctx_tui.screens.help import HelpScreen
    from tests.tui.test_app_actions import palette_shows

    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await reloaded(pilot)
        assert app.theme == "textual-dark"
        await pilot.press("ctrl+p")
        await pilot.press(*"theme")
        await wait_for(pilot, lambda: palette_shows(app, "Theme: choose a colour theme"), "hit")
        await pilot.press("enter")
        # Textual's named themes, searchable
        await wait_for(pilot, lambda: palette_shows(app, "gruvbox"), "the theme list")
        await pilot.press(*"nord")
        await wait_for(pilot, lambda: palette_shows(app, "nord"), "the nord theme")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.theme == "nord", "the nord theme applied")
        await wait_for(pilot, lambda: not app.screen.query("CommandList"), "palette closed")
        await pilot.press("ctrl+p")
        await pilot.press(*"keys")
        await wait_for(pilot, lambda: palette_shows(app, "Keys and help"), "the keys hit")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "help")


async def test_ctrl_t_opens_the_theme_picker(demo: Path, make_app: MakeApp):
    from tests.tui.test_app_actions import palette_shows

    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await reloaded(pilot)
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: palette_shows(app, "textual-light"), "the theme list")
        await pilot.press(*"textual-light")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.theme == "textual-light", "the light theme")


async def test_help_lists_completion_history_json_keys_and_how_to_close(
    demo: Path, make_app: MakeApp
):
    from textual.widgets import DataTable

    from flowctx_tui.screens.help import HelpScreen

    app = make_app(demo, keymap={"scratchpad.complete": "ctrl+space,tab"})
    async with app.run_test(size=(120, 40)) as pilot:
        await reloaded(pilot)  # the scratchpad has not been opened: its keys are listed anyway
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        table = app.screen.query_one("#help-table", DataTable)
        rows = [[cell.plain for cell in table.get_row_at(i)] for i in range(table.row_count)]
        by_id = {ident: (keys, does) for keys, does, ident in rows if ident}
        assert by_id["scratchpad.complete"][0] == "^space, tab"  # as remapped
        assert "complete" in by_id["scratchpad.complete"][1]
        assert by_id["scratchpad.history_prev"][0] == "↑"
        assert "history" in by_id["scratchpad.history_prev"][1]
        assert by_id["json.goto_error"][0] == "^g"
        assert by_id["launch.cancel"] == ("esc", "Launch values: Cancel")
        json_tabs = [r for r in rows if r[1].startswith("JSON tabs: previous / next")]
        assert json_tabs and json_tabs[0][0] == "←, →"
        hint = str(app.screen.query_one("#help-hint").render())
        assert hint.startswith("esc, q, ?, f1 closes this window")
        await pilot.press("escape")  # one escape
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "help closed")


def test_a_key_moved_onto_a_bound_key_is_refused_with_file_line_col(
    demo: Path, tmp_path: Path, capsys
):
    from flowctx_tui.cli import main

    keys = tmp_path / "keys.yaml"
    keys.write_text("app.reload: f5\nmatrix.next_error: d\n")
    assert main([str(demo), "--keymap", str(keys)]) == 2
    err = capsys.readouterr().err
    assert f"{keys}:2:20: matrix.next_error: 'd' is already the key of matrix.detail" in err
    assert "only one of them would work" in err
    # an app key onto a view's key (the scratchpad's ctrl+r) is refused the same way
    keys.write_text("app.reload: ctrl+r\n")
    assert main([str(demo), "--keymap", str(keys)]) == 2
    assert "scratchpad.reset_context" in capsys.readouterr().err


async def test_swapped_keys_both_work(demo: Path, make_app: MakeApp, tmp_path: Path):
    from flowctx_tui.app import binding_classes
    from flowctx_tui.keymap import binding_ids, bound_keys, load_keymap

    keys = tmp_path / "keys.yaml"
    keys.write_text("matrix.next_error: d\nmatrix.detail: D\n")
    classes = binding_classes()
    keymap = load_keymap(keys, binding_ids(classes), bound=bound_keys(classes))
    path = demo / "workflows/AppGenerator/context_variables.yaml"
    # a required config that is not set: one row in error to jump to
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "definitions:\n",
            "definitions:\n  must_be_set:\n    type: string\n"
            "    source: {type: config, env_var: NOT_SET_ANYWHERE, required: true}\n",
            1,
        )
    )
    app = make_app(demo, keymap=keymap)
    async with app.run_test(size=(120, 36)) as pilot:
        await reloaded(pilot)
        app.matrix_view.select("must_be_set")
        await pilot.press("D")  # Detail, moved onto D
        await wait_for(pilot, lambda: not app.matrix_view.show_detail, "the detail hidden")
        await pilot.press("D")
        await wait_for(pilot, lambda: app.matrix_view.show_detail, "the detail shown")
        await pilot.press("d")  # next problem, moved onto d: leaves the row in error
        await wait_for(
            pilot, lambda: app.matrix_view.highlighted.name != "must_be_set", "next problem"
        )
        assert app.matrix_view.show_detail
        await pilot.press("D")
        await wait_for(pilot, lambda: not app.matrix_view.show_detail, "the detail hidden")


def _rendered(app, widget) -> list:
    """The segments a widget draws, one line, as the terminal gets them."""
    options = app.console.options.update(width=widget.size.width, height=widget.size.height)
    return list(app.console.render(widget.render(), options))


async def test_the_horizontal_scrollbar_under_the_table_is_a_thin_line(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        table = app.matrix_view.table
        assert table.show_horizontal_scrollbar  # the columns are wider than 100 cells
        bar = table.horizontal_scrollbar
        segments = [s for s in _rendered(app, bar) if s.text.strip("\n")]
        text = "".join(s.text for s in segments)
        assert set(text) == {" ", "━"} and "━" in text  # a line, no block
        # drawn on the table's own surface: no band of another colour across the screen (the
        # focused table's tint aside)
        table_bg = table.rich_style.bgcolor.triplet
        for segment in segments:
            bar_bg = segment.style.bgcolor.triplet
            assert all(abs(a - b) <= 12 for a, b in zip(bar_bg, table_bg, strict=True))
        assert not any(s.style.reverse for s in segments)


async def test_the_json_editor_has_no_edge_marks_and_light_themes_a_light_cursor(
    demo: Path, make_app: MakeApp
):
    from flowctx_tui.widgets.json_editor import JsonEditor

    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await reloaded(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query("#sp-data"), "the scratchpad")
        area = app.query_one("#sp-data", JsonEditor).text_area
        area.focus()
        await wait_for(pilot, lambda: app.focused is area, "the data editor")
        # focused, Textual's TextArea draws a tall border (▊ down the left edge): none here
        assert area.styles.border_left[0] in ("", "none")
        # the explain tree (above it under 140 columns) is separated by a continuous line,
        # not vkey's ▕ cells
        assert app.query_one("#sp-explain").styles.border_bottom[0] == "solid"

        await pilot.press("1")
        app.theme = "textual-light"
        await pilot.pause()
        table = app.matrix_view.table
        table.focus()
        await pilot.pause()
        cursor = table.get_component_rich_style("datatable--cursor")
        red, green, blue = cursor.bgcolor.triplet
        assert (red + green + blue) / 3 > 150  # a light tint, not textual-light's dark navy
        r, g, b = cursor.color.triplet
        assert (r + g + b) / 3 < 100  # with dark text on it


async def test_the_key_map_example_in_help_is_one_the_app_accepts(
    demo: Path, make_app: MakeApp, tmp_path: Path
):
    import re

    from flowctx_tui.app import binding_classes
    from flowctx_tui.keymap import binding_ids, bound_keys, load_keymap
    from flowctx_tui.screens.help import HelpScreen

    app = make_app(demo)
    async with app.run_test(size=(120, 40)) as pilot:
        await reloaded(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        hint = str(app.screen.query_one("#help-hint").render())
    example = re.search(r"e\.g\. (\{.*?\})", hint)
    assert example, hint
    keymap = tmp_path / "keys.json"
    keymap.write_text(example.group(1), encoding="utf-8")
    classes = binding_classes()
    # copied as it is, the example is not refused (f7 was: it became the Changes tab's key)
    assert load_keymap(keymap, binding_ids(classes), bound=bound_keys(classes))
