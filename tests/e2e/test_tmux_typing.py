"""End to end: keys typed in one burst in a real terminal (tmux ``send-keys`` writes them all
at once) reach the app in order, and none are lost while the scratchpad mounts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flowctx_tui.cli.workspace_args import demo_path
from tests.e2e.test_tmux import Tmux

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def expression_line(screen: str) -> str:
    """The scratchpad's expression row (the dialect selector, then the input)."""
    for line in screen.splitlines():
        if line.startswith("mj "):
            return line.split("▼", 1)[-1].strip()
    return ""


def test_a_burst_of_keys_is_applied_in_order_and_none_are_lost(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    tmux = Tmux()
    try:
        tmux.start(tmp_path, str(root), "--no-watch")
        tmux.wait_for(lambda s: "Mozaiks App Factory" in s, "the filled matrix", 30)

        # "2" opens the scratchpad (mounted on first show); the condition follows in the
        # same write, before the view exists
        tmux.run("send-keys", "-t", "app", "2", "d", "a", "t", "a", ".", "x")
        tmux.wait_for(lambda s: expression_line(s) == "data.x", "the typed expression", 15)

        # a backspace inside the burst deletes the "b" typed just before it
        tmux.run("send-keys", "-t", "app", "C-u")
        tmux.wait_for(lambda s: "condition, e.g." in s, "the input cleared", 15)
        tmux.run("send-keys", "-t", "app", "a", "b", "BSpace", "d", "a", "t", "a", ".", "x")
        tmux.wait_for(lambda s: expression_line(s) == "adata.x", "ab ⌫ data.x", 15)

        # tab completion inside the burst completes before the keys after it are typed
        tmux.run("send-keys", "-t", "app", "C-u", "c", "o", "n", "t", "Tab", ".", "x")
        tmux.wait_for(lambda s: expression_line(s) == "context.x", "cont⇥.x", 15)

        # the arrows in the JSON editor: esc leaves the condition for the explain tree (tab
        # with nothing to complete stays in it), tab moves on to the editor tabs and the data
        # editor ("{}", cursor at the start); "ab", left, right, right (past "{"), "cd"
        # (esc on its own: a terminal reads esc and the key right after it as one alt+key)
        tmux.run("send-keys", "-t", "app", "C-u", "Tab", "Escape")
        tmux.wait_for(
            lambda s: "Tabs" not in s.rstrip().splitlines()[-1], "the focus out of the input", 15
        )
        tmux.run(
            "send-keys", "-t", "app", "Tab", "Tab",
            "a", "b", "Left", "Right", "Right", "c", "d",
        )  # fmt: skip
        tmux.wait_for(lambda s: "ab{cd}" in s, "ab{cd} in the data editor", 15)

        tmux.run("send-keys", "-t", "app", "C-q")
        tmux.wait_for(lambda s: "[flowctx exited: 0]" in s, "flowctx to quit on ctrl+q", 15)
    finally:
        tmux.run("kill-server", check=False)
