"""No escape sequence from a workspace reaches the terminal through the app (issue 21, finding 3).

The workspace of ``escapes_workspace`` carries OSC 52, OSC 8, OSC 0, ``ESC[2J`` and bidi
controls in every string the app shows. The app runs through Pilot and every surface is
visited: the matrix and the detail of every row, the status line, the scratchpad's explain
tree, the routes view with its trees open, the graph, the workflow picker, the env override
screen and its notification, the F8 screenshot. On each, Textual's rendered strips (what is
written to the terminal, less the cursor moves) must hold no raw control or bidi character,
and the hostile text must still be there, escaped as the CLI escapes it (``\\u001b``).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from textual.strip import Strip
from textual.widgets import Input, Tree

from flowctx_core.session import open_session
from flowctx_tui.app import FlowctxApp
from flowctx_tui.messages import EnvOverrideRequested
from tests.conftest import settle
from tests.reliability.escapes_workspace import AGENT, RAW, VARIABLE, WORKFLOW, build
from tests.tui.conftest import FIXED_NOW, reloaded, wait_for


def strips_text(app: FlowctxApp) -> str:
    """The text of every segment the screen (and the screens under it) would write."""
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    lines = []
    for line in update.strips:  # type: ignore[attr-defined]  # a full update: LayoutUpdate
        strips = [line] if isinstance(line, Strip) else list(line)
        lines.append("".join(seg.text for strip in strips for seg in strip if not seg.control))
    return "\n".join(lines)


class Surfaces:
    def __init__(self, app: FlowctxApp) -> None:
        self.app = app
        self.raw: dict[str, list[str]] = {}
        self.texts: dict[str, str] = {}

    def scan(self, where: str) -> str:
        text = strips_text(self.app)
        assert text.strip(), f"nothing rendered on {where}"
        found = sorted({f"U+{ord(c):04X}" for c in RAW.findall(text)})
        if found:
            self.raw[where] = found
        self.texts[where] = text
        return text


async def test_every_surface_shows_workspace_escapes_escaped(tmp_path: Path) -> None:
    root = build(tmp_path / "ws")
    shots = tmp_path / "shots"
    shots.mkdir()
    app = FlowctxApp(
        open_session(root, env={}),
        WORKFLOW,
        watch=False,
        clock=lambda: FIXED_NOW,
        screenshot_dir=shots,
        cursor_blink=False,
    )
    seen = Surfaces(app)
    async with app.run_test(size=(160, 50)) as pilot:
        await reloaded(pilot)
        text = seen.scan("matrix and status line")
        assert "v\\u001b]52;c;b3duZWQ=\\u001b\\ar" in text  # the name, escaped, in the table
        assert "W\\u001b]0;pwned\\u0007f" in text  # the workflow name in the status line
        for row in app.good.matrix.rows:  # type: ignore[union-attr]
            app.matrix_view.select(row.name)
            await pilot.pause()
            seen.scan(f"detail of {row.name!r}")
        assert "desc\\u001b]52" in seen.texts[f"detail of {VARIABLE!r}"]
        app.matrix_view.select(VARIABLE)
        await pilot.pause()
        await pilot.press("f8")
        await wait_for(pilot, lambda: any(shots.iterdir()), "the F8 screenshot")

        # the scratchpad: a condition quoting every escape, explained
        await pilot.press("f3")
        await wait_for(pilot, lambda: app.query("#scratchpad-view"), "the scratchpad")
        pad: Any = app.query_one("#scratchpad-view")
        await settle(pilot)
        field = pad.expression_input
        field.focus()
        field.value = f"'{AGENT}' == '{VARIABLE}'"
        await pilot.press("enter")
        await wait_for(pilot, lambda: not pad.pending, "the evaluation")
        for tree in app.query(Tree):
            tree.root.expand_all()
        await pilot.pause()
        assert "Ag\\u001b[2Jent" in seen.scan("scratchpad explain")

        # the routes view, from the hostile agent, trees open
        await pilot.press("f4")
        await wait_for(pilot, lambda: app.query("#routes-view"), "the routes view")
        routes: Any = app.query_one("#routes-view")
        await settle(pilot)
        routes.select_source(AGENT)
        await settle(pilot)
        await wait_for(pilot, lambda: "Re" in "".join(routes.lines()), "the candidates")
        for tree in app.query(Tree):
            tree.root.expand_all()
        await settle(pilot)
        text = seen.scan("routes")
        # under mozaiks 0.2.0 the rule's description is not a transition_rules key: the
        # condition's text and the target carry the escapes into the routes view
        # (the candidate's line ends within the view's width, with an ellipsis after the
        # target's escaped hyperlink opener)
        assert "x\\u001b]52" in text and "Re\\u001b]8;;https:" in text, text
        app.save_screenshot("routes.svg", str(shots))

        await pilot.press("f6")
        await settle(pilot)
        seen.scan("graph")

        # the workflow picker, then the env override screen and its notification
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press("w")
        await pilot.pause()
        seen.scan("workflow picker")
        await pilot.press("escape")
        await pilot.pause()
        assert len(app.screen_stack) == 1, app.screen_stack
        app.matrix_view.select(VARIABLE)
        # the hostile variable is no config row: the palette's 'Env override: any environment
        # variable' opens the dialog for any name
        app.post_message(EnvOverrideRequested(None, None))
        await wait_for(pilot, lambda: len(app.screen_stack) == 2, "the env override screen")
        app.screen.query_one("#env-name", Input).value = VARIABLE
        app.screen.query_one("#env-value", Input).value = "over" + AGENT
        await pilot.pause()
        seen.scan("env override screen")
        await pilot.press("enter")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1, "the screen to close")
        # the toast quotes the variable's name, escaped before Textual lays it out
        await wait_for(pilot, lambda: list(app._notifications), "the notification")
        notes = list(app._notifications)
        assert any(n.message.startswith("v\\u001b]52;c;") for n in notes), notes
        assert not any(RAW.search(n.message) for n in notes)
        seen.scan("notification")

    assert seen.raw == {}, seen.raw
    assert not RAW.search(app.title + app.sub_title)
    # every screenshot is well-formed XML (raw ESC made the F8 SVG invalid) and holds no raw
    # control character
    for svg in shots.iterdir():
        content = svg.read_text(encoding="utf-8")
        ET.fromstring(content)
        assert not RAW.search(content), svg.name
        assert "\\u001b" in content, svg.name
