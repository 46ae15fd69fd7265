"""End to end: the real ``flowctx`` command in a real terminal (tmux), with a file edited on
disk while it runs. Skipped, with the reason shown, only where tmux is not installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from flowctx_tui.cli.workspace_args import demo_path

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

CONTRACT = "workflows/AppGenerator/context_variables.yaml"


def flowctx_command() -> list[str]:
    """The installed console script beside this Python, else the same entry point via -m."""
    script = Path(sys.executable).with_name("flowctx")
    if script.exists():
        return [str(script)]
    found = shutil.which("flowctx")
    return [found] if found else [sys.executable, "-m", "flowctx_tui"]


class Tmux:
    """A private tmux server (its own socket) running one command in a 120x40 window."""

    def __init__(self) -> None:
        self.socket = f"flowctx-e2e-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def start(self, home: Path, *args: str, size: tuple[int, int] = (120, 40), **env: str) -> None:
        """Run the installed ``flowctx ARGS`` in a window of ``size`` (120x40), in a clean
        environment: only what a terminal needs plus ``env``, so the tester's variables do
        not leak."""
        clean = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            **env,
        }
        command = ["env", "-i", *(f"{k}={v}" for k, v in clean.items()), *flowctx_command()]
        # the shell keeps the window open after flowctx exits, showing its exit status (and
        # anything it printed), so a quit can be checked and a crash can be read
        shell = 'code=0; "$@" || code=$?; echo "[flowctx exited: $code]"; sleep 60'
        self.run(
            "new-session", "-d", "-s", "app", "-x", str(size[0]), "-y", str(size[1]), "--",
            "sh", "-c", shell, "sh", *command, *args,
        )  # fmt: skip

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "app")

    def wait_for(self, predicate: Callable[[str], bool], what: str, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if predicate(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out after {timeout}s waiting for {what}; screen:\n{text}")


def test_flowctx_in_tmux_follows_edits_on_disk(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    tmux = Tmux()
    try:
        tmux.start(
            tmp_path,
            str(root),
            "--workflow",
            "AppGenerator",
            FLOWCTX_SCREENSHOT_DIR=str(tmp_path / "shots"),
        )
        screen = tmux.wait_for(
            lambda s: "factory_name" in s and "Mozaiks App Factory" in s, "the filled matrix", 30
        )
        assert "AppGenerator" in screen and "live" in screen

        # an edit on disk shows up without any key press
        path = root / CONTRACT
        good = path.read_text(encoding="utf-8")
        path.write_text(good.replace("default: Mozaiks App Factory", "default: E2E Factory"))
        tmux.wait_for(lambda s: "E2E Factory" in s, "the edited value", 15)

        # a broken file: the rows stay, marked stale, with the error's file:line:col
        path.write_text(good.replace("  llm_model:\n", "  llm_model: [oops\n", 1))
        screen = tmux.wait_for(lambda s: "stale" in s, "the stale state", 15)
        assert "context_variables.yaml:11:14:" in screen  # the '[' left open
        assert "E2E Factory" in screen

        # fixed again
        path.write_text(good)
        tmux.wait_for(lambda s: "Mozaiks App Factory" in s and "stale" not in s, "live again", 15)

        # keys reach the app: filter, then quit
        tmux.run("send-keys", "-t", "app", "/")
        # the footer drops the table's letter keys once the filter has the focus
        tmux.wait_for(lambda s: "Next problem" not in s, "the filter to take the focus", 15)
        tmux.run("send-keys", "-t", "app", "-l", "source:file")
        tmux.wait_for(
            lambda s: "stack_catalog" in s and "llm_model" not in s, "the filtered matrix", 15
        )
        tmux.run("send-keys", "-t", "app", "C-q")
        tmux.wait_for(lambda s: "[flowctx exited: 0]" in s, "flowctx to quit on ctrl+q", 15)
    finally:
        tmux.run("kill-server", check=False)
