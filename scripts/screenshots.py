"""Regenerate the README's and the docs' screenshots (``screenshots/*.svg``) from the demo.

Run ``python scripts/screenshots.py [--out DIR] [--size WxH]``. Each view is driven as a user
would (keys, a typed condition, a file broken on disk) in a copy of the bundled demo
workspace, with a fixed clock so the pictures only change when the app does. Secrets stay
masked: nothing is revealed for a screenshot.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flowctx_core.session import open_session  # noqa: E402
from flowctx_tui.app import FlowctxApp  # noqa: E402
from flowctx_tui.cli.workspace_args import demo_path  # noqa: E402

FIXED_NOW = datetime(2025, 1, 2, 9, 30, 0)
CONTRACT = "workflows/AppGenerator/context_variables.yaml"
#: the condition typed into the scratchpad (mj dialect: context.* reads the matrix)
CONDITION = "context.max_build_iterations > 3 && context.enable_preview_deploys === true"


async def until(pilot: Any, predicate: Callable[[], object], what: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"screenshots: timed out waiting for {what}")
        await pilot.pause(0.02)
    await pilot.pause()


async def settle(pilot: Any) -> None:
    """Wait for debounced work in the scratchpad and routes views to finish."""
    app = pilot.app
    for view_id in ("#scratchpad-view", "#routes-view", "#graph-view"):
        found = app.query(view_id)
        if found and hasattr(found.first(), "pending"):
            view = found.first()
            await until(pilot, lambda v=view: not v.pending, f"{view_id} to settle")
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def matrix(pilot: Any, root: Path) -> None:
    await pilot.press("down")


async def detail(pilot: Any, root: Path) -> None:
    pilot.app.matrix_view.select("concept_api_endpoints")


async def scratchpad(pilot: Any, root: Path) -> None:
    app = pilot.app
    await pilot.press("2")
    await until(pilot, lambda: app.query("#sp-expr"), "the scratchpad")
    expr = app.query_one("#sp-expr")
    expr.focus()
    expr.value = CONDITION
    await until(pilot, lambda: app.query_one("#scratchpad-view").result is not None, "a result")
    await settle(pilot)


async def routes(pilot: Any, root: Path) -> None:
    app = pilot.app
    await pilot.press("3")
    await until(pilot, lambda: app.query("#routes-view"), "the routes view")
    await until(pilot, lambda: app.query_one("#routes-view").outcome is not None, "routes")
    await settle(pilot)


async def graph(pilot: Any, root: Path) -> None:
    app = pilot.app
    await pilot.press("4")
    await until(pilot, lambda: app.query("#graph-view"), "the graph view")
    view = app.query_one("#graph-view")
    await until(pilot, lambda: view.graphs is not None and not view.pending, "the graph")
    await settle(pilot)


async def error(pilot: Any, root: Path) -> None:
    app = pilot.app
    path = root / CONTRACT
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  llm_model:\n", "  llm_model: [unclosed\n", 1))
    app.reload({path})
    await until(pilot, lambda: app.state == "stale", "the stale state")


VIEWS: dict[str, Callable[[Any, Path], Awaitable[None]]] = {
    "matrix": matrix,
    "detail": detail,
    "scratchpad": scratchpad,
    "routes": routes,
    "graph": graph,
    "error": error,
}


async def shoot(name: str, out: Path, size: tuple[int, int]) -> Path:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "workspace"
        shutil.copytree(demo_path(), root)
        app = FlowctxApp(
            open_session(root, env={}),
            "AppGenerator",
            watch=True,  # as flowctx runs; the status line says so
            clock=lambda: FIXED_NOW,
            cursor_blink=False,
        )
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: app.result is not None, "the first load")
            await VIEWS[name](pilot, root)
            await pilot.pause()
            path = Path(app.save_screenshot(f"{name}.svg", str(out)))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument("--size", default="150x40", help="terminal size, WIDTHxHEIGHT")
    parser.add_argument("views", nargs="*", choices=[*VIEWS, []], help="default: all")
    args = parser.parse_args(argv)
    width, _, height = args.size.partition("x")
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.views or VIEWS:
        path = asyncio.run(shoot(name, args.out, (int(width), int(height))))
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
