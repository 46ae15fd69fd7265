"""Regenerate the docs' review-mode screenshots (``screenshots/review-*.svg``) headlessly.

Run ``python scripts/review_screenshots.py [--out DIR] [--size WxH]``. The docs' example is
built again (the demo committed in a new git repository, then edited in the working tree:
``tests/diff_repo.make_demo_review``), the app is opened on it with ``--base HEAD`` as a user
would, and each view is captured: the matrix with its marks and a changed variable's before and
after, and the Changes tab. Fixed clock; secrets stay masked.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from flowctx_core.review.diff import read_side  # noqa: E402
from flowctx_core.session import open_session  # noqa: E402
from flowctx_tui.app import FlowctxApp  # noqa: E402
from tests.diff_repo import make_demo_review  # noqa: E402

FIXED_NOW = datetime(2025, 1, 2, 9, 30, 0)


async def until(pilot: Any, predicate: Callable[[], object], what: str, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"review screenshots: timed out waiting for {what}")
        await pilot.pause(0.02)
    await pilot.pause()


async def matrix(pilot: Any) -> None:
    pilot.app.matrix_view.select("approval_timeout_minutes")


async def changes(pilot: Any) -> None:
    await pilot.press("6")  # the Changes tab (5 is the Tests tab)
    await until(pilot, lambda: pilot.app.query_one("#tabs").active == "changes", "the tab")


VIEWS: dict[str, Callable[[Any], Awaitable[None]]] = {
    "review-matrix": matrix,
    "review-changes": changes,
}


async def shoot(name: str, out: Path, size: tuple[int, int]) -> Path:
    with tempfile.TemporaryDirectory() as tmp:
        shop = make_demo_review(Path(tmp))
        app = FlowctxApp(
            open_session(shop, env={}),
            "Approvals",
            watch=True,  # as flowctx runs; the status line says so
            clock=lambda: FIXED_NOW,
            cursor_blink=False,
            base=read_side("HEAD", shop, {}),
        )
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: app.comparison is not None, "the comparison")
            await VIEWS[name](pilot)
            await pilot.pause()
            path = Path(app.save_screenshot(f"{name}.svg", str(out)))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    parser.add_argument("--size", default="150x40", help="terminal size, WIDTHxHEIGHT")
    args = parser.parse_args(argv)
    width, _, height = args.size.partition("x")
    args.out.mkdir(parents=True, exist_ok=True)
    for name in VIEWS:
        print(asyncio.run(shoot(name, args.out, (int(width), int(height)))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
