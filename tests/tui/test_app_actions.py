"""App-level actions: overrides, launch values, workflows, keys, help, palette, screenshots."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Input, TextArea

from flowctx_tui.screens.env_override import EnvOverrideScreen
from flowctx_tui.screens.help import HelpScreen
from flowctx_tui.screens.launch import LaunchScreen
from flowctx_tui.screens.workflows import WorkflowPicker
from tests.tui.conftest import MakeApp, cell, detail_text, reloaded, wait_for


def palette_shows(app, text: str) -> bool:
    found = app.screen.query("CommandList")
    if not found:
        return False
    options = found.first()
    prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    return any(text in p for p in prompts)


async def test_env_override_from_a_config_row_re_resolves(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        app.matrix_view.select("llm_model")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EnvOverrideScreen), "the screen")
        # prefilled with the variable's env var name; the cursor waits in the value
        assert app.screen.query_one("#env-name", Input).value == "LLM_MODEL"
        assert "not set" in str(app.screen.query_one("#env-current").render())
        await pilot.press(*"o3-mini")
        await pilot.press("enter")
        await wait_for(pilot, lambda: cell(app, "llm_model", "value") == "o3-mini", "override")
        # still marked: under the mozaiks runtime the declared default is never applied, and
        # check warns about it whatever the environment holds
        assert cell(app, "llm_model", "status") == "resolved !"
        # ... and the detail says what the mark is for
        assert "! default 'gpt-4o-mini' ignored: env_var LLM_MODEL is declared" in detail_text(app)
        # provenance says the value is the app's override, not the process's or flowctx.yaml's
        assert cell(app, "llm_model", "origin").startswith("env LLM_M")
        assert "env LLM_MODEL (app override)" in detail_text(app)
        assert app.env_overrides == {"LLM_MODEL": "o3-mini"}
        assert "1 override" in str(app.query_one("#status").render())
        # removing the override brings back what the runtime reads: nothing (None)
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EnvOverrideScreen), "the screen")
        assert "your override" in str(app.screen.query_one("#env-current").render())
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: cell(app, "llm_model", "value") == "null", "reset")
        assert app.env_overrides == {}


async def test_secret_env_value_is_masked_in_the_override_screen(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        app.matrix_view.select("openai_api_key")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, EnvOverrideScreen), "the screen")
        current = str(app.screen.query_one("#env-current").render())
        assert "sk-demo-not-a-real-key" not in current
        assert "flowctx.yaml" in current
        assert app.screen.query_one("#env-value", Input).password
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, EnvOverrideScreen), "closed")
        assert app.env_overrides == {}


async def test_launch_values_editor_re_resolves_and_rejects_bad_json(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        assert cell(app, "app_profile", "status") == "resolved"
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LaunchScreen), "the editor")
        area = app.screen.query_one("#launch-text", TextArea)
        area.text = '{"app_id": "app-unknown",'
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, LaunchScreen)  # not applied
        assert "line 1, column" in str(app.screen.query_one("#launch-error").render())
        area.text = '{"app_id": "app-unknown"}'
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: cell(app, "app_profile", "status") != "resolved", "launch")
        assert app.launch == {"app_id": "app-unknown"}
        assert cell(app, "app_profile", "value") == "null"


async def test_switch_workflow_from_the_list_and_from_the_palette(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, WorkflowPicker), "the picker")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: "approval_request" in app.matrix_view.shown_names, "rows")
        assert app.workflow == "Approvals"
        assert "Approvals" in str(app.query_one("#status").render())
        # the command palette lists the other workflow
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Workflow: AppG")
        await wait_for(pilot, lambda: palette_shows(app, "Workflow: AppGenerator"), "the hit")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "llm_model" in app.matrix_view.shown_names, "rows")
        assert app.workflow == "AppGenerator"


async def test_palette_lists_every_action(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        titles = {c.title for c in app.palette_commands()}
        for action in (
            "Filter",
            "Next problem",
            "Sort",
            "Detail",
            "Env override",
            "Workflow",
            "Reveal",
            "Launch",
            "Reload",
            "Theme: choose a colour theme",
            "Screenshot",
            "Keys and help: every key binding",
            "Matrix",
            "Scratchpad",
            "Routes",
            "Workflow: Approvals",
        ):
            assert action in titles
        # running one from the palette does what its key does
        next(c for c in app.palette_commands() if c.title.startswith("Keys and help")).run()
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "help")


async def test_remapped_keys_work_and_help_shows_them(demo: Path, make_app: MakeApp, workspace):
    root = workspace(
        {
            "workflows/W/context_variables.yaml": """
                definitions:
                  a: {type: string, source: {type: state, default: x}}
                  bad: {type: string, source: {type: config, required: true}}
                """
        }
    )
    app = make_app(root, "W", keymap={"matrix.next_error": "f7", "app.help": "f9"})
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        await pilot.press("n")  # no longer bound
        assert app.matrix_view.highlighted.name == "a"
        await pilot.press("f7")
        assert app.matrix_view.highlighted.name == "bad"
        await pilot.press("f9")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        table = app.screen.query_one("#help-table", DataTable)
        rows = {
            table.get_row_at(i)[2].plain: table.get_row_at(i)[0].plain
            for i in range(table.row_count)
        }
        assert rows["matrix.next_error"] == "f7"
        assert rows["app.help"] == "f9"
        assert rows["app.quit"] == "^q"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen), "help closed")


async def test_f8_saves_an_svg_screenshot_without_secrets(
    demo: Path, make_app: MakeApp, tmp_path: Path
):
    shots = tmp_path / "shots"
    app = make_app(demo, "Approvals", screenshot_dir=shots)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        app.matrix_view.select("approval_service_url")
        await pilot.press("r")  # revealed on screen ...
        assert "demo-pass" in detail_text(app)
        await pilot.press("f8")
        await wait_for(pilot, lambda: list(shots.glob("*.svg")), "the screenshot file")
        (svg,) = shots.glob("*.svg")
        assert svg.name == "flowctx-Approvals-20250102-030405.svg"
        text = svg.read_text(encoding="utf-8")
        assert text.startswith("<svg")
        assert "approval_service_url" in text
        assert "demo-pass" not in text  # ... but never written to disk
        await wait_for(pilot, lambda: app.reveal, "reveal restored after the screenshot")


async def test_a_loaded_scenario_brings_its_overrides_and_routes_share_it(
    demo: Path, make_app: MakeApp
):
    import json

    folder = demo / ".flowctx" / "scenarios" / "AppGenerator"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "fast.json").write_text(
        json.dumps(
            {
                "format": 1,
                "workflow": "AppGenerator",
                "expression": "context.llm_model === 'o3'",
                "env": {"LLM_MODEL": "o3"},
                "launch": {"app_id": "app-unknown"},
            }
        )
    )
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query("#sp-expr"), "the scratchpad")
        pad = app.query_one("#scratchpad-view")
        assert pad.load_scenario("fast")
        await wait_for(pilot, lambda: cell(app, "llm_model", "value") == "o3", "the override")
        assert app.env_overrides == {"LLM_MODEL": "o3"}
        assert app.launch == {"app_id": "app-unknown"}
        # the routes view, opened afterwards (f4 works while typing), routes under the
        # same scenario
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.query("#routes-view"), "the routes view")
        assert app.query_one("#routes-view").scenario.expression == pad.scenario.expression


async def test_launch_secrets_are_masked_in_the_editor_unless_revealed(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        app.launch = {"session_token": "tok-123", "user_id": "u-9"}
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, LaunchScreen), "the editor")
        text = app.screen.query_one("#launch-text", TextArea).text
        assert "tok-123" not in text and "u-9" in text
        await pilot.press("ctrl+s")  # left masked: the real token is kept, not "***"
        await wait_for(pilot, lambda: not isinstance(app.screen, LaunchScreen), "closed")
        assert app.launch["session_token"] == "tok-123"
        await pilot.press("r", "l")  # revealed, the editor shows it
        await wait_for(pilot, lambda: isinstance(app.screen, LaunchScreen), "the editor")
        assert "tok-123" in app.screen.query_one("#launch-text", TextArea).text


async def test_the_bundled_demo_is_called_the_demo_and_the_palette_names_no_seed_file(
    make_app: MakeApp,
):
    from flowctx_tui.cli.workspace_args import demo_path

    app = make_app(demo_path())  # opened in place, as `flowctx` alone opens it (never edited)
    async with app.run_test(size=(120, 30)) as pilot:
        await reloaded(pilot)
        status = str(app.query_one("#status").render())
        assert status.startswith(" AppGenerator (the demo) │ ● live")
        assert app.sub_title == "AppGenerator · the demo"
        await pilot.press("ctrl+p")
        await pilot.press(*"Runtime")
        await wait_for(pilot, lambda: palette_shows(app, "Runtime: spec"), "the runtimes")
        said = [f"{c.title} {c.help}" for c in app.palette_commands()]
        assert any("the documented context-variables contract" in s.lower() for s in said)
        # what a user reads in the palette names nothing outside the repository
        assert not [s for s in said if ".txt" in s or "001_" in s]


async def test_a_copy_of_the_demo_is_called_by_its_folder(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(120, 30)) as pilot:
        await reloaded(pilot)
        assert str(app.query_one("#status").render()).startswith(" AppGenerator (demo) │")


async def test_e_on_a_row_without_an_env_var_says_why_instead_of_a_blank_dialog(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await reloaded(pilot)

        def toasts() -> list[str]:
            return [str(n.message) for n in app._notifications]

        for name, why in (
            ("app_profile", "'app_profile' comes from a data_reference source, not an env var"),
            ("factory_name", "'factory_name' declares no env_var"),
        ):
            app.matrix_view.select(name)
            await pilot.press("e")
            await wait_for(pilot, lambda why=why: any(why in t for t in toasts()), "the toast")
            assert not isinstance(app.screen, EnvOverrideScreen)
        assert any("e overrides the env var of a config variable" in t for t in toasts())
        # any other variable: the palette's command opens the dialog, asking for the name
        await pilot.press("ctrl+p")
        await pilot.press(*"any environment")
        await wait_for(pilot, lambda: palette_shows(app, "Env override: any"), "the command")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EnvOverrideScreen), "the dialog")
        assert app.screen.query_one("#env-name", Input).value == ""


async def test_help_lists_each_key_once_and_names_the_view_of_each(demo: Path, make_app: MakeApp):
    """f1: ctrl+o (save as test in two views) is one line; ctrl+r and ctrl+l, which do
    different things in different views, each say which view; the tab bar reads 1 to 5."""
    from textual.widgets import Tab

    app = make_app(demo)
    async with app.run_test(size=(80, 24)) as pilot:
        await reloaded(pilot)
        tabs = [str(t.label) for t in app.query_one("#tabs").query(Tab)]
        assert tabs == ["1 Matrix", "2 Scratchpad", "3 Routes", "4 Graph", "5 Tests"]
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "help")
        table = app.screen.query_one("#help-table", DataTable)
        rows = [[c.plain for c in table.get_row_at(i)] for i in range(table.row_count)]
        pairs = [(keys, does) for keys, does, _ in rows]
        assert len(pairs) == len(set(pairs)), pairs
        save = [does for keys, does, _ in rows if "Save as test" in does and keys == "^o"]
        assert save == ["Scratchpad, Routes: Save as test"]
        by_key: dict[str, list[str]] = {}
        for keys, does, _ in rows:
            by_key.setdefault(keys, []).append(does)
        assert sorted(by_key["^r"])[:3] == [
            "Env override: Remove override",
            "Scratchpad: Reset context",
            "Tests: Run tests",
        ]
        assert sorted(by_key["^l"]) == [
            "Routes: Go to the source list",
            "Scratchpad: Back to the condition",
        ]
