"""The app on MemberJunction agent metadata: it opens on the Routes tab with the flow's graph."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.widgets import DataTable, Select, Static, TabbedContent

from flowctx_tui.cli import main
from flowctx_tui.cli.app_cmd import build_app, configure
from flowctx_tui.mj_app import MjApp
from tests.conftest import until

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "mj-metadata"


def _app(path: Path, *args: str) -> MjApp:
    import argparse

    parser = argparse.ArgumentParser()
    configure(parser)
    parser.add_argument("--runtime")
    app = build_app(parser.parse_args([str(path), *args]))
    assert isinstance(app, MjApp)
    return app


def _text(app: MjApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def test_the_corpus_opens_on_routes_with_the_graph(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    app = _app(root, "-w", "Content Pipeline")
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.pause()
        assert app.query_one("#tabs", TabbedContent).active == "routes"
        assert "Research: broad" in _text(app, "#graph")
        assert "Close out: gave up" in _text(app, "#graph")
        assert "the starting step: winner: Research: broad" in _text(app, "#start")
        assert "from step 'Research: broad'" in _text(app, "#decision")
        table = app.query_one("#steps", DataTable)
        assert table.row_count == 6
        # move to the While step: its decision shows both paths, the second one taken
        table.focus()
        for _ in range(3):
            await pilot.press("down")
        await until(
            pilot,
            lambda: "from step 'Review against brand rules'" in _text(app, "#decision"),
            "the While step's decision",
        )
        text = _text(app, "#decision")
        assert "winner: Close out: gave up" in text
        # another agent: its own steps and graph
        app.query_one("#agent", Select).value = "BLA"
        await until(pilot, lambda: "Assemble Prompt" in _text(app, "#graph"), "BLA's graph")
        assert table.row_count == 2
        await pilot.press("q")


async def test_the_problems_tab_lists_what_check_says(tmp_path: Path) -> None:
    app = _app(CORPUS)
    async with app.run_test(size=(120, 40)) as pilot:
        app.query_one("#tabs", TabbedContent).active = "problems"
        await pilot.pause()
        text = _text(app, "#problem-list")
        assert "Unknown step type: Human" in text
        assert "agent 'Demo Loop Agent' is not a flow agent" in text


def test_a_bad_agent_name_is_a_message_before_the_app_starts(capsys) -> None:
    assert main([str(CORPUS), "-w", "Nope"]) == 2
    assert "no flow agent named 'Nope'" in capsys.readouterr().err
