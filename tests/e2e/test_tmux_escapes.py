"""End to end: a hostile workspace's escape sequences never reach a real terminal (issue 21).

The app runs in tmux on the workspace of ``tests.reliability.escapes_workspace`` (OSC 52, OSC 8,
OSC 0, ``ESC[2J`` and bidi controls in every string it shows). tmux is the terminal: it would
act on a sequence that got through. So its clipboard stays empty (``set-clipboard on`` accepts
OSC 52 from the app), the pane keeps its title, the screen is not cleared, no hyperlink is
opened, and ``capture-pane -e`` (the screen with the attributes tmux keeps) shows the escapes as
text, ``\\u001b``, and no raw bidi control.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.e2e.test_tmux import Tmux
from tests.reliability.escapes_workspace import RAW, WORKFLOW, build

SGR = re.compile(r"\x1b\[[0-9;:]*m")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def test_no_workspace_escape_reaches_the_terminal(tmp_path: Path) -> None:
    root = build(tmp_path / "ws")
    tmux = Tmux()
    try:
        tmux.start(tmp_path, str(root), "--workflow", WORKFLOW, "--no-watch")
        # accept OSC 52 from applications (tmux's default ignores it) and let the title show
        tmux.run("set-option", "-g", "set-clipboard", "on")
        tmux.run("set-option", "-g", "allow-rename", "on")
        screen = tmux.wait_for(lambda s: "flag" in s and "live" in s, "the matrix", 30)
        # the routes view from the hostile agent, its first candidate open
        tmux.run("send-keys", "-t", "app", "F4")
        screen = tmux.wait_for(lambda s: "transition_graph.yaml" in s, "the routes view", 15)
        tmux.run("send-keys", "-t", "app", "F2")
        screen = tmux.wait_for(lambda s: "Filter" in s, "the matrix again", 15)
        coloured = tmux.run("capture-pane", "-p", "-e", "-t", "app")
        assert "v\\u001b]52;c;b3duZWQ=\\u001b\\ar" in screen  # the name, shown escaped
        assert "W\\u001b]0;pwned\\u0007f" in screen  # the workflow, in the status line
        # tmux writes its own colours (SGR) in the capture; nothing else may be there
        plain = SGR.sub("", coloured)
        assert not RAW.search(plain), sorted({f"U+{ord(c):04X}" for c in RAW.findall(plain)})
        assert "]8;;" not in coloured.replace("\\u001b]8;;", "")  # no hyperlink opened
        # the terminal did not act: no clipboard write, no new title, the screen not cleared
        assert tmux.run("list-buffers", check=False).strip() == ""
        title = tmux.run("display-message", "-p", "-t", "app", "#{pane_title}")
        assert "pwned" not in title
        assert "database_schema_db" in screen and "Agents" in screen
        tmux.run("send-keys", "-t", "app", "C-q")
        tmux.wait_for(lambda s: "[flowctx exited: 0]" in s, "flowctx to quit", 15)
    finally:
        tmux.run("kill-server", check=False)
