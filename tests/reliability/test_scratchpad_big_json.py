"""A 10 MB JSON document in the scratchpad of the real app.

What the user notices: after the paste, the app keeps answering (the event loop is never
stalled for long: parsing and evaluation run off the UI thread, debounced), the document is
used once parsed, typing in the editor or in the condition keeps working, and while the text
is invalid nothing typed is lost: the editor keeps every character and the last valid value.

The stalls and latencies are measured and printed (``-s``), never asserted: a test that times
itself fails on a loaded machine without anything being wrong, so the figures belong to the
benchmarks and docs/reliability.md; what is asserted is what the user keeps.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from textual.widgets import Static

from flowctx_core.session import open_session
from flowctx_tui.app import FlowctxApp
from flowctx_tui.widgets.json_editor import JsonEditor
from tests.conftest import write_tree
from tests.tui.conftest import reloaded, wait_for

CONTRACT = """
definitions:
  flag: {type: boolean, source: {type: state, default: true}}
agents:
  Agent: {variables: [flag]}
"""
ITEMS = 90_000


def ten_megabytes() -> str:
    items = [
        json.dumps({"id": n, "name": f"item {n}", "tags": ["a", "b"], "note": "x" * 40})
        for n in range(ITEMS)
    ]
    return '{"items": [\n' + ",\n".join(items) + "\n]}"


class Stalls:
    """The longest gap between runs of a 10 ms timer: how long the UI could not answer."""

    def __init__(self, app: FlowctxApp) -> None:
        self.last = time.perf_counter()
        self.worst = 0.0
        app.set_interval(0.01, self.tick)

    def tick(self) -> None:
        now = time.perf_counter()
        self.worst = max(self.worst, now - self.last)
        self.last = now

    def take(self) -> float:
        worst, self.worst = self.worst, 0.0
        return worst


async def press_timed(pilot: Any, keys: str | list[str]) -> list[float]:
    out = []
    for key in keys:
        start = time.perf_counter()
        await pilot.press(key)
        out.append(time.perf_counter() - start)
    return out


async def test_a_ten_megabyte_document_stays_responsive_and_loses_nothing(
    tmp_path: Path,
) -> None:
    root = write_tree(tmp_path / "ws", {"workflows/W/context_variables.yaml": CONTRACT})
    text = ten_megabytes()
    assert len(text) > 9_500_000
    app = FlowctxApp(open_session(root, env={}), "W", watch=False, cursor_blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await reloaded(pilot)
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query("#scratchpad-view"), "the scratchpad")
        pad: Any = app.query_one("#scratchpad-view")
        data = pad.query_one("#sp-data", JsonEditor)
        stalls = Stalls(app)
        figures: dict[str, Any] = {}

        # the paste
        start = time.perf_counter()
        data.set_text(text)
        await wait_for(
            pilot, lambda: not data.pending and "items" in data.value, "the parse", timeout=60
        )
        figures["paste to parsed"] = time.perf_counter() - start
        figures["worst stall, paste + parse"] = stalls.take()
        assert len(data.value["items"]) == ITEMS

        # a condition over it; its last keys typed one by one
        field = pad.expression_input
        field.focus()
        field.insert_text_at_cursor("data.items.length === 900")
        keys = await press_timed(pilot, ["0", "0"])
        await wait_for(pilot, lambda: not pad.pending, "the evaluation", timeout=60)
        figures["condition keys (worst)"] = max(keys)
        figures["worst stall, condition"] = stalls.take()
        assert str(pad.query_one("#sp-result", Static).render()).startswith("✔ true")

        # typing at the end of the document makes it invalid: every character stays, and the
        # last valid value stays in use
        area = data.text_area
        area.focus()
        area.move_cursor(area.document.end)
        await pilot.pause()
        press = await press_timed(pilot, [",", "x", "y"])
        await wait_for(
            pilot, lambda: not data.pending and data.problem is not None, "the reparse", 60
        )
        figures["editor keys (worst)"] = max(press)
        figures["worst stall, editing"] = stalls.take()
        assert area.text == text + ",xy"
        assert data.problem is not None and data.has_class("-invalid")
        status = str(data.query_one(".json-status", Static).render())
        assert status.startswith("using last valid data (line ")
        assert len(data.value["items"]) == ITEMS
        assert str(pad.query_one("#sp-result", Static).render()).startswith("✔ true")

        # and undoing the damage brings it back to valid
        press = await press_timed(pilot, ["backspace"] * 3)
        await wait_for(
            pilot, lambda: not data.pending and data.problem is None, "the last parse", 60
        )
        figures["worst stall, undo"] = stalls.take()
        assert area.text == text and data.problem is None

        print(
            "[figure] 10 MB scratchpad: " + ", ".join(f"{k} {v:.2f} s" for k, v in figures.items())
        )
