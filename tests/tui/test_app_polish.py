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
        await wait_for(pilot, lambda: detail.scroll_y > 0, "the detail scrolled down")
        # the next row opens at its top, not in the middle of its JSON
        app.matrix_view.table.focus()
        await pilot.press("down")
        await wait_for(pilot, lambda: app.matrix_view.highlighted.name == "style_guide", "row")
        await wait_for(pilot, lambda: detail.scroll_y == 0, "the new row at its top")
        # the same row after a reload stays where the user scrolled to
        detail.focus()
        await pilot.press("end")
        await wait_for(pilot, lambda: detail.scroll_y > 0, "the detail scrolled down")
        scrolled = detail.scroll_y
        path = demo / "workflows/AppGenerator/context_variables.yaml"
        path.write_text(path.read_text(encoding="utf-8").replace("gpt-4o-mini", "gpt-4.1"))
        count = app.reload_count
        app.reload({path})
        await reloaded(pilot, count + 1)
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
