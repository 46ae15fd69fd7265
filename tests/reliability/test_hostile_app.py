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

from flowctx_core.session import open_session
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
    # a contract linked out of the workspace is never read, whatever it points at
    "a link to /dev/zero": (
        lambda p: p.symlink_to("/dev/zero"),
        "resolves outside the workspace through a symbolic link",
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


async def test_the_app_shows_each_hostile_contract_as_a_located_problem_and_recovers(
    tmp_path: Path,
) -> None:
    root = write_tree(tmp_path / "ws", {CONTRACT: GOOD_CONTRACT})
    app = FlowctxApp(open_session(root, env={}), "W", watch=False, cursor_blink=False)
    # a reload thread stuck on a FIFO would also hang the app's exit: end the run instead
    with no_hang(180):
        await run(app, root / CONTRACT)


async def run(app: FlowctxApp, path: Path) -> None:
    cases: list[tuple[str, Callable[[Path], None], str, str]] = [
        (name, CASES[name].write, CASES[name].words, "{}:{}".format(*CASES[name].where))
        for name in NAMES
    ]
    cases += [(name, make, words, "0:0") for name, (make, words) in SPECIAL.items()]
    async with app.run_test(size=(140, 30)) as pilot:
        await reloaded(pilot)
        assert cell(app, "flag", "value") == "false"
        for n, (name, make, words, where) in enumerate(cases):
            replace_with(path, make)
            started = time.monotonic()
            app.reload({path})
            await wait_for(pilot, lambda: app.state == "stale", f"stale: {name}", timeout=20)
            took = time.monotonic() - started
            banner = " ".join(str(app.query_one("#problems").render()).split())
            # a whole-file problem has no line: the banner says the file, not a made-up 0:0
            located = f"{CONTRACT}: " if where == "0:0" else f"{CONTRACT}:{where}: "
            assert located in banner, (name, banner)
            assert " ".join(words.split()) in banner, (name, banner)
            assert "stale" in str(app.query_one("#status").render())
            print(f"[figure] app, {name}: stale with the located problem in {took:.2f} s")

            # fixed: live again, with the fixed file's value (the last good rows showed meanwhile)
            value = "true" if n % 2 == 0 else "false"
            assert cell(app, "flag", "value") == ("false" if n % 2 == 0 else "true")
            replace_with(path, lambda p, v=value: p.write_text(GOOD_CONTRACT.replace("false", v)))
            app.reload({path})
            await wait_for(pilot, lambda: app.state == "live", f"live after {name}", timeout=20)
            assert cell(app, "flag", "value") == value
            assert not app.query_one("#problems").display
