"""The user's settings in the app (the first hour's item 14): the theme picked with ctrl+t is
kept for the next run, and a keymap in the settings file is the app's keys, each started
the way ``flowctx`` starts the app (``build_app``) with its own settings file."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from flowctx_tui.app import FlowctxApp
from flowctx_tui.cli import verbosity
from flowctx_tui.cli.app_cmd import build_app, configure
from flowctx_tui.cli.workspace_args import demo_path
from tests.conftest import until


def _app(root: Path, *args: str) -> FlowctxApp:
    parser = argparse.ArgumentParser()
    configure(parser)
    parser.add_argument("--runtime")
    parsed = parser.parse_args([str(root), "--no-watch", *args])
    # the level ``main()`` would set: an earlier test's ``--quiet`` in this worker must not
    # silence the notes these tests read
    verbosity.reset()
    verbosity.configure(parsed)
    app = build_app(parsed)
    assert isinstance(app, FlowctxApp)
    return app


async def test_a_theme_picked_is_the_next_runs_theme(tmp_path: Path, _own_settings: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    _own_settings.write_text("# my settings\nruntime: mozaiks\n")
    app = _app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        start = app.theme
        await pilot.press("ctrl+t")  # the theme picker (a searchable list)
        await pilot.pause()
        await pilot.press(*"nord")
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: app.theme == "nord", what="the theme to change")
    assert start != "nord"
    text = _own_settings.read_text()
    assert "theme: nord" in text
    assert "# my settings" in text and "runtime: mozaiks" in text  # the rest kept as written
    again = _app(root)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_a_keymap_in_the_settings_is_the_apps(tmp_path: Path, _own_settings: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    _own_settings.write_text("keymap:\n  app.theme: f12\n")
    app = _app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f12")  # ctrl+t moved to f12: the theme picker opens
        await pilot.pause()
        await pilot.press(*"nord", "enter")
        await until(pilot, lambda: app.theme == "nord", what="the theme to change with f12")


def test_a_bad_keymap_in_the_settings_is_said_and_the_app_still_starts(
    tmp_path: Path, _own_settings: Path, capsys
) -> None:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    _own_settings.write_text("keymap:\n  app.theme: f9\n")  # f9 is the Tests tab's key
    app = _app(root)
    assert isinstance(app, FlowctxApp)
    err = capsys.readouterr().err
    assert "your settings' keymap is not used" in err
    assert (
        f"{_own_settings}:2:14: keymap.app.theme: 'f9' is already the key of app.tab.tests" in err
    )
