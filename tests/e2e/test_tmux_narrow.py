"""End to end: the app in a real 80x24 terminal (and 120x35), every view visited as a newcomer
does, and nothing on screen cut mid-word: the footer leaves out the keys that do not fit whole,
the status line shortens its labels, the Tests summary wraps, the Routes heading and the explain
tree end within the width (an ellipsis where a line is longer), the dialect list is as wide as
its labels; one warning count per screen; the tab bar reads 1 to 5; the scratchpad's JSON tabs
follow the dialect; a tab with nothing to complete keeps the letters typed after it as text."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from flowctx_tui.cli.workspace_args import demo_path
from tests.e2e.test_tmux import Tmux

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

CONDITION = 'data.userApproval === true && payload.status == "approved"'


def footer_and_status(screen: str) -> tuple[str, str]:
    lines = screen.rstrip("\n").splitlines()
    return lines[-1], lines[-2]


def footer_whole(screen: str) -> bool:
    """The footer after it has been fitted (it is drawn once with every key, then the keys
    that do not fit are left out, a frame later)."""
    footer = footer_and_status(screen)[0]
    return "^p palette" in footer and re.search(r"\S▏", footer) is None


def assert_whole(screen: str, width: int) -> None:
    """The footer's keys end before the palette key (``w Workf▏`` is a cut), the status line
    ends with its last item (the reload time or the counts), and no line is wider."""
    footer, status = footer_and_status(screen)
    assert all(len(line) <= width for line in screen.splitlines()), screen
    assert footer.rstrip().endswith("^p palette"), footer
    assert re.search(r"\S▏", footer) is None, footer
    assert re.search(r"(warnings?|ignored|\d\d:\d\d:\d\d)$", status.rstrip()), status
    # one warning count on screen: the status line's (the matrix bar counts marked rows)
    assert len(re.findall(r"\b\d+ warnings?\b", screen)) <= 1, screen
    assert "with warnings" not in screen


@pytest.mark.parametrize("size", [(80, 24), (120, 35)], ids=["80x24", "120x35"])
def test_nothing_is_cut_mid_word_at_80_and_120_columns(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    width = size[0]
    root = tmp_path / "demo"
    shutil.copytree(demo_path(), root)
    tmux = Tmux()

    def keys(*names: str) -> None:
        tmux.run("send-keys", "-t", "app", *names)

    def text(typed: str) -> None:
        tmux.run("send-keys", "-t", "app", "-l", typed)

    def wait(predicate: Callable[[str], bool], what: str, timeout: float) -> str:
        return tmux.wait_for(lambda s: predicate(s) and footer_whole(s), what, timeout)

    try:
        tmux.start(tmp_path, str(root), "--workflow", "AppGenerator", size=size)
        screen = wait(lambda s: "factory_name" in s, "the matrix", 30)
        screen = wait(lambda s: "5 warnings" in s, "the counts", 15)
        assert "1 Matrix  2 Scratchpad  3 Routes  4 Graph  5 Tests" in screen
        assert "4 marked !" in screen
        assert_whole(screen, width)

        # the scratchpad: the explain shows each sub-expression whole
        keys("F3")
        tmux.wait_for(lambda s: "condition, e.g." in s, "the scratchpad", 15)
        text(CONDITION)
        screen = wait(lambda s: "got undefined" in s, "the explain", 15)
        assert_whole(screen, width)
        assert "false (got undefined)  data.userApproval === true" in screen
        assert "data  context  payload  stepResult  flowContext  tools" in screen
        # a tab with nothing to complete stays: the "l" typed next is text, not Launch
        keys("C-u")
        text("data.x === 1 ")
        keys("Tab")
        text("|| data.label")
        screen = wait(lambda s: "data.x === 1 || data.label" in s, "the condition", 15)
        assert "Launch values" not in screen
        # mozaiks reads the context variables alone: no MemberJunction JSON tabs
        keys("C-u", "BTab")
        tmux.wait_for(lambda s: "Tabs" not in footer_and_status(s)[0], "the dialect box", 15)
        keys("Enter")
        screen = wait(lambda s: "mozaiks ${} (transition graph)" in s, "the list", 15)
        # one line each, not wrapped in the closed box's 13 columns
        assert "\nmozaiks ${} (transition graph)" in screen and "\ngraph)" not in screen
        keys("Down", "Down", "Enter")
        screen = wait(lambda s: " context  tools" in s and "payload" not in s, "mozaiks' tabs", 15)

        # routes: the unread file's heading ends with NOT READ, its reason under it
        keys("F4")
        screen = wait(lambda s: "handoffs.yaml  from" in s, "the routes", 20)
        (heading,) = [ln for ln in screen.splitlines() if "handoffs.yaml  from" in ln]
        assert heading.rstrip().endswith("NOT READ"), heading
        assert_whole(screen, width)

        # tests: the summary wraps rather than ending mid-list
        keys("F9")
        screen = wait(lambda s: "17 passed" in s and "MC/DC" in s, "the tests", 30)
        assert_whole(screen, width)

        # a refused workflow: the status line still says the refusal and both counts
        keys("w")
        tmux.wait_for(lambda s: "Triage" in s and "enter: show it" in s, "the workflows", 15)
        keys("Down", "Down", "Enter")
        screen = wait(lambda s: "REFUSED" in footer_and_status(s)[1], "Triage", 20)
        assert footer_and_status(screen)[1].rstrip().endswith("1 error, 1 warning") or (
            re.search(r"1 error, 1 warning\W+\d\d:\d\d:\d\d$", footer_and_status(screen)[1])
        ), screen
        assert_whole(screen, width)
        keys("C-q")
        tmux.wait_for(lambda s: "[flowctx exited: 0]" in s, "flowctx to quit", 15)
    finally:
        tmux.run("kill-server", check=False)
