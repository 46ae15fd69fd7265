"""Live reload: files edited on disk (seen by the real watcher) change what is on screen."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.tui.conftest import MakeApp, cell, reloaded, wait_for

CONTRACT = "workflows/AppGenerator/context_variables.yaml"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def save_by_rename(path: Path, text: str) -> None:
    """How editors save: write a temporary file beside it, then rename it over."""
    tmp = path.with_name(f".{path.name}.tmp-save")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


async def test_edit_on_disk_updates_the_matrix_in_place(demo: Path, make_app: MakeApp):
    app = make_app(demo, watch=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        app.matrix_view.select("plan_approved")
        await pilot.pause()
        before = app.result
        # an ordinary write
        edit(demo / CONTRACT, "default: Mozaiks App Factory", "default: Factory 2")
        await wait_for(
            pilot, lambda: cell(app, "factory_name", "value") == "Factory 2", "factory_name"
        )
        assert app.result is not before
        # the cursor stayed on the row the user had selected
        assert app.matrix_view.highlighted.name == "plan_approved"
        # an editor-style save (temp file + rename), adding a variable
        text = (demo / CONTRACT).read_text(encoding="utf-8")
        text = text.replace(
            "  # --- data_reference",
            "  tone:\n    type: string\n    source: {type: state, default: upbeat}\n\n"
            "  # --- data_reference",
        )
        save_by_rename(demo / CONTRACT, text)
        await wait_for(
            pilot, lambda: "tone" in app.matrix_view.shown_names, "the new variable's row"
        )
        assert cell(app, "tone", "value") == "upbeat"
        assert app.matrix_view.highlighted.name == "plan_approved"
        assert app.state == "live"


async def test_broken_file_keeps_last_good_rows_stale_until_fixed(demo: Path, make_app: MakeApp):
    app = make_app(demo, watch=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        rows = list(app.matrix_view.shown_names)
        good = (demo / CONTRACT).read_text(encoding="utf-8")
        (demo / CONTRACT).write_text(good.replace("  llm_model:", "  llm_model: [oops", 1))
        await wait_for(pilot, lambda: app.state == "stale", "the stale state")
        # the last good rows stay on screen
        assert app.matrix_view.shown_names == rows
        assert cell(app, "factory_name", "value") == "Mozaiks App Factory"
        banner = str(app.query_one("#problems").render())
        # at the '[' left open (line 11), not where the parser gave up (the next key's line)
        assert (
            "workflows/AppGenerator/context_variables.yaml:11:14: YAML syntax error: this '[' is "
            "not closed" in banner
        )
        assert "last good result (stale)" in banner
        assert "stale" in str(app.query_one("#status").render())
        # fixing it clears the stale state and the banner
        (demo / CONTRACT).write_text(good.replace("default: Mozaiks App Factory", "default: o3"))
        await wait_for(pilot, lambda: app.state == "live", "the live state")
        assert cell(app, "factory_name", "value") == "o3"
        assert not app.query_one("#problems").display


async def test_a_contract_that_no_longer_parses_is_stale_but_one_bad_definition_is_a_row(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        path = demo / CONTRACT
        good = path.read_text(encoding="utf-8")
        path.write_text("definitions: just a string\n", encoding="utf-8")
        app.reload({path})
        await wait_for(pilot, lambda: app.state == "stale", "stale")
        assert "definitions must be a map" in str(app.query_one("#problems").render())
        path.write_text(good.replace("      env_var: LLM_MODEL", "      env_vra: LLM_MODEL"))
        app.reload({path})
        await wait_for(pilot, lambda: app.state == "live", "live")
        assert cell(app, "llm_model", "status") == "error"
        assert cell(app, "factory_name", "status") == "default"


async def test_edits_made_in_the_app_survive_a_reload(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        app.set_env_override("LLM_MODEL", "from-override")
        await wait_for(pilot, lambda: cell(app, "llm_model", "value") == "from-override", "env")
        filter_input = app.query_one("#filter")
        filter_input.value = "source:config"
        await pilot.pause()
        app.matrix_view.select("max_build_iterations")
        before = app.result
        edit(demo / CONTRACT, "default: Mozaiks App Factory", "default: Renamed")
        app.reload({demo / CONTRACT})
        await reloaded(pilot, since=before)
        assert cell(app, "factory_name", "value") == "Renamed"
        assert cell(app, "llm_model", "value") == "from-override"
        assert filter_input.value == "source:config"
        assert len(app.matrix_view.shown_names) == 5
        assert app.matrix_view.highlighted.name == "max_build_iterations"


async def test_seed_fallbacks_and_data_files_are_watched_too(demo: Path, make_app: MakeApp):
    app = make_app(demo, watch=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        assert cell(app, "style_preset", "value") == "minimal"
        # a seed document for a collection that had none
        seed = demo / "seed" / "factory" / "style_presets.json"
        seed.write_text(json.dumps([{"app_id": "app-fittrack", "preset": "bold"}]))
        await wait_for(pilot, lambda: cell(app, "style_preset", "value") == "bold", "seed")
        # the fallbacks file named by flowctx.yaml's env
        fallbacks = demo / "fallbacks" / "fallbacks.json"
        data = json.loads(fallbacks.read_text())
        data["global"]["brand_guidelines"] = {"tone": "calm"}
        fallbacks.write_text(json.dumps(data))
        await wait_for(
            pilot, lambda: cell(app, "brand_guidelines", "value") == '{"tone": "calm"}', "fallback"
        )
        # a file read by a file source
        (demo / "data" / "welcome.txt").write_text("Hello again")
        await wait_for(
            pilot, lambda: cell(app, "welcome_message", "value") == "Hello again", "data file"
        )


async def test_new_and_deleted_workflows_are_noticed(demo: Path, make_app: MakeApp):
    app = make_app(demo, watch=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        assert app.workflows == ("AppGenerator", "Approvals", "Triage")
        folder = demo / "workflows" / "Zeta"
        folder.mkdir()
        (folder / "context_variables.yaml").write_text(
            "definitions:\n  z: {type: string, source: {type: state, default: zz}}\n"
        )
        await wait_for(pilot, lambda: "Zeta" in app.workflows, "the new workflow")
        # deleting the shown workflow's contract: stale, never blank
        (demo / CONTRACT).unlink()
        await wait_for(pilot, lambda: app.state == "stale", "stale after delete")
        assert "llm_model" in app.matrix_view.shown_names
        assert "has no context_variables.yaml" in str(app.query_one("#problems").render())


async def test_a_storm_of_saves_keeps_updating_the_screen(workspace, make_app: MakeApp):
    """Saves come faster than a (large) workflow resolves: the screen still moves on during
    the storm (one run at a time, the requests made meanwhile collapsed into the next one,
    never each save cancelling the run before it) and ends on the last save."""
    import asyncio
    import time

    filler = "".join(
        f"  v{i:04d}: {{type: string, source: {{type: state, default: x{i}}}}}\n"
        for i in range(1500)
    )
    contract = "definitions:\n  marker: {{type: string, source: {{type: state, default: {}}}}}\n"
    root = workspace({"workflows/Big/context_variables.yaml": contract.format("m-0") + filler})
    path = root / "workflows/Big/context_variables.yaml"
    app = make_app(root, "Big", watch=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await reloaded(pilot, timeout=30)
        seen: set[str] = set()
        deadline = time.monotonic() + 3.0
        i = 0
        while time.monotonic() < deadline:  # a save every 30 ms for 3 s
            i += 1
            path.write_text(contract.format(f"m-{i}") + filler)
            await asyncio.sleep(0.03)
            seen.add(cell(app, "marker", "value"))
        last = f"m-{i}"
        await wait_for(pilot, lambda: cell(app, "marker", "value") == last, "the end", 30)
        during = {v for v in seen if v not in ("m-0", last)}
        assert during, "nothing reached the screen while the saves went on"


async def test_the_detail_pane_follows_an_edit_of_the_highlighted_variable(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(160, 48)) as pilot:
        await reloaded(pilot)
        app.matrix_view.select("factory_name")
        await pilot.pause()
        body = app.query_one("#detail-body")

        def detail() -> str:
            return str(body.render())

        assert "Mozaiks App Factory" in detail()
        assert "context_variables.yaml:5:3" in detail()
        # an edit elsewhere in the contract that moves this definition down two lines: the
        # same value, the definition's new place
        before = app.result
        edit(demo / CONTRACT, "definitions:\n", "definitions:\n  # moved\n\n")
        app.reload({demo / CONTRACT})
        await reloaded(pilot, before)
        await pilot.pause()
        assert "Mozaiks App Factory" in detail()
        assert "context_variables.yaml:7:3" in detail()
        # its own default edited: the new value and the new line of the definition show
        before = app.result
        edit(demo / CONTRACT, "default: Mozaiks App Factory", "default: Factory 2")
        app.reload({demo / CONTRACT})
        await reloaded(pilot, before)
        await pilot.pause()
        assert "Factory 2" in detail() and "Mozaiks App Factory" not in detail()


async def test_the_start_up_heap_is_frozen_while_the_app_runs_and_released_after(
    demo: Path, make_app: MakeApp
):
    import gc

    app = make_app(demo)
    async with app.run_test(size=(100, 30)) as pilot:
        await reloaded(pilot)
        await pilot.pause()
        # what start-up built is out of the collector's full passes (typing stays smooth)
        assert gc.get_freeze_count() > 0
        before = app.result
        edit(demo / CONTRACT, "default: Mozaiks App Factory", "default: Factory 2")
        app.reload({demo / CONTRACT})
        await reloaded(pilot, before)
        assert cell(app, "factory_name", "value") == "Factory 2"
    # and back in the collector's care once the app has ended (an embedding process, a test
    # run of many apps, frees them)
    assert gc.get_freeze_count() == 0
