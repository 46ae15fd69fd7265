"""Keys typed in a burst reach the app in the order they were typed, and none are lost while
the scratchpad mounts. ``burst`` posts every key before the app handles the first, as a
terminal delivers a fast typist's keys or a paste (``pilot.press`` waits after each key,
which hides the problem). tests/e2e/test_tmux_typing.py does the same in a real terminal."""

from __future__ import annotations

from pathlib import Path

from textual import events

from flowctx_tui.widgets.json_editor import JsonEditor
from tests.tui.conftest import MakeApp, reloaded, wait_for

CHARACTERS = {"tab": "\t", "full_stop": ".", "backspace": "\x7f", "space": " "}


def burst(app, *keys: str) -> None:
    for key in keys:
        character = CHARACTERS.get(key, key if len(key) == 1 else None)
        app.post_message(events.Key(key, character))


def expression(app) -> str:
    found = app.query("#sp-expr")
    return found.first().value if found else ""


async def test_keys_typed_while_the_scratchpad_mounts_are_kept(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await reloaded(pilot)
        # "2" opens the scratchpad, which mounts on first show; the rest are typed at once
        burst(app, "2", "d", "a", "t", "a", "full_stop", "x")
        await wait_for(pilot, lambda: expression(app) == "data.x", "the typed expression")
        assert app.query_one("#tabs").active == "scratchpad"
        # "d" went to the input, not to the matrix (where it hides the detail pane)
        assert app.matrix_view.show_detail


async def test_a_burst_with_backspace_and_tab_completion_applies_in_order(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await reloaded(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query("#sp-expr"), "the scratchpad")
        await wait_for(pilot, lambda: app.focused is app.query_one("#sp-expr"), "the input")
        burst(app, "a", "b", "backspace", "d", "a", "t", "a", "full_stop", "x")
        await wait_for(pilot, lambda: expression(app) == "adata.x", "ab ⌫ data.x")
        burst(app, "ctrl+u", "c", "o", "n", "t", "tab", "full_stop", "x")
        # tab completes "cont" to "context" before ".x" is typed after it
        await wait_for(pilot, lambda: expression(app) == "context.x", "cont⇥.x")


async def test_a_burst_with_arrows_in_the_json_editor_applies_in_order(
    demo: Path, make_app: MakeApp
):
    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await reloaded(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query("#sp-data"), "the scratchpad")
        editor = app.query_one("#sp-data", JsonEditor)
        editor.text_area.focus()
        await wait_for(pilot, lambda: app.focused is editor.text_area, "the data editor")
        assert editor.text == "{}"
        # cursor at the start: "ab", left, right, right (past "{"), "cd"
        burst(app, "a", "b", "left", "right", "right", "c", "d")
        await wait_for(pilot, lambda: editor.text == "ab{cd}", "ab{cd}")


async def test_tab_on_a_complete_name_stays_and_esc_moves_on(demo: Path, make_app: MakeApp):
    app = make_app(demo)
    async with app.run_test(size=(120, 36)) as pilot:
        await reloaded(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query("#sp-expr"), "the scratchpad")
        field = app.query_one("#sp-expr")
        await wait_for(pilot, lambda: app.focused is field, "the input")
        burst(app, *"context.max_build_iter", "tab")
        await wait_for(pilot, lambda: expression(app) == "context.max_build_iterations", "done")
        assert app.focused is field
        # nothing left to complete: the focus stays (letters typed next are text, not keys)
        burst(app, "tab", *" > 1")
        await wait_for(pilot, lambda: expression(app).endswith("> 1"), "typed on")
        assert app.focused is field
        assert expression(app) == "context.max_build_iterations > 1"
        burst(app, "escape")  # esc moves on
        await wait_for(pilot, lambda: app.focused is not field, "the focus to move on")
