"""Hostile files under the running app: the contract on screen replaced by an alias bomb, deep
nesting, a 50 MB file, binary, Latin-1, a FIFO, a link to /dev/zero, a directory.

What the user sees: each time, the last good rows stay on screen marked stale, the banner names
the file with its line and column and says what is wrong, the reload comes back promptly
(never a hang: a FIFO or /dev/zero is never read), and fixing the file makes it live again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from core.session import open_session
from flowctx_tui.app import FlowctxApp
from tests.conftest import write_tree
from tests.reliability.harness import no_hang
from tests.reliability.test_hostile_yaml import CASES, GOOD_CONTRACT
from tests.tui.conftest import cell, reloaded, wait_for

CONTRACT = "workflows/W/context_variables.yaml"


def replace_with(path: Path, make: Callable[[Path], None]) -> None:
    if path.is_dir() and not path.is_symlink():
        path.rmdir()
    else:
        path.unlink()
    make(path)


SPECIAL: dict[str, tuple[Callable[[Path], None], str]] = {
    "a FIFO": (os.mkfifo, "not a regular file (device, FIFO or socket)"),
    "a link to /dev/zero": (
        lambda p: p.symlink_to("/dev/zero"),
        "not a regular file (device, FIFO or socket)",
    ),
}
NAMES = [
    "alias bomb (billion laughs)",
    "nesting: 100,000 flow brackets",
    "a 50 MB file",
    "binary (a PNG header)",
    "Latin-1 text",
    "a tab in the indentation",
    "a directory named like the contract",
]


@pytest.mark.parametrize("name", [*NAMES, *SPECIAL])
async def test_the_app_shows_a_hostile_contract_as_a_located_problem_and_recovers(
    name: str, tmp_path: Path
) -> None:
    root = write_tree(tmp_path / "ws", {CONTRACT: GOOD_CONTRACT})
    path = root / CONTRACT
    if name in SPECIAL:
        make, words = SPECIAL[name]
        where = "0:0"
    else:
        case = CASES[name]
        make, words, where = case.write, case.words, "{}:{}".format(*case.where)
    app = FlowctxApp(open_session(root, env={}), "W", watch=False, cursor_blink=False)
    # a reload thread stuck on a FIFO would also hang the app's exit: end the run instead
    with no_hang(120):
        await run(app, path, make, words, where, name)


async def run(
    app: FlowctxApp,
    path: Path,
    make: Callable[[Path], None],
    words: str,
    where: str,
    name: str,
) -> None:
    async with app.run_test(size=(140, 30)) as pilot:
        await reloaded(pilot)
        assert cell(app, "flag", "value") == "false"

        replace_with(path, make)
        started = time.monotonic()
        app.reload({path})
        await wait_for(pilot, lambda: app.state == "stale", "the stale state", timeout=20)
        took = time.monotonic() - started
        banner = " ".join(str(app.query_one("#problems").render()).split())
        assert f"{CONTRACT}:{where}: " in banner and " ".join(words.split()) in banner, banner
        assert cell(app, "flag", "value") == "false"  # the last good rows stay
        assert "stale" in str(app.query_one("#status").render())
        print(f"[figure] app, {name}: stale with the located problem in {took:.2f} s")

        replace_with(path, lambda p: p.write_text(GOOD_CONTRACT.replace("false", "true")))
        app.reload({path})
        await wait_for(pilot, lambda: app.state == "live", "the live state", timeout=20)
        assert cell(app, "flag", "value") == "true"
        assert not app.query_one("#problems").display
