"""Which paths make the app reload, and watching a real folder with watchfiles."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from flowctx_tui.watcher import WorkspaceFilter, watch


def test_relevant_files_of_a_workspace(tmp_path: Path):
    f = WorkspaceFilter(tmp_path)
    root = f.root
    yes = [
        "workflows/A/context_variables.yaml",
        "workflows/A/transition_graph.yaml",
        "workflows/A/handoffs.yaml",
        "workflows/A/flow.yaml",
        "workflows/NewOne",  # a workflow folder appearing or going away
        "flowctx.yaml",
        "build_context/pay/context.yaml",
        "build_context/pay/catalog.yaml",
        "seed/default/users.json",
    ]
    no = [
        "workflows/A/notes.md",
        "workflows/A/.context_variables.yaml.swp",
        "workflows/A/context_variables.yaml~",
        "seed/default/.#users.json",
        "README.md",
        "data/unreferenced.json",
        ".git/index",
    ]
    for rel in yes:
        assert f.relevant(root / rel), rel
    for rel in no:
        assert not f.relevant(root / rel), rel
    assert not f.relevant(tmp_path.parent / "elsewhere.yaml")


def test_extra_files_inside_and_outside_the_root(tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "ws"
    root.mkdir()
    f = WorkspaceFilter(root, [root / "data" / "catalog.json", outside / "fallbacks.json"])
    assert f.relevant(root / "data" / "catalog.json")
    assert f.relevant(outside / "fallbacks.json")
    assert not f.relevant(outside / "other.json")
    assert f.watch_paths() == (f.root, outside)


async def test_watch_reports_an_editor_style_save(tmp_path: Path):
    """After a first batch that says it is watching, a temp-file + rename save is reported
    under the real name, and irrelevant files are not."""
    folder = tmp_path / "workflows" / "A"
    folder.mkdir(parents=True)
    contract = folder / "context_variables.yaml"
    contract.write_text("definitions: {}\n")
    stop = asyncio.Event()
    seen: list[set[Path]] = []

    ready = asyncio.Event()

    async def collect() -> None:
        async for paths in watch(WorkspaceFilter(tmp_path), stop):
            if not ready.is_set():
                ready.set()  # the first batch says the watcher is running
                continue
            seen.append(paths)
            stop.set()

    task = asyncio.create_task(collect())
    await asyncio.wait_for(ready.wait(), timeout=10)
    (folder / "notes.md").write_text("ignored")
    tmp = folder / ".context_variables.yaml.tmp"
    tmp.write_text("definitions: {x: {source: {type: state}}}\n")
    os.replace(tmp, contract)
    await asyncio.wait_for(task, timeout=10)
    assert seen and Path(os.path.realpath(contract)) in seen[0]
    assert ready.is_set()
    assert all(p.name != "notes.md" for p in seen[0])


async def test_a_save_made_before_the_watch_is_set_up_is_not_missed(demo, make_app):
    """flowctx loads before its first frame and starts watching after it: a file saved in
    between is caught by the reload that follows the watcher's first batch."""
    from flowctx_core.session import open_session
    from flowctx_tui.loader import load
    from tests.tui.conftest import cell, wait_for

    initial = load(open_session(demo, env={}), "AppGenerator", {}, {})
    contract = demo / "workflows" / "AppGenerator" / "context_variables.yaml"
    contract.write_text(
        contract.read_text().replace("default: Mozaiks App Factory", "default: early")
    )
    app = make_app(demo, watch=True, initial=initial)
    # wide enough for the whole value (at 80 columns it ends in an ellipsis at the edge)
    async with app.run_test(size=(120, 30)) as pilot:
        # what was loaded before
        assert cell(app, "factory_name", "value") == "Mozaiks App Factory"
        await wait_for(pilot, lambda: cell(app, "factory_name", "value") == "early", "catch-up")
