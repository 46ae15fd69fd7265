"""The scratchpad's keys as a keyboard user meets them: the footer says which keys switch tabs
while typing, tab leaves a JSON editor, and a condition looked at is in the history without
pressing Enter."""

from __future__ import annotations

from pathlib import Path

from textual.widgets._footer import FooterKey

from flowctx_tui.widgets.json_editor import JsonEditor
from flowctx_tui.widgets.scratchpad import HISTORY_AFTER, Scratchpad
from tests.tui.conftest import MakeApp, reloaded, wait_for


def footer(app) -> list[str]:
    """The footer's entries as shown: ``"f1 Help"``..."""
    return [str(key.render()).strip() for key in app.screen.query(FooterKey)]


async def open_scratchpad(pilot) -> Scratchpad:
    app = pilot.app
    await reloaded(pilot)
    await pilot.press("2")
    await wait_for(pilot, lambda: app.query("#sp-expr"), "the scratchpad")
    pad = app.query_one(Scratchpad)
    await wait_for(pilot, lambda: app.focused is pad.expression_input, "the condition input")
    return pad


async def test_while_typing_the_footer_shows_the_keys_that_switch_tabs(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await reloaded(pilot)
        # on the table the digits switch tabs (the tab titles say so): no footer entry
        assert not [e for e in footer(app) if e.endswith("Tabs")]
        pad = await open_scratchpad(pilot)
        await pilot.press("3")  # a digit in the condition is text
        assert pad.expression_input.value == "3"
        assert app.query_one("#tabs").active == "scratchpad"
        await wait_for(pilot, lambda: "f2/f3/f4/f6/f9 Tabs" in footer(app), "the tab keys")
        await pilot.press("f4")  # and the key the footer names does switch
        await wait_for(pilot, lambda: app.query_one("#tabs").active == "routes", "routes")


async def test_the_footer_follows_a_remapped_tab_key(demo: Path, make_app: MakeApp):
    app = make_app(demo, keymap={"app.tab.routes": "3,f10"})
    async with app.run_test(size=(120, 36)) as pilot:
        await open_scratchpad(pilot)
        await wait_for(pilot, lambda: "f2/f3/f10/f6/f9 Tabs" in footer(app), "the remapped key")


async def test_tab_in_a_json_editor_moves_the_focus_and_types_nothing(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await open_scratchpad(pilot)
        editor = app.query_one("#sp-data", JsonEditor)
        editor.text_area.focus()
        await wait_for(pilot, lambda: app.focused is editor.text_area, "the data editor")
        await pilot.press("tab")
        await wait_for(pilot, lambda: app.focused is not editor.text_area, "the focus to move")
        assert editor.text == "{}"  # no spaces inserted
        await pilot.press("shift+tab")
        await wait_for(pilot, lambda: app.focused is editor.text_area, "the focus back")
        assert editor.text == "{}"


async def test_a_condition_evaluated_and_left_on_screen_is_in_the_history(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        pad = await open_scratchpad(pilot)
        await pilot.press(*"data.a === 1")
        await pilot.pause(HISTORY_AFTER + 0.3)
        await pilot.press("ctrl+u", *"data.b === 2")
        await pilot.pause(HISTORY_AFTER + 0.3)
        # no Enter was pressed; the prefixes typed on the way are not there
        assert pad.scenario.history == ("data.a === 1", "data.b === 2")
        await pilot.press("ctrl+u", *"data.c ===")  # does not parse: not tried
        await pilot.pause(HISTORY_AFTER + 0.3)
        assert pad.scenario.history == ("data.a === 1", "data.b === 2")
        await pilot.press("ctrl+u", "up")
        assert pad.expression_input.value == "data.b === 2"
        await pilot.press("up")
        assert pad.expression_input.value == "data.a === 1"
        await pilot.pause(HISTORY_AFTER + 0.3)  # a recalled condition keeps its place
        assert pad.scenario.history == ("data.a === 1", "data.b === 2")


async def test_tab_with_nothing_to_complete_stays_in_the_condition(demo: Path, make_app: MakeApp):
    """A tab that moved on made the next letters shortcuts: typing a condition with an ``l``
    after it opened the Launch dialog. It stays, says so, and esc is the way out."""
    from flowctx_tui.screens.launch import LaunchScreen

    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        pad = await open_scratchpad(pilot)
        await pilot.press(*"data.x === 1 ")
        await pilot.press("tab")
        await pilot.press(*"|| data.label")
        await pilot.pause()
        assert not isinstance(app.screen, LaunchScreen)
        assert app.focused is pad.expression_input
        assert pad.expression_input.value == "data.x === 1 || data.label"
        await pilot.press(*" ")
        await pilot.press("tab")
        offered = str(pad.query_one("#sp-completions").render())
        assert "nothing to complete here · esc leaves the condition" in offered
        await pilot.press("escape")
        assert app.focused is not pad.expression_input


async def test_the_scratchpad_shows_only_the_inputs_its_dialect_reads(
    demo: Path, make_app: MakeApp
):
    """MemberJunction's path context (data, payload, stepResult, flowContext) only where a
    condition can read it: ag2 and mozaiks conditions read the context variables alone."""
    from textual.widgets import Select, Tab

    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        pad = await open_scratchpad(pilot)

        def shown() -> list[str]:
            tabs = pad.query_one("#sp-inputs").query(Tab)
            return [str(t.label) for t in tabs if t.display]

        assert shown() == ["data", "context", "payload", "stepResult", "flowContext", "tools"]
        for dialect in ("ag2", "mozaiks"):
            pad.query_one("#sp-dialect", Select).value = dialect
            await wait_for(pilot, lambda: shown() == ["context", "tools"], f"{dialect}'s tabs")
            assert pad.query_one("#sp-inputs").active == "sp-tab-context"
        pad.query_one("#sp-dialect", Select).value = "mj"
        await wait_for(pilot, lambda: len(shown()) == 6, "mj's tabs")


async def test_a_scenario_saved_from_the_installed_demo_goes_to_a_copy_and_says_so(
    tmp_path: Path, make_app: MakeApp, monkeypatch
):
    """ctrl+s on the bundled demo offers the copy first; at 80 columns, where the scenario
    row leaves no room for its status, a toast says where the scenario went, in full."""
    from textual.widgets import Input

    from flowctx_tui.cli.workspace_args import demo_path
    from flowctx_tui.screens.copy_demo import CopyDemoScreen

    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in demo_path().rglob("*.yaml"))
    app = make_app(demo_path())
    async with app.run_test(size=(80, 24)) as pilot:
        pad = await open_scratchpad(pilot)
        pad.query_one("#sp-scenario-name", Input).value = "mine"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, CopyDemoScreen), "the offer")
        await pilot.press("ctrl+s")
        saved = tmp_path / "flowctx-demo/.flowctx/scenarios/AppGenerator/mine.json"
        await wait_for(
            pilot,
            lambda: any(f"saved {saved}" in str(n.message) for n in app._notifications),
            "the toast",
        )
    assert saved.is_file()
    assert sorted(p.name for p in demo_path().rglob("*.yaml")) == before
