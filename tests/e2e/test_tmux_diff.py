"""End to end: ``flowctx diff`` in a real 80-column terminal (tmux): it fits the terminal's
width by itself and is coloured as ``matrix`` is. Skipped only where tmux is not installed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.diff_repo import change, make_repo
from tests.e2e.test_tmux import Tmux, flowctx_command

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def test_diff_fits_an_80_column_terminal_in_colour(tmp_path: Path) -> None:
    repo = make_repo(tmp_path)
    change(repo / "ws")
    tmux = Tmux()
    clean = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
    }
    command = ["env", "-i", *(f"{k}={v}" for k, v in clean.items()), *flowctx_command()]
    shell = 'code=0; "$@" || code=$?; echo "[flowctx exited: $code]"; sleep 60'
    try:
        tmux.run(
            "new-session", "-d", "-s", "app", "-x", "80", "-y", "60", "--",
            "sh", "-c", shell, "sh", *command, "diff", str(repo / "ws"), "--base", "base",
        )  # fmt: skip
        tmux.wait_for(lambda s: "[flowctx exited: 0]" in s, "the diff", 30)
        # -J joins the lines the terminal wrapped: none may be longer than the terminal
        joined = tmux.run("capture-pane", "-p", "-J", "-t", "app").splitlines()
        assert all(len(line) <= 80 for line in joined), [x for x in joined if len(x) > 80]
        assert "Orders: 5 variables, 1 route, problems +1 -1" in joined
        assert "  ~ transition_graph.yaml from Planner [default]: Reviewer → user" in joined
        assert "      value: *** → ***" in joined
        coloured = tmux.run("capture-pane", "-p", "-e", "-t", "app")
        # the marks and the statuses carry colour (tmux re-emits the escape codes it was sent)
        assert "\x1b[32m+" in coloured and "\x1b[31m-" in coloured and "\x1b[33m~" in coloured
        assert "\x1b[36mdefault" in coloured
    finally:
        tmux.run("kill-server", check=False)
