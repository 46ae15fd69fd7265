"""File-system storms while the app runs with its real watcher.

A separate process saves several files about 100 times a second (half plain writes, which the
app may catch half-written, half editor-style renames), deletes and recreates workflow folders,
including the one on screen, then writes a final state. What the user must see: the screen
ends showing exactly the final state of the files, the app never crashes and keeps watching,
and its memory does not grow with the length of the storm. A second test removes (and moves
away) the whole workspace: a clear message, then recovery when it comes back.

``FLOWCTX_STORM_SECONDS`` sets the storm's length: a short CI default; docs/reliability.md quotes a
full-length (10 s) run.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from textual.message import Message

from flowctx_core.session import open_session
from flowctx_tui.app import FlowctxApp
from flowctx_tui.messages import WorkspaceLoaded
from tests.reliability.storm import FINAL, contract, profile, storm_workspace
from tests.tui.conftest import cell, reloaded, wait_for

STORM_SECONDS = float(os.environ.get("FLOWCTX_STORM_SECONDS", "2"))
SAVES_PER_SECOND = 100
REPO = Path(__file__).resolve().parents[2]
#: how long the app may take to show the final state once the storm is over
SETTLE_SECONDS = 15.0
#: growth of resident memory over the storm that counts as "not bounded" (MB)
RSS_GROWTH_MB = 60.0


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def final_state_shown(app: FlowctxApp) -> bool:
    try:
        return (
            app.state == "live"
            and cell(app, "counter", "value") == str(FINAL)
            and cell(app, "profile_n", "value") == str(FINAL)
            and cell(app, "seed_n", "value") == str(FINAL)
            and cell(app, "file_n", "value") == json.dumps({"n": FINAL})
        )
    except Exception:  # a row not there yet
        return False


def error_notifications(app: FlowctxApp) -> list[str]:
    return [n.message for n in app._notifications if n.severity == "error"]


@pytest.mark.slow
async def test_a_storm_of_saves_ends_showing_exactly_the_final_files(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    root = storm_workspace(tmp_path / "ws")
    app = FlowctxApp(open_session(root, env={}), "W0", watch=True, cursor_blink=False)
    # reloads are counted from the messages the app receives, not from a counter of its own
    loads: list[WorkspaceLoaded] = []

    def hook(message: Message) -> None:
        if isinstance(message, WorkspaceLoaded):
            loads.append(message)

    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await reloaded(pilot)
        assert cell(app, "counter", "value") == "0"
        gc.collect()
        rss_before, objects_before = rss_mb(), len(gc.get_objects())
        reloads_before = len(loads)

        # its own process, so that its pace does not depend on the app's event loop or GIL
        args = [str(root), str(STORM_SECONDS), str(SAVES_PER_SECOND)]
        writer = subprocess.Popen(
            [sys.executable, "-m", "tests.reliability.storm", *args],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        samples = []
        started = time.monotonic()
        while writer.poll() is None:
            await pilot.pause(0.01)  # the app keeps running its loop while we wait
            samples.append(round(rss_mb() - rss_before, 1))
            assert time.monotonic() - started < STORM_SECONDS + 60, "the writer hangs"
        out, err = writer.communicate()
        assert writer.returncode == 0, err
        summary = json.loads(out)

        await wait_for(pilot, lambda: final_state_shown(app), "the final state", SETTLE_SECONDS)
        settled = time.time() - summary["last_save"]
        # let any reload still in flight land, then check it did not undo the final state
        await pilot.pause(1.0)
        assert final_state_shown(app)

        # the screen shows what the core resolves from the files as they are now
        fresh = open_session(root, env={}).matrix("W0")
        shown = {r.name: r.value for r in app.good.matrix.rows}  # type: ignore[union-attr]
        assert shown == {r.name: r.value for r in fresh.rows}
        assert app.workflows == ("W0", "W1", "W2", "W3")
        assert app.watching, "the watcher stopped"
        assert error_notifications(app) == []

        gc.collect()
        growth, objects = rss_mb() - rss_before, len(gc.get_objects()) - objects_before
        print(
            f"[figure] storm {summary['seconds']:.1f} s: {summary['saves']} saves "
            f"({summary['saves'] / summary['seconds']:.0f}/s) over 5 files, "
            f"{summary['folders']} folder deletions; {len(loads) - reloads_before} "
            f"reloads; final state on screen {settled:.2f} s after the last save; "
            f"RSS {growth:+.1f} MB (samples {samples[:: max(1, len(samples) // 8)]}), "
            f"{objects:+,} objects"
        )
        assert summary["saves"] >= SAVES_PER_SECOND * STORM_SECONDS * 0.5
        assert growth < RSS_GROWTH_MB, samples


async def test_the_workspace_removed_or_moved_while_watched_then_back(tmp_path: Path) -> None:
    root = storm_workspace(tmp_path / "ws")
    app = FlowctxApp(open_session(root, env={}), "W0", watch=True, cursor_blink=False)
    # reloads are counted from the messages the app receives, not from a counter of its own
    loads: list[WorkspaceLoaded] = []

    def hook(message: Message) -> None:
        if isinstance(message, WorkspaceLoaded):
            loads.append(message)

    async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
        await reloaded(pilot)
        aside = tmp_path / "aside"

        for how in ("removed", "moved"):
            shutil.copytree(root, aside)
            if how == "removed":
                shutil.rmtree(root)
            else:
                os.rename(root, tmp_path / "moved-away")
            await wait_for(pilot, lambda: app.state == "stale", f"the stale state ({how})")
            banner = str(app.query_one("#problems").render())
            assert f"the workspace folder {root} is gone (deleted or moved)" in banner
            assert "reloads when it is back" in banner
            # the last good rows stay on screen meanwhile
            assert cell(app, "counter", "value") == "0"

            # it comes back with other content: the screen follows it
            (aside / "workflows" / "W0" / "context_variables.yaml").write_text(contract(41))
            (aside / "flowctx.yaml").write_text(profile(42))
            if how == "moved":
                shutil.rmtree(tmp_path / "moved-away")
            os.rename(aside, root)
            await wait_for(
                pilot,
                lambda: app.state == "live" and cell(app, "counter", "value") == "41",
                f"recovery ({how})",
                timeout=10,
            )
            assert cell(app, "profile_n", "value") == "42"  # the profile was reread too
            assert not app.query_one("#problems").display
            # and it is watched again: an ordinary edit shows up
            (root / "workflows" / "W0" / "context_variables.yaml").write_text(contract(0))
            await wait_for(pilot, lambda: cell(app, "counter", "value") == "0", "an edit")
            assert app.watching
        assert error_notifications(app) == []
